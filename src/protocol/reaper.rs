//! What keeps agent processes from outliving the harness: how an agent is
//! started (its own process group, the parent-death signal, a marker in its
//! environment) and the sweeps that kill what it leaves behind.
//!
//! A process group holds an agent's helpers only until a helper leaves it
//! (`setsid`, Python's `start_new_session=True`), and the parent-death signal
//! reaches only the agent itself: either alone leaves helpers alive after
//! every way the run can end. So, on Linux, the harness makes itself a *child
//! subreaper* (`PR_SET_CHILD_SUBREAPER`) when it starts its first agent: a
//! process whose parent dies is handed to the harness instead of to `init`,
//! whatever its group or session. Then:
//!
//! - **an agent is dropped** (a forfeit, the end of its thread): its process
//!   group is killed, then every child of the harness whose environment
//!   carries the agent's marker (`HOYITO_AGENT=PID:N`, which the agent's
//!   descendants inherit), round after round as their own orphans come back;
//! - **the harness exits** (the run's end, Ctrl-C, `SIGTERM` or `SIGHUP`
//!   through the interrupt handler, any `std::process::exit`): an `atexit`
//!   handler kills every child of the harness, round after round, so every
//!   descendant of every agent, marked or not;
//! - **the harness is killed without running exit handlers** (`kill -9`, a
//!   fatal signal): nothing of the harness runs, so only the kernel acts: each
//!   agent gets `SIGKILL` (`PR_SET_PDEATHSIG`) and its input closes; what the
//!   agent started is handed to `init` and lives on unless it exits by itself.
//!
//! Elsewhere than Linux only the process group is killed.

use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

/// The environment variable that marks an agent and its descendants.
pub const AGENT_MARKER: &str = "HOYITO_AGENT";

/// Prepares `cmd` to start an agent: a process group of its own and, on
/// Linux, death with its parent thread and a marker that the sweeps look
/// for. Returns the marker's value.
pub(super) fn prepare(cmd: &mut Command) -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let marker = format!(
        "{}:{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    cmd.env(AGENT_MARKER, &marker);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    #[cfg(target_os = "linux")]
    linux::prepare(cmd);
    marker
}

/// Kills the process group that `pid` leads (the agent's).
#[cfg(unix)]
pub(super) fn kill_group(pid: u32) {
    // SAFETY: killpg only sends a signal; the group is the agent's own (it
    // was started as a group leader and is not reaped yet), so nothing else
    // is hit.
    unsafe {
        libc::killpg(pid as libc::pid_t, libc::SIGKILL);
    }
}

#[cfg(not(unix))]
pub(super) fn kill_group(_pid: u32) {}

/// Kills what is left of the agent marked `marker` (see the module docs).
pub(super) fn sweep(marker: &str) {
    #[cfg(target_os = "linux")]
    linux::sweep(Some(marker));
    #[cfg(not(target_os = "linux"))]
    let _ = marker;
}

#[cfg(target_os = "linux")]
mod linux {
    use std::io;
    use std::os::unix::process::CommandExt;
    use std::process::Command;
    use std::sync::Once;
    use std::thread;
    use std::time::{Duration, Instant};

    /// How long a sweep goes on killing (a helper stuck in the kernel cannot
    /// hold the harness forever).
    const SWEEP_LIMIT: Duration = Duration::from_secs(2);

    pub(super) fn prepare(cmd: &mut Command) {
        static ADOPT: Once = Once::new();
        ADOPT.call_once(|| {
            // SAFETY: prctl changes only this process's subreaper flag, and
            // the handler is a plain `extern "C" fn` that does not unwind.
            unsafe {
                libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1);
                libc::atexit(sweep_at_exit);
            }
        });
        // SAFETY: the closure runs in the child between fork and exec and
        // calls only async-signal-safe functions (prctl, getppid, _exit).
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

    extern "C" fn sweep_at_exit() {
        sweep(None);
    }

    /// Kills, round after round, the children of this process that carry
    /// `marker` (all of them when `None`), and reaps them.
    pub(super) fn sweep(marker: Option<&str>) {
        let start = Instant::now();
        while start.elapsed() < SWEEP_LIMIT {
            let targets: Vec<libc::pid_t> = children()
                .into_iter()
                .filter(|&pid| marker.map_or(true, |m| carries(pid, m)))
                .collect();
            if targets.is_empty() {
                return;
            }
            for &pid in &targets {
                // SAFETY: `pid` is our unreaped child, so the id is not reused.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            for &pid in &targets {
                reap(pid, start);
            }
        }
    }

    /// Waits for our child `pid`, until the sweep's time is up.
    fn reap(pid: libc::pid_t, start: Instant) {
        while start.elapsed() < SWEEP_LIMIT {
            let mut status = 0;
            // SAFETY: waits for one child of ours, without blocking.
            let done = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
            if done != 0 {
                return;
            }
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// Whether process `pid` was started with `HOYITO_AGENT=marker` in its
    /// environment (inherited from the agent).
    fn carries(pid: libc::pid_t, marker: &str) -> bool {
        let wanted = format!("{}={marker}", super::AGENT_MARKER);
        std::fs::read(format!("/proc/{pid}/environ"))
            .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == wanted.as_bytes()))
    }

    /// This process's children: from each thread's `children` list, or from
    /// every process's parent where the kernel keeps no such list.
    fn children() -> Vec<libc::pid_t> {
        let mut found = Vec::new();
        let mut listed = false;
        if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
            for task in tasks.flatten() {
                if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
                    listed = true;
                    found.extend(
                        text.split_whitespace()
                            .filter_map(|p| p.parse::<libc::pid_t>().ok()),
                    );
                }
            }
        }
        if !listed {
            found = children_by_parent();
        }
        found
    }

    /// The processes whose parent is this process, from `/proc/PID/stat`.
    fn children_by_parent() -> Vec<libc::pid_t> {
        let me = std::process::id().to_string();
        let Ok(procs) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        procs
            .flatten()
            .filter_map(|entry| {
                let pid: libc::pid_t = entry.file_name().to_str()?.parse().ok()?;
                let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
                // "PID (COMM) STATE PPID ...": the name may hold anything.
                let after = &stat[stat.rfind(')')? + 1..];
                let ppid = after.split_whitespace().nth(1)?;
                (ppid == me).then_some(pid)
            })
            .collect()
    }
}
