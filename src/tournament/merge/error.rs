//! [`MergeError`]: every reason shards cannot be merged, each naming the
//! directory or file and what to do, and the helper that turns a failed file
//! operation into one.

use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::tournament::run_lock::LockError;
use crate::tournament::shard::Shard;
use crate::tournament::shard_manifest::SHARD_FILE;

/// Why shards cannot be merged.
#[derive(Debug, Error)]
pub enum MergeError {
    /// No directory given.
    #[error("no shard directories given: hoyito merge OUT SHARD_DIR...")]
    NoShards,
    /// A shard is being written, or its lock cannot be taken.
    #[error(transparent)]
    Locked(#[from] LockError),
    /// A directory without `shard.toml`.
    #[error(
        "{}: not a shard directory (no {SHARD_FILE}): pass the directories that \
         `hoyito run --shard K/N` wrote",
        dir.display()
    )]
    NotShard {
        /// The directory.
        dir: PathBuf,
    },
    /// A `shard.toml` or `experiment.toml` that cannot be used.
    #[error("{}: {why}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// A shard of another experiment or build.
    #[error("{}: a foreign shard: {why} (in {})", dir.display(), first.display())]
    Foreign {
        /// The foreign shard.
        dir: PathBuf,
        /// The shard it was compared with.
        first: PathBuf,
        /// What differs.
        why: String,
    },
    /// Shards of different N.
    #[error(
        "{}: it is shard {shard}, but {} is shard {first_shard}: all shards must come from \
         one split",
        dir.display(), first.display()
    )]
    OtherSplit {
        /// The shard.
        dir: PathBuf,
        /// Its slice.
        shard: Shard,
        /// The shard it was compared with.
        first: PathBuf,
        /// That one's slice.
        first_shard: Shard,
    },
    /// The same slice twice.
    #[error("{}: shard {shard} is given twice (also {})", dir.display(), other.display())]
    Duplicate {
        /// The second directory.
        dir: PathBuf,
        /// The first.
        other: PathBuf,
        /// The slice.
        shard: Shard,
    },
    /// A slice not played to its end.
    #[error(
        "{}: shard {shard} is incomplete ({written} of {planned} games): resume it with the \
         same `hoyito run --shard {shard}` command, then merge",
        dir.display()
    )]
    Incomplete {
        /// The directory.
        dir: PathBuf,
        /// Its slice.
        shard: Shard,
        /// Games written.
        written: u64,
        /// Games planned.
        planned: u64,
    },
    /// A slice not given.
    #[error("shard {shard} is missing: pass its directory too (every shard 0 to {last} of {count})", last = shard.count() - 1, count = shard.count())]
    Missing {
        /// The slice.
        shard: Shard,
    },
    /// A row that is not where the schedule puts it, or that fails the
    /// validation of a run's rows.
    #[error("{}, line {line}: {message}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The 1-based line.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// The output directory holds something.
    #[error(
        "{}: exists and is not empty: choose another output directory, or pass --force to \
         replace the results in it",
        out.display()
    )]
    OutExists {
        /// The output directory.
        out: PathBuf,
    },
    /// The output is a symbolic link.
    #[error(
        "{}: is a symbolic link (to {}): a merge does not write through links, since its \
         merged directory would replace the link; give the directory itself, or another \
         output directory",
        out.display(), target.display()
    )]
    OutIsLink {
        /// The output directory given.
        out: PathBuf,
        /// Where the link points.
        target: PathBuf,
    },
    /// The output is one of the shards.
    #[error("{}: the output directory is one of the shards", out.display())]
    OutIsShard {
        /// The output directory.
        out: PathBuf,
    },
    /// A file operation failed.
    #[error("{}: cannot {action}: {cause}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What was being done.
        action: &'static str,
        /// Why.
        cause: io::Error,
    },
    /// The caller's last step on the merged files (the report) failed.
    #[error(transparent)]
    Finish(Box<dyn std::error::Error + Send + Sync>),
    /// The merged directory could not be moved into place, nor the old one
    /// back.
    #[error(
        "{}: cannot move the merged directory into its place ({cause}), nor the old results \
         back: they are whole in {}; the next merge into {} moves them back",
        out.display(), aside.display(), out.display()
    )]
    Swap {
        /// The output directory.
        out: PathBuf,
        /// Where its old results are.
        aside: PathBuf,
        /// Why the merged directory could not be moved.
        cause: io::Error,
    },
    /// The old results that a stopped merge set aside, with no directory to
    /// return to.
    #[error(
        "{}: the old results of {}, set aside by a merge that was stopped, but {} is not a \
         directory now: move them back or delete them, then merge again",
        aside.display(), out.display(), out.display()
    )]
    Aside {
        /// The output directory.
        out: PathBuf,
        /// Where its old results are.
        aside: PathBuf,
    },
}

pub(super) fn io_error(path: &Path, action: &'static str) -> impl FnOnce(io::Error) -> MergeError {
    let path = path.to_path_buf();
    move |cause| MergeError::Io {
        path,
        action,
        cause,
    }
}
