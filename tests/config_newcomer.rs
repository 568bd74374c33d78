//! Issue 41, "A newcomer's day", the config items: every unknown name at
//! once with the name meant, variants in any case, and the run's date in
//! the PGN export (recorded in the run's `experiment.toml`, never in its
//! games). Each test drives the binary as a newcomer would.

use std::fs;
use std::path::Path;

use crate::common::{hoyito, run_ok, s};

const AGENTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/agents");

const SMALL: &str = r#"name = "newcomer"
seed = 7
games = 2
[rules]
variants = ["ii"]
holes = [4]
[tournament]
format = "round-robin"
agents = ["random", "greedy"]
"#;

/// Runs `hoyito run` on `config` in `dir`; its output and standard error.
fn run(dir: &Path, config: &str, out: &str) -> (std::process::Output, String) {
    let cfg = dir.join("c.toml");
    fs::write(&cfg, config).unwrap();
    let out = dir.join(out);
    let output = hoyito(&["run", s(&cfg), "--out", s(&out), "--agents-dir", AGENTS]);
    let err = String::from_utf8_lossy(&output.stderr).to_string();
    (output, err)
}

#[test]
fn issue41_item3_every_unknown_key_and_value_is_named_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let config = "name = \"first\"\nseed = 1\ngames = 2\nvariant = [\"ii\"]\n\n[rules]\n\
                  hole = [6]\n\n[openings]\nrandom_ply = 4\n\n[tournament]\n\
                  format = \"round-robbin\"\nagents = [\"randm\", \"greedy\"]\n";
    let (output, err) = run(dir.path(), config, "never");
    assert!(!output.status.success(), "accepted: {err}");
    for wanted in [
        "c.toml: unknown key `variant` (line 4): did you mean `rules.variants`?",
        "c.toml: unknown key `rules.hole` (line 7): did you mean `holes`?",
        "c.toml: unknown key `openings.random_ply` (line 10): did you mean `random_plies`?",
        "c.toml: unknown value `round-robbin` for `tournament.format` (line 13): \
         did you mean `round-robin`?",
    ] {
        assert!(err.contains(wanted), "{wanted:?} not in {err}");
    }
    assert!(!dir.path().join("never").exists());
    // Fixed, the unknown agents come next: all of them, each with its fix.
    let config = SMALL.replace(r#"["random", "greedy"]"#, r#"["randm", "greedy", "gredy"]"#);
    let (output, err) = run(dir.path(), &config, "never");
    assert!(!output.status.success(), "accepted: {err}");
    for wanted in [
        "c.toml: key `tournament.agents`: unknown agent `randm`: did you mean `random`?",
        "c.toml: key `tournament.agents`: unknown agent `gredy`: did you mean `greedy`?",
    ] {
        assert!(err.contains(wanted), "{wanted:?} not in {err}");
    }
    assert!(!dir.path().join("never").exists());
}

#[test]
fn issue41_item3_all_five_names_at_once_when_the_roster_is_known() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.toml");
    let config = SMALL
        .replace("games = 2", "games = 2\nvariant = [\"ii\"]")
        .replace("holes = [4]", "hole = [4]\nrandom_ply = 2")
        .replace("round-robin", "round-robbin")
        .replace(r#""random""#, r#""randm""#);
    fs::write(&path, config).unwrap();
    let err = hoyito::tournament::Experiment::load_naming_agents(&path, || {
        hoyito::Roster::load(Path::new(AGENTS))
    })
    .unwrap_err()
    .to_string();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 5, "{err}");
    for (line, wanted) in lines.iter().zip([
        "`variant`",
        "`rules.hole`",
        "`rules.random_ply`",
        "`round-robbin`",
        "`randm`: did you mean `random`?",
    ]) {
        assert!(line.contains(wanted), "{wanted} not in {line}");
    }
    // `random_ply` in [rules] belongs to [openings]: said so.
    assert!(
        lines[2].contains("did you mean `openings.random_plies`?"),
        "{err}"
    );
}

#[test]
fn issue41_item2_variants_are_read_in_any_case_in_configs_too() {
    let dir = tempfile::tempdir().unwrap();
    let config = SMALL.replace(r#"["ii"]"#, r#"["II", "Iii"]"#);
    let (output, err) = run(dir.path(), &config, "out");
    assert!(output.status.success(), "{err}");
    let saved = fs::read_to_string(dir.path().join("out/experiment.toml")).unwrap();
    assert!(saved.contains(r#"variants = ["ii", "iii"]"#), "{saved}");
    let config = SMALL.replace(r#"["ii"]"#, r#"["IV"]"#);
    let (output, err) = run(dir.path(), &config, "never");
    assert!(!output.status.success());
    assert!(
        err.contains("unknown value `IV` for `rules.variants` (line 5)")
            && err.contains("(one of `i`, `ii`, `iii`)"),
        "{err}"
    );
}

#[test]
fn issue41_item8_the_pgn_date_is_the_runs_and_never_enters_the_games() {
    let dir = tempfile::tempdir().unwrap();
    // Without a date in the config: the run records the day it started.
    let (output, err) = run(dir.path(), SMALL, "a");
    assert!(output.status.success(), "{err}");
    let saved = fs::read_to_string(dir.path().join("a/experiment.toml")).unwrap();
    let date = saved
        .lines()
        .find_map(|l| l.strip_prefix("date = \""))
        .and_then(|l| l.strip_suffix('"'))
        .unwrap_or_else(|| panic!("no date in {saved}"))
        .to_string();
    assert_eq!(date.len(), 10, "{date}");
    // Resuming is the same experiment, and so is the config with a date.
    run_ok(&[
        "run",
        s(&dir.path().join("c.toml")),
        "--out",
        s(&dir.path().join("a")),
        "--agents-dir",
        AGENTS,
    ]);
    let dated = SMALL.replace("games = 2", "games = 2\ndate = \"2024-02-29\"");
    let (output, err) = run(dir.path(), &dated, "b");
    assert!(output.status.success(), "{err}");
    let games = |d: &str| fs::read(dir.path().join(d).join("games.csv")).unwrap();
    assert_eq!(games("a"), games("b"));
    let (output, err) = run(dir.path(), &dated, "a");
    assert!(output.status.success(), "resuming with a date: {err}");
    // The PGN carries the recorded dates.
    for (run_dir, tag) in [
        ("a", format!("[Date \"{}\"]", date.replace('-', "."))),
        ("b", "[Date \"2024.02.29\"]".to_string()),
    ] {
        let pgn = dir.path().join(format!("{run_dir}.pgn"));
        run_ok(&["export", s(&dir.path().join(run_dir)), "--pgn", s(&pgn)]);
        let text = fs::read_to_string(&pgn).unwrap();
        assert!(text.contains(&tag), "{tag} not in {text}");
        assert!(!text.contains("????.??.??"), "{text}");
        assert!(text.contains("[Opening \""), "{text}");
    }
    // A date that is not a day is refused, naming the key.
    let (output, err) = run(
        dir.path(),
        &SMALL.replace("games = 2", "games = 2\ndate = \"2023-02-29\""),
        "never",
    );
    assert!(!output.status.success());
    assert!(
        err.contains("c.toml: key `date`: \"2023-02-29\" is not a date"),
        "{err}"
    );
}
