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

/// Runs `SMALL` (with `seed`) into `dir`, which must succeed.
fn run_small(tmp: &Path, dir: &Path, seed: u64) {
    let cfg = config(tmp, &SMALL.replace("seed = 11", &format!("seed = {seed}")));
    let out = hoyito(&["run", s(&cfg), "--out", s(dir)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Resumes `SMALL` in `dir`, which must fail; returns the one-line error.
fn resume_fails(tmp: &Path, dir: &Path) -> String {
    let cfg = config(tmp, SMALL);
    let out = hoyito(&["run", s(&cfg), "--out", s(dir)]);
    assert!(!out.status.success(), "a damaged directory was resumed");
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("restore the file, or pass --force"),
        "{stderr}"
    );
    stderr
}

/// Rewrites line `line` (1-based) of `path` with `edit`.
fn edit_line(path: &Path, line: usize, edit: impl FnOnce(&mut Vec<String>)) {
    let text = fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut fields: Vec<String> = lines[line - 1].split(',').map(str::to_string).collect();
    edit(&mut fields);
    lines[line - 1] = fields.join(",");
    fs::write(path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn issue9_item8_a_flipped_winner_is_refused_on_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    run_small(tmp.path(), &dir, 11);
    let games = dir.join("games.csv");
    let pristine = fs::read(&games).unwrap();
    // The winner alone flipped: the captures contradict it.
    edit_line(&games, 5, |f| {
        f[9] = if f[9] == "S" { "N".into() } else { "S".into() }
    });
    let err = resume_fails(tmp.path(), &dir);
    assert!(err.contains("games.csv: line 5: column `winner`"), "{err}");
    // Winner and captures swapped together agree, but the moves do not.
    fs::write(&games, &pristine).unwrap();
    edit_line(&games, 6, |f| {
        f.swap(10, 11);
        f[9] = match f[9].as_str() {
            "S" => "N".into(),
            "N" => "S".into(),
            _ => "draw".into(),
        };
    });
    if fs::read(&games).unwrap() != pristine {
        let err = resume_fails(tmp.path(), &dir);
        assert!(
            err.contains("games.csv: line 6: column `") && err.contains("moves end with"),
            "{err}"
        );
    }
    fs::write(&games, &pristine).unwrap();
    run_small(tmp.path(), &dir, 11);
}

#[test]
fn issue9_item8_rows_of_a_run_with_another_seed_are_refused_on_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, other) = (tmp.path().join("out"), tmp.path().join("other"));
    run_small(tmp.path(), &dir, 11);
    run_small(tmp.path(), &other, 12);
    for name in ["games.csv", "moves.csv"] {
        fs::copy(other.join(name), dir.join(name)).unwrap();
    }
    let err = resume_fails(tmp.path(), &dir);
    assert!(
        err.contains("games.csv: line 2: column `game_seed`") && err.contains("another seed"),
        "{err}"
    );
}

#[test]
fn issue9_item8_a_row_with_a_missing_field_or_bad_moves_is_refused_on_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    run_small(tmp.path(), &dir, 11);
    let games = dir.join("games.csv");
    let pristine = fs::read(&games).unwrap();
    edit_line(&games, 4, |f| {
        f.remove(12);
    });
    let err = resume_fails(tmp.path(), &dir);
    assert!(
        err.contains("games.csv: line 4: 14 fields where the header has 15"),
        "{err}"
    );
    fs::write(&games, &pristine).unwrap();
    // A move of game 3 changed in moves.csv: its hash no longer matches.
    let moves = dir.join("moves.csv");
    let text = fs::read_to_string(&moves).unwrap();
    let line = text.lines().nth(4).unwrap().to_string();
    let (id, rest) = line.split_once(',').unwrap();
    let changed = format!("{id},{}", rest.replacen(' ', " pass ", 1));
    fs::write(&moves, text.replace(&line, &changed)).unwrap();
    let err = resume_fails(tmp.path(), &dir);
    assert!(
        err.contains("games.csv: line 5: column `moves_hash`") && err.contains("moves.csv line 5"),
        "{err}"
    );
}

/// `hoyito report DIR`, which must fail; returns the one-line error.
fn report_fails(dir: &Path) -> String {
    let out = hoyito(&["report", s(dir)]);
    assert!(!out.status.success(), "an impossible row was reported");
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn issue9_item9_impossible_rows_are_refused_by_the_report() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    run_small(tmp.path(), &dir, 11);
    let games = dir.join("games.csv");
    let pristine = fs::read_to_string(&games).unwrap();
    type Case = (usize, fn(&mut Vec<String>), &'static str);
    let cases: [Case; 5] = [
        (3, |f| f[3] = "99".into(), "line 3: column `holes`: 99"),
        (3, |f| f[4] = "0".into(), "line 3: column `seeds`: 0"),
        (
            4,
            |f| f[5] = "mcts".into(),
            "line 4: column `south`: \"mcts\", but the experiment's game 2 has",
        ),
        (
            5,
            |f| f[9] = if f[9] == "S" { "N".into() } else { "S".into() },
            "line 5: column `winner`",
        ),
        (2, |f| f[2] = "iii".into(), "line 2: column `variant`: iii"),
    ];
    for (line, edit, want) in cases {
        fs::write(&games, &pristine).unwrap();
        edit_line(&games, line, edit);
        let err = report_fails(&dir);
        assert!(err.contains(want), "{err}\nwanted: {want}");
    }
    // A deleted row, and a row replaced by a blank line.
    let lines: Vec<&str> = pristine.lines().collect();
    let deleted = [&lines[..5], &lines[6..]].concat().join("\n") + "\n";
    fs::write(&games, deleted).unwrap();
    let err = report_fails(&dir);
    assert!(
        err.contains("line 6: column `game_id`: game 5, but game 4 is missing"),
        "{err}"
    );
    let blank = [&lines[..5], &[""], &lines[6..]].concat().join("\n") + "\n";
    fs::write(&games, blank).unwrap();
    let err = report_fails(&dir);
    assert!(err.contains("game 5, but game 4 is missing"), "{err}");
    fs::write(&games, &pristine).unwrap();
    let out = hoyito(&["report", s(&dir)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn issue9_item9_a_run_interrupted_at_16_of_400_games_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    let cfg = config(tmp.path(), &SMALL.replace("games = 4", "games = 100"));
    let out = hoyito(&["run", s(&cfg), "--out", s(&dir)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = fs::read_to_string(dir.join("summary.json")).unwrap();
    assert!(
        summary.contains("\"planned_games\": 400,\n  \"complete\": true"),
        "{summary}"
    );
    let games = dir.join("games.csv");
    let text = fs::read_to_string(&games).unwrap();
    let kept: Vec<&str> = text.lines().take(17).collect();
    fs::write(&games, kept.join("\n") + "\n").unwrap();
    let out = hoyito(&["report", s(&dir)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = fs::read_to_string(dir.join("summary.json")).unwrap();
    assert!(
        summary.contains("\"games\": 16,\n  \"planned_games\": 400,\n  \"complete\": false"),
        "{summary}"
    );
    assert!(summary.contains("\"kind\": \"incomplete\""), "{summary}");
    let report = fs::read_to_string(dir.join("report.md")).unwrap();
    let top = report.lines().nth(2).unwrap();
    assert!(
        top.starts_with("**16 of 400 planned games: the run is incomplete**; resume it with"),
        "{report}"
    );
    assert!(report.contains("- **The run is incomplete: 16 of 400 planned games.**"));
}
