//! `hoyito best`: the shape of its answer (search lines, `move M` last), its
//! agreement with `hoyito probe` inside the tables, and its one-line errors.

use std::path::PathBuf;

use crate::common::{hoyito, refused, s};

/// A roster directory under the test target directory holding `files`.
fn roster(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

/// Runs `best` with `args`, which must succeed; its standard output's lines.
fn best_ok(args: &[&str]) -> Vec<String> {
    let mut all = vec!["best"];
    all.extend_from_slice(args);
    let out = hoyito(&all);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "best {args:?}: {stderr}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Runs `best` with `args`, which must fail; its standard error.
fn best_err(args: &[&str]) -> String {
    let mut all = vec!["best"];
    all.extend_from_slice(args);
    let out = hoyito(&all);
    assert!(!out.status.success(), "best {args:?} succeeded");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    stderr
}

const START: &str = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0";

#[test]
fn alphabeta_reports_its_search_and_the_move_comes_last() {
    let dir = roster(
        "best-shape",
        &[
            ("ab.toml", "kind = \"alphabeta\"\ndepth = 6\npvs = true"),
            ("greedy.toml", "kind = \"greedy\""),
        ],
    );
    let args = [
        "--agent",
        "ab",
        "--position",
        START,
        "--agents-dir",
        s(&dir),
    ];
    let lines = best_ok(&args);
    let names: Vec<&str> = lines.iter().filter_map(|l| l.split(' ').next()).collect();
    assert_eq!(
        names,
        ["agent", "position", "depth", "score", "nodes", "visited", "pv", "move"],
        "{lines:?}"
    );
    assert_eq!(lines[0], "agent ab (alphabeta depth=6 pvs=true)");
    assert_eq!(lines[2], "depth 6");
    let mv = lines[7].strip_prefix("move ").unwrap();
    assert!((1..=6).contains(&mv.parse::<u32>().unwrap()), "{mv}");
    assert_eq!(
        lines[6].split(' ').nth(1),
        Some(mv),
        "the pv starts with the move"
    );
    assert_eq!(best_ok(&args), lines, "the same answer every time");
    let greedy = best_ok(&["--agent", "greedy", "-p", START, "--agents-dir", s(&dir)]);
    assert_eq!(greedy.len(), 3, "{greedy:?}");
    assert!(greedy[2].starts_with("move "), "{greedy:?}");
}

/// Inside the tables an alpha-beta agent with `max_seeds` and `tables = DIR`
/// scores the position as `hoyito probe` values it and plays one of its best
/// moves; the tables are saved in DIR.
#[test]
fn with_tables_best_agrees_with_probe() {
    let tables = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("best-tables");
    let _ = std::fs::remove_dir_all(&tables);
    let text = format!(
        "kind = \"alphabeta\"\ndepth = 2\nmax_seeds = 8\ntables = {:?}",
        s(&tables)
    );
    let dir = roster("best-tables-roster", &[("tb.toml", &text)]);
    for pos in ["2,0,1,1/0,3,1,0 S 4-0", "1,0,0,2/0,2,1,0 N 8-8"] {
        let probe = hoyito(&[
            "probe",
            "--variant",
            "ii",
            "-p",
            pos,
            "--tables",
            s(&tables),
        ]);
        assert!(probe.status.success());
        let probe = String::from_utf8_lossy(&probe.stdout).to_string();
        let value: i32 = probe.lines().next().unwrap()[6..].parse().unwrap();
        let best_moves: Vec<&str> = probe.lines().nth(1).unwrap().split(' ').skip(1).collect();
        let lines = best_ok(&["--agent", "tb", "-p", pos, "--agents-dir", s(&dir)]);
        let score: i32 = lines[3].strip_prefix("score ").unwrap().parse().unwrap();
        let (south, north) = if pos.ends_with("4-0") { (4, 0) } else { (8, 8) };
        let material = if pos.contains(" S ") {
            south - north
        } else {
            north - south
        };
        assert_eq!(score, value + material, "{pos}: {lines:?} vs {probe}");
        let mv = lines.last().unwrap().strip_prefix("move ").unwrap();
        assert!(
            best_moves.contains(&mv),
            "{pos}: {mv} not in {best_moves:?}"
        );
    }
    assert!(std::fs::read_dir(&tables).unwrap().count() > 0);
}

#[test]
fn bad_requests_fail_with_one_line_naming_the_problem() {
    let dir = roster(
        "best-errors",
        &[("ab.toml", "kind = \"alphabeta\"\ndepth = 3")],
    );
    let d = s(&dir);
    let err = best_err(&["--agent", "nobody", "-p", START, "--agents-dir", d]);
    assert!(err.contains("nobody") && err.contains("ab"), "{err}");
    let err = best_err(&["--agent", "ab", "-p", "4,4/4 S 0-0", "--agents-dir", d]);
    assert!(err.contains("bad position"), "{err}");
    let err = best_err(&[
        "--agent",
        "ab",
        "-p",
        START,
        "--holes",
        "4",
        "--agents-dir",
        d,
    ]);
    assert!(
        err.contains("6 holes per row") && err.contains("--holes is 4"),
        "{err}"
    );
    let err = best_err(&[
        "--agent",
        "ab",
        "-p",
        "0,0,0,0/0,0,0,0 S 16-16",
        "--agents-dir",
        d,
    ]);
    assert!(err.contains("game is over"), "{err}");
    let err = best_err(&[
        "--agent",
        "ab",
        "-p",
        START,
        "--variant",
        "iv",
        "--agents-dir",
        d,
    ]);
    assert!(err.contains("iv"), "{err}");
}

/// `best` with an agent that forfeits names the forfeit once, not its text
/// twice.
#[test]
fn a_forfeit_is_named_once() {
    let dir = tempfile::tempdir().unwrap();
    let agents = dir.path().join("agents");
    std::fs::create_dir(&agents).unwrap();
    std::fs::write(
        agents.join("crash.toml"),
        "kind = \"external\"\ncommand = [\"sh\", \"-c\", \"exit 3\"]\n",
    )
    .unwrap();
    let out = hoyito(&[
        "best",
        "--agent",
        "crash",
        "-p",
        START,
        "--agents-dir",
        s(&agents),
    ]);
    let err = refused(&out, "best");
    assert!(!err.contains("memory allocation"), "best: {err}");
    assert_eq!(err.matches("forfeit (crash)").count(), 1, "{err}");
    assert_eq!(err.matches("exit status: 3").count(), 1, "{err}");
}
