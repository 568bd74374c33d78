//! The output directory of a run, and resuming into it.
//!
//! A run may be killed at any moment (Ctrl-C, `kill -9`, a full disk) and is
//! resumed by running the same command again, so the directory itself is the
//! state: `experiment.toml` says what is being run, and `games.csv` holds the
//! rows of games `0..k` in order, perhaps followed by a partial line. Opening
//! the directory again cuts that partial line and continues at game `k`, which
//! makes the finished file equal to an uninterrupted run's, byte for byte.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::config::Experiment;
use super::play::empty_row;
use crate::report::{CHARTS, REPORT_FILE, SUMMARY_FILE};

/// The game records.
pub const GAMES_FILE: &str = "games.csv";
/// The resolved experiment.
pub const EXPERIMENT_FILE: &str = "experiment.toml";
/// Worker time per block and run (kept out of `games.csv` so that it stays
/// the same on every machine).
pub const TIMINGS_FILE: &str = "timings.csv";

/// A directory that cannot hold this run.
#[derive(Debug, Error)]
pub enum RunDirError {
    /// A file operation failed.
    #[error("{path}: cannot {action}: {cause}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What was being done.
        action: &'static str,
        /// Why it failed.
        cause: io::Error,
    },
    /// The directory holds the results of another experiment.
    #[error(
        "{dir} holds a different experiment ({why}): choose another --out directory, \
         or pass --force to delete its results and start again"
    )]
    Different {
        /// The directory.
        dir: PathBuf,
        /// What differs.
        why: String,
    },
    /// `games.csv` is not a file this harness wrote for this experiment.
    #[error("{path}: line {line}: {message}; pass --force to start again")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The 1-based line.
        line: u64,
        /// What is wrong.
        message: String,
    },
}

fn io_error(path: &Path, action: &'static str) -> impl FnOnce(io::Error) -> RunDirError {
    let path = path.to_path_buf();
    move |cause| RunDirError::Io {
        path,
        action,
        cause,
    }
}

/// The header line of `games.csv` (with its newline), taken from the row type
/// itself so that it cannot drift from the columns.
pub fn csv_header() -> Vec<u8> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer
        .serialize(empty_row())
        .expect("a row serialises to memory");
    let bytes = writer.into_inner().expect("flushing to memory cannot fail");
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .expect("the csv writer ends the header with a newline");
    bytes[..=end].to_vec()
}

/// A run directory opened for writing.
#[derive(Debug)]
pub struct RunDir {
    /// The directory.
    pub dir: PathBuf,
    /// `games.csv`, positioned at its end, ready for the next row.
    pub games: File,
    /// Games already recorded (rows `0..done`).
    pub done: u64,
}

/// Opens `dir` for `experiment` (whose `games` is rounded to pairs), creating
/// it if need be: a directory of the same experiment is resumed; one of
/// another experiment is refused, or emptied of results when `force`.
pub fn open_run_dir(
    dir: &Path,
    experiment: &Experiment,
    total_games: u64,
    force: bool,
) -> Result<RunDir, RunDirError> {
    let games_path = dir.join(GAMES_FILE);
    let experiment_path = dir.join(EXPERIMENT_FILE);
    if let Some(why) = difference(dir, experiment)? {
        if !force {
            return Err(RunDirError::Different {
                dir: dir.to_path_buf(),
                why,
            });
        }
        for name in [
            GAMES_FILE,
            TIMINGS_FILE,
            EXPERIMENT_FILE,
            SUMMARY_FILE,
            REPORT_FILE,
        ] {
            let path = dir.join(name);
            if path.exists() {
                fs::remove_file(&path).map_err(io_error(&path, "delete it"))?;
            }
        }
        // The old report's charts describe games that are gone.
        let charts = dir.join(CHARTS);
        if charts.is_dir() {
            fs::remove_dir_all(&charts).map_err(io_error(&charts, "delete it"))?;
        }
    }
    let created = !dir.exists();
    let opened = create_and_open(dir, experiment, &experiment_path, &games_path, total_games);
    if opened.is_err() && created {
        // Nothing half-written: a directory made by this call goes again.
        let _ = fs::remove_dir_all(dir);
    }
    opened
}

