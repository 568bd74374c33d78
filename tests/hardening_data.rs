//! Regression tests of issue 9's data-safety items: what a run or a report
//! accepts from its directory (items 8, 9), the directory lock (11) and
//! symbolic links (13). Each test reproduces the issue's exact case.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hoyito::tournament::{open_run_dir, Experiment, Schedule};

const BIN: &str = env!("CARGO_BIN_EXE_hoyito");

const SMALL: &str = r#"
name = "small"
seed = 11
games = 4
[rules]
variants = ["i", "ii"]
holes = [4, 6]
[openings]
random_plies = 2
[tournament]
format = "round-robin"
agents = ["random", "greedy"]
"#;

fn config(dir: &Path, body: &str) -> PathBuf {
    let path = dir.join("small.toml");
    fs::write(&path, body).unwrap();
    path
}

fn hoyito(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn experiment(body: &str) -> (Experiment, u64) {
    let mut e = Experiment::parse(body, "small.toml").unwrap();
    e.round_to_pairs();
    let total = Schedule::new(&e).len();
    (e, total)
}

#[test]
fn issue9_item11_a_second_writer_is_refused_naming_the_holder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    let (e, total) = experiment(SMALL);
    let first = open_run_dir(&dir, &e, total, false).unwrap();
    // Run B with --force, in this process (a second open file description)
    // and as another process: both refused, and A's files are untouched.
    let err = open_run_dir(&dir, &e, total, true).unwrap_err().to_string();
    assert!(
        err.contains("in use by another hoyito process")
            && err.contains(&format!("pid {}", std::process::id())),
        "{err}"
    );
    let cfg = config(tmp.path(), SMALL);
    let out = hoyito(&["run", s(&cfg), "--out", s(&dir), "--force"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("in use by another hoyito process"),
        "{stderr}"
    );
    assert!(dir.join("games.csv").exists() && dir.join("experiment.toml").exists());
    // A report of a directory being written is refused too.
    let out = hoyito(&["report", s(&dir)]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("in use by another hoyito process"),
        "{stderr}"
    );
    drop(first);
    let out = hoyito(&["run", s(&cfg), "--out", s(&dir), "--force"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = hoyito(&["report", s(&dir)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn issue9_item13_a_planted_temp_link_does_not_overwrite_its_victim() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    fs::create_dir(&dir).unwrap();
    let victim = tmp.path().join("victim");
    fs::write(&victim, "precious\n").unwrap();
    symlink(&victim, dir.join("experiment.toml.tmp")).unwrap();
    let cfg = config(tmp.path(), SMALL);
    let out = hoyito(&["run", s(&cfg), "--out", s(&dir)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(fs::read_to_string(dir.join("experiment.toml"))
        .unwrap()
        .contains("name = \"small\""));
}

#[test]
fn issue9_item13_a_dangling_games_link_does_not_create_its_target() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    fs::create_dir(&dir).unwrap();
    let target = tmp.path().join("elsewhere.csv");
    symlink(&target, dir.join("games.csv")).unwrap();
    let (e, total) = experiment(SMALL);
    let err = open_run_dir(&dir, &e, total, false)
        .unwrap_err()
        .to_string();
    assert!(err.contains("games.csv is a symbolic link"), "{err}");
    assert!(!target.exists(), "the link's target was created");
    assert!(
        !dir.join("experiment.toml").exists(),
        "written before refusing"
    );
    let cfg = config(tmp.path(), SMALL);
    let out = hoyito(&["run", s(&cfg), "--out", s(&dir)]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("symbolic link"), "{stderr}");
    assert!(!target.exists(), "the link's target was created");
}
