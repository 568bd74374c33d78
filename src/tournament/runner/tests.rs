//! Unit tests of `runner`, kept beside it in their own file so that the module stays short.
use super::*;
use crate::agents::AgentSpec;
use crate::tournament::config::Experiment;

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
    e.tournament.format = crate::tournament::config::Format::RoundRobin;
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
