//! The owner of one agent process: started without a shell, spoken to line by
//! line, every read with a deadline, and killed with everything it started
//! when the owner drops.
//!
//! Modelled on fastchess `engine/process/` and cutechess's engine manager: one
//! owner per child; a reader thread turns the child's standard output into
//! bounded lines ([`super::reader`]) so that the harness never blocks on a
//! silent child nor fills up with a chatty one; the child's standard error
//! goes to a capped log file ([`super::stderr_log`]), never onto the terminal;
//! how the child is started and swept so that nothing it starts outlives the
//! harness is [`super::reaper`].
//!
//! A wait for a line also watches the process: an agent that exits while a
//! process it started still holds its output open is a crash at once, not a
//! silence that runs out the clock.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

use super::reader::{Lines, Output, Waited, MAX_LINES_AHEAD};
use super::{reaper, stderr_log};

/// Why talking to an agent process failed.
#[derive(Debug, Error)]
pub enum ProcessError {
    /// The program could not be started.
    #[error("cannot start {program:?}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        source: io::Error,
    },
    /// The stderr log could not be created.
    #[error("cannot create the agent's stderr log {path}: {source}")]
    Log {
        /// The log file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The command is empty.
    #[error("the agent's command is empty")]
    NoCommand,
    /// The process closed its output or exited.
    #[error("the agent exited{}", status.as_ref().map(|s| format!(" ({s})")).unwrap_or_default())]
    Exited {
        /// Its exit status, if known.
        status: Option<String>,
    },
    /// No line came before the deadline.
    #[error("no answer within {0} ms")]
    Timeout(u64),
    /// A line longer than [`MAX_LINE`](super::MAX_LINE) bytes or not UTF-8.
    #[error("unreadable output: {0}")]
    BadLine(String),
    /// More lines than [`MAX_LINES_AHEAD`] written ahead of the requests.
    #[error(
        "flooding: more than {MAX_LINES_AHEAD} lines written ahead of the harness's requests \
         (one line per request: \"ready\" after \"hoyito\", one \"move\" per \"go\")"
    )]
    Flood,
}

/// How often a wait for a line checks that the process is still there.
const EXIT_CHECK: Duration = Duration::from_millis(50);

/// A running agent process.
pub struct AgentProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Lines,
    closed: bool,
    /// The value of the agent's `HOYITO_AGENT` marker.
    marker: String,
    /// Told when the copy of its standard error into the log has ended.
    stderr_copied: Option<Receiver<()>>,
}

/// The longest an ended agent's last lines of standard error are waited
/// for (a helper it started outside its group could hold the pipe open).
const STDERR_DRAIN: Duration = Duration::from_secs(2);

impl AgentProcess {
    /// Starts `command` (program and arguments, no shell) in `working_dir`, its
    /// standard error appended to `stderr_log` (discarded when `None`).
    pub fn spawn(
        command: &[String],
        working_dir: Option<&Path>,
        stderr_log: Option<&Path>,
    ) -> Result<AgentProcess, ProcessError> {
        let (program, args) = command.split_first().ok_or(ProcessError::NoCommand)?;
        let log = match stderr_log {
            Some(path) => Some(stderr_log::open(path).map_err(|source| ProcessError::Log {
                path: path.to_path_buf(),
                source,
            })?),
            None => None,
        };
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if log.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            });
        if let Some(dir) = working_dir {
            cmd.current_dir(dir);
        }
        let marker = reaper::prepare(&mut cmd);
        let spawn_error = |source| ProcessError::Spawn {
            program: program.clone(),
            source,
        };
        let mut child = cmd.spawn().map_err(spawn_error)?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout was piped");
        let mut process = AgentProcess {
            child,
            stdin,
            lines: Lines::start(stdout).map_err(spawn_error)?,
            closed: false,
            marker,
            stderr_copied: None,
        };
        if let (Some(log), Some(stderr)) = (log, process.child.stderr.take()) {
            process.stderr_copied = Some(stderr_log::start(stderr, log).map_err(spawn_error)?);
        }
        Ok(process)
    }

    /// Writes one line (the newline is added) and flushes it.
    pub fn send(&mut self, line: &str) -> Result<(), ProcessError> {
        if self.lines.flooded() {
            return Err(ProcessError::Flood);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.exited());
        };
        let written = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        written.map_err(|_| self.exited())
    }

    /// The next line the agent writes, without its newline, waiting at most
    /// `timeout`; an exit of the agent ends the wait even while a process it
    /// started holds its output open.
    pub fn recv(&mut self, timeout: Duration) -> Result<String, ProcessError> {
        if self.closed {
            return Err(self.exited());
        }
        let start = Instant::now();
        loop {
            let left = timeout.saturating_sub(start.elapsed());
            let waited = self.lines.wait(left.min(EXIT_CHECK));
            let out = match waited {
                Waited::Output(out) => out,
                Waited::Flooded => return Err(ProcessError::Flood),
                Waited::Nothing if left <= EXIT_CHECK => {
                    return Err(ProcessError::Timeout(timeout.as_millis() as u64))
                }
                Waited::Nothing if self.is_alive() => continue,
                // Exited, its output held open by another process: a line it
                // wrote before it went may still be on its way.
                Waited::Nothing => match self.lines.wait(EXIT_CHECK) {
                    Waited::Output(out) => out,
                    Waited::Flooded => return Err(ProcessError::Flood),
                    Waited::Nothing => Output::End,
                },
            };
            return match out {
                Output::Line(line) => Ok(line),
                Output::Bad(why) => Err(ProcessError::BadLine(why)),
                Output::End => {
                    self.closed = true;
                    Err(self.exited())
                }
            };
        }
    }

    /// Whether the process has not exited.
    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Closes the agent's input, gives it `grace` to exit by itself, then kills
    /// its process group and what it left behind.
    pub fn close(mut self, grace: Duration) {
        self.stdin = None;
        let step = Duration::from_millis(5);
        let mut waited = Duration::ZERO;
        while waited < grace {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            thread::sleep(step);
            waited += step;
        }
        // Drop kills what is left.
    }

    /// The error for a process whose pipes are closed, with its exit status if
    /// it has one (after a short wait: the pipes close just before the exit).
    fn exited(&mut self) -> ProcessError {
        let mut status = None;
        for _ in 0..20 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s.to_string());
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        ProcessError::Exited { status }
    }
}

