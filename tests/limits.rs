//! Limits on what a command may be asked: games that cannot be bounded,
//! budgets checked before the allocation or serialisation they guard (the
//! memory limit, a count beyond any integer), counts far beyond what a
//! command can do, and a closed pipe: each refused with a clear error, never
//! a panic, an abort or a run that never ends.

use std::fs;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{hoyito, refused, s, AGENTS, BIN, START};

/// Runs the binary with `args` in `dir`, killed after `limit`: a command
/// that never ends fails the test instead of hanging it.
fn run_within(dir: &Path, args: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let start = Instant::now();
    while child.try_wait().expect("waitable").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("hoyito {args:?} ran past {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("its output")
}

/// The error of a command refused with status 1, after checking that it
/// did not panic or abort.
fn refused_without_abort(out: &Output, what: &str) -> String {
    let err = refused(out, what);
    assert!(!err.contains("memory allocation"), "{what}: {err}");
    err
}

/// An experiment on 2x2 with one seed per hole, where nobody can ever
/// capture (a casa needs all four seeds in one hole): `stall` are the stall
/// rules, `agent` plays itself.
fn endless_config(stall: &str, agent: &str) -> String {
    format!(
        "name = \"endless\"\nseed = 1\ngames = 2\nthreads = 1\n[rules]\nvariants = [\"ii\"]\n\
         holes = [2]\nseeds = 1\n{stall}\n[openings]\nrandom_plies = 0\n[tournament]\n\
         format = \"self-play\"\nagents = [\"{agent}\"]\n"
    )
}

/// `no_capture_limit = 4294967295` with alphabeta-d4 self-play, and
/// `repetitions = 4294967295` or `1000000` with greedy, would play for ever
/// (or 1,999,999 plies a game, a report of 2.75 GB): they are refused before
/// the results directory exists, naming the key, the value and the maximum.
#[test]
fn rules_whose_games_cannot_be_bounded_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "no_capture_limit = 4294967295\nrepetitions = 0",
            "alphabeta-d4",
            "rules.no_capture_limit",
            "no_capture_limit = 4294967295 is too large: at most 10000",
        ),
        (
            "no_capture_limit = 0\nrepetitions = 4294967295",
            "greedy",
            "rules.repetitions",
            "repetitions = 4294967295 is too large: at most 100",
        ),
        (
            "no_capture_limit = 0\nrepetitions = 1000000",
            "greedy",
            "rules.repetitions",
            "repetitions = 1000000 is too large: at most 100",
        ),
    ];
    for (stall, agent, key, says) in cases {
        let config = dir.path().join("endless.toml");
        fs::write(&config, endless_config(stall, agent)).unwrap();
        let out_dir = dir.path().join("out");
        let args = [
            "run",
            s(&config),
            "--out",
            s(&out_dir),
            "--agents-dir",
            AGENTS,
        ];
        let out = run_within(dir.path(), &args, Duration::from_secs(30));
        let err = refused_without_abort(&out, stall);
        assert!(err.contains(key) && err.contains(says), "{stall}: {err}");
        assert!(!out_dir.exists(), "{stall}: the directory was made");
    }
}

/// The largest rules allowed end every game on the same board (10,000 plies
/// without a capture), the report stays within its budget, and a Ctrl-C
/// while such games are being played stops the run at once with its notice
/// and the command that resumes it.
#[test]
fn the_largest_rules_allowed_end_and_ctrl_c_stops_them() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("long.toml");
    let text = endless_config("no_capture_limit = 10000\nrepetitions = 0", "alphabeta-d4");
    fs::write(&config, &text).unwrap();
    let out_dir = dir.path().join("out");
    let args = [
        "run",
        s(&config),
        "--out",
        s(&out_dir),
        "--agents-dir",
        AGENTS,
    ];
    let out = run_within(dir.path(), &args, Duration::from_secs(120));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = fs::read_to_string(out_dir.join("games.csv")).unwrap();
    assert!(games.contains(",no-capture-limit,"), "{games}");
    let page = fs::metadata(out_dir.join("report.html")).unwrap().len();
    assert!(page < 3_000_000, "report.html is {page} bytes");

    // A thousand such games take minutes: the first Ctrl-C stops them.
    let config = dir.path().join("many.toml");
    fs::write(&config, text.replace("games = 2", "games = 1000")).unwrap();
    let many = dir.path().join("many");
    let mut child = Command::new(BIN)
        .args(["run", s(&config), "--out", s(&many), "--agents-dir", AGENTS])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !many.join("games.csv").exists() && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let stopped = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if stopped.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("the first Ctrl-C did not stop the run");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(
        err.contains("interrupted: finishing the games being played")
            && err.contains("resume with:"),
        "{err}"
    );
}

