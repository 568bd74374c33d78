//! An agent's standard error log, `DIR/agents/NAME.stderr.log`, capped.
//!
//! Standard error is free for an agent's logging, and it must never block the
//! agent nor reach the terminal, so a thread copies it into the log. The copy
//! stops at [`STDERR_LOG_CAP`] bytes of the file (uncapped, a chatty agent
//! grew its log to 120 MB in 4 games): the first bytes are kept, a line
//! that says so is written where the cut falls, and the rest is read and
//! dropped, so the agent goes on unhindered. The cap is on the file, which the
//! agent's processes (one per worker thread, a fresh one after a forfeit)
//! share: each copy checks the file's length before it writes, so the file
//! ends at most a read's worth (8 KiB) past the cap per process writing at
//! that moment. The harness's own lines (`hoyito: forfeit ...`) are appended
//! whatever the length: there is at most one a game.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::mpsc::{self, Receiver};
use std::thread;

/// The most bytes of an agent's standard error kept in its log (8 MiB).
pub const STDERR_LOG_CAP: u64 = 8 << 20;

/// The line written where the log reaches its cap.
pub const STDERR_LOG_CUT: &str = "\nhoyito: this log reached its cap of 8 MiB (8388608 bytes); \
     the rest of this agent's standard error is discarded\n";

/// Opens (creates) the log for appending: never through a symbolic link, at
/// the log or at its directory.
pub(super) fn open(path: &Path) -> io::Result<File> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
        // A link in place of the log directory would send the logs wherever
        // it points: refused, as a link at the log.
        if crate::records::safe_file::is_symlink(dir) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{} is a symbolic link: agent logs are not written through links",
                    dir.display()
                ),
            ));
        }
    }
    crate::records::safe_file::open_append_no_follow(path)
}

/// Starts the thread that copies `stderr` into `log` up to the cap. It ends
/// when every process holding the other end of the pipe has closed it, and
/// then says so on the channel returned, so that whoever ends the agent can
/// wait for its last lines to be in the log.
pub(super) fn start(stderr: impl Read + Send + 'static, log: File) -> io::Result<Receiver<()>> {
    let (done, copied) = mpsc::channel();
    thread::Builder::new()
        .name("agent-stderr".into())
        .spawn(move || {
            copy_capped(stderr, log, STDERR_LOG_CAP);
            let _ = done.send(());
        })?;
    Ok(copied)
}

/// Copies `from` into `log` while the file is shorter than `cap`, then reads
/// and drops the rest.
fn copy_capped(mut from: impl Read, mut log: File, cap: u64) {
    let mut buf = [0u8; 8192];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        // A log that cannot be measured or written is given up: the agent's
        // output is still drained, so the agent never blocks on it.
        let Ok(len) = log.metadata().map(|m| m.len()) else {
            continue;
        };
        if len >= cap {
            continue;
        }
        let keep = n.min((cap - len) as usize);
        let mut written = log.write_all(&buf[..keep]);
        if len + n as u64 >= cap {
            written = written.and_then(|()| log.write_all(STDERR_LOG_CUT.as_bytes()));
        }
        // Failing to write the log changes nothing for the game.
        drop(written);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_keeps_the_first_bytes_and_says_where_it_was_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.stderr.log");
        std::fs::write(&path, b"old\n").unwrap();
        let input = vec![b'e'; 100_000];
        copy_capped(&input[..], open(&path).unwrap(), 50_000);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("old\neee"), "{}", &text[..10]);
        assert_eq!(text.len(), 50_000 + STDERR_LOG_CUT.len());
        assert!(text.ends_with(STDERR_LOG_CUT));
        // A later process of the same agent adds nothing to a full log.
        copy_capped(&input[..], open(&path).unwrap(), 50_000);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }

    #[test]
    fn the_cut_line_names_the_cap() {
        assert!(STDERR_LOG_CUT.contains(&STDERR_LOG_CAP.to_string()));
    }
}
