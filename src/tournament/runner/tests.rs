//! Unit tests of `runner`, kept beside it in their own file so that the module stays short.
use super::*;
use crate::agents::spec::AgentSpec;
use crate::tournament::config::experiment::Experiment;

fn experiment(games: u64) -> Experiment {
    let mut e = Experiment::parse(
        &format!(
            "name = \"t\"\nseed = 3\ngames = {games}\n[rules]\nvariants = [\"i\", \"ii\"]\n\
             holes = [4]\n[openings]\nrandom_plies = 1\n[tournament]\nformat = \"self-play\"\n\
             agents = [\"random\"]\n[roster.random]\nkind = \"random\"\n"
        ),
        "t.toml",
    )
    .unwrap();
    e.round_to_pairs();
    e
}

/// The games rows and the moves rows of games `ids`.
fn run_both(
    e: &Experiment,
    lineup: &Lineup,
    ids: Range<u64>,
    threads: usize,
) -> (Vec<u8>, Vec<u8>) {
    let schedule = Schedule::new(e);
    let work = Work {
        schedule: &schedule,
        lineup,
        adjudicator: None,
    };
    let (mut games, mut moves) = (Vec::new(), Vec::new());
    let sinks = RecordSinks {
        games: &mut games,
        moves: Some(&mut moves),
        metrics: None,
    };
    run_games(work, ids, threads, sinks, &mut |_| {}).unwrap();
    (games, moves)
}

/// The games rows of games `ids`, recording no moves.
fn run(e: &Experiment, lineup: &Lineup, ids: Range<u64>, threads: usize) -> Vec<u8> {
    let schedule = Schedule::new(e);
    let work = Work {
        schedule: &schedule,
        lineup,
        adjudicator: None,
    };
    let mut out = Vec::new();
    let sinks = RecordSinks {
        games: &mut out,
        moves: None,
        metrics: None,
    };
    run_games(work, ids, threads, sinks, &mut |_| {}).unwrap();
    out
}

#[test]
fn moves_rows_follow_the_games_rows_whatever_the_threads_and_the_split() {
    let e = experiment(700);
    let lineup = Lineup::new(e.agent_specs());
    let (games, moves) = run_both(&e, &lineup, 0..1400, 1);
    assert_eq!(games, run(&e, &lineup, 0..1400, 2));
    assert_eq!(
        (games.clone(), moves.clone()),
        run_both(&e, &lineup, 0..1400, 2)
    );
    let (a, b) = (
        run_both(&e, &lineup, 0..555, 2),
        run_both(&e, &lineup, 555..1400, 2),
    );
    assert_eq!(moves, [a.1, b.1].concat());
    let text = String::from_utf8(moves).unwrap();
    let ids: Vec<u64> = text
        .lines()
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(ids, (0..1400).collect::<Vec<_>>());
    // The moves of each game start with its opening (one random ply here).
    let games = String::from_utf8(games).unwrap();
    for (g, m) in games.lines().zip(text.lines()) {
        let opening = g.split(',').nth(8).unwrap();
        let moves = m.split(',').nth(1).unwrap();
        assert_eq!(moves.split(' ').next(), Some(opening), "{g} / {m}");
    }
}

#[test]
fn rows_come_in_id_order_whatever_the_threads_and_the_split() {
    let e = experiment(3000);
    let lineup = Lineup::new(e.agent_specs());
    let one = run(&e, &lineup, 0..6000, 1);
    assert_eq!(one, run(&e, &lineup, 0..6000, 2));
    let split = [
        run(&e, &lineup, 0..1234, 2),
        run(&e, &lineup, 1234..6000, 2),
    ]
    .concat();
    assert_eq!(one, split);
    let ids: Vec<u64> = String::from_utf8(one)
        .unwrap()
        .lines()
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(ids, (0..6000).collect::<Vec<_>>());
}

#[test]
fn real_agents_play_in_small_chunks_and_match_across_threads() {
    let mut e = experiment(4);
    e.tournament.agents = vec!["random".into(), "greedy".into()];
    e.tournament.format = crate::tournament::config::tournament_config::Format::RoundRobin;
    e.roster.insert("greedy".into(), AgentSpec::Greedy);
    let lineup = Lineup::new(e.agent_specs());
    assert_eq!(chunk_size(&lineup), 1);
    assert_eq!(run(&e, &lineup, 0..8, 1), run(&e, &lineup, 0..8, 2));
}

/// Accepts `left` bytes, then fails.
struct Failing {
    left: usize,
}

impl Write for Failing {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.left == 0 {
            return Err(io::Error::other("disk full"));
        }
        let n = buf.len().min(self.left);
        self.left -= n;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_write_error_stops_the_run_without_hanging() {
    let e = experiment(20_000);
    let lineup = Lineup::new(e.agent_specs());
    let schedule = Schedule::new(&e);
    let work = Work {
        schedule: &schedule,
        lineup: &lineup,
        adjudicator: None,
    };
    let mut written = 0;
    let mut failing = Failing { left: 100_000 };
    let mut moves = Vec::new();
    let sinks = RecordSinks {
        games: &mut failing,
        moves: Some(&mut moves),
        metrics: None,
    };
    let err = run_games(work, 0..40_000, 2, sinks, &mut |n| written = n).unwrap_err();
    assert!(err.to_string().contains("disk full"), "{err}");
    assert!(written < 40_000);
}

/// An agent that forfeits every move it is asked for, and sets `stop`
/// first when told to (as a Python callable interrupted by Ctrl-C does).
struct Quitter {
    stop: Option<&'static AtomicBool>,
}

impl crate::engine::agent_trait::Agent for Quitter {
    fn choose(
        &mut self,
        _: &crate::engine::game::Game,
        _: &mut crate::engine::agent_trait::AgentRng,
    ) -> Move {
        unreachable!("the runner asks try_choose")
    }