impl Drop for AgentProcess {
    fn drop(&mut self) {
        self.stdin = None;
        // The group first, while its leader is unreaped (so its id is ours).
        reaper::kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Then what left the group and came back to us as orphans.
        reaper::sweep(&self.marker);
        // Its last lines into the log before anyone reads it (a test read
        // the log empty now and then).
        if let Some(copied) = &self.stderr_copied {
            let _ = copied.recv_timeout(STDERR_DRAIN);
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> Vec<String> {
        vec!["sh".into(), "-c".into(), script.into()]
    }

    #[test]
    fn lines_go_both_ways_and_silence_times_out() {
        let mut p = AgentProcess::spawn(&sh("read x; echo \"got $x\"; sleep 5"), None, None)
            .expect("sh starts");
        p.send("hello").unwrap();
        assert_eq!(p.recv(Duration::from_secs(5)).unwrap(), "got hello");
        let err = p.recv(Duration::from_millis(50)).unwrap_err();
        assert!(matches!(err, ProcessError::Timeout(50)), "{err}");
    }

    #[test]
    fn an_exit_is_reported_with_its_status() {
        let mut p = AgentProcess::spawn(&sh("exit 3"), None, None).unwrap();
        let err = p.recv(Duration::from_secs(5)).unwrap_err();
        assert!(err.to_string().contains("exit status: 3"), "{err}");
    }

    #[test]
    fn stderr_goes_to_the_log_and_a_missing_program_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("agents/x.stderr.log");
        let mut p = AgentProcess::spawn(&sh("echo oops >&2; echo done"), None, Some(&log)).unwrap();
        assert_eq!(p.recv(Duration::from_secs(5)).unwrap(), "done");
        drop(p);
        assert_eq!(std::fs::read_to_string(&log).unwrap(), "oops\n");
        let err = AgentProcess::spawn(&["/no/such/agent".into()], None, None)
            .err()
            .expect("no such program");
        assert!(err.to_string().contains("/no/such/agent"), "{err}");
    }

    #[test]
    fn dropping_the_owner_kills_the_whole_group() {
        // The child starts a grandchild in the background and reports its pid.
        let mut p = AgentProcess::spawn(&sh("sleep 30 & echo $!; wait"), None, None).unwrap();
        let grandchild: i32 = p.recv(Duration::from_secs(5)).unwrap().parse().unwrap();
        let child = p.id() as i32;
        drop(p);
        thread::sleep(Duration::from_millis(50));
        for pid in [child, grandchild] {
            // SAFETY: signal 0 only checks that the process exists.
            let alive = unsafe { libc::kill(pid, 0) } == 0;
            let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .map(|s| s.contains(") Z"))
                .unwrap_or(true);
            assert!(!alive || zombie, "process {pid} survived");
        }
    }

    #[test]
    fn an_endless_line_is_refused() {
        let mut p =
            AgentProcess::spawn(&sh("head -c 100000 /dev/zero | tr '\\0' x"), None, None).unwrap();
        let err = p.recv(Duration::from_secs(5)).unwrap_err();
        assert!(matches!(err, ProcessError::BadLine(_)), "{err}");
    }
}
