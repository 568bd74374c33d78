//! Plies per second on this machine, so that users can compare machines and
//! the harness can be held to the engine's floor.
//!
//! Two measures of the same random games (uniform random legal moves):
//! - the *floor*: a tight single-purpose loop over [`Position`] alone, with
//!   the seeded generator and nothing else: no game record, no repetition
//!   check, no rows; only a count of plies since the last capture ends games
//!   that would never end (the `no_capture_limit` of the rules);
//! - the *harness*: random self-play through [`run_games`], schedule,
//!   seeding, stall rules, `games.csv`, `moves.csv` and `metrics.csv` rows
//!   formatted (and written to a sink), on one or more worker threads.
//!
//! The harness's plies per second over the floor's is how much of the engine's
//! speed the records and the stall rules cost.
//!
//! And the searches' speed, the same measures as the criterion bench
//! `benches/agents.rs`, so that a machine can be compared without criterion:
//! alpha-beta's positions made per second (plain, and with the search
//! enhancements) and MCTS's iterations per second, from the start position.

use std::io;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::agents::alphabeta::options::SearchOptions;
use crate::agents::alphabeta::{AlphaBeta, AlphaBetaBudget};
use crate::agents::mcts::rollout::RolloutPolicy;
use crate::agents::mcts::{Mcts, MctsParams};
use crate::batch::{Batch, BatchError, OwnedRows};
use crate::engine::game::Game;
use crate::engine::position::Position;
use crate::engine::rules::{Rules, Variant};
use crate::tournament::adjudication::Adjudicator;
use crate::tournament::config::error::ConfigError;
use crate::tournament::config::experiment::Experiment;
use crate::tournament::lineup::Lineup;
use crate::tournament::runner::{run_games, RecordSinks, RunError, Work};
use crate::tournament::schedule::Schedule;

