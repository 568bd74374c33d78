//! `timings.csv`: how long the games took, kept apart from `games.csv`.
//!
//! Times differ from machine to machine and from run to run, so they must not
//! touch the records that are compared byte for byte. Each run (each resumption
//! too) appends one row per (variant, board, pairing) block it played, with the
//! worker time spent in the block, and the run's wall time and thread count.

use std::io;
use std::path::Path;
use std::time::Duration;

use super::lineup::Lineup;
use super::runner::BlockTimes;
use super::schedule::Schedule;
use crate::records::safe_file::open_append_no_follow;

const HEADER: [&str; 9] = [
    "run_first_game",
    "threads",
    "wall_seconds",
    "variant",
    "holes",
    "agent_a",
    "agent_b",
    "games",
    "worker_seconds",
];

/// One run's timings.
#[derive(Debug, Clone, Copy)]
pub struct RunTimes<'a> {
    /// The first game id this run played (tells resumptions apart).
    pub first_game: u64,
    /// Worker threads.
    pub threads: usize,
    /// Wall time of the run.
    pub wall: Duration,
    /// Worker time per block.
    pub blocks: &'a BlockTimes,
}

/// Appends a run's rows to the timings file at `path`, with a header if new;
/// a symbolic link at `path` is refused, not followed.
pub fn append_timings(
    path: &Path,
    run: RunTimes<'_>,
    schedule: &Schedule,
    lineup: &Lineup,
) -> io::Result<()> {
    let file = open_append_no_follow(path)?;
    let is_new = file.metadata()?.len() == 0;
    let mut out = csv::Writer::from_writer(file);
    if is_new {
        out.write_record(HEADER)?;
    }
    for (&block, &(games, time)) in &run.blocks.blocks {
        let (variant, holes, (a, b)) = schedule.block(block);
        out.write_record([
            run.first_game.to_string(),
            run.threads.to_string(),
            format!("{:.3}", run.wall.as_secs_f64()),
            variant.to_string(),
            holes.to_string(),
            lineup.name(a).to_string(),
            lineup.name(b).to_string(),
            games.to_string(),
            format!("{:.3}", time.as_secs_f64()),
        ])?;
    }
    out.flush()
}
