//! Issue 41, "A newcomer's day", through the binary: agents written on the
//! command line, the shipped agents reachable beside an agents directory of
//! one's own, `match` directories named after their settings, hints with a
//! score, the agents listed once each with what they are, `probe`'s cache,
//! and one meaning per flag.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use super::common::{hoyito, run_ok, s, BIN};

const START: &str = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0";

fn roster() -> String {
    format!("{}/agents", env!("CARGO_MANIFEST_DIR"))
}

/// The binary run in `dir`, with `env` set.
fn hoyito_in(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut command = Command::new(BIN);
    command.args(args).current_dir(dir);
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("the binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// Item 1: a kind with keys, and a roster agent with a key overridden, are
/// agents wherever an agent is named; a bad key names the closest one.
#[test]
fn issue41_item1_agents_are_written_on_the_command_line() {
    let out = hoyito(&["best", "--agent", "alphabeta:depth=3", "-p", START]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        text.starts_with("agent alphabeta-depth3 (alphabeta depth=3)"),
        "{text}"
    );
    assert!(text.contains("\ndepth 3\n"), "{text}");
    let out = hoyito(&["best", "--agent", "champion:nodes=3000", "-p", START]);
    let text = stdout(&out);
    assert!(
        text.starts_with("agent champion-nodes3000 (alphabeta nodes=3000 pvs=true"),
        "{text}"
    );
    let out = hoyito(&["best", "--agent", "mcts:iteration=50", "-p", START]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("unknown key `iteration` for mcts; did you mean `iterations`?"),
        "{err}"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("my-ab.toml");
    std::fs::write(&file, "kind = \"alphabeta\"\ndepth = 2\n").unwrap();
    let out = hoyito(&["best", "--agent", s(&file), "-p", START]);
    assert!(
        stdout(&out).starts_with("agent my-ab (alphabeta depth=2)"),
        "{}",
        stderr(&out)
    );
}

/// Item 1: an external agent from `cmd=`, as cutechess-cli takes one.
#[test]
fn issue41_item1_an_external_agent_from_cmd() {
    let script = format!("{}/agents/examples/random.py", env!("CARGO_MANIFEST_DIR"));
    let agent = format!("cmd=python3 {script}");
    let out = hoyito(&["best", "--agent", &agent, "-p", START]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(text.starts_with("agent cmd-python3-"), "{text}");
    assert!(text.lines().last().unwrap().starts_with("move "), "{text}");
}

/// Item 1 (the bug): `match bighole greedy --agents-dir DIR` answered "no
/// agent named greedy"; the shipped agents stay reachable, and the match
/// saves every agent it plays in its experiment.
#[test]
fn issue41_item1_shipped_agents_stay_reachable_beside_an_agents_dir() {
    let dir = tempfile::tempdir().unwrap();
    let agents = dir.path().join("mine");
    std::fs::create_dir(&agents).unwrap();
    std::fs::write(
        agents.join("bighole.toml"),
        "kind = \"alphabeta\"\ndepth = 2\n",
    )
    .unwrap();
    let out = dir.path().join("run");
    run_ok(&[
        "match",
        "bighole",
        "greedy",
        "--agents-dir",
        s(&agents),
        "--games",
        "2",
        "--threads",
        "1",
        "--out",
        s(&out),
    ]);
    let saved = std::fs::read_to_string(out.join("experiment.toml")).unwrap();
    assert!(
        saved.contains("[roster.bighole]") && saved.contains("[roster.greedy]"),
        "{saved}"
    );
    run_ok(&[
        "match",
        "alphabeta:depth=1",
        "random",
        "--agents-dir",
        s(&agents),
        "--games",
        "2",
        "--threads",
        "1",
        "--out",
        s(&dir.path().join("kinds")),
    ]);
    let games = std::fs::read_to_string(dir.path().join("kinds/games.csv")).unwrap();
    assert!(games.contains("alphabeta-depth1"), "{games}");
}

/// Item 4: the default directory is named after the settings, so a III
/// match after a II one runs; an explicit --out that holds another
/// experiment names the setting that differs and the ways on.
#[test]
fn issue41_item4_match_directories_follow_the_settings() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "match",
        "alphabeta-d4",
        "greedy",
        "--games",
        "2",
        "--threads",
        "1",
    ];
    let agents = roster();
    let with = |extra: &[&str]| {
        let mut args: Vec<&str> = base.to_vec();
        args.extend(["--agents-dir", &agents]);
        args.extend(extra);
        hoyito_in(dir.path(), &args, &[])
    };
    assert!(with(&[]).status.success());
    let out = with(&["--variant", "iii"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir
        .path()
        .join("runs/alphabeta-d4-vs-greedy-ii-2x6-seed1/games.csv")
        .is_file());
    assert!(dir
        .path()
        .join("runs/alphabeta-d4-vs-greedy-iii-2x6-seed1/games.csv")
        .is_file());
    let out = with(&[
        "--out",
        "runs/alphabeta-d4-vs-greedy-ii-2x6-seed1",
        "--seed",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("seed is 1 there, 2 here"), "{err}");
    assert!(
        err.contains("--force") && err.contains("another --out"),
        "{err}"
    );
}

/// Item 5: a hint gives the score and the expected line, as `best` does.
#[test]
fn issue41_item5_a_hint_has_a_score_and_a_line() {
    let mut child = Command::new(BIN)
        .args([
            "play",
            "--hint-agent",
            "alphabeta:depth=4",
            "--agents-dir",
            &roster(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"hint\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = stdout(&out);
    assert!(
        text.contains("  hint: alphabeta-depth4 would play "),
        "{text}"
    );
    assert!(
        text.contains("  hint: score ") && text.contains("searched 4 plies); expected line "),
        "{text}"
    );
}

/// Item 6: one entry per distinct agent, its aliases beside it, with a
/// description and, where the report has one, a strength.
#[test]
fn issue41_item6_agents_are_listed_once_with_what_they_are() {
    let text = stdout(&hoyito(&["agents", "--agents-dir", &roster()]));
    assert!(
        text.contains("\nchampion, champion-2x6  alphabeta nodes=1000000"),
        "{text}"
    );
    assert!(
        !text.lines().any(|l| l.starts_with("champion-2x6 ")),
        "{text}"
    );
    assert!(
        text.contains("    Uniform random legal moves: the baseline."),
        "{text}"
    );
    assert!(
        text.contains("    strength: best move in 98.2% of 2,000 II 2x6 endgame positions"),
        "{text}"
    );
}

/// Item 7: `probe` without --tables uses the cache, says so, and leaves
/// the working directory alone.
#[test]
fn issue41_item7_probe_keeps_its_tables_in_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let out = hoyito_in(
        dir.path(),
        &["probe", "-p", "1,0,1/0,1,0 S 0-0"],
        &[("XDG_CACHE_HOME", &cache)],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let tables = cache.join("hoyito/tables");
    assert!(stderr(&out).contains(&format!("tables: {}", tables.display())));
    assert!(tables.is_dir());
    assert!(!dir.path().join("tables").exists());
}

/// Item 2: an out-of-range flag value is a usage error (exit 2) as an
/// unknown variant is; --variant defaults to ii in every command; the agents
/// directory has one value name.
#[test]
fn issue41_item2_one_meaning_per_flag() {
    for args in [
        &["match", "a", "b", "--holes", "1"][..],
        &["match", "a", "b", "--variant", "iv"],
        &["play", "--holes", "17"],
        &["captures", "--holes", "1", "--seeds", "2"],
    ] {
        assert_eq!(hoyito(args).status.code(), Some(2), "{args:?}");
    }
    let perft = hoyito(&["perft", "-p", "1,0,1/3,2,2 S 0-0", "--depth", "2"]);
    assert!(perft.status.success(), "{}", stderr(&perft));
    for command in [
        "apply", "perft", "probe", "solve", "captures", "book", "accuracy", "play", "match",
        "best", "tune",
    ] {
        let help = stdout(&hoyito(&[command, "--help"]));
        assert!(
            help.contains("(ii unless given, in every command)"),
            "{command}: {help}"
        );
    }
    for command in [
        "play", "match", "best", "book", "accuracy", "tune", "run", "agents",
    ] {
        let help = stdout(&hoyito(&[command, "--help"]));
        assert!(help.contains("--agents-dir <DIR>"), "{command}: {help}");
        assert!(!help.contains("AGENTS_DIR"), "{command}: {help}");
    }
    let book = stdout(&hoyito(&["book", "--help"]));
    assert!(
        !book.contains("solve --out") && book.contains("solve --tables"),
        "{book}"
    );
    let play = stdout(&hoyito(&["play", "--help"]));
    assert!(!play.contains("Possible values:"), "{play}");
}