/// A bench that could not run.
#[derive(Debug, Error)]
pub enum BenchError {
    /// The bench's experiment was refused (a board out of range).
    #[error("cannot set up the bench experiment: {0}")]
    Config(#[from] ConfigError),
    /// The harness failed.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The champion's endgame tables could not be built.
    #[error("cannot build the champion's tables: {0}")]
    Tables(String),
    /// The batch refused its games.
    #[error("cannot step the batch: {0}")]
    Batch(#[from] BatchError),
    /// The adjudication tables could not be opened.
    #[error(transparent)]
    Adjudication(#[from] crate::tournament::adjudication::AdjudicationError),
}

/// Games played and plies in them, and the time they took.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Throughput {
    /// Games played.
    pub games: u64,
    /// Plies in them (passes included).
    pub plies: u64,
    /// Wall time.
    pub time: Duration,
}

impl Throughput {
    /// Plies per second.
    pub fn plies_per_second(&self) -> f64 {
        self.plies as f64 / self.time.as_secs_f64().max(1e-9)
    }

    /// Games per second.
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.time.as_secs_f64().max(1e-9)
    }
}

/// The floor: `games` random games of `rules` from the start position in a
/// tight loop over [`Position`], seeded by `seed`. A game ends when the
/// board is empty or after `rules.stall.no_capture_limit` plies without a
/// capture (200 when the rules set none).
pub fn floor(rules: &Rules, games: u64, seed: u64) -> Throughput {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let limit = match rules.stall.no_capture_limit {
        0 => 200,
        limit => limit,
    };
    let start = Position::start(rules);
    let begun = Instant::now();
    let mut plies = 0u64;
    for _ in 0..games {
        let mut pos = start;
        let mut quiet = 0u32;
        while !pos.is_over() && quiet < limit {
            let captured = random_ply(&mut pos, rules, &mut rng);
            plies += 1;
            quiet = if captured { 0 } else { quiet + 1 };
        }
    }
    Throughput {
        games,
        plies,
        time: begun.elapsed(),
    }
}

/// Steps of the batch bench before it starts timing: every game of the
/// batch starts at the start position at once, and a learner's batch has
/// long left that (random II 2x12 games last about 375 plies).
pub const BATCH_WARM_UP: u64 = 400;

/// The batch (`hoyito::batch`, the engine of Python's `VectorGame`): `n`
/// random games of `rules` stepped together, [`BATCH_WARM_UP`] times and
/// then `steps` times timed, on the calling thread, each game's action a
/// uniformly random legal one drawn before the step and outside its timing
/// (as `benches/batch.rs` draws them), the openings seeded by `seed`. The
/// games counted are those that ended or were cut in the timed steps.
pub fn batch(rules: &Rules, n: usize, steps: u64, seed: u64) -> Result<Throughput, BenchError> {
    let mut batch = Batch::new(*rules, n, seed, 0, 0)?;
    let mut rows = OwnedRows::new(n, usize::from(rules.holes));
    let mut actions = vec![0i64; n];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..BATCH_WARM_UP {
        batch.random_actions(&mut rng, &mut actions);
        batch.step(&actions, rows.rows())?;
    }
    let (mut time, mut games) = (Duration::ZERO, 0u64);
    for _ in 0..steps {
        batch.random_actions(&mut rng, &mut actions);
        let begun = Instant::now();
        batch.step(&actions, rows.rows())?;
        time += begun.elapsed();
        games += rows.terminated.iter().filter(|&&t| t).count() as u64;
    }
    Ok(Throughput {
        games,
        plies: n as u64 * steps,
        time,
    })
}

/// Plays one uniformly random legal ply in `pos` (as `Game::play_random`
/// draws it), in place; whether the mover captured.
#[inline]
fn random_ply(pos: &mut Position, rules: &Rules, rng: &mut ChaCha8Rng) -> bool {
    let (_, effect) = pos.play_random_in_place(rules, pos.nonempty_mask(), rng);
    effect.captured > 0
}

/// The harness: `games` random self-play games of `variant` on `2 x holes`
/// (four seeds a hole, default stall rules, master seed `seed`) through
/// [`run_games`] on `threads` workers, every record formatted and written to
/// a sink.
pub fn harness(
    variant: Variant,
    holes: u8,
    games: u64,
    threads: usize,
    seed: u64,
) -> Result<Throughput, BenchError> {
    let text = format!(
        "name = \"bench\"\nseed = {seed}\ngames = {games}\n\
         [rules]\nvariants = [\"{}\"]\nholes = [{holes}]\n\
         [openings]\nrandom_plies = 0\n\
         [tournament]\nformat = \"self-play\"\nagents = [\"random\"]\n\
         [roster.random]\nkind = \"random\"\n",
        variant.name()
    );
    run_experiment(&text, threads)
}

/// Runs the bench experiment `text` (its roster given in it) through
/// [`run_games`] on `threads` workers, every record formatted and written to
/// a sink, with its `[adjudication]` if it has one and the agents' endgame
/// tables built first, as a run builds them.
fn run_experiment(text: &str, threads: usize) -> Result<Throughput, BenchError> {
    let mut experiment = Experiment::parse(text, "bench")?;
    experiment.resolve_agents("bench", || {
        unreachable!("the bench's roster is given in its experiment")
    })?;
    let adjudicator = Adjudicator::new(&experiment.adjudication, &experiment.boards())?;
    // Built lazily inside the one-thread worker pool instead, the champion's
    // tables made the first game wait forever (seen 2026-12-03, not yet
    // understood).
    for rules in experiment.boards() {
        for (_, spec) in experiment.agent_specs() {
            crate::agents::build::prepare_tables(&spec, &rules)
                .map_err(|e| BenchError::Tables(e.to_string()))?;
        }
    }
    let schedule = Schedule::new(&experiment);
    let lineup = Lineup::new(experiment.agent_specs());
    let work = Work {
        schedule: &schedule,
        lineup: &lineup,
        adjudicator: adjudicator.as_ref(),
    };
    let mut plies = PlyCounter::default();
    let (mut moves, mut metrics) = (io::sink(), io::sink());
    let sinks = RecordSinks {
        games: &mut plies,
        moves: Some(&mut moves),
        metrics: Some(&mut metrics),
    };
    let begun = Instant::now();
    run_games(work, 0..schedule.len(), threads, sinks, &mut |_| {})?;
    let time = begun.elapsed();
    Ok(Throughput {
        games: plies.rows,
        plies: plies.plies,
        time,
    })
}

/// The champion (`agents/champion.toml`) against itself: `games` games of
/// `variant` on `2 x holes` from 8 uniformly random plies (master seed
/// `seed`), on one worker thread, adjudicated by `adjudication` (an
/// experiment's `[adjudication]` table, e.g. `tablebase = "DIR"`) when given:
/// the measure of what the endgame tables save strong play.
pub fn champion_games(
    variant: Variant,
    holes: u8,
    games: u64,
    seed: u64,
    adjudication: Option<&str>,
) -> Result<Throughput, BenchError> {
    let text = format!(
        "name = \"bench\"\nseed = {seed}\ngames = {games}\n\
         [rules]\nvariants = [\"{}\"]\nholes = [{holes}]\n\
         [openings]\nrandom_plies = 8\n\
         [tournament]\nformat = \"self-play\"\nagents = [\"champion\"]\n\
         [roster.champion]\nkind = \"alphabeta\"\nnodes = 1000000\npvs = true\n\
         aspiration = 2\nquiescence = 4\nmax_seeds = 8\n{}",
        variant.name(),
        adjudication.map_or(String::new(), |a| format!("[adjudication]\n{a}\n"))
    );
    run_experiment(&text, 1)
}

/// What one search did (positions made, or iterations) and the time it took.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchThroughput {
    /// Alpha-beta's positions made (its `nodes`), or MCTS's iterations.
    pub count: u64,
    /// Wall time.
    pub time: Duration,
}

