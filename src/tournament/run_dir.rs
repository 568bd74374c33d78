//! The output directory of a run, and resuming into it.
//!
//! A run may be killed at any moment (Ctrl-C, `kill -9`, a full disk) and is
//! resumed by running the same command again, so the directory itself is the
//! state: `experiment.toml` says what is being run, and `games.csv` holds the
//! rows of games `0..k` in order, perhaps followed by a partial line. Opening
//! the directory again cuts that partial line and continues at game `k`, which
//! makes the finished file equal to an uninterrupted run's, byte for byte.
//! When moves are recorded, `moves.csv` is written beside it chunk by chunk,
//! and so is `metrics.csv` when measures are; a kill may leave one file a
//! few rows ahead of another, so all are cut to the rows they have in
//! common. The rows kept are checked first by the one validation of a run's
//! rows (see `resume_check` and `super::run_rows`): against the experiment
//! (every column its schedule fixes) and, with `moves.csv`, against their
//! moves and their measures in `metrics.csv`: a resumed run trusts nothing
//! it did not write itself.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::config::experiment::Experiment;
use super::rounds_row::games_header;
use super::run_lock::{lock_exclusive, DirLock};
use super::run_rows::RowFiles;
use super::runner::RecordSinks;
use super::schedule::Schedule;
use super::shard::Shard;
use super::shard_manifest::{ShardManifest, SHARD_FILE};
use crate::metrics::file::{metrics_header, METRICS_FILE};
use crate::records::moves_file::{MOVES_FILE, MOVES_HEADER};
use crate::records::run_files::{CHARTS, COVERAGE_FILE, HTML_FILE, REPORT_FILE, SUMMARY_FILE};
pub use crate::records::run_files::{EXPERIMENT_FILE, GAMES_FILE, TIMINGS_FILE};
use crate::records::safe_file::{is_symlink, read_regular_to_string, write_atomic};
use error::io_error;
pub use error::RunDirError;
use resume_check::check_kept_rows;
use slice::{slice_difference, Slice};

/// What a run writes into its directory: the files and the charts folder
/// that `--force` deletes (for `run`, and for `merge` into a used output).
pub(crate) const RESULTS: [&str; 11] = [
    GAMES_FILE,
    COVERAGE_FILE,
    MOVES_FILE,
    METRICS_FILE,
    EXPERIMENT_FILE,
    TIMINGS_FILE,
    SHARD_FILE,
    SUMMARY_FILE,
    REPORT_FILE,
    HTML_FILE,
    CHARTS,
];

/// Deletes every one of [`RESULTS`] in `dir` (a link itself, never what it
/// points to; the old charts describe games that are gone); the path that
/// could not be deleted, with why.
pub(crate) fn remove_results(dir: &Path) -> Result<(), (PathBuf, io::Error)> {
    for name in RESULTS {
        let path = dir.join(name);
        let removed = if path.is_dir() && !is_symlink(&path) {
            fs::remove_dir_all(&path)
        } else if path.exists() || is_symlink(&path) {
            fs::remove_file(&path)
        } else {
            Ok(())
        };
        removed.map_err(|cause| (path, cause))?;
    }
    Ok(())
}

/// A run directory opened for writing.
#[derive(Debug)]
pub struct RunDir {
    /// The directory.
    pub dir: PathBuf,
    /// `games.csv`, positioned at its end, ready for the next row.
    pub games: File,
    /// `moves.csv` likewise, when the experiment records moves.
    pub moves: Option<File>,
    /// `metrics.csv` likewise, when the experiment records measures.
    pub metrics: Option<File>,
    /// Games already recorded (rows `0..done` of each file).
    pub done: u64,
    /// The games per pairing of the finished or interrupted run that this
    /// call extended to more games, if it did.
    pub extended_from: Option<u64>,
    /// The slice of a shard's directory (with `shard.toml`), else `None`.
    shard: Option<ShardManifest>,
    /// The directory's exclusive lock, held as long as the run is.
    _lock: DirLock,
}

impl RunDir {
    /// Where [`crate::tournament::run_games`] writes the next rows.
    pub fn sinks(&mut self) -> RecordSinks<'_> {
        RecordSinks {
            games: &mut self.games,
            moves: self.moves.as_mut().map(|f| f as &mut dyn Write),
            metrics: self.metrics.as_mut().map(|f| f as &mut dyn Write),
        }
    }

    /// Records in a shard's `shard.toml` that `written` games of its slice
    /// are written (nothing for a whole run).
    pub fn record_written(&mut self, written: u64) -> Result<(), RunDirError> {
        let Some(manifest) = self.shard.as_mut() else {
            return Ok(());
        };
        manifest.written_games = written;
        manifest.complete = written >= manifest.planned_games;
        let path = self.dir.join(SHARD_FILE);
        manifest
            .write(&self.dir)
            .map_err(io_error(&path, "write it"))
    }
}

