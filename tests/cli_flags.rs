//! The command line's flags, through the binary: one value name, so one
//! meaning, per long flag across every subcommand; every subcommand's help in
//! one layout; the renamed flags (`report --games`, `captures --seeds`)
//! refused as usage errors that name the new ones; one spelling for the
//! tables and agents directories, no `-v` short flag, and `--variant ii`
//! unless given; and the `seed` key of the agents that draw random numbers.

use std::collections::BTreeMap;
use std::path::Path;

use super::common::{hoyito, one_line_error, s, scratch, stderr, stdout};

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

/// A long flag has one value name wherever it appears (`--out <PATH>`
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

/// Every subcommand's help looks alike: `-h` and `--help` give the
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

/// `report --games` (game ids) and `captures --seeds` (seeds on the
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

/// `hoyito match champion 'mcts:iterations=20000,seed=3'` plays (here with
/// fewer iterations, on 2x3, so that the champion's million nodes a move stay
/// quick).
#[test]
fn the_champion_plays_a_seeded_mcts() {
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

/// One seed plays the same games again, on any thread count; another
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

/// An out-of-range flag value is a usage error (exit 2) as an unknown
/// variant is; --variant defaults to ii in every command; the agents
/// directory has one value name.
#[test]
fn one_meaning_per_flag() {
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

/// `-v` is no short flag of `--variant`: a usage error naming it; and every
/// command that reads agents spells their directory `--agents-dir <DIR>`.
#[test]
fn v_is_not_variant() {
    let output = hoyito(&["book", "-v", "ii", "--holes", "6"]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(err.lines().count(), 1, "not one line: {err}");
    assert!(err.contains("'-v'"), "{err}");
    for command in ["run", "match", "book", "replay", "agents"] {
        let output = hoyito(&[command, "--help"]);
        let help = String::from_utf8_lossy(&output.stdout);
        assert!(help.contains("--agents-dir <DIR>"), "{command}: {help}");
    }
}

/// One name for the tables folder (`--tables`, old spellings kept),
/// `--holes` required by both `solve` and `captures`, no `-v` short flag, and
/// `agents --agents-dir` as `run` spells it.
#[test]
fn flags_are_consistent() {
    let dir = scratch("flags");
    let position = "1,0/0,1 S 0-0";
    for flag in ["--tables", "--dir"] {
        let out = hoyito(&["probe", "--variant", "i", "-p", position, flag, s(&dir)]);
        assert!(out.status.success(), "{flag}: {out:?}");
    }
    for flag in ["--tables", "--out"] {
        let args = [
            "solve",
            "--variant",
            "i",
            "--holes",
            "2",
            "--max-seeds",
            "2",
        ];
        let mut args = args.to_vec();
        args.extend([flag, s(&dir)]);
        assert!(hoyito(&args).status.success(), "{flag}");
    }
    let err = one_line_error(&["solve", "--variant", "i", "--max-seeds", "2"]);
    assert!(err.contains("--holes"), "{err}");
    let err = one_line_error(&["captures", "--variant", "i", "--layer", "2"]);
    assert!(err.contains("--holes"), "{err}");
    let err = one_line_error(&["perft", "-v", "i", "-p", position, "-d", "1"]);
    assert!(err.contains("'-v'"), "{err}");
    for flag in ["--agents-dir", "--dir"] {
        let out = hoyito(&["agents", flag, "agents"]);
        assert!(out.status.success(), "{flag}: {out:?}");
        assert!(stdout(&out).contains("tablebase-8"), "{flag}");
    }
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}