impl SearchThroughput {
    /// Positions or iterations per second.
    pub fn per_second(&self) -> f64 {
        self.count as f64 / self.time.as_secs_f64().max(1e-9)
    }
}

/// The depth of the alpha-beta measures on a board of `holes` holes a row: a
/// search of a fraction of a second on a recent core (17 plies up to 2x6,
/// 12 beyond, as in `benches/agents.rs`).
pub fn search_depth(holes: u8) -> u32 {
    if holes <= 6 {
        17
    } else {
        12
    }
}

/// MCTS iterations of the MCTS measure.
pub const MCTS_ITERATIONS: u32 = 10_000;

/// The enhanced search of the speed measures (here and in
/// `benches/agents.rs`): every enhancement of the search but the endgame
/// tables and late move reductions (principal variation search, aspiration
/// windows of 2 seeds, killers, history, 4 turns of quiescence).
pub fn enhanced_options() -> SearchOptions {
    SearchOptions {
        pvs: true,
        aspiration: 2,
        killers: true,
        history: true,
        quiescence: 4,
        ..SearchOptions::default()
    }
}

/// One alpha-beta search of the start position of `rules` to `depth` plies,
/// plain or `enhanced` ([`enhanced_options`]): positions made per second.
/// The searcher (its default 4 MiB table) is made before the clock starts.
pub fn alphabeta(rules: &Rules, depth: u32, enhanced: bool) -> SearchThroughput {
    let game = Game::new(*rules);
    let budget = AlphaBetaBudget {
        depth,
        nodes: None,
        time_ms: None,
    };
    let mut searcher = AlphaBeta::new(budget);
    if enhanced {
        searcher = searcher.with_options(enhanced_options());
    }
    let begun = Instant::now();
    let info = searcher.search(&game);
    SearchThroughput {
        count: info.nodes,
        time: begun.elapsed(),
    }
}

/// One MCTS search of [`MCTS_ITERATIONS`] iterations with random rollouts
/// from the start position of `rules`, seeded by `seed`: iterations per
/// second.
pub fn mcts(rules: &Rules, seed: u64) -> SearchThroughput {
    let game = Game::new(*rules);
    let mut searcher = Mcts::new(MctsParams {
        iterations: MCTS_ITERATIONS,
        exploration: MctsParams::DEFAULT_EXPLORATION,
        rollout: RolloutPolicy::Random,
        rollout_cap: MctsParams::DEFAULT_ROLLOUT_CAP,
    });
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let begun = Instant::now();
    searcher.search(&game, &mut rng);
    SearchThroughput {
        count: u64::from(MCTS_ITERATIONS),
        time: begun.elapsed(),
    }
}

