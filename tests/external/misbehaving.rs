//! What an agent process can do to a run (flood its stdout, leave helper
//! processes behind, exit while a child holds its stdout, grow its stderr
//! log) and what the harness does about it. The slow cases run outside the
//! suite, against the release binary: `scripts/probe-agent-processes.sh`.

use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use hoyito::protocol::{STDERR_LOG_CAP, STDERR_LOG_CUT};
use hoyito::{
    Agent, Ending, ExternalAgent, ExternalCommand, ForfeitReason, Game, Rules, Side, Variant,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::rows;
use crate::common::BIN;

/// An experiment of `games` II 2x6 games, one thread, between `opponent` (a
/// roster entry's body) and the external `agent` started with `command`.
fn against(games: u32, opponent: &str, command: &str, extra: &str) -> String {
    format!(
        "name = \"misbehaving\"\nseed = 5\ngames = {games}\nthreads = 1\n\
         [rules]\nvariants = [\"ii\"]\nholes = [6]\n\
         [tournament]\nformat = \"round-robin\"\nagents = [\"opponent\", \"agent\"]\n\
         [roster.opponent]\n{opponent}\n\
         [roster.agent]\nkind = \"external\"\ncommand = {command}\n{extra}\n"
    )
}

/// Starts `hoyito run` on `config` in `dir` (results in `dir/run`).
fn start_run(dir: &Path, config: &str, limit_memory: bool) -> Child {
    let file = dir.join("experiment.toml");
    fs::write(&file, config).unwrap();
    let mut cmd = Command::new(BIN);
    cmd.args(["run", file.to_str().unwrap(), "--out"])
        .arg(dir.join("run"))
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if limit_memory {
        use std::os::unix::process::CommandExt;
        // SAFETY: setrlimit is async-signal-safe. The limit the flood is
        // measured under: `ulimit -v 1500000` (KiB).
        unsafe {
            cmd.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: 1_500_000 * 1024,
                    rlim_max: 1_500_000 * 1024,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    cmd.spawn().unwrap()
}

/// Waits for `child` (at most `limit`, else kills it and fails): its exit
/// code and its peak resident memory in KiB (`wait4`).
fn wait_with_peak(child: Child, limit: Duration) -> (Option<i32>, i64) {
    let pid = child.id() as libc::pid_t;
    let start = Instant::now();
    loop {
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid value to be filled in.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: waits for our own child, without blocking.
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
            return (code, usage.ru_maxrss);
        }
        if start.elapsed() > limit {
            // SAFETY: kills our own unreaped child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("hoyito run did not end within {limit:?}");
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// Whether process `pid` is gone (a zombie counts as gone).
fn gone(pid: i32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |s| s.contains(") Z"))
}

/// Waits up to 5 s for every process of `pids` to go; the survivors.
fn survivors(pids: &[(String, i32)]) -> Vec<(String, i32)> {
    let start = Instant::now();
    loop {
        let left: Vec<_> = pids.iter().filter(|(_, p)| !gone(*p)).cloned().collect();
        if left.is_empty() || start.elapsed() > Duration::from_secs(5) {
            // Leave nothing behind, whatever the verdict.
            for (_, pid) in &left {
                // SAFETY: only a signal, to a process this test's agent started.
                unsafe { libc::kill(*pid, libc::SIGKILL) };
            }
            return left;
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// The ids `tests/agents/helpers.py` wrote: `agent`, `group`, `session`;
/// waits (up to 20 s) for at least one agent's three.
fn helper_pids(file: &Path) -> Vec<(String, i32)> {
    let start = Instant::now();
    loop {
        let text = fs::read_to_string(file).unwrap_or_default();
        let pids: Vec<(String, i32)> = text
            .lines()
            .filter_map(|l| {
                let (kind, pid) = l.split_once(' ')?;
                Some((kind.to_string(), pid.parse().ok()?))
            })
            .collect();
        if pids.len() >= 3 {
            return pids;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the agent never started its helpers"
        );
        thread::sleep(Duration::from_millis(20));
    }
}

fn helpers_command(pid_file: &Path, mode: &str) -> String {
    format!(
        "[\"python3\", \"tests/agents/helpers.py\", \"{}\", \"{mode}\"]",
        pid_file.display()
    )
}

/// An agent answers `ready` and its first `go`, then floods its stdout with
/// 64 KiB blocks of newlines while an MCTS opponent of 200,000 iterations
/// thinks (II 2x6, 2 games), under `ulimit -v 1500000`. Unbounded, that
/// grows the harness by 150-250 MB/s until the run aborts (rc 134) with no
/// game saved; here both games are saved, the flooder forfeits each
/// (forfeit-protocol) and the harness stays small.
#[test]
fn a_stdout_flood_during_an_mcts_search_costs_no_memory() {
    let dir = tempfile::tempdir().unwrap();
    let config = against(
        2,
        "kind = \"mcts\"\niterations = 200000",
        "[\"python3\", \"tests/agents/stdout_flood.py\"]",
        "",
    );
    let child = start_run(dir.path(), &config, true);
    let (code, peak_kib) = wait_with_peak(child, Duration::from_secs(300));
    assert_eq!(code, Some(0), "hoyito run failed");
    let rows = rows(&dir.path().join("run"));
    assert_eq!(rows.len(), 2, "every game is saved");
    for row in &rows {
        assert_eq!(row.ending, Ending::ForfeitProtocol, "{row:?}");
    }
    // Unbounded: 1.2 to 2.3 GB. Bounded: the harness's own size (about 50 MB).
    assert!(peak_kib < 300_000, "peak resident memory {peak_kib} KiB");
    let log = fs::read_to_string(dir.path().join("run/agents/agent.stderr.log")).unwrap();
    // "flooding", or the first blank line when the flooder's turn came
    // before it was 16 lines ahead: a protocol forfeit either way.
    let forfeits: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("hoyito: forfeit"))
        .collect();
    assert_eq!(forfeits.len(), 2, "one line per forfeit: {log}");
    assert!(
        forfeits
            .iter()
            .all(|l| l.starts_with("hoyito: forfeit (protocol)")),
        "{log}"
    );
}

/// Once the flooder is MAX_LINES_AHEAD lines ahead the harness stops reading
/// it, so the agent blocks (unread, it could write hundreds of MB); its next
/// turn is a forfeit for the flood.
#[test]
fn the_harness_stops_reading_a_flooding_agent() {
    let dir = tempfile::tempdir().unwrap();
    let count = dir.path().join("written");
    let mut agent = ExternalAgent::new(
        ExternalCommand {
            command: vec![
                "python3".into(),
                "tests/agents/stdout_flood.py".into(),
                count.display().to_string(),
            ],
            working_dir: None,
            move_timeout_ms: 10_000,
            startup_timeout_ms: 10_000,
        },
        None,
    );
    let rules = Rules::new(Variant::Ii).with_board(6, 4).unwrap();
    let mut game = Game::new(rules);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    agent.new_game(&rules);
    let mv = agent.try_choose(&game, &mut rng).expect("the first move");
    game.play(mv).unwrap();
    while game.position().side_to_move() == Side::North {
        game.play_random(&mut rng);
    }
    // The opponent "thinks": wait until the flooder has been stuck for half
    // a second, or has written more than the harness may hold.
    let read = || {
        fs::read_to_string(&count)
            .ok()
            .and_then(|t| t.trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    let start = Instant::now();
    let (mut last, mut still) = (0, 0);
    while still < 10 && last < 8 << 20 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the flood never started"
        );
        thread::sleep(Duration::from_millis(50));
        let now = read();
        still = if now == last && now > 0 { still + 1 } else { 0 };
        last = now;
    }
    // 16 queued lines, the reader's buffer and the pipe: well under 1 MiB.
    assert!(last < 1 << 20, "the agent wrote {last} bytes unread");
    let forfeit = agent.try_choose(&game, &mut rng).unwrap_err();
    assert_eq!(forfeit.reason, ForfeitReason::Protocol, "{forfeit}");
    assert!(forfeit.detail.contains("flooding"), "{forfeit}");
}

/// Helpers that an agent starts in its own process group (`sleep 300`) and
/// in a new session (`start_new_session=True`) do not outlive a run that ends
/// normally (a process group alone leaves the new-session one alive).
#[test]
fn no_helper_outlives_a_normal_end() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pids");
    let config = against(
        2,
        "kind = \"greedy\"",
        &helpers_command(&pid_file, "play"),
        "",
    );
    let child = start_run(dir.path(), &config, false);
    let (code, _) = wait_with_peak(child, Duration::from_secs(120));
    assert_eq!(code, Some(0));
    assert_eq!(rows(&dir.path().join("run")).len(), 2);
    let pids = helper_pids(&pid_file);
    assert_eq!(survivors(&pids), vec![], "of {pids:?}");
}

/// The same helpers do not outlive a run stopped by SIGINT (Ctrl-C), SIGTERM
/// or SIGHUP, sent twice (the second exits at once), nor by one SIGTERM (the
/// run finishes the games in hand, then ends).
#[test]
fn no_helper_outlives_an_interrupted_run() {
    let cases = [
        ("SIGINT twice", libc::SIGINT, 2, "silent"),
        ("SIGTERM twice", libc::SIGTERM, 2, "silent"),
        ("SIGHUP twice", libc::SIGHUP, 2, "silent"),
        ("SIGTERM once", libc::SIGTERM, 1, "play"),
    ];
    for (case, signal, times, mode) in cases {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pids");
        let config = against(
            400,
            "kind = \"greedy\"",
            &helpers_command(&pid_file, mode),
            "move_timeout_ms = 60000",
        );
        let child = start_run(dir.path(), &config, false);
        let pids = helper_pids(&pid_file);
        for _ in 0..times {
            // SAFETY: a signal to our own child.
            unsafe { libc::kill(child.id() as i32, signal) };
            thread::sleep(Duration::from_millis(100));
        }
        let (code, _) = wait_with_peak(child, Duration::from_secs(60));
        assert_eq!(code, Some(130), "{case}");
        let pids = helper_pids(&pid_file)
            .into_iter()
            .chain(pids)
            .collect::<Vec<_>>();
        assert_eq!(survivors(&pids), vec![], "{case}: of {pids:?}");
    }
}

/// An agent that exits while a process it started holds its standard
/// output open has crashed: a crash at once, not a timeout after the whole
/// move time.
#[test]
fn an_exit_with_stdout_held_open_is_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let config = against(
        2,
        "kind = \"greedy\"",
        "[\"python3\", \"tests/agents/exit_holding_stdout.py\"]",
        "move_timeout_ms = 30000",
    );
    let child = start_run(dir.path(), &config, false);
    let (code, _) = wait_with_peak(child, Duration::from_secs(120));
    assert_eq!(code, Some(0));
    let rows = rows(&dir.path().join("run"));
    assert_eq!(rows.len(), 2);
    for row in &rows {
        assert_eq!(row.ending, Ending::ForfeitCrash, "{row:?}");
    }
    let log = fs::read_to_string(dir.path().join("run/agents/agent.stderr.log")).unwrap();
    assert!(log.contains("exit status: 3"), "{log}");
}

/// The stderr log is capped (uncapped, it grew to 120 MB after 4 games): an
/// agent writing 1 MiB per move keeps its first STDERR_LOG_CAP bytes, a line
/// says where the log was cut, and the games go on.
#[test]
fn the_stderr_log_is_capped() {
    let dir = tempfile::tempdir().unwrap();
    let config = against(
        4,
        "kind = \"greedy\"",
        "[\"python3\", \"tests/agents/stderr_chatty.py\"]",
        "",
    );
    let child = start_run(dir.path(), &config, false);
    let (code, _) = wait_with_peak(child, Duration::from_secs(120));
    assert_eq!(code, Some(0));
    let rows = rows(&dir.path().join("run"));
    assert_eq!(rows.len(), 4);
    let moves: u32 = rows.iter().map(|r| r.plies).sum();
    assert!(moves > 40, "{moves} plies: too few moves to reach the cap");
    for row in &rows {
        assert!(row.ending.forfeit_reason().is_none(), "{row:?}");
    }
    let log = fs::read(dir.path().join("run/agents/agent.stderr.log")).unwrap();
    let len = log.len() as u64;
    assert!(
        (STDERR_LOG_CAP..=STDERR_LOG_CAP + 8192 + STDERR_LOG_CUT.len() as u64).contains(&len),
        "{len}"
    );
    assert!(log[..STDERR_LOG_CAP as usize].iter().all(|&b| b == b'e'));
    assert!(String::from_utf8_lossy(&log).ends_with(STDERR_LOG_CUT));
}
