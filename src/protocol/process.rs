//! The owner of one agent process: started without a shell, spoken to line by
//! line, every read with a deadline, and killed with its process group when the
//! owner drops.
//!
//! Modelled on fastchess `engine/process/` and cutechess's engine manager: one
//! owner per child; a reader thread turns the child's standard output into a
//! channel of lines so that the harness never blocks on a silent child; the
//! child's standard error goes straight to a log file (never onto the terminal).
//!
//! No process is left behind. The child leads a process group of its own and
//! the whole group is killed (`SIGKILL`) when the owner drops. If the harness
//! itself is killed with `kill -9`, the child sees its standard input close and
//! the kernel sends it `SIGKILL` (`PR_SET_PDEATHSIG`, Linux). The parent-death
//! signal fires when the *thread* that started the child ends: agents are owned
//! by worker threads that outlive them, so that is also when they must go.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use thiserror::Error;

/// The longest line an agent may write; a longer one is a protocol error.
pub const MAX_LINE: usize = 64 * 1024;

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
    /// A line longer than [`MAX_LINE`] bytes or not UTF-8.
    #[error("unreadable output: {0}")]
    BadLine(String),
}

/// What the reader thread hands over.
enum Output {
    Line(String),
    Bad(String),
    End,
}

/// A running agent process.
pub struct AgentProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Output>,
    closed: bool,
}

impl AgentProcess {
    /// Starts `command` (program and arguments, no shell) in `working_dir`, its
    /// standard error appended to `stderr_log` (discarded when `None`).
    pub fn spawn(
        command: &[String],
        working_dir: Option<&Path>,
        stderr_log: Option<&Path>,
    ) -> Result<AgentProcess, ProcessError> {
        let (program, args) = command.split_first().ok_or(ProcessError::NoCommand)?;
        let stderr = match stderr_log {
            Some(path) => {
                let log_error = |source| ProcessError::Log {
                    path: path.to_path_buf(),
                    source,
                };
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(log_error)?;
                    // A link in place of the log directory would send the
                    // logs wherever it points: refused, as a link at the log.
                    if crate::tournament::is_symlink(dir) {
                        return Err(log_error(std::io::Error::new(
                            std::io::ErrorKind::InvalidInput,
                            format!(
                                "{} is a symbolic link: agent logs are not written through links",
                                dir.display()
                            ),
                        )));
                    }
                }
                let file = crate::tournament::open_append_no_follow(path).map_err(log_error)?;
                Stdio::from(file)
            }
            None => Stdio::null(),
        };
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr);
        if let Some(dir) = working_dir {
            cmd.current_dir(dir);
        }
        set_up_child(&mut cmd);
        let mut child = cmd.spawn().map_err(|source| ProcessError::Spawn {
            program: program.clone(),
            source,
        })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout was piped");
        let (tx, rx) = mpsc::channel();
        thread::Builder::new()
            .name("agent-reader".into())
            .spawn(move || read_lines(stdout, tx))
            .map_err(|source| ProcessError::Spawn {
                program: program.clone(),
                source,
            })?;
        Ok(AgentProcess {
            child,
            stdin,
            lines: rx,
            closed: false,
        })
    }

    /// Writes one line (the newline is added) and flushes it.
    pub fn send(&mut self, line: &str) -> Result<(), ProcessError> {
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
    /// `timeout`.
    pub fn recv(&mut self, timeout: Duration) -> Result<String, ProcessError> {
        if self.closed {
            return Err(self.exited());
        }
        match self.lines.recv_timeout(timeout) {
            Ok(Output::Line(line)) => Ok(line),
            Ok(Output::Bad(why)) => Err(ProcessError::BadLine(why)),
            Ok(Output::End) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(self.exited())
            }
            Err(RecvTimeoutError::Timeout) => {
                Err(ProcessError::Timeout(timeout.as_millis() as u64))
            }
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
    /// its process group.
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
        // Drop kills what is left of the group.
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
        kill_group(self.child.id());
        // The group's leader is our child: reap it so that no zombie is left.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The reader thread: lines of at most [`MAX_LINE`] bytes, then the end.
fn read_lines(stdout: impl Read, tx: mpsc::Sender<Output>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf);
        let out = match read {
            Ok(0) | Err(_) => {
                let _ = tx.send(Output::End);
                return;
            }
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
        let bad = matches!(out, Output::Bad(_));
        if tx.send(out).is_err() || bad {
            // After a bad line the agent is forfeited and killed: stop reading.
            return;
        }
    }
}

#[cfg(unix)]
fn set_up_child(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    #[cfg(target_os = "linux")]
    {
        // SAFETY: the closure runs in the child between fork and exec and calls
        // only async-signal-safe functions (prctl, getppid, _exit).
        let parent = std::process::id() as libc::pid_t;
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(io::Error::last_os_error());
                }
                // The harness died before the signal was armed.
                if libc::getppid() != parent {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
    }
}

#[cfg(not(unix))]
fn set_up_child(_cmd: &mut Command) {}

#[cfg(unix)]
fn kill_group(pid: u32) {
    // SAFETY: killpg only sends a signal; the group is the child's own (it was
    // started as a group leader), so nothing else is hit.
    unsafe {
        libc::killpg(pid as libc::pid_t, libc::SIGKILL);
    }
}

#[cfg(not(unix))]
fn kill_group(_pid: u32) {}

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
