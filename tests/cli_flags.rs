//! Issue 41's command-line items, through the binary: one value name, so one
//! meaning, per long flag across every subcommand; every subcommand's help in
//! one layout; the flags renamed for it (`report --games`, `captures
//! --seeds`) refused as usage errors that name the new ones; and the `seed`
//! key of the agents that draw random numbers.

use std::collections::BTreeMap;
use std::path::Path;

use super::common::{hoyito, s};

/// The subcommands, as `hoyito --help` lists them (`help` aside).
fn subcommands() -> Vec<String> {
    let top = stdout_of(&["--help"]);
    let commands: Vec<String> = top
        .lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    assert!(commands.len() >= 20, "{top}");
    commands
}

/// Standard output of a command that must succeed.
fn stdout_of(args: &[&str]) -> String {
    let out = hoyito(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Each long flag of a help text with its value name (`""` for a flag that
/// takes none): `--out <PATH>` gives `("--out", "PATH")`.
fn long_flags(help: &str) -> Vec<(String, String)> {
    let mut flags = Vec::new();
    for line in help.lines() {
        let text = line.trim_start();
        let text = match text.split_once(", ") {
            Some((short, rest)) if short.len() == 2 && short.starts_with('-') => rest,
            _ => text,
        };
        if !text.starts_with("--") {
            continue;
        }
        let spec = text.split("  ").next().unwrap_or(text);
        let mut words = spec.splitn(2, ' ');
        let name = words.next().unwrap_or("").to_string();
        let value = words
            .next()
            .unwrap_or("")
            .trim()
            .trim_end_matches("...")
            .trim_matches(|c| matches!(c, '<' | '>' | '[' | ']'))
            .to_string();
        flags.push((name, value));
    }
    flags
}

/// Item 1: a long flag has one value name wherever it appears (`--out <PATH>`
/// in every command that writes, `--agents-dir <DIR>`, `--games <GAMES>` a
/// number of games), so that one flag has one meaning.
#[test]
fn every_long_flag_has_one_value_name() {
    let mut seen: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for command in subcommands() {
        let help = stdout_of(&[&command, "--help"]);
        let flags = long_flags(&help);
        assert!(flags.iter().any(|(name, _)| name == "--help"), "{command}");
        for (name, value) in flags {
            seen.entry(name)
                .or_default()
                .entry(value)
                .or_default()
                .push(command.clone());
        }
    }
    let clashes: Vec<String> = seen
        .iter()
        .filter(|(_, values)| values.len() > 1)
        .map(|(name, values)| format!("{name}: {values:?}"))
        .collect();
    assert!(
        clashes.is_empty(),
        "flags with two value names: {clashes:#?}"
    );
    // The flags that carried two meanings or two value names before.
    for (flag, value) in [
        ("--out", "PATH"),
        ("--games", "GAMES"),
        ("--seeds", "SEEDS"),
        ("--agents-dir", "DIR"),
        ("--game-ids", "LIST"),
        ("--layer", "SEEDS"),
    ] {
        let values = &seen[flag];
        assert!(values.contains_key(value), "{flag}: {values:?}");
    }
}

/// Item 3: every subcommand's help looks alike: `-h` and `--help` give the
/// same page, a one-line about line (the one `hoyito --help` lists), each
/// flag's help on its own line beside it (no command in the long layout),
/// and defaults written `[default: ...]`.
#[test]
fn every_help_has_one_layout() {
    let top = stdout_of(&["--help"]);
    for command in subcommands() {
        let long = stdout_of(&[&command, "--help"]);
        let short = stdout_of(&[&command, "-h"]);
        assert_eq!(long, short, "{command}: -h and --help differ");
        let mut lines = long.lines();
        let about = lines.next().unwrap_or("");
        assert!(
            !about.is_empty() && about.len() <= 100 && !about.ends_with('.'),
            "{command}: about line {about:?}"
        );
        assert_eq!(
            lines.next(),
            Some(""),
            "{command}: about on more than one line"
        );
        assert!(
            top.lines()
                .any(|line| line.trim_start().starts_with(&command) && line.ends_with(about)),
            "{command}: `hoyito --help` lists another about line than {about:?}"
        );
        for line in long.lines() {
            assert!(
                !line.starts_with("          "),
                "{command}: a flag's help below it (the long layout): {line:?}"
            );
            let text = line.trim_start();
            if !text.starts_with('-') {
                continue;
            }
            assert!(
                text.contains("  "),
                "{command}: a flag without its help beside it: {line:?}"
            );
            for odd in ["(default", "[default out", "(required)"] {
                assert!(
                    !text.contains(odd),
                    "{command}: `{odd}`: defaults are written [default: ...] at the end, \
                     and the usage line says what is required: {line:?}"
                );
            }
        }
    }
}

/// Item 1: `report --games` (game ids) and `captures --seeds` (seeds on the
/// board) are refused, with or without a value, as usage errors (exit 2, one
/// line) that name the flags that replace them; their help shows only those.
#[test]
fn renamed_flags_are_usage_errors_naming_the_new_ones() {
    let dir = tempfile::tempdir().expect("temp dir");
    let run = s(dir.path());
    for (args, new) in [
        (vec!["report", run, "--games", "17,42"], "--game-ids"),
        (vec!["report", run, "--games=3"], "--game-ids"),
        (vec!["report", run, "--games"], "--game-ids"),
        (vec!["captures", "--holes", "3", "--seeds", "4"], "--layer"),
        (vec!["captures", "--holes", "3", "--seeds"], "--layer"),
    ] {
        let out = hoyito(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(new), "{args:?}: {err}");
    }
    let report = stdout_of(&["report", "--help"]);
    assert!(
        report.contains("--game-ids <LIST>") && !report.contains("--games"),
        "{report}"
    );
    let captures = stdout_of(&["captures", "--help"]);
    assert!(
        captures.contains("--layer <SEEDS>") && !captures.contains("--seeds"),
        "{captures}"
    );
}

/// Plays `agent` against `opponent` into `out` (4 games on 2x6 unless
/// `extra` says otherwise).
fn play(agent: &str, opponent: &str, out: &Path, extra: &[&str]) {
    let mut args = vec![
        "match",
        agent,
        opponent,
        "--out",
        s(out),
        "--report-every",
        "0",
    ];
    args.extend(extra);
    if !extra.contains(&"--games") {
        args.extend(["--games", "4"]);
    }
    let out = hoyito(&args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).expect("a file of the run")
}

/// The moves of each game (the `moves_hash` column of games.csv).
fn moves(dir: &Path) -> Vec<String> {
    read(dir, "games.csv")
        .lines()
        .skip(1)
        .map(|row| row.rsplit(',').next().unwrap_or("").to_string())
        .collect()
}

/// Item 2: the issue's own command, `hoyito match champion
/// 'mcts:iterations=20000,seed=3'`, plays (fewer iterations, on 2x3, so that
/// the champion's million nodes a move stay quick).
#[test]
fn the_issues_match_with_a_seeded_mcts_plays() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("m");
    play(
        "champion",
        "mcts:iterations=20,seed=3",
        &out,
        &["--holes", "3", "--games", "2"],
    );
    let games = read(&out, "games.csv");
    assert!(games.contains(",mcts-iterations20-seed3,"), "{games}");
    assert_eq!(games.lines().count(), 3, "{games}");
}

/// Item 2: one seed plays the same games again, on any thread count; another
/// seed, and no seed, play others (no seed plays as before the key existed:
/// tests/identity checks the recorded runs byte for byte).
#[test]
fn a_seed_replays_its_games_and_another_seed_plays_others() {
    let dir = tempfile::tempdir().expect("temp dir");
    let at = |name: &str| dir.path().join(name);
    play(
        "mcts:iterations=30,seed=3",
        "greedy",
        &at("a"),
        &["--threads", "1"],
    );
    play(
        "mcts:iterations=30,seed=3",
        "greedy",
        &at("b"),
        &["--threads", "2"],
    );
    play(
        "mcts:iterations=30,seed=4",
        "greedy",
        &at("c"),
        &["--threads", "2"],
    );
    play(
        "mcts:iterations=30",
        "greedy",
        &at("d"),
        &["--threads", "2"],
    );
    for file in ["games.csv", "moves.csv"] {
        assert_eq!(read(&at("a"), file), read(&at("b"), file), "{file}");
    }
    let (three, four, none) = (moves(&at("a")), moves(&at("c")), moves(&at("d")));
    assert_eq!(three.len(), 4);
    assert_ne!(three, four, "seed=3 and seed=4 played the same moves");
    assert_ne!(three, none, "seed=3 played as no seed");
    // Without the key the agent is recorded as it always was: no `seed`.
    let settings = read(&at("d"), "experiment.toml");
    let agent = settings
        .split("kind = \"mcts\"")
        .nth(1)
        .expect("the mcts agent is recorded");
    let agent = agent.split("\n\n").next().unwrap_or(agent);
    assert!(!agent.contains("seed"), "{settings}");
    assert!(read(&at("a"), "experiment.toml").contains("seed = 3"));
}
