//! Every table file this process has mapped, watched: a file changed in
//! place while it is mapped is a clear error, never a silently wrong value.
//!
//! A mapped table is read straight from the page cache, so whatever another
//! program does to the file shows through (issue 37: "a tables directory
//! that changes during a run"). Replacing a table by rename, the only way
//! hoyito itself writes one, is harmless: the mapping keeps the old file.
//! Two changes in place are not:
//! - **truncated** (`cp` and `>` truncate before they write): reading a lost
//!   page raises `SIGBUS`, which by default kills the process without a
//!   word. [`register`] installs, once, a handler that finds the table the
//!   faulting address belongs to, prints which file it was and how to go on,
//!   and exits with status 1 (the run resumes from its last whole row, as
//!   after `kill -9`). A `SIGBUS` anywhere else goes to the handler that was
//!   there before (Rust's own, or the default).
//! - **rewritten with other bytes of the same length**: no signal, only
//!   other values. [`check_unchanged`] compares each file's size, change
//!   time and modification time (`fstat` on the descriptor kept open, so it
//!   is the mapped file that is looked at, not a new one at the same path)
//!   with those taken before its checksum was verified; a file whose stamp
//!   moved has its checksum verified again over the mapping, and one that
//!   fails is an error naming it. A run calls it before it writes each
//!   chunk of rows, so every row written was finished before a check that
//!   found every table as verified.

use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
use std::sync::{Mutex, Once, PoisonError};

use thiserror::Error;

/// A mapped table file whose contents are no longer the ones verified.
#[derive(Debug, Clone, Error)]
#[error(
    "the table file {} was changed in place while this process had it mapped \
     (its checksum no longer matches): no value read from it after the change is used; \
     restore the tables (`hoyito solve --tables DIR` rebuilds them; replace a table \
     by writing a new file and renaming it over the old one) and run again",
    path.display()
)]
pub struct TableChanged {
    /// The file.
    pub path: PathBuf,
}

/// What tells a file's contents changed without reading them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Stamp {
    fn of(file: &File) -> std::io::Result<Stamp> {
        let meta = file.metadata()?;
        Ok(Stamp {
            len: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        })
    }
}

/// Whether mapped bytes are still the verified table (its checksum).
pub type Verify = fn(&[u8]) -> bool;

/// One watched mapping.
struct Watched {
    id: usize,
    file: File,
    path: PathBuf,
    stamp: Stamp,
    start: usize,
    len: usize,
    /// The first bytes as verified (the header, its checksum included).
    header: Box<[u8]>,
    verify: Verify,
}

static WATCHED: Mutex<Vec<Watched>> = Mutex::new(Vec::new());
static NEXT_ID: AtomicUsize = AtomicUsize::new(1);

/// Address ranges the signal handler can read without a lock: `start == 0`
/// is a free slot. A mapping beyond the last slot is still watched by
/// [`check_unchanged`]; its `SIGBUS` only loses the message.
struct Range {
    start: AtomicUsize,
    end: AtomicUsize,
    path: AtomicPtr<u8>,
    path_len: AtomicUsize,
}

const SLOTS: usize = 1024;

#[allow(clippy::declare_interior_mutable_const)]
const FREE: Range = Range {
    start: AtomicUsize::new(0),
    end: AtomicUsize::new(0),
    path: AtomicPtr::new(std::ptr::null_mut()),
    path_len: AtomicUsize::new(0),
};

static RANGES: [Range; SLOTS] = [FREE; SLOTS];

/// Keeps a mapping watched; dropping it (before the mapping is unmapped)
/// stops the watch.
#[derive(Debug)]
pub struct Registration {
    id: usize,
    slot: Option<usize>,
    /// The path's bytes the handler prints, freed with the registration.
    _path: Box<[u8]>,
}

impl Drop for Registration {
    fn drop(&mut self) {
        let mut watched = WATCHED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(slot) = self.slot {
            let range = &RANGES[slot];
            range.start.store(0, Ordering::SeqCst);
            range.end.store(0, Ordering::SeqCst);
            range.path.store(std::ptr::null_mut(), Ordering::SeqCst);
        }
        watched.retain(|w| w.id != self.id);
    }
}

/// Watches the mapping of `bytes` from `file` (opened at `path`): call it
/// after mapping and before verifying the checksum, so that a change during
/// the verification is seen too. When the file's stamp moves, the mapping
/// is taken as unchanged only if its first `header_len` bytes (which hold
/// the checksum) are the ones there now and `verify` accepts the bytes.
pub fn register(
    file: File,
    path: &Path,
    bytes: &[u8],
    header_len: usize,
    verify: Verify,
) -> std::io::Result<Registration> {
    install_handler();
    let stamp = Stamp::of(&file)?;
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let start = bytes.as_ptr() as usize;
    let mut shown: Box<[u8]> = path.display().to_string().into_bytes().into_boxed_slice();
    let mut watched = WATCHED.lock().unwrap_or_else(PoisonError::into_inner);
    let slot = (!bytes.is_empty())
        .then(|| {
            RANGES
                .iter()
                .position(|r| r.start.load(Ordering::SeqCst) == 0)
        })
        .flatten();
    if let Some(slot) = slot {
        let range = &RANGES[slot];
        range.path.store(shown.as_mut_ptr(), Ordering::SeqCst);
        range.path_len.store(shown.len(), Ordering::SeqCst);
        range.end.store(start + bytes.len(), Ordering::SeqCst);
        range.start.store(start, Ordering::SeqCst);
    }
    watched.push(Watched {
        id,
        file,
        path: path.to_path_buf(),
        stamp,
        start,
        len: bytes.len(),
        header: bytes[..header_len.min(bytes.len())].into(),
        verify,
    });
    Ok(Registration {
        id,
        slot,
        _path: shown,
    })
}