/// A sink for `games.csv` rows that sums their `plies` column, the third from
/// the end (`..., plies, ending, moves_hash`). The bench's own instrument: it
/// reads each row from its end, so that it costs the harness it measures
/// little.
#[derive(Debug, Default)]
struct PlyCounter {
    rows: u64,
    plies: u64,
    /// The start of a row cut by the end of a write.
    partial: Vec<u8>,
}

impl PlyCounter {
    /// Counts one row, without its newline.
    fn count_row(&mut self, row: &[u8]) {
        let plies = row.rsplit(|&b| b == b',').nth(2).unwrap_or_default();
        self.rows += 1;
        self.plies += plies.iter().fold(0u64, |n, &d| {
            n.wrapping_mul(10)
                .wrapping_add(u64::from(d.wrapping_sub(b'0')))
        });
    }
}

impl io::Write for PlyCounter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        if !self.partial.is_empty() {
            let Some(end) = memchr::memchr(b'\n', rest) else {
                self.partial.extend_from_slice(rest);
                return Ok(buf.len());
            };
            let mut row = std::mem::take(&mut self.partial);
            row.extend_from_slice(&rest[..end]);
            self.count_row(&row);
            row.clear();
            self.partial = row;
            rest = &rest[end + 1..];
        }
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', rest) {
            self.count_row(&rest[start..end]);
            start = end + 1;
        }
        self.partial.extend_from_slice(&rest[start..]);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn searches_go_to_depth_17_up_to_2x6_and_12_beyond() {
        assert_eq!(
            [2, 4, 6, 7, 12, 16].map(super::search_depth),
            [17, 17, 17, 12, 12, 12]
        );
    }

    use super::*;
    use crate::engine::game::Game;

    #[test]
    fn the_ply_counter_sums_the_plies_column_of_each_row() {
        use std::io::Write;
        let mut counter = PlyCounter::default();
        let row = "7,3,ii,6,4,random,random,18446744073709551615,\"1 2\",S,30,18,61,normal,00ff\n";
        // Written in two pieces that cut a number in half.
        let cut = row.find(",normal").unwrap() - 1;
        counter.write_all(&row.as_bytes()[..cut]).unwrap();
        counter.write_all(&row.as_bytes()[cut..]).unwrap();
        counter.write_all(row.as_bytes()).unwrap();
        assert_eq!((counter.rows, counter.plies), (2, 122));
        // Byte by byte, and a whole row with the start of the next.
        for &b in row.as_bytes() {
            counter.write_all(&[b]).unwrap();
        }
        let two = format!("{row}{}", &row[..20]);
        counter.write_all(two.as_bytes()).unwrap();
        counter.write_all(&row.as_bytes()[20..]).unwrap();
        assert_eq!((counter.rows, counter.plies), (5, 305));
    }

    /// The floor plays the games that `Game::play_random` plays with the
    /// same generator (until a stall rule that the floor lacks would end them).
    #[test]
    fn the_floor_draws_the_moves_of_play_random() {
        let rules = Rules::new(Variant::Ii);
        let mut floor_rng = ChaCha8Rng::seed_from_u64(3);
        let mut game_rng = ChaCha8Rng::seed_from_u64(3);
        let mut pos = Position::start(&rules);
        let mut game = Game::new(rules);
        while !game.is_over() {
            game.play_random(&mut game_rng);
            random_ply(&mut pos, &rules, &mut floor_rng);
            assert_eq!(pos, *game.position());
        }
    }

    #[test]
    fn the_floor_and_the_harness_count_games_and_plies() {
        let rules = Rules::new(Variant::Iii);
        let floor = floor(&rules, 20, 1);
        assert_eq!(floor.games, 20);
        assert!(floor.plies >= 20 * 10, "{floor:?}");
        let harness = harness(Variant::Iii, 6, 20, 1, 1).expect("a small bench");
        assert_eq!(harness.games, 20);
        assert!(harness.plies >= 20 * 10, "{harness:?}");
    }
}
