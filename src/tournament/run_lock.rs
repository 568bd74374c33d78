//! The lock of a results directory: one writer at a time.
//!
//! Without it, a second `hoyito run --force` into a directory that a first
//! run is still writing deletes the first run's files under it, and the first
//! run exits claiming games that are no longer there. So a run holds an
//! exclusive advisory lock on `DIR/.lock` for its whole life (the
//! [`super::RunDir`] owns it, and the kernel releases it when the process
//! ends, however it ends), and writes its PID and command line into the file
//! so that a refused second writer can be told who holds it. `hoyito report
//! DIR` takes a shared lock: a report is not drawn from a file being written.
//!
//! Source: flock(2) (Linux, BSD): `LOCK_EX | LOCK_NB` and `LOCK_SH | LOCK_NB`
//! fail with `EWOULDBLOCK` while a conflicting lock is held; locks belong to
//! the open file description, so a second open of the same file conflicts
//! even within one process. (std's `File::try_lock` does the same from Rust
//! 1.89, above this crate's minimum version.)

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::records::safe_file::{is_symlink, open_existing_no_follow, open_read_no_follow};

/// The lock file, inside the results directory.
pub const LOCK_FILE: &str = ".lock";

/// A directory that cannot be locked.
#[derive(Debug, Error)]
pub enum LockError {
    /// Another process holds the lock.
    #[error(
        "{} is in use by another hoyito process ({holder}): wait for it to end, \
         or stop it, before writing or reporting this directory",
        dir.display()
    )]
    Held {
        /// The directory.
        dir: PathBuf,
        /// What the holder wrote into the lock file: its PID and command.
        holder: String,
    },
    /// The lock file could not be opened or written.
    #[error("{}: cannot {action}", path.display())]
    Io {
        /// The lock file.
        path: PathBuf,
        /// What was being done.
        action: &'static str,
        /// Why.
        source: io::Error,
    },
}

/// A held lock on a results directory, released when dropped.
#[derive(Debug)]
pub struct DirLock {
    _file: File,
}

/// Takes the exclusive lock of `dir` (which must exist) for a writer, and
/// records this process in it.
pub fn lock_exclusive(dir: &Path) -> Result<DirLock, LockError> {
    let path = dir.join(LOCK_FILE);
    let io = |action| {
        let path = path.clone();
        move |source| LockError::Io {
            path,
            action,
            source,
        }
    };
    let mut file = match open_existing_no_follow(&path) {
        Ok(file) => file,
        Err(err) if err.kind() == io::ErrorKind::NotFound && !is_symlink(&path) => {
            match crate::records::safe_file::create_new(&path) {
                Ok(file) => file,
                // Created by another process just now: open that one.
                Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {
                    open_existing_no_follow(&path).map_err(io("open it"))?
                }
                Err(err) => return Err(io("create it")(err)),
            }
        }
        Err(err) => return Err(io("open it")(err)),
    };
    match try_flock(&file, libc::LOCK_EX) {
        Ok(true) => {}
        Ok(false) => return Err(held(dir, &mut file)),
        Err(err) => return Err(io("lock it")(err)),
    }
    let me = format!("pid {}: {}", std::process::id(), command_line());
    file.set_len(0).map_err(io("write it"))?;
    file.seek(SeekFrom::Start(0)).map_err(io("write it"))?;
    file.write_all(me.as_bytes()).map_err(io("write it"))?;
    Ok(DirLock { _file: file })
}

/// Takes a shared lock of `dir` for a reader, if the directory has a lock
/// file (a directory written before locks existed, or by hand, has none and
/// is read as it is).
pub fn lock_shared(dir: &Path) -> Result<Option<DirLock>, LockError> {
    let path = dir.join(LOCK_FILE);
    let mut file = match open_read_no_follow(&path) {
        Ok(file) => file,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(LockError::Io {
                path,
                action: "open it",
                source,
            })
        }
    };
    match try_flock(&file, libc::LOCK_SH) {
        Ok(true) => Ok(Some(DirLock { _file: file })),
        Ok(false) => Err(held(dir, &mut file)),
        Err(source) => Err(LockError::Io {
            path,
            action: "lock it",
            source,
        }),
    }
}

/// Tries to take `operation` (`LOCK_EX` or `LOCK_SH`) on `file` without
/// waiting: `false` when another open file holds a conflicting lock.
fn try_flock(file: &File, operation: libc::c_int) -> io::Result<bool> {
    loop {
        // SAFETY: flock takes a file descriptor, open for as long as `file`
        // is borrowed, and flags; it touches no memory of ours.
        let rc = unsafe { libc::flock(file.as_raw_fd(), operation | libc::LOCK_NB) };
        if rc == 0 {
            return Ok(true);
        }
        let err = io::Error::last_os_error();
        match err.raw_os_error() {
            Some(libc::EWOULDBLOCK) => return Ok(false),
            Some(libc::EINTR) => continue,
            _ => return Err(err),
        }
    }
}

/// The error for a lock held by someone else, naming them as they wrote
/// themselves into the file.
fn held(dir: &Path, file: &mut File) -> LockError {
    let mut text = String::new();
    let read = file
        .seek(SeekFrom::Start(0))
        .and_then(|_| file.take(4096).read_to_string(&mut text));
    let holder = match read {
        Ok(_) if !text.trim().is_empty() => text.trim().to_string(),
        _ => "holder unknown".to_string(),
    };
    LockError::Held {
        dir: dir.to_path_buf(),
        holder,
    }
}

/// This process's command line, arguments separated by spaces, on one line.
fn command_line() -> String {
    std::env::args()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_or_a_reader_is_refused_while_a_writer_holds_it() {
        let tmp = tempfile::tempdir().unwrap();
        let first = lock_exclusive(tmp.path()).unwrap();
        let err = lock_exclusive(tmp.path()).unwrap_err().to_string();
        assert!(
            err.contains(&format!("pid {}", std::process::id())),
            "{err}"
        );
        assert!(lock_shared(tmp.path()).is_err());
        drop(first);
        let readers = (
            lock_shared(tmp.path()).unwrap(),
            lock_shared(tmp.path()).unwrap(),
        );
        assert!(readers.0.is_some() && readers.1.is_some());
        assert!(lock_exclusive(tmp.path()).is_err());
        drop(readers);
        assert!(lock_exclusive(tmp.path()).is_ok());
    }

    #[test]
    fn a_directory_without_a_lock_file_is_read_unlocked() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(lock_shared(tmp.path()).unwrap().is_none());
    }
}