fn create_and_open(
    dir: &Path,
    experiment: &Experiment,
    experiment_path: &Path,
    games_path: &Path,
    total_games: u64,
) -> Result<RunDir, RunDirError> {
    fs::create_dir_all(dir).map_err(io_error(dir, "create the directory"))?;
    if !experiment_path.exists() {
        let tmp = dir.join(format!("{EXPERIMENT_FILE}.tmp"));
        fs::write(&tmp, experiment.to_toml()).map_err(io_error(&tmp, "write it"))?;
        fs::rename(&tmp, experiment_path).map_err(io_error(experiment_path, "write it"))?;
    }
    let (games, done) = if games_path.exists() {
        resume(games_path, total_games)?
    } else {
        let mut file = File::create(games_path).map_err(io_error(games_path, "create it"))?;
        file.write_all(&csv_header())
            .map_err(io_error(games_path, "write it"))?;
        (file, 0)
    };
    Ok(RunDir {
        dir: dir.to_path_buf(),
        games,
        done,
    })
}

/// Why the directory cannot be resumed for `experiment`, if it cannot.
fn difference(dir: &Path, experiment: &Experiment) -> Result<Option<String>, RunDirError> {
    let path = dir.join(EXPERIMENT_FILE);
    if !path.exists() {
        let has_games = dir.join(GAMES_FILE).exists();
        return Ok(has_games.then(|| format!("{GAMES_FILE} without {EXPERIMENT_FILE}")));
    }
    let text = fs::read_to_string(&path).map_err(io_error(&path, "read it"))?;
    let saved = match Experiment::parse(&text, &path.display().to_string()) {
        Ok(saved) => saved,
        Err(err) => return Ok(Some(err.to_string())),
    };
    let mut ours = experiment.clone();
    ours.threads = saved.threads;
    Ok((saved != ours).then(|| format!("its {EXPERIMENT_FILE} differs from this experiment")))
}

/// Opens `games.csv` for appending after its last complete row: checks the
/// header and that rows are games `0..k` in order, cuts a partial last line.
fn resume(path: &Path, total_games: u64) -> Result<(File, u64), RunDirError> {
    let corrupt = |line: u64, message: String| RunDirError::Corrupt {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(io_error(path, "open it"))?;
    let mut reader = BufReader::with_capacity(1 << 16, &mut file);
    let mut line = Vec::with_capacity(256);
    let header = csv_header();
    let mut complete_end = 0u64;
    let mut done = 0u64;
    loop {
        line.clear();
        let n = reader
            .read_until(b'\n', &mut line)
            .map_err(io_error(path, "read it"))?;
        if n == 0 || line.last() != Some(&b'\n') {
            break;
        }
        if complete_end == 0 {
            if line != header {
                return Err(corrupt(
                    1,
                    "not the games.csv header of this harness".into(),
                ));
            }
        } else {
            let id = line.split(|&b| b == b',').next().unwrap_or_default();
            if std::str::from_utf8(id)
                .ok()
                .and_then(|s| s.parse::<u64>().ok())
                != Some(done)
            {
                return Err(corrupt(
                    done + 2,
                    format!("expected the row of game {done}"),
                ));
            }
            done += 1;
        }
        complete_end += n as u64;
    }
    drop(reader);
    if done > total_games {
        return Err(corrupt(
            done + 1,
            format!("{done} rows, but the experiment has only {total_games} games"),
        ));
    }
    if complete_end == 0 {
        // Not even a whole header: the run was killed as it started.
        file.set_len(0).map_err(io_error(path, "truncate it"))?;
        file.seek(SeekFrom::Start(0))
            .map_err(io_error(path, "seek in it"))?;
        file.write_all(&header)
            .map_err(io_error(path, "write it"))?;
        return Ok((file, 0));
    }
    file.set_len(complete_end)
        .map_err(io_error(path, "truncate it"))?;
    file.seek(SeekFrom::End(0))
        .map_err(io_error(path, "seek in it"))?;
    Ok((file, done))
}

#[cfg(test)]
mod tests;
