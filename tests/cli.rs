//! The position commands as a user runs them: `apply`, `perft`, `show`, the
//! speed measures of `bench`, and one clear line with a non-zero exit for
//! every kind of bad input.

use std::process::{Command, Output};

use crate::common::one_line_error;

const START: &str = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0";

fn hoyito(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn last_line(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().last().unwrap_or_default().to_string()
}

/// Runs a command that must fail and returns its one-line error.
fn error_of(args: &[&str]) -> String {
    let out = hoyito(args);
    assert!(!out.status.success(), "{args:?} should fail");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    err.lines().next().unwrap_or_default().to_string()
}

#[test]
fn apply_prints_the_position_after_the_moves_as_its_last_line() {
    let out = hoyito(&[
        "apply",
        "--variant",
        "ii",
        "--position",
        "1,0,1/3,2,2 S 0-0",
        "3",
    ]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "1,0,0/0,2,2 S 4-0");
    let out = hoyito(&[
        "apply",
        "--variant",
        "i",
        "-p",
        "0,0,0/1,2,0 S 0-0",
        "pass",
        "2",
    ]);
    // North sows N2 (2 seeds): N3, then S1 across the wrap.
    assert_eq!(last_line(&out), "1,0,0/1,0,1 S 0-0");
    let traced = hoyito(&["apply", "--variant", "iii", "-p", START, "--trace", "1"]);
    let text = String::from_utf8_lossy(&traced.stdout);
    assert!(text.contains("pick up 4 from S1"), "{text}");
    assert_eq!(
        last_line(&traced),
        last_line(&hoyito(&["apply", "--variant", "iii", "-p", START, "1"]))
    );
}

#[test]
fn perft_prints_the_count_as_its_last_line() {
    let out = hoyito(&[
        "perft",
        "--variant",
        "iii",
        "--position",
        START,
        "--depth",
        "5",
    ]);
    assert_eq!(last_line(&out), "4056");
    let divided = hoyito(&[
        "perft",
        "--variant",
        "i",
        "-p",
        START,
        "-d",
        "4",
        "--divide",
    ]);
    let text = String::from_utf8_lossy(&divided.stdout);
    assert_eq!(text.lines().count(), 7);
    assert_eq!(last_line(&divided), "638");
}

#[test]
fn show_draws_north_on_top_right_to_left() {
    let out = hoyito(&["show", "--position", "1,2,3/4,5,6 N 0-4"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("N3   N2   N1"), "{text}");
    assert!(text.contains("[ 6] [ 5] [ 4]"), "{text}");
    assert!(text.contains("North: 4 captured  <- to move"), "{text}");
}

#[test]
fn bad_positions_are_named() {
    let cases = [
        ("4,4/4,4,4 S 0-0", "rows of different length"),
        ("4,x/4,4 S 0-0", "\"x\" in South's row is not a number"),
        ("4,-2/4,4 S 0-0", "negative count \"-2\""),
        ("4/4 S 0-0", "1 holes per row is out of range"),
        ("4,4/4,4 W 0-0", "unknown side to move \"W\""),
        ("4,4/4,4 S", "expected"),
    ];
    for (position, expected) in cases {
        let err = error_of(&["apply", "--variant", "ii", "-p", position, "1"]);
        assert!(
            err.starts_with("error: ") && err.contains(expected),
            "{position}: {err}"
        );
    }
}

#[test]
fn bad_variants_and_illegal_moves_are_named() {
    let err = error_of(&["perft", "--variant", "iv", "-p", START, "-d", "1"]);
    assert!(err.contains("unknown variant \"iv\""), "{err}");
    let cases = [
        (
            START,
            vec!["7"],
            "hole 7 is out of range: South's holes are 1..6",
        ),
        (START, vec!["0"], "hole 0 is out of range"),
        (START, vec!["x"], "cannot read move \"x\""),
        ("0,4/4,4 S 0-0", vec!["1"], "South's hole 1 is empty"),
        (START, vec!["pass"], "South cannot pass"),
        ("1,3/1,0 S 0-0", vec!["2"], "its sowing never ends"),
        ("0,1,3/2,2,0 S 0-0", vec!["2", "1"], "the game is over"),
    ];
    for (position, moves, expected) in cases {
        let mut args = vec!["apply", "--variant", "ii", "-p", position];
        args.extend(moves.iter().copied());
        let err = error_of(&args);
        assert!(err.contains(expected), "{moves:?}: {err}");
    }
}

/// Regression: probing the 2x6 start position asked for tables of 48 seeds
/// and ran the machine out of memory instead of answering.
#[test]
fn tables_too_large_for_memory_are_refused_up_front() {
    if !std::path::Path::new("/proc/meminfo").exists() {
        return;
    }
    let dir =
        std::env::temp_dir().join(format!("hoyito-cli-probe-too-large-{}", std::process::id()));
    let err = error_of(&[
        "probe",
        "--variant",
        "ii",
        "-p",
        START,
        "--dir",
        dir.to_str().unwrap(),
    ]);
    // Layer 32 is the first too large to index, whatever the memory free.
    assert!(
        err.contains("the layer of 32 seeds on 2x6 has 5752004349 boards: too many to solve"),
        "{err}"
    );
    assert!(
        !dir.exists(),
        "the table directory was made before the check"
    );
}

/// The numbers of a `bench` row after its variant and board.
fn bench_row(line: &str) -> (String, Vec<f64>) {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let numbers = fields[2..]
        .iter()
        .map(|f| f.trim_end_matches('%').parse().expect("a number"))
        .collect();
    (format!("{} {}", fields[0], fields[1]), numbers)
}

#[test]
fn bench_prints_a_row_of_speeds_per_variant_and_board() {
    let out = hoyito(&[
        "bench",
        "--variants",
        "ii",
        "--holes",
        "4",
        "--games",
        "200",
        "--repeat",
        "1",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    let (board, numbers) = bench_row(lines[1]);
    assert_eq!(board, "ii 2x4");
    // Floor and harness plies/s, harness games/s, their ratio in percent.
    assert_eq!(numbers.len(), 4, "{text}");
    assert!(numbers.iter().all(|&n| n > 0.0), "{text}");
    let ratio = 100.0 * numbers[1] / numbers[0];
    assert!((ratio - numbers[3]).abs() <= 1.0, "{text}");
}

#[test]
fn bench_search_prints_search_speeds_per_variant_and_board() {
    let out = hoyito(&[
        "bench",
        "--search",
        "--variants",
        "ii,iii",
        "--holes",
        "4",
        "--repeat",
        "1",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].contains("alphabeta") && lines[0].contains("mcts"));
    for (line, expected) in lines[1..].iter().zip(["ii 2x4", "iii 2x4"]) {
        let (board, numbers) = bench_row(line);
        assert_eq!(board, expected);
        // Depth, alpha-beta and enhanced positions/s, MCTS iterations/s.
        assert_eq!(numbers[0], 17.0, "{text}");
        assert_eq!(numbers.len(), 4, "{text}");
        assert!(numbers[1..].iter().all(|&n| n > 0.0), "{text}");
    }
}

#[test]
fn bench_batch_prints_the_batch_beside_the_floor() {
    let out = hoyito(&[
        "bench",
        "--batch",
        "64",
        "--variants",
        "i,iii",
        "--holes",
        "5",
        "--games",
        "200",
        "--repeat",
        "1",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].contains("batch plies/s"), "{text}");
    for (line, expected) in lines[1..].iter().zip(["i 2x5", "iii 2x5"]) {
        let (board, numbers) = bench_row(line);
        assert_eq!(board, expected);
        // Games in the batch, floor and batch plies/s, their ratio in percent.
        assert_eq!(numbers.len(), 4, "{text}");
        assert_eq!(numbers[0], 64.0, "{text}");
        let ratio = 100.0 * numbers[2] / numbers[1];
        assert!((ratio - numbers[3]).abs() <= 1.0, "{text}");
    }
}

#[test]
fn bench_refuses_bad_boards_and_counts() {
    assert!(error_of(&["bench", "--holes", "40"]).contains("--holes 40"));
    assert!(error_of(&["bench", "--search", "--holes", "6,0"]).contains("--holes 0"));
    assert_eq!(
        error_of(&["bench", "--repeat", "0"]),
        "error: --repeat must be at least 1"
    );
    assert_eq!(
        error_of(&["bench", "--games", "0"]),
        "error: --games must be at least 1"
    );
    // The searches play no random games.
    assert!(error_of(&["bench", "--search", "--games", "100"]).contains("--games"));
    assert_eq!(
        error_of(&["bench", "--batch", "0"]),
        "error: --batch 0: give 1 to 1048576 games"
    );
    // The batch steps on one thread.
    assert!(error_of(&["bench", "--batch", "8", "--threads", "2"]).contains("--threads"));
}

/// `hoyito agents | true` ends quietly on the closed stdout, with status 141
/// (128 + SIGPIPE) and nothing on stderr, not exit 101 with "failed printing
/// to stdout: Broken pipe". The pipe's read end is closed before the child
/// starts, so the first write always fails.
#[test]
fn a_closed_stdout_ends_quietly() {
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors `pipe` writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: both descriptors were just opened by `pipe` and are owned here.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    let out = Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .arg("agents")
        .stdout(std::process::Stdio::from(write))
        .output()
        .expect("hoyito runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

/// `--shard 0/9223372036854775808`, which shard.toml cannot hold, is refused
/// with the limit named, before anything is written (not a panic writing
/// shard.toml).
#[test]
fn a_shard_count_toml_cannot_hold_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_dir = dir.path().join("out");
    let out = hoyito(&[
        "run",
        "configs/default.toml",
        "--shard",
        "0/9223372036854775808",
        "--out",
        out_dir.to_str().expect("utf-8"),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("at most 9223372036854775807 shards"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!out_dir.exists());
}

/// Runs `hoyito ARGS` for at most 20 seconds: `None` if it was still running.
fn hoyito_within_20_s(args: &[&str]) -> Option<Output> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("hoyito starts");
    for _ in 0..200 {
        if child.try_wait().expect("waits").is_some() {
            return Some(child.wait_with_output().expect("output"));
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// A FIFO in place of games.csv or moves.csv would make `report`, `export`
/// and `replay` wait forever for a writer: anything that is not a regular
/// file is refused at once, with the file named.
#[test]
fn a_fifo_in_place_of_a_record_is_refused() {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let run = dir.path().join("run");
    let made = hoyito(&[
        "match",
        "random",
        "greedy",
        "--games",
        "4",
        "--holes",
        "4",
        "--report-every",
        "0",
        "--out",
        run.to_str().expect("utf-8"),
    ]);
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let mkfifo = |path: &std::path::Path| {
        std::fs::remove_file(path).expect("remove");
        let c = CString::new(path.as_os_str().as_bytes()).expect("no NUL");
        // SAFETY: `c` is a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    };
    let run_text = run.to_str().expect("utf-8");
    let pgn = dir.path().join("games.pgn");
    let pgn_text = pgn.to_str().expect("utf-8");
    mkfifo(&run.join("moves.csv"));
    let out = hoyito_within_20_s(&["replay", run_text, "0"]).expect("replay hung on a FIFO");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("not a regular file"),
        "{err}"
    );
    mkfifo(&run.join("games.csv"));
    for args in [
        vec!["report", run_text],
        vec!["export", run_text, "--pgn", pgn_text],
    ] {
        let out = hoyito_within_20_s(&args).unwrap_or_else(|| panic!("{args:?} hung on a FIFO"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}: {err}");
        assert!(
            err.contains("games.csv") && err.contains("not a regular file"),
            "{args:?}: {err}"
        );
    }
}

/// A FIFO in place of a run's experiment.toml made the resume (the same
/// command again) wait forever on the open: it is refused at once.
#[test]
fn a_fifo_in_place_of_experiment_toml_is_refused_on_resume() {
    let dir = tempfile::tempdir().expect("temp dir");
    let run = dir.path().join("run");
    let run_text = run.to_str().expect("utf-8");
    let args = [
        "match",
        "random",
        "greedy",
        "--games",
        "4",
        "--holes",
        "4",
        "--report-every",
        "0",
        "--out",
        run_text,
    ];
    let made = hoyito(&args);
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let experiment = run.join("experiment.toml");
    std::fs::remove_file(&experiment).expect("remove");
    crate::common::mkfifo(&experiment);
    let out = hoyito_within_20_s(&args).expect("the resume hung on a FIFO");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("experiment.toml") && err.contains("not a regular file"),
        "{err}"
    );
}

/// A signed move (`+3`) is refused as a signed count (`+4`) is.
#[test]
fn a_signed_move_is_refused_like_a_signed_count() {
    let err = one_line_error(&["apply", "--variant", "ii", "-p", START, "+3"]);
    assert!(err.contains("cannot read move \"+3\""), "{err}");
    let err = one_line_error(&["apply", "--variant", "ii", "-p", "+4,4/4,4 S 0-0", "1"]);
    assert!(
        err.contains("\"+4\" in South's row is not a number"),
        "{err}"
    );
}