/// Checks every mapped table file of the process: `Err` names the first
/// whose contents are no longer the ones verified. Cheap when nothing
/// changed (one `fstat` a file); a file whose size or times moved has its
/// header compared and its checksum verified again (a rename over it, or
/// the same bytes written again, passes).
pub fn check_unchanged() -> Result<(), TableChanged> {
    let mut watched = WATCHED.lock().unwrap_or_else(PoisonError::into_inner);
    for w in watched.iter_mut() {
        let now = Stamp::of(&w.file);
        if now.as_ref().is_ok_and(|now| *now == w.stamp) {
            continue;
        }
        let changed = || TableChanged {
            path: w.path.clone(),
        };
        let now = now.map_err(|_| changed())?;
        if now.len != w.len as u64 {
            return Err(changed());
        }
        // SAFETY: the mapping is alive while it is registered (the
        // registration is dropped before it is unmapped), and its length
        // equals the file's, so no page of it is lost.
        let bytes = unsafe { std::slice::from_raw_parts(w.start as *const u8, w.len) };
        if !bytes.starts_with(&w.header) || !(w.verify)(bytes) {
            return Err(changed());
        }
        w.stamp = now;
    }
    Ok(())
}

/// The `SIGBUS` action in place before [`install_handler`]'s.
static PREVIOUS_ACTION: AtomicUsize = AtomicUsize::new(0);
static PREVIOUS_FLAGS: AtomicUsize = AtomicUsize::new(0);

fn install_handler() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: sigaction with a zeroed struct, a handler that only calls
        // async-signal-safe functions (write, _exit, sigaction) and reads
        // atomics, and a valid pointer for the previous action.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigbus as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut action.sa_mask);
            let mut previous: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGBUS, &action, &mut previous) == 0 {
                PREVIOUS_ACTION.store(previous.sa_sigaction, Ordering::SeqCst);
                PREVIOUS_FLAGS.store(previous.sa_flags as usize, Ordering::SeqCst);
            }
        }
    });
}

/// Writes `bytes` to standard error, as much as goes.
fn say(bytes: &[u8]) {
    // SAFETY: write(2) is async-signal-safe; the pointer and length are a
    // live slice.
    unsafe {
        libc::write(2, bytes.as_ptr().cast(), bytes.len());
    }
}

extern "C" fn on_sigbus(
    signal: libc::c_int,
    info: *mut libc::siginfo_t,
    context: *mut libc::c_void,
) {
    // SAFETY: the kernel passes a valid siginfo with SA_SIGINFO.
    let address = unsafe { (*info).si_addr() } as usize;
    for range in RANGES.iter() {
        let start = range.start.load(Ordering::SeqCst);
        if start == 0 || address < start || address >= range.end.load(Ordering::SeqCst) {
            continue;
        }
        let path = range.path.load(Ordering::SeqCst);
        say(b"hoyito: the table file ");
        if !path.is_null() {
            // SAFETY: the registration owns these bytes until it clears the
            // slot, and the mapping faulting now is still registered.
            say(unsafe { std::slice::from_raw_parts(path, range.path_len.load(Ordering::SeqCst)) });
        }
        say(b" was truncated while this process had it mapped, so its values are gone: \
              stopping before any value is read from it. Restore the tables (`hoyito solve --tables DIR` \
              rebuilds them; replace a table by writing a new file and renaming it over the old one) \
              and run the same command again: a run resumes from its last whole row.\n");
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(1) };
    }
    // Not a table: whatever handled SIGBUS before.
    let previous = PREVIOUS_ACTION.load(Ordering::SeqCst);
    let flags = PREVIOUS_FLAGS.load(Ordering::SeqCst) as libc::c_int;
    // SAFETY: the previous action was a valid handler of this signal (or
    // SIG_DFL / SIG_IGN, handled by restoring it: returning re-runs the
    // faulting access, which raises the signal again under that action).
    unsafe {
        if previous == libc::SIG_DFL || previous == libc::SIG_IGN {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = libc::SIG_DFL;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
        } else if flags & libc::SA_SIGINFO != 0 {
            let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                std::mem::transmute(previous);
            handler(signal, info, context);
        } else {
            let handler: extern "C" fn(libc::c_int) = std::mem::transmute(previous);
            handler(signal);
        }
    }
}