/// Opens `dir` for `experiment` (whose `games` is rounded to pairs), creating
/// it if need be: a directory of the same experiment is resumed; one of
/// another experiment is refused, or emptied of results when `force`. The
/// directory is locked first (see `super::run_lock`): a directory that
/// another process is writing is refused, `force` or not.
pub fn open_run_dir(
    dir: &Path,
    experiment: &Experiment,
    total_games: u64,
    force: bool,
) -> Result<RunDir, RunDirError> {
    let schedule = Schedule::new(experiment);
    let slice = Slice {
        schedule: &schedule,
        shard: None,
        total: total_games,
    };
    open_dir(dir, experiment, slice, force)
}

/// Opens `dir` for one slice of `experiment` as [`open_run_dir`] does: its
/// rows are the slice's games in id order, and a shard's directory
/// (`Some(shard)`, 0/1 included) gets a `shard.toml` saying which slice it
/// holds, of which experiment. A directory of another slice is refused like
/// one of another experiment; a shard is never extended to more games (the
/// slices of a larger experiment are other games).
pub fn open_slice_dir(
    dir: &Path,
    experiment: &Experiment,
    schedule: &Schedule,
    shard: Option<Shard>,
    force: bool,
) -> Result<RunDir, RunDirError> {
    let total = shard.unwrap_or(Shard::WHOLE).games(schedule);
    let slice = Slice {
        schedule,
        shard,
        total,
    };
    open_dir(dir, experiment, slice, force)
}

fn open_dir(
    dir: &Path,
    experiment: &Experiment,
    slice: Slice<'_>,
    force: bool,
) -> Result<RunDir, RunDirError> {
    let created = !dir.exists();
    fs::create_dir_all(dir).map_err(io_error(dir, "create the directory"))?;
    let opened = lock_exclusive(dir)
        .map_err(RunDirError::from)
        .and_then(|lock| open_locked(dir, experiment, slice, force, lock));
    if opened.is_err() && created {
        // Nothing half-written: a directory made by this call goes again.
        let _ = fs::remove_dir_all(dir);
    }
    opened
}

fn open_locked(
    dir: &Path,
    experiment: &Experiment,
    slice: Slice<'_>,
    force: bool,
    lock: DirLock,
) -> Result<RunDir, RunDirError> {
    // Refused before anything is written: the run writes none of them
    // through a link (see `crate::records::safe_file`).
    for name in [
        EXPERIMENT_FILE,
        GAMES_FILE,
        MOVES_FILE,
        METRICS_FILE,
        TIMINGS_FILE,
        SHARD_FILE,
    ] {
        let path = dir.join(name);
        if is_symlink(&path) {
            return Err(RunDirError::Link { path });
        }
    }
    let experiment_path = dir.join(EXPERIMENT_FILE);
    let extended_from = match slice.shard {
        None => grow(dir, experiment)?,
        Some(_) => None,
    };
    let why = match slice_difference(dir, slice.shard)? {
        Some(why) => Some(why),
        None => difference(dir, experiment)?,
    };
    if let Some(why) = why {
        if !force {
            return Err(RunDirError::Different {
                dir: dir.to_path_buf(),
                why,
            });
        }
        remove_results(dir).map_err(|(path, cause)| io_error(&path, "delete it")(cause))?;
    }
    let mut run_dir = create_and_open(dir, experiment, &experiment_path, slice, lock)?;
    run_dir.extended_from = extended_from;
    Ok(run_dir)
}

/// Extends a run: when `dir` holds this very experiment with fewer games per
/// pairing, its `experiment.toml` is rewritten (atomically) with the new
/// count, and the games already played are kept: the schedule's ids of the
/// smaller experiment are the first ids of the larger one. Returns the old
/// count when it did so.
fn grow(dir: &Path, experiment: &Experiment) -> Result<Option<u64>, RunDirError> {
    let path = dir.join(EXPERIMENT_FILE);
    let Some(saved) = saved_experiment(&path)? else {
        return Ok(None);
    };
    let mut smaller = experiment.clone();
    smaller.games = saved.games;
    smaller.threads = saved.threads;
    if saved != smaller || saved.games >= experiment.games {
        return Ok(None);
    }
    save_experiment(dir, &experiment.dated(Some(&saved)))?;
    Ok(Some(saved.games))
}

/// Writes `experiment.toml` atomically through a fresh temporary file (see
/// [`write_atomic`]: a planted link at the temporary name is not followed).
fn save_experiment(dir: &Path, experiment: &Experiment) -> Result<(), RunDirError> {
    let tmp = dir.join(format!("{EXPERIMENT_FILE}.tmp"));
    let path = dir.join(EXPERIMENT_FILE);
    write_atomic(&tmp, &path, experiment.to_saved_toml().as_bytes())
        .map_err(io_error(&path, "write it"))
}

