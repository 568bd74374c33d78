//! Every table file this process has mapped, watched: a file changed in
//! place while it is mapped is a clear error, never a silently wrong value.
//!
//! A mapped table is read straight from the page cache, so whatever another
//! program does to the file shows through (a tables directory that changes
//! during a run). Replacing a table by rename, the only way hoyito itself
//! writes one, is harmless: the mapping keeps the old file. Two changes in
//! place are not:
//! - **truncated** (`cp` and `>` truncate before they write): reading a lost
//!   page raises `SIGBUS`, which by default kills the process without a
//!   word. [`register`] installs, once, a handler that finds the table the
//!   faulting address belongs to, prints which file it was and how to go on,
//!   and exits with status 1 (the run resumes from its last whole row, as
//!   after `kill -9`). A `SIGBUS` anywhere else goes to the handler that was
//!   there before (Rust's own, or the default).
//! - **written to in place** (other bytes of the same length: no signal,
//!   only other values): [`check_unchanged`] compares each file's size,
//!   modification time and change time (`fstat` on the descriptor kept
//!   open, so it is the mapped file that is looked at, not a new one at the
//!   same path) with those taken before its checksum was verified. Any
//!   write since then is an error naming the file, even one that put the
//!   same bytes back (values read in between cannot be vouched for). The
//!   one change let through is the file's last name going (a rename over
//!   it, a removal: its size and modification time unchanged, no link
//!   left), which leaves the mapping as it was. A run (`hoyito run`,
//!   `hoyito match`, the Python package's `hoyito.run`/`hoyito.match`)
//!   calls it before it writes each chunk of rows, so every row written was
//!   finished before a check that found every table as verified; commands
//!   that write no rows (`accuracy`, `best`, `hoyito.Tables`) do not check.

use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
use std::sync::{Mutex, Once, PoisonError};

use thiserror::Error;

/// A mapped table file whose contents are no longer the ones verified.
#[derive(Debug, Clone, Error)]
#[error(
    "the table file {} was written to in place while this process had it mapped: \
     no game that might have read it after the change is recorded; \
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
    links: u64,
}

impl Stamp {
    fn of(file: &File) -> std::io::Result<Stamp> {
        let meta = file.metadata()?;
        Ok(Stamp {
            len: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
            links: meta.nlink(),
        })
    }
}

/// One watched mapping.
struct Watched {
    id: usize,
    file: File,
    path: PathBuf,
    stamp: Stamp,
}

static WATCHED: Mutex<Vec<Watched>> = Mutex::new(Vec::new());
static NEXT_ID: AtomicUsize = AtomicUsize::new(1);

/// Address ranges the signal handler can read without a lock: `start == 0`
/// is a free slot. A mapping beyond the last slot is still watched by
/// [`check_unchanged`]; its `SIGBUS` only loses the message.
struct Range {
    start: AtomicUsize,
    end: AtomicUsize,
    /// The path's bytes to print: one pointer to a slice that is never
    /// freed (a few bytes a table mapped), so that a handler reading a slot
    /// while another registration takes it prints one path or the other,
    /// never freed memory or half of each.
    path: AtomicPtr<&'static [u8]>,
}

const SLOTS: usize = 1024;

#[allow(clippy::declare_interior_mutable_const)]
const FREE: Range = Range {
    start: AtomicUsize::new(0),
    end: AtomicUsize::new(0),
    path: AtomicPtr::new(std::ptr::null_mut()),
};

static RANGES: [Range; SLOTS] = [FREE; SLOTS];

/// Keeps a mapping watched; dropping it (before the mapping is unmapped)
/// stops the watch.
#[derive(Debug)]
pub struct Registration {
    id: usize,
    slot: Option<usize>,
}

impl Drop for Registration {
    fn drop(&mut self) {
        let mut watched = WATCHED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(slot) = self.slot {
            let range = &RANGES[slot];
            range.start.store(0, Ordering::SeqCst);
            range.end.store(0, Ordering::SeqCst);
        }
        watched.retain(|w| w.id != self.id);
    }
}

/// Watches the mapping of `bytes` from `file` (opened at `path`): call it
/// after mapping and before verifying the checksum, so that a change during
/// the verification is seen too.
pub fn register(file: File, path: &Path, bytes: &[u8]) -> std::io::Result<Registration> {
    install_handler();
    let stamp = Stamp::of(&file)?;
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let start = bytes.as_ptr() as usize;
    let mut watched = WATCHED.lock().unwrap_or_else(PoisonError::into_inner);
    let slot = (!bytes.is_empty())
        .then(|| {
            RANGES
                .iter()
                .position(|r| r.start.load(Ordering::SeqCst) == 0)
        })
        .flatten();
    if let Some(slot) = slot {
        let shown: &'static [u8] =
            Box::leak(path.display().to_string().into_bytes().into_boxed_slice());
        let range = &RANGES[slot];
        range
            .path
            .store(Box::leak(Box::new(shown)), Ordering::SeqCst);
        range.end.store(start + bytes.len(), Ordering::SeqCst);
        range.start.store(start, Ordering::SeqCst);
    }
    watched.push(Watched {
        id,
        file,
        path: path.to_path_buf(),
        stamp,
    });
    Ok(Registration { id, slot })
}

/// Checks every mapped table file of the process: `Err` names the first
/// written to since it was mapped and verified. One `fstat` a file.
pub fn check_unchanged() -> Result<(), TableChanged> {
    let mut watched = WATCHED.lock().unwrap_or_else(PoisonError::into_inner);
    for w in watched.iter_mut() {
        let changed = || TableChanged {
            path: w.path.clone(),
        };
        let now = Stamp::of(&w.file).map_err(|_| changed())?;
        if now == w.stamp {
            continue;
        }
        // Its last name gone (renamed over, removed): the contents, which
        // the mapping keeps, are untouched.
        let unlinked = now.links == 0 && now.len == w.stamp.len && now.mtime == w.stamp.mtime;
        if !unlinked {
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
            // SAFETY: the pointer is to a leaked `&'static [u8]`, never freed.
            say(unsafe { *path });
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