    fn try_choose(
        &mut self,
        _: &crate::engine::game::Game,
        _: &mut crate::engine::agent_trait::AgentRng,
    ) -> Result<Move, Forfeit> {
        if let Some(stop) = self.stop {
            stop.store(true, Ordering::SeqCst);
        }
        Err(Forfeit::new(
            crate::engine::forfeit::ForfeitReason::Crash,
            "quit".to_string(),
        ))
    }
}

/// Seats a [`Quitter`] as agent 0.
struct QuitterSeats {
    stop: Option<&'static AtomicBool>,
}

impl crate::tournament::lineup::SeatMaker for QuitterSeats {
    fn seat(&self, index: usize) -> Option<crate::tournament::lineup::Seat> {
        (index == 0)
            .then(|| crate::tournament::lineup::Seat::Agent(Box::new(Quitter { stop: self.stop })))
    }
}

fn quitter_experiment() -> Experiment {
    let mut e = Experiment::parse(
        "name = \"q\"\nseed = 5\ngames = 4\n[rules]\nvariants = [\"ii\"]\nholes = [4]\n\
         [openings]\nrandom_plies = 0\n[tournament]\nformat = \"round-robin\"\n\
         agents = [\"quitter\", \"greedy\"]\n[roster.quitter]\nkind = \"random\"\n\
         [roster.greedy]\nkind = \"greedy\"\n",
        "q.toml",
    )
    .unwrap();
    e.round_to_pairs();
    e
}

/// A watcher that only holds the interrupt flag.
struct Flagged(&'static AtomicBool);

impl Watch for Flagged {
    fn interrupt(&self) -> Option<&'static AtomicBool> {
        Some(self.0)
    }
}

/// Plays games `ids` of `e` with `seats` seating their agents, on `threads`
/// threads, watched by `watch`: the outcome and the games rows.
fn run_seated(
    e: &Experiment,
    seats: impl crate::tournament::lineup::SeatMaker + 'static,
    ids: Range<u64>,
    threads: usize,
    watch: &mut impl Watch,
) -> (RunOutcome, Vec<u8>) {
    let schedule = Schedule::new(e);
    let lineup = Lineup::new(e.agent_specs()).with_seats(std::sync::Arc::new(seats));
    let work = Work {
        schedule: &schedule,
        lineup: &lineup,
        adjudicator: None,
    };
    let mut games = Vec::new();
    let sinks = RecordSinks {
        games: &mut games,
        moves: None,
        metrics: None,
    };
    let outcome = run_games(work, ids, threads, sinks, watch).unwrap();
    (outcome, games)
}

#[test]
fn a_seat_maker_seats_its_agents_and_their_forfeits_are_reported() {
    let e = quitter_experiment();
    let (outcome, games) = run_seated(&e, QuitterSeats { stop: None }, 0..4, 2, &mut |_| {});
    assert_eq!(outcome.written, 4);
    // Its spec says random, but the seat maker's agent sat: every game is
    // a forfeit of agent 0, reported in id order with what it did.
    let ids: Vec<u64> = outcome.forfeits.iter().map(|f| f.game_id).collect();
    assert_eq!(ids, vec![0, 1, 2, 3]);
    assert!(outcome
        .forfeits
        .iter()
        .all(|f| f.agent == 0 && f.forfeit.detail == "quit"));
    let text = String::from_utf8(games).unwrap();
    assert_eq!(text.matches("forfeit-crash").count(), 4, "{text}");
}

#[test]
fn a_game_forfeited_while_the_run_stops_is_not_recorded() {
    // The agent sets the interrupt flag as it forfeits, as an agent process
    // hit by the same Ctrl-C would: the game is the stop's doing, so it is
    // left for a resumed run to play, and nothing after it is written.
    static STOP: AtomicBool = AtomicBool::new(false);
    let e = quitter_experiment();
    let seats = QuitterSeats { stop: Some(&STOP) };
    let (outcome, games) = run_seated(&e, seats, 0..4, 1, &mut Flagged(&STOP));
    assert_eq!(outcome.written, 0, "{}", String::from_utf8_lossy(&games));
    assert_eq!(outcome.stopped, Some(Stopped::Interrupted));
    assert!(outcome.forfeits.is_empty() && games.is_empty());
    assert_eq!(outcome.times.blocks.values().map(|b| b.0).sum::<u64>(), 0);
}

/// An agent that takes a while for each move.
struct Slow;

impl crate::engine::agent_trait::Agent for Slow {
    fn choose(
        &mut self,
        game: &crate::engine::game::Game,
        _: &mut crate::engine::agent_trait::AgentRng,
    ) -> Move {
        std::thread::sleep(Duration::from_millis(120));
        game.legal_moves()[0]
    }
}

struct SlowSeats;

impl crate::tournament::lineup::SeatMaker for SlowSeats {
    fn seat(&self, index: usize) -> Option<crate::tournament::lineup::Seat> {
        (index == 0).then(|| crate::tournament::lineup::Seat::Agent(Box::new(Slow)))
    }
}

/// Counts the writer's idle calls.
struct IdleCount(u32);

impl Watch for IdleCount {
    fn idle(&mut self) {
        self.0 += 1;
    }
}

#[test]
fn the_watcher_is_told_while_a_long_game_plays() {
    // Python's signals are looked at from `idle`: a game that takes seconds
    // must not keep the watcher from it until the game ends.
    let mut e = quitter_experiment();
    e.games = 2;
    let mut watch = IdleCount(0);
    let (outcome, _) = run_seated(&e, SlowSeats, 0..1, 1, &mut watch);
    assert_eq!(outcome.written, 1);
    assert!(watch.0 >= 2, "idle {} times", watch.0);
}