/// The experiment saved in `path`, if it exists and parses.
fn saved_experiment(path: &Path) -> Result<Option<Experiment>, RunDirError> {
    if !path.exists() {
        return Ok(None);
    }
    let text = read_regular_to_string(path).map_err(io_error(path, "read it"))?;
    Ok(Experiment::parse(&text, &path.display().to_string()).ok())
}

fn create_and_open(
    dir: &Path,
    experiment: &Experiment,
    experiment_path: &Path,
    slice: Slice<'_>,
    lock: DirLock,
) -> Result<RunDir, RunDirError> {
    if !experiment_path.exists() {
        save_experiment(dir, &experiment.dated(None))?;
    }
    let total_games = slice.games();
    // A shard's manifest comes before its rows, so that a directory with
    // rows always says which slice they are.
    let mut shard = slice
        .shard
        .map(|shard| ShardManifest::new(experiment, shard, total_games, 0));
    if let Some(manifest) = &shard {
        if !dir.join(SHARD_FILE).exists() {
            let path = dir.join(SHARD_FILE);
            manifest.write(dir).map_err(io_error(&path, "write it"))?;
        }
    }
    let games_header = games_header(experiment.rules.rounds);
    let mut games = Records::open(&dir.join(GAMES_FILE), &games_header, slice)?;
    let beside = |on: bool, name: &str, header: &[u8], what: &str| match on {
        true => {
            let path = dir.join(name);
            if games.rows > 0 && !path.exists() {
                return Err(RunDirError::Corrupt {
                    path,
                    line: 1,
                    message: format!(
                        "missing, but {GAMES_FILE} holds {} games and the experiment records {what}",
                        games.rows
                    ),
                });
            }
            Records::open(&path, header, slice).map(Some)
        }
        false => Ok(None),
    };
    let mut moves = beside(
        experiment.record.moves,
        MOVES_FILE,
        MOVES_HEADER.as_bytes(),
        "moves",
    )?;
    let mut metrics = beside(
        experiment.record.metrics,
        METRICS_FILE,
        metrics_header().as_bytes(),
        "metrics",
    )?;
    // Cut the files to the games they all hold (they agree on the ids:
    // each holds games 0..rows in order).
    let done = [&moves, &metrics]
        .into_iter()
        .flatten()
        .fold(games.rows, |done, r| done.min(r.rows));
    let files = RowFiles {
        moves: moves.is_some(),
        metrics: metrics.is_some(),
    };
    check_kept_rows(dir, experiment, slice.ids(), done, files)?;
    games.cut_to(done)?;
    for records in [&mut moves, &mut metrics].into_iter().flatten() {
        records.cut_to(done)?;
    }
    if let Some(manifest) = shard.as_mut() {
        manifest.written_games = done;
        manifest.complete = done >= total_games;
        let path = dir.join(SHARD_FILE);
        manifest.write(dir).map_err(io_error(&path, "write it"))?;
    }
    Ok(RunDir {
        dir: dir.to_path_buf(),
        games: games.file,
        moves: moves.map(|m| m.file),
        metrics: metrics.map(|m| m.file),
        done,
        extended_from: None,
        shard,
        _lock: lock,
    })
}

/// Why the directory cannot be resumed for `experiment`, if it cannot.
fn difference(dir: &Path, experiment: &Experiment) -> Result<Option<String>, RunDirError> {
    let path = dir.join(EXPERIMENT_FILE);
    if !path.exists() {
        let has_games = dir.join(GAMES_FILE).exists();
        return Ok(has_games.then(|| format!("{GAMES_FILE} without {EXPERIMENT_FILE}")));
    }
    let text = read_regular_to_string(&path).map_err(io_error(&path, "read it"))?;
    let saved = match Experiment::parse(&text, &path.display().to_string()) {
        Ok(saved) => saved,
        Err(err) => return Ok(Some(err.to_string())),
    };
    let mut ours = experiment.clone();
    ours.threads = saved.threads;
    if saved == ours {
        return Ok(None);
    }
    if saved.games > ours.games {
        ours.games = saved.games;
        if saved == ours {
            return Ok(Some(format!(
                "it holds this experiment with {} games per pairing, more than the {} asked: \
                 pass --games {} (or more) to resume or extend it",
                saved.games, experiment.games, saved.games
            )));
        }
        ours.games = experiment.games;
    }
    ours.record = saved.record.clone();
    if saved == ours {
        return Ok(Some(format!(
            "it was run with `[record] moves = {}, metrics = {}`, this experiment has \
             moves = {}, metrics = {}",
            saved.record.moves,
            saved.record.metrics,
            experiment.record.moves,
            experiment.record.metrics
        )));
    }
    Ok(Some(format!(
        "its {EXPERIMENT_FILE} differs from this experiment"
    )))
}

pub(crate) mod error;
mod records;
mod resume_check;
mod slice;
use records::Records;
#[cfg(test)]
mod tests;
