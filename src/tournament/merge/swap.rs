//! Swapping the merged directory in for a used `OUT` (`merge --force`), so
//! that at every instant `OUT` is the whole old directory or the whole new
//! one, never a mix: one `renameat2(RENAME_EXCHANGE)` on Linux, else two
//! renames through the aside name, then the old directory deleted.
//!
//! Source: rename(2), Linux: "RENAME_EXCHANGE: Atomically exchange oldpath
//! and newpath. Both pathnames must exist but may be of different types";
//! "EINVAL: The filesystem does not support one of the flags in flags".

use std::fs;
use std::io;
use std::path::Path;

use super::error::{io_error, MergeError};
use super::names::aside_path;

/// How [`replace`] swaps the two directories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Swap {
    /// One `renameat2(RENAME_EXCHANGE)`, or the two renames where the file
    /// system cannot.
    Exchange,
    /// The two renames, through the aside name (tests of that path).
    #[cfg_attr(not(test), allow(dead_code))]
    Aside,
}

/// Replaces the used directory `out` by the complete directory `staging`
/// beside it, so that `out` is at every instant the whole old or the whole
/// new one, then deletes the old one (an old one that cannot be deleted is
/// told to `note`, and cleared by the next merge). `stop` is asked before
/// and after each step whether to stop there as a killed process would, with
/// no clean-up: tests check what is left at each point; a merge passes a
/// closure that never stops.
pub(super) fn replace(
    staging: &Path,
    out: &Path,
    swap: Swap,
    stop: &mut dyn FnMut() -> bool,
    note: &mut dyn FnMut(String),
) -> Result<(), MergeError> {
    if stop() {
        return Ok(());
    }
    let exchanged = swap == Swap::Exchange
        && match exchange(staging, out) {
            Ok(()) => true,
            Err(err) if exchange_unsupported(&err) => false,
            Err(cause) => return Err(io_error(out, "swap the merged directory in")(cause)),
        };
    let old = if exchanged {
        staging.to_path_buf()
    } else {
        let aside = aside_path(out);
        fs::rename(out, &aside).map_err(io_error(out, "move it aside"))?;
        if stop() {
            return Ok(());
        }
        if let Err(cause) = fs::rename(staging, out) {
            return Err(match fs::rename(&aside, out) {
                Ok(()) => io_error(out, "move the merged directory into its place")(cause),
                Err(_) => MergeError::Swap {
                    out: out.to_path_buf(),
                    aside,
                    cause,
                },
            });
        }
        aside
    };
    if stop() {
        return Ok(());
    }
    if let Err(cause) = fs::remove_dir_all(&old) {
        note(format!(
            "the merged results are in {}, but its old results could not be deleted from {} \
             ({cause}): delete that directory (the next merge into {} does)",
            out.display(),
            old.display(),
            out.display()
        ));
    }
    Ok(())
}

/// Swaps the names `a` and `b` (both must exist) in one step.
#[cfg(all(target_os = "linux", any(target_env = "gnu", target_env = "musl")))]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let a = CString::new(a.as_os_str().as_bytes())?;
    let b = CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: two NUL-terminated paths that live across the call, the
    // current-directory descriptor, and a flag; nothing else is touched.
    let rc = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    match rc {
        0 => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

/// Swapping two names in one step is Linux's: elsewhere the two renames.
#[cfg(not(all(target_os = "linux", any(target_env = "gnu", target_env = "musl"))))]
fn exchange(_: &Path, _: &Path) -> io::Result<()> {
    Err(io::ErrorKind::Unsupported.into())
}

/// Whether `exchange` failed because the system or the file system cannot
/// exchange (then the two renames do it).
fn exchange_unsupported(err: &io::Error) -> bool {
    err.kind() == io::ErrorKind::Unsupported
        || matches!(
            err.raw_os_error(),
            Some(libc::EINVAL | libc::ENOSYS | libc::EOPNOTSUPP)
        )
}
