//! Why a directory cannot hold a run: the error every part of the run
//! directory (opening, slicing, the records kept on resume) returns, below
//! them all.

use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::tournament::run_lock::LockError;

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
    #[error(
        "{path}: line {line}: {message}; restore the file, or pass --force to delete \
         the results and start again"
    )]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The 1-based line.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// Another process is writing the directory.
    #[error(transparent)]
    Locked(#[from] LockError),
    /// A file the run writes is a symbolic link.
    #[error(
        "{path} is a symbolic link: a run does not write through links; \
         remove it or choose another --out directory"
    )]
    Link {
        /// The link.
        path: PathBuf,
    },
}

pub(super) fn io_error(path: &Path, action: &'static str) -> impl FnOnce(io::Error) -> RunDirError {
    let path = path.to_path_buf();
    move |cause| RunDirError::Io {
        path,
        action,
        cause,
    }
}
