//! `timings.csv`: how long the games took, kept apart from `games.csv`.
//!
//! Times differ from machine to machine and from run to run, so they must not
//! touch the records that are compared byte for byte. Each run (each resumption
//! too) appends one row per (variant, board, pairing) block it played, with the
//! worker time spent in the block, the games of it recorded from their
//! pair's first game instead of played (deterministic self-play twins), and
//! the run's wall time and thread count; [`read_timings`] reads them back.

use std::io;
use std::path::Path;
use std::time::Duration;

use super::lineup::Lineup;
use super::runner::BlockTimes;
use super::schedule::Schedule;
use crate::records::safe_file::open_append_no_follow;

const HEADER: [&str; 10] = [
    "run_first_game",
    "threads",
    "wall_seconds",
    "variant",
    "holes",
    "agent_a",
    "agent_b",
    "games",
    "worker_seconds",
    "games_reused",
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
    // A file begun before the reused games were counted keeps its nine
    // columns, so that every row matches its header.
    let columns = if is_new || header_has_reused(path)? {
        HEADER.len()
    } else {
        HEADER.len() - 1
    };
    let mut out = csv::Writer::from_writer(file);
    if is_new {
        out.write_record(HEADER)?;
    }
    for (&block, &(games, time)) in &run.blocks.blocks {
        let (variant, holes, (a, b)) = schedule.block(block);
        let record = [
            run.first_game.to_string(),
            run.threads.to_string(),
            format!("{:.3}", run.wall.as_secs_f64()),
            variant.to_string(),
            holes.to_string(),
            lineup.name(a).to_string(),
            lineup.name(b).to_string(),
            games.to_string(),
            format!("{:.3}", time.as_secs_f64()),
            run.blocks
                .reused
                .get(&block)
                .copied()
                .unwrap_or(0)
                .to_string(),
        ];
        out.write_record(&record[..columns])?;
    }
    out.flush()
}

/// Whether the header line of the timings file at `path` names the reused
/// games column.
fn header_has_reused(path: &Path) -> io::Result<bool> {
    use std::io::BufRead;
    let mut line = String::new();
    io::BufReader::new(std::fs::File::open(path)?).read_line(&mut line)?;
    Ok(line.trim_end().ends_with(HEADER[HEADER.len() - 1]))
}

/// One row of `timings.csv`, as [`read_timings`] reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct TimingsRow {
    /// The first game id of the sitting that wrote it.
    pub first_game: u64,
    /// That sitting's worker threads.
    pub threads: u64,
    /// That sitting's wall time, seconds (the same on each of its rows).
    pub wall_seconds: f64,
    /// The block's variant, as written.
    pub variant: String,
    /// The block's holes per row.
    pub holes: u8,
    /// Worker seconds spent in the block.
    pub worker_seconds: f64,
}

/// Reads the rows of the timings file at `path`, those begun before the
/// reused games were counted (nine columns) too; an error gives the line
/// (the header is line 1) and what is wrong there.
pub fn read_timings(path: &Path) -> Result<Vec<TimingsRow>, (u64, String)> {
    let column = |name: &str| {
        HEADER
            .iter()
            .position(|h| *h == name)
            .expect("a column of HEADER")
    };
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_path(path)
        .map_err(|e| (1, e.to_string()))?;
    let mut rows = Vec::new();
    for (k, record) in reader.records().enumerate() {
        let line = k as u64 + 2;
        let record = record.map_err(|e| (line, e.to_string()))?;
        let field = |name: &str| {
            record
                .get(column(name))
                .ok_or_else(|| (line, format!("no column {name}")))
        };
        let number = |name: &str| {
            field(name)?
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| {
                    (
                        line,
                        format!("{name} is not a number of seconds or threads"),
                    )
                })
        };
        rows.push(TimingsRow {
            first_game: number("run_first_game")? as u64,
            threads: number("threads")? as u64,
            wall_seconds: number("wall_seconds")?,
            variant: field("variant")?.to_string(),
            holes: number("holes")? as u8,
            worker_seconds: number("worker_seconds")?,
        });
    }
    Ok(rows)
}