/// A roster of agents too large for 1,000,000 kB of address space, with the
/// shipped hint agent of `play`.
fn big_roster(dir: &Path) -> PathBuf {
    let agents = dir.join("agents");
    fs::create_dir(&agents).unwrap();
    fs::write(
        agents.join("big.toml"),
        "kind = \"alphabeta\"\ndepth = 6\ntt_mb = 4096\n",
    )
    .unwrap();
    fs::write(
        agents.join("bigm.toml"),
        "kind = \"mcts\"\niterations = 10000000\n",
    )
    .unwrap();
    for name in ["alphabeta-d16.toml", "greedy.toml"] {
        fs::copy(Path::new(AGENTS).join(name), agents.join(name)).unwrap();
    }
    agents
}

/// Runs the binary with `args` in `dir` under `ulimit -v 1000000` (1,000,000
/// kB of address space), without a core file.
fn under_ulimit_v(dir: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(BIN);
    command.args(args).current_dir(dir).stdin(Stdio::null());
    // SAFETY: setrlimit is async-signal-safe and touches only the child's
    // own limits (kept across exec).
    unsafe {
        command.pre_exec(|| {
            let space = libc::rlimit {
                rlim_cur: 1_000_000 * 1024,
                rlim_max: 1_000_000 * 1024,
            };
            let no_core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &space) != 0
                || libc::setrlimit(libc::RLIMIT_CORE, &no_core) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    command.output().expect("the binary runs")
}

/// Under `ulimit -v 1000000`, `best`, `play --vs`, `book` and `tune` with
/// `kind = "alphabeta" depth = 6 tt_mb = 4096`, and `best` with MCTS at 10^7
/// iterations, are refused as `run` refuses them, naming the estimate and the
/// limit, before anything is built (not aborted with exit 134).
#[test]
fn agents_beyond_the_memory_limit_are_refused_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let agents = big_roster(dir.path());
    let agents = s(&agents);
    let book = dir.path().join("book.txt");
    let tuned = dir.path().join("tuned.toml");
    let cases: [Vec<&str>; 5] = [
        vec![
            "best",
            "--agent",
            "big",
            "-p",
            START,
            "--agents-dir",
            agents,
        ],
        vec![
            "best",
            "--agent",
            "bigm",
            "-p",
            START,
            "--agents-dir",
            agents,
        ],
        vec!["play", "--vs", "big", "--agents-dir", agents],
        vec![
            "book",
            "--variant",
            "ii",
            "--holes",
            "6",
            "--plies",
            "4",
            "--count",
            "2",
            "--agent",
            "big",
            "--max-eval",
            "48",
            "--agents-dir",
            agents,
            "--out",
            s(&book),
        ],
        vec![
            "tune",
            "--agent",
            "big",
            "--variant",
            "ii",
            "--holes",
            "6",
            "--games",
            "20",
            "--agents-dir",
            agents,
            "--out",
            s(&tuned),
        ],
    ];
    for args in cases {
        let out = under_ulimit_v(dir.path(), &args);
        let err = refused_without_abort(&out, &args.join(" "));
        assert!(
            err.contains("may hold up to")
                && err.contains("is available (under the address-space limit, ulimit -v)"),
            "{args:?}: {err}"
        );
    }
    assert!(!book.exists() && !tuned.exists());
    // The same agents within the limit still play: greedy answers.
    let out = under_ulimit_v(
        dir.path(),
        &[
            "best",
            "--agent",
            "greedy",
            "-p",
            START,
            "--agents-dir",
            agents,
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `run --shard 0/9223372036854775808` is refused as a usage error naming
/// the most shards (not a panic recording the shard).
#[test]
fn a_shard_count_beyond_toml_integers_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/default.toml");
    let out_dir = dir.path().join("out");
    let args = [
        "run",
        s(&config),
        "--shard",
        "0/9223372036854775808",
        "--out",
        s(&out_dir),
        "--agents-dir",
        AGENTS,
    ];
    let out = run_within(dir.path(), &args, Duration::from_secs(30));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        !err.contains("panicked") && err.contains("at most 9223372036854775807"),
        "{err}"
    );
    assert!(!out_dir.exists());
}

/// Every command that prints ends quietly on a closed pipe, with the status
/// a shell shows for a tool SIGPIPE stopped (141), not exit 101 with "failed
/// printing to stdout: Broken pipe" (as `hoyito agents | true` would).
#[test]
fn a_closed_pipe_ends_every_printing_command_quietly() {
    let cases: [Vec<&str>; 5] = [
        vec!["agents", "--agents-dir", AGENTS],
        vec!["show", "-p", START],
        vec!["perft", "-p", START, "--depth", "3", "--variant", "ii"],
        vec!["apply", "-p", START, "--variant", "ii", "1"],
        vec![
            "best",
            "--agent",
            "greedy",
            "-p",
            START,
            "--agents-dir",
            AGENTS,
        ],
    ];
    for args in cases {
        // A pipe whose reading end is closed before the command starts.
        let mut fds = [0; 2];
        // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        // SAFETY: the reading end is this test's own, closed once.
        unsafe { libc::close(fds[0]) };
        // SAFETY: the writing end is this test's own and handed over once.
        let stdout = unsafe { <Stdio as std::os::fd::FromRawFd>::from_raw_fd(fds[1]) };
        let out = Command::new(BIN)
            .args(&args)
            .stdout(stdout)
            .stderr(Stdio::piped())
            .output()
            .expect("the binary runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(141), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}

/// `bench --games 18446744073709551615` (and `--repeat` as large) is refused
/// naming the value and the most allowed.
#[test]
fn bench_counts_are_bounded() {
    for (flag, says) in [
        ("--games", "is too many: at most 10000000"),
        ("--repeat", "is too many: at most 1000"),
    ] {
        let out = Command::new(BIN)
            .args(["bench", flag, "18446744073709551615"])
            .output()
            .unwrap();
        let err = refused_without_abort(&out, flag);
        assert!(
            err.contains(&format!("{flag} 18446744073709551615 {says}")),
            "{err}"
        );
    }
}

/// `book --count 18446744073709551615` is a usage error naming the flag,
/// and writes nothing.
#[test]
fn book_counts_are_bounded() {
    let output = hoyito(&[
        "book",
        "--variant",
        "ii",
        "--holes",
        "6",
        "--plies",
        "8",
        "--count",
        "18446744073709551615",
        "--agent",
        "greedy",
        "--max-eval",
        "2",
        "--out",
        "x.book",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(err.lines().count(), 1, "not one line: {err}");
    assert!(err.contains("--count"), "{err}");
    assert!(!Path::new("x.book").exists());
}

/// A position with `S 18446744073709551615-0` is refused as too large, the
/// number as written (not "4294967295 seeds in all").
#[test]
fn a_count_beyond_any_integer_is_named_as_written() {
    for args in [
        vec!["show", "-p", "4,4/4,4 S 18446744073709551615-0"],
        vec![
            "perft",
            "-p",
            "4,4/4,4 S 18446744073709551615-0",
            "--depth",
            "1",
            "--variant",
            "ii",
        ],
    ] {
        let out = Command::new(BIN).args(&args).output().unwrap();
        let err = refused_without_abort(&out, &args.join(" "));
        assert!(
            err.contains("18446744073709551615 seeds in the captures is too large")
                && !err.contains("4294967295"),
            "{err}"
        );
    }
}

/// Runs the binary with its file-size limit (`ulimit -f`) at `bytes`.
fn hoyito_with_file_limit(bytes: u64, args: &[&str]) -> Output {
    let mut command = Command::new(crate::common::BIN);
    command.args(args);
    // SAFETY: setrlimit is async-signal-safe; nothing else runs in the child.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    command.output().expect("the binary runs")
}

/// Under `ulimit -f`, a solve and a run were killed by SIGXFSZ with no word
/// (exit 153), leaving `.keys-28.bin.PID.tmp` behind for good. They now fail
/// with the file and "File too large", as on a full disk, and a state
/// temporary left by a dead process is cleared (and named) by the next solve.
#[test]
fn a_file_size_limit_is_an_error_that_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("uf");
    let state_text = state.to_str().unwrap();
    let solve = [
        "solve",
        "--start",
        "--variant",
        "i",
        "--holes",
        "5",
        "--state",
        state_text,
    ];
    let out = hoyito_with_file_limit(1_000_000, &solve);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("File too large") && err.contains(".bin"),
        "{err}"
    );
    let temps = |d: &std::path::Path| {
        std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect::<Vec<_>>()
    };
    assert!(temps(&state).is_empty(), "{:?}", temps(&state));
    // A temporary of a process that no longer runs (pid 2^22 + 1 is above
    // Linux's largest) is cleared by the next solve, and named.
    let stale = state.join(".keys-28.bin.4194305.tmp");
    std::fs::write(&stale, b"half").unwrap();
    let out = crate::common::hoyito(&solve);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("a state layer left half-written by process 4194305"),
        "{err}"
    );
    assert!(!stale.exists() && temps(&state).is_empty());
    // A run: its records hit the limit.
    let run = dir.path().join("run");
    let out = hoyito_with_file_limit(
        20_000,
        &[
            "match",
            "random",
            "greedy",
            "--games",
            "2000",
            "--holes",
            "4",
            "--report-every",
            "0",
            "--out",
            run.to_str().unwrap(),
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("File too large"), "{err}");
}
