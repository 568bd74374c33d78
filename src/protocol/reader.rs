//! The reader of an agent's standard output: a thread that turns the bytes
//! into lines for the process's owner, so that the harness never blocks on a
//! silent agent, bounded in everything the agent controls.
//!
//! An agent writes one line per request (`ready` after `hoyito 1`, one `move`
//! per `go`), so the harness never has more than one line to take. Whatever an
//! agent writes is bounded before it costs memory (unbounded, an agent that
//! writes newlines in a loop while its opponent thinks fills the harness at
//! 200 MB/s until it is killed with every game lost):
//!
//! - a line is at most [`MAX_LINE`] bytes;
//! - at most [`MAX_LINES_AHEAD`] lines wait for the harness (a bounded
//!   channel). An agent that writes more before the harness asks for them is
//!   flooding: the reader stops reading (the agent then blocks on its full
//!   pipe, or gets `EPIPE`), and the owner's next call reports the flood.
//!
//! At most `MAX_LINES_AHEAD * MAX_LINE` bytes (1 MiB) of an agent's output are
//! held at any time.

use std::io::{BufRead, BufReader, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

/// The longest line an agent may write; a longer one is a protocol error.
pub const MAX_LINE: usize = 64 * 1024;

/// The most lines an agent may write ahead of the harness's requests (the
/// lines-per-move limit): one more is a protocol error. A conforming agent
/// writes exactly one line per request.
pub const MAX_LINES_AHEAD: usize = 16;

/// What the reader thread hands over.
pub(super) enum Output {
    /// A line, without its newline.
    Line(String),
    /// A line that is too long or not UTF-8: what is wrong with it.
    Bad(String),
    /// The output closed.
    End,
}

/// What a wait for a line brought.
pub(super) enum Waited {
    /// What the reader handed over.
    Output(Output),
    /// Nothing yet.
    Nothing,
    /// The agent wrote more than [`MAX_LINES_AHEAD`] lines ahead.
    Flooded,
}

/// The owner's end: the lines, and whether the agent flooded.
pub(super) struct Lines {
    rx: Receiver<Output>,
    flooded: Arc<AtomicBool>,
}

impl Lines {
    /// Starts the reader thread over `stdout`.
    pub(super) fn start(stdout: impl Read + Send + 'static) -> std::io::Result<Lines> {
        let (tx, rx) = mpsc::sync_channel(MAX_LINES_AHEAD);
        let flooded = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&flooded);
        thread::Builder::new()
            .name("agent-reader".into())
            .spawn(move || read_lines(stdout, tx, &flag))?;
        Ok(Lines { rx, flooded })
    }

    /// Whether the agent wrote more lines than the harness may hold.
    pub(super) fn flooded(&self) -> bool {
        self.flooded.load(Ordering::SeqCst)
    }

    /// The next output, waiting at most `timeout`. A flood is reported before
    /// any line still waiting: those lines are part of it.
    pub(super) fn wait(&self, timeout: Duration) -> Waited {
        if self.flooded() {
            return Waited::Flooded;
        }
        match self.rx.recv_timeout(timeout) {
            Ok(out) => Waited::Output(out),
            Err(RecvTimeoutError::Timeout) => Waited::Nothing,
            // The reader stopped without a word: after a flood, or once it
            // has handed over the end.
            Err(RecvTimeoutError::Disconnected) if self.flooded() => Waited::Flooded,
            Err(RecvTimeoutError::Disconnected) => Waited::Output(Output::End),
        }
    }
}

/// The reader thread: lines of at most [`MAX_LINE`] bytes, at most
/// [`MAX_LINES_AHEAD`] of them waiting, then the end.
fn read_lines(stdout: impl Read, tx: SyncSender<Output>, flooded: &AtomicBool) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf);
        let out = match read {
            Ok(0) | Err(_) => Output::End,
            Ok(_) if buf.last() != Some(&b'\n') && buf.len() > MAX_LINE => {
                Output::Bad(format!("a line longer than {MAX_LINE} bytes"))
            }
            Ok(_) => {
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                }
                match String::from_utf8(std::mem::take(&mut buf)) {
                    Ok(line) => Output::Line(line),
                    Err(_) => Output::Bad("a line that is not UTF-8".into()),
                }
            }
        };
        if !matches!(out, Output::Line(_)) {
            // The end or a bad line is the last word (after a bad line the
            // agent is forfeited and killed): it waits for the owner.
            let _ = tx.send(out);
            return;
        }
        match tx.try_send(out) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                // Stop reading: the agent blocks on its pipe instead of
                // filling the harness's memory.
                flooded.store(true, Ordering::SeqCst);
                return;
            }
            Err(TrySendError::Disconnected(_)) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(input: &'static [u8]) -> Lines {
        Lines::start(input).expect("a thread starts")
    }

    fn next(lines: &Lines) -> Waited {
        lines.wait(Duration::from_secs(5))
    }

    #[test]
    fn lines_come_in_order_then_the_end() {
        let lines = collect(b"ready x\r\nmove 3\n");
        assert!(matches!(next(&lines), Waited::Output(Output::Line(l)) if l == "ready x\r"));
        assert!(matches!(next(&lines), Waited::Output(Output::Line(l)) if l == "move 3"));
        assert!(matches!(next(&lines), Waited::Output(Output::End)));
    }

    /// Lines that nobody takes: the reader holds MAX_LINES_AHEAD of them, and
    /// the one after is a flood, reported before the lines still waiting.
    #[test]
    fn more_lines_ahead_than_allowed_is_a_flood() {
        let lines = collect(b"\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n");
        let exactly: &'static [u8] = b"move 1\nmove 1\nmove 1\nmove 1\nmove 1\nmove 1\nmove 1\nmove 1\nmove 1\nmove 1\nmove 1\nmove 1\nmove 1\nmove 1\nmove 1\nmove 1\n";
        let full = collect(exactly);
        // The reader stops at the seventeenth line: wait for it to get there.
        let start = std::time::Instant::now();
        while !lines.flooded() {
            assert!(start.elapsed() < Duration::from_secs(10), "no flood seen");
            thread::sleep(Duration::from_millis(5));
        }
        assert!(matches!(next(&lines), Waited::Flooded));
        // Sixteen lines then the end fit: sixteen lines and no flood.
        for _ in 0..MAX_LINES_AHEAD {
            assert!(matches!(next(&full), Waited::Output(Output::Line(l)) if l == "move 1"));
        }
        assert!(matches!(next(&full), Waited::Output(Output::End)));
        assert!(!full.flooded());
    }
}
