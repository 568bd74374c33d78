//! Deterministic self-play twins: when both seats of a pair hold one
//! deterministic agent, the pair's second game is its first move for move,
//! and the run records it from the first instead of playing it. The
//! records are the same bytes as with every game played (`--play-twins`),
//! on one thread and on two, and `timings.csv` counts the games reused.

use std::fs;
use std::path::Path;

use crate::common::{run_ok, s, scratch};

const CONFIG: &str = r#"
name = "twins"
seed = 11
games = 24
[rules]
variants = ["i", "ii"]
holes = [4, 6]
[openings]
random_plies = 4
[tournament]
format = "round-robin"
agents = ["d3", "greedy", "d3-again"]
self_play = true
[record]
moves = true
metrics = true
[roster.d3]
kind = "alphabeta"
depth = 3
[roster.d3-again]
kind = "alphabeta"
depth = 3
[roster.greedy]
kind = "greedy"
"#;

/// The record files compared byte for byte.
const RECORDS: [&str; 5] = [
    "games.csv",
    "moves.csv",
    "metrics.csv",
    "summary.json",
    "report.md",
];

/// `timings.csv`'s rows as (agent_a, agent_b, games, games_reused).
fn reused(dir: &Path) -> Vec<(String, String, u64, u64)> {
    let text = fs::read_to_string(dir.join("timings.csv")).expect("timings");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    assert_eq!(header.last(), Some(&"games_reused"));
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            (
                f[5].to_string(),
                f[6].to_string(),
                f[7].parse().expect("games"),
                f[9].parse().expect("reused"),
            )
        })
        .collect()
}

#[test]
fn twins_are_recorded_from_their_first_game_as_if_played() {
    let dir = scratch("twins");
    let cfg = dir.join("twins.toml");
    fs::write(&cfg, CONFIG).expect("writable");
    let run = |name: &str, threads: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = vec![
            "run",
            s(&cfg),
            "--out",
            s(&out),
            "--threads",
            threads,
            "--report-every",
            "0",
        ];
        args.extend_from_slice(extra);
        run_ok(&args);
        out
    };
    let played = run("played", "1", &["--play-twins"]);
    for (name, threads) in [("one", "1"), ("two", "2")] {
        let shortcut = run(name, threads, &[]);
        for file in RECORDS {
            let a = fs::read(played.join(file)).expect(file);
            let b = fs::read(shortcut.join(file)).expect(file);
            assert!(
                a == b,
                "{file} differs with the shortcut on {threads} thread(s)"
            );
        }
        for (a, b, games, reused) in reused(&shortcut) {
            // Every block whose two seats hold alpha-beta to depth 3: d3
            // and d3-again each against itself, and against each other
            // (two names, the same settings, so the same moves); never a
            // block with greedy, which draws on the game's generator.
            let expected = if a != "greedy" && b != "greedy" {
                games / 2
            } else {
                0
            };
            assert_eq!(reused, expected, "{a} vs {b} on {threads} thread(s)");
        }
    }
    assert!(reused(&played).iter().all(|r| r.3 == 0));
}
