//! What can go wrong between `games.csv` and a finished report, each error
//! naming the file (and line) a person has to look at. An underlying I/O error
//! is the `source`, not repeated in the message, so that a chain of causes
//! reads once.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

use crate::tournament::config::error::ConfigError;

/// An error reading games or writing a report.
#[derive(Debug, Error)]
pub enum ReportError {
    /// A file could not be opened or read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A line of `games.csv` is not a valid game row.
    #[error("{}, line {line}: {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The line, counted from 1 (the header is line 1).
        line: u64,
        /// What is wrong with it.
        message: String,
    },
    /// Two rows share a game id.
    #[error("{}, line {line}: game {game_id} already appears on line {first_line}", path.display())]
    DuplicateGame {
        /// The file.
        path: PathBuf,
        /// The second row's line.
        line: u64,
        /// The repeated id.
        game_id: u64,
        /// The first row's line.
        first_line: u64,
    },
    /// A row's game id is lower than the row's before it, and appears
    /// nowhere earlier in the file.
    #[error(
        "{}, line {line}: game {game_id} comes after game {previous}: rows must be in game-id order",
        path.display()
    )]
    OutOfOrder {
        /// The file.
        path: PathBuf,
        /// The row's line.
        line: u64,
        /// Its game id.
        game_id: u64,
        /// The game id of the row before it.
        previous: u64,
    },
    /// The run's `experiment.toml` could not be read (the source names the
    /// file and key).
    #[error("cannot take the agent order and rules from the run's experiment")]
    Experiment {
        /// Why.
        source: ConfigError,
    },
    /// The experiment's `[sprt]` cannot be checked.
    #[error("experiment.toml: [sprt]: {message}")]
    Sprt {
        /// What is wrong.
        message: String,
    },
    /// There is nothing to report.
    #[error("no games to report in {}", path.display())]
    NoGames {
        /// The file or directory that held no games.
        path: PathBuf,
    },
    /// A game asked for by id (`hoyito report --game-ids`) has no row.
    #[error("{}: there is no game {game_id}", path.display())]
    NoSuchGame {
        /// `games.csv`.
        path: PathBuf,
        /// The id asked for.
        game_id: u64,
    },
    /// A report file could not be written.
    #[error("cannot write {}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A file or folder the report writes into is a symbolic link.
    #[error(
        "{} is a symbolic link: a report does not write through links; remove it",
        path.display()
    )]
    Link {
        /// The link.
        path: PathBuf,
    },
    /// A chart could not be drawn.
    #[error("cannot draw {}: {message}", path.display())]
    Chart {
        /// The chart's file.
        path: PathBuf,
        /// What the plotting library said.
        message: String,
    },
    /// `metrics.csv` cannot be read, or does not match `games.csv`.
    #[error(transparent)]
    Metrics(#[from] crate::metrics::file::MetricsFileError),
}

impl ReportError {
    /// A `metrics.csv` problem.
    pub fn metrics(err: crate::metrics::file::MetricsFileError) -> ReportError {
        ReportError::Metrics(err)
    }
}
