//! The names a merge into `OUT` uses beside it: the hidden staging
//! directory `.OUT.merging`, where the merged directory is built, and
//! `.OUT.replaced`, where old results are set aside on a file system that
//! cannot exchange two names. Both are on `OUT`'s file system, so that renames
//! move them; both are shared by the steps that make, swap and clear them.

use std::fs;
use std::path::{Path, PathBuf};

use super::error::{io_error, MergeError};

/// `out` with a last component to name the directories beside it by: a
/// path ending in `.` or `..` is resolved.
pub(super) fn named(out: &Path) -> Result<PathBuf, MergeError> {
    match out.file_name() {
        Some(_) => Ok(out.to_path_buf()),
        None => fs::canonicalize(out).map_err(io_error(out, "resolve it")),
    }
}

/// The directory that holds `out`.
pub(super) fn parent_of(out: &Path) -> PathBuf {
    match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The hidden name `.NAME.suffix` beside `out`, where a merge into `out`
/// builds the new directory (`merging`) or sets the old one aside
/// (`replaced`): on the same file system, so that renames move them.
fn beside(out: &Path, suffix: &str) -> PathBuf {
    let name = out
        .file_name()
        .map_or_else(|| "merge".into(), |n| n.to_string_lossy().into_owned());
    parent_of(out).join(format!(".{name}.{suffix}"))
}

/// Where a merge into `out` builds the merged directory.
pub(super) fn staging_path(out: &Path) -> PathBuf {
    beside(out, "merging")
}

/// Where a merge into `out` sets the old directory aside, on a file system
/// that cannot exchange two names.
pub(super) fn aside_path(out: &Path) -> PathBuf {
    beside(out, "replaced")
}
