//! How `hoyito run` and `hoyito match` end, through the binary:
//! standard error names `report.html` and `report.md` and shows the final
//! standings even with `--report-every 0`; standard output holds only the
//! line a script parses; and every standings block, at the end, after a
//! resume or on Ctrl-C, counts the games recorded in `games.csv`.

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{hoyito, s, BIN};

/// The data rows of a `games.csv` (its header left out).
fn rows(games: &Path) -> u64 {
    let text = fs::read_to_string(games).unwrap_or_else(|e| panic!("{}: {e}", games.display()));
    text.lines().count() as u64 - 1
}

/// The output of a command that must succeed, as (stdout, stderr).
fn texts(args: &[&str], out: Output) -> (String, String) {
    let stdout = String::from_utf8(out.stdout).expect("utf-8 stdout");
    let stderr = String::from_utf8(out.stderr).expect("utf-8 stderr");
    assert!(out.status.success(), "hoyito {args:?} failed: {stderr}");
    (stdout, stderr)
}

/// Runs the binary, which must succeed: its (stdout, stderr).
fn run_texts(args: &[&str]) -> (String, String) {
    texts(args, hoyito(args))
}

/// The (N, M) of every `--- standings after N of M games ---` line.
fn standings_counts(stderr: &str) -> Vec<(u64, u64)> {
    stderr
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("--- standings after ")?;
            let (done, rest) = rest.split_once(" of ")?;
            let planned = rest.strip_suffix(" games ---")?;
            Some((done.parse().ok()?, planned.parse().ok()?))
        })
        .collect()
}

/// The end of a finished run: both reports named on standard error, the
/// files there, and standard output exactly the path of `games.csv`.
fn assert_ending(dir: &Path, stdout: &str, stderr: &str) {
    assert_eq!(
        stdout,
        format!("{}\n", s(&dir.join("games.csv"))),
        "stdout holds only the games.csv line; stderr: {stderr}"
    );
    let html = dir.join("report.html");
    let md = dir.join("report.md");
    let line = stderr
        .lines()
        .find(|l| l.starts_with("report: "))
        .unwrap_or_else(|| panic!("no report line in {stderr}"));
    assert!(
        line.contains(s(&html)) && line.contains(s(&md)),
        "the report line names report.html and report.md: {line}"
    );
    assert!(html.is_file() && md.is_file(), "{line}");
}

#[test]
fn a_match_with_report_every_0_names_both_reports_and_prints_the_final_standings() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("m");
    let args = [
        "match",
        "random",
        "greedy",
        "--games",
        "8",
        "--holes",
        "4",
        "--report-every",
        "0",
        "--out",
        s(&out),
    ];
    let (stdout, stderr) = run_texts(&args);
    assert_ending(&out, &stdout, &stderr);
    assert_eq!(standings_counts(&stderr), vec![(8, 8)], "{stderr}");
    assert!(stderr.contains("random vs greedy"), "{stderr}");
}

#[test]
fn a_run_names_both_reports_and_prints_the_final_standings_once() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = tmp.path().join("end.toml");
    fs::write(
        &cfg,
        "name = \"end\"\nseed = 2\ngames = 6\n[rules]\nvariants = [\"ii\"]\nholes = [4]\n\
         [tournament]\nformat = \"round-robin\"\nagents = [\"random\", \"greedy\"]\n",
    )
    .expect("writable temporary directory");
    for every in [None, Some("0"), Some("4")] {
        let out = tmp.path().join(format!("out-{every:?}"));
        let mut args = vec!["run", s(&cfg), "--out", s(&out)];
        args.extend(every.iter().flat_map(|n| ["--report-every", n]));
        let (stdout, stderr) = run_texts(&args);
        assert_ending(&out, &stdout, &stderr);
        let expected = match every {
            Some("4") => vec![(4, 6), (6, 6)],
            _ => vec![(6, 6)],
        };
        assert_eq!(standings_counts(&stderr), expected, "{every:?}: {stderr}");
    }
}

#[test]
fn standings_after_an_extension_count_the_games_recorded_before_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("grow");
    let args = |games| {
        [
            "match",
            "random",
            "greedy",
            "--games",
            games,
            "--holes",
            "4",
            "--report-every",
            "0",
            "--out",
            s(&out),
        ]
    };
    run_texts(&args("8"));
    let (stdout, stderr) = run_texts(&args("20"));
    assert!(stderr.contains("the 8 games recorded are kept"), "{stderr}");
    assert_ending(&out, &stdout, &stderr);
    assert_eq!(rows(&out.join("games.csv")), 20);
    assert_eq!(standings_counts(&stderr), vec![(20, 20)], "{stderr}");
}

#[test]
fn standings_on_ctrl_c_count_the_games_recorded_with_report_every_0() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("long");
    let child = Command::new(BIN)
        .args([
            "match",
            "greedy",
            "alphabeta-d8",
            "--games",
            "4000",
            "--report-every",
            "0",
            "--out",
            s(&out),
        ])
        .stderr(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // Wait for some games, then send SIGINT as Ctrl-C does.
    let games = out.join("games.csv");
    let start = Instant::now();
    while fs::metadata(&games).map_or(0, |m| m.len()) < 2000 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no games written"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let output = child.wait_with_output().expect("the run ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(output.stdout.is_empty(), "nothing for scripts: {stderr}");
    let recorded = rows(&games);
    assert!(recorded > 0 && recorded < 4000, "{recorded}");
    assert_eq!(
        standings_counts(&stderr),
        vec![(recorded, 4000)],
        "the standings count the {recorded} rows of games.csv: {stderr}"
    );
    assert!(
        stderr.contains(&format!("interrupted: {recorded} of 4000 games recorded")),
        "{stderr}"
    );
}
