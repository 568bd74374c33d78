//! Game-design metrics: each per-game measure on hand-worked games, the
//! aggregates against an independent computation, and `metrics.csv` the same
//! for 1 and 2 threads and after a resume.
//!
//! Boards are drawn as in `tests/rules.rs`: North's row on top read right to
//! left (N6 .. N1), South's row below (S1 .. S6).

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use hoyito::metrics::{BalanceTally, GameMeasures, MeasureRecorder, Metric, METRICS_FILE};
use hoyito::tournament::{GameRow, MovesHash, Winner};
use hoyito::{Ending, Game, Move, Position, Rules, Side, Variant};

const BIN: &str = env!("CARGO_BIN_EXE_hoyito");

/// Plays `moves` from `start` under `variant`, recording measures; checks
/// the position after every ply against `expect` (hand-worked).
fn measured(variant: Variant, start: &str, moves: &[(&str, &str)]) -> (Game, GameMeasures) {
    let pos: Position = start.parse().unwrap();
    let rules = Rules {
        holes: pos.holes(),
        ..Rules::new(variant)
    };
    let mut game = Game::from_position(rules, pos);
    let mut rec = MeasureRecorder::new();
    rec.start(game.position());
    for (mv, expect) in moves {
        let mv: Move = mv.parse().unwrap();
        game.play(mv).unwrap();
        rec.record(mv, &game);
        assert_eq!(game.position().to_string(), *expect, "after {mv}");
    }
    let winner = game.outcome().and_then(|o| o.winner);
    (game, rec.finish(winner))
}

/// Hoyito I on 2x6, the lead changing twice:
/// ```text
///  0 1 3 1 3 1        . 1 . . . .
///  1 3 1 0 1 3   ->   . . . 1 . .   (after five plies)
/// ```
/// S captures 4 (S ahead), N captures 4 (level), S sows quietly, N captures
/// 4 (N ahead 8-4: change 1), S captures 4 and, the board holding 2, takes
/// them too (S ahead 10-8: change 2).
#[test]
fn the_lead_changes_twice_and_the_winner_overcame_four_seeds() {
    let (game, m) = measured(
        Variant::I,
        "1,3,1,0,1,3/1,3,1,3,1,0 S 0-0",
        &[
            ("1", "0,0,1,0,1,3/1,3,1,3,1,0 N 4-0"),
            ("1", "0,0,1,0,1,3/0,0,1,3,1,0 S 4-4"),
            ("3", "0,0,0,1,1,3/0,0,1,3,1,0 N 4-4"),
            ("3", "0,0,0,1,1,3/0,0,0,0,1,0 S 4-8"),
            ("5", "0,0,0,0,0,0/0,0,0,0,0,0 N 10-8"),
        ],
    );
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Side::South));
    assert_eq!(
        m,
        GameMeasures {
            // Sowable holes: 5, 5, 3, 3, 3.
            decisions: 5,
            options: 19,
            captures: 4,
            // The last move took its casa and the 2 left: 4 + 4 + 4 + 6.
            seeds_captured: 18,
            extra_moves: 0,
            passes: 0,
            endless_passes: 0,
            laps: 5,
            lead_changes: 2,
            drama: 4,
            // South was not ahead after ply 4: it led for good after ply 5.
            decided: 5,
            since_capture: 0,
        }
    );
}

/// Hoyito I on 2x6, decided at ply 1: South captures at once and stays
/// ahead; North's last capture ends the game 8-5.
#[test]
fn a_game_decided_at_ply_one() {
    let (game, m) = measured(
        Variant::I,
        "1,3,1,3,0,0/1,0,1,3,0,0 S 0-0",
        &[
            ("1", "0,0,1,3,0,0/1,0,1,3,0,0 N 4-0"),
            ("1", "0,0,1,3,0,0/0,1,1,3,0,0 S 4-0"),
            ("3", "0,0,0,0,0,0/0,1,1,3,0,0 N 8-0"),
            ("3", "0,0,0,0,0,0/0,0,0,0,0,0 S 8-5"),
        ],
    );
    assert_eq!(game.outcome().unwrap().winner, Some(Side::South));
    assert_eq!(m.decided, 1);
    assert_eq!(m.drama, 0);
    assert_eq!(m.lead_changes, 0);
    assert_eq!((m.options, m.decisions), (4 + 3 + 2 + 3, 4));
    assert_eq!((m.captures, m.seeds_captured), (3, 13));
}

/// Hoyito III on 2x3: South's single seed makes a casa in N1 (capture and
/// an extra move), then South, its row empty, passes; North sows N2.
/// ```text
///  3 2 3        3 2 0        3 2 0        4 0 0
///  0 0 1   ->   0 0 0   ->   0 0 0   ->   1 0 0
///    S 0-0        S 4-0        N 4-0        S 4-0
/// ```
#[test]
fn a_pass_and_an_extra_move_are_counted() {
    let (game, m) = measured(
        Variant::Iii,
        "0,0,1/3,2,3 S 0-0",
        &[
            ("3", "0,0,0/0,2,3 S 4-0"),
            ("pass", "0,0,0/0,2,3 N 4-0"),
            ("2", "1,0,0/0,0,4 S 4-0"),
        ],
    );
    assert!(!game.is_over());
    let m_south = m;
    assert_eq!(
        m_south,
        GameMeasures {
            decisions: 1,
            options: 1 + 1 + 2,
            captures: 1,
            seeds_captured: 4,
            extra_moves: 1,
            passes: 1,
            endless_passes: 0,
            laps: 2,
            lead_changes: 0,
            drama: 0,
            // Unfinished, no winner: the plies so far.
            decided: 3,
            since_capture: 2,
        }
    );
}

fn row(game_id: u64, south: &str, north: &str, winner: Winner, plies: u32) -> GameRow {
    GameRow {
        game_id,
        pair_id: game_id / 2,
        variant: Variant::Ii,
        holes: 6,
        seeds: 4,
        south: south.into(),
        north: north.into(),
        game_seed: 0,
        opening: String::new(),
        winner,
        south_captures: 0,
        north_captures: 0,
        plies,
        ending: Ending::Normal,
        // Every game distinct: a repeat would be counted once.
        moves_hash: MovesHash(game_id),
    }
}

/// Three pairs of self-play, with captures per ply and duration checked
/// against the ratio estimator written out here from its definition.
#[test]
fn aggregates_match_an_independent_computation() {
    let games = [
        (Winner::S, 40, 5),
        (Winner::N, 60, 9),
        (Winner::S, 50, 6),
        (Winner::S, 30, 2),
        (Winner::Draw, 80, 10),
        (Winner::N, 20, 3),
    ];
    let mut tally = BalanceTally::new();
    for (id, &(winner, plies, captures)) in games.iter().enumerate() {
        let m = GameMeasures {
            captures,
            decided: plies,
            ..GameMeasures::default()
        };
        tally.add(&row(id as u64, "a", "a", winner, plies), &m);
    }
    let groups = tally.metrics();
    assert_eq!(groups.len(), 2, "the setting, and the pairing `a`");
    let g = &groups[0];
    assert_eq!((g.games, g.pairs), (6, 3));
    // Captures per ply: pairs (x, y) = (100, 14), (80, 8), (100, 13).
    let pairs = [(100.0, 14.0), (80.0, 8.0), (100.0, 13.0)];
    let (sx, sy): (f64, f64) = pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), p| (a + p.0, b + p.1));
    let r = sy / sx;
    let ss: f64 = pairs.iter().map(|(x, y)| (y - r * x).powi(2)).sum();
    let se = (3.0 / 2.0 * ss).sqrt() / sx;
    let e = g.get(Metric::CaptureRate).unwrap();
    assert!((e.value - 35.0 / 280.0).abs() < 1e-12);
    assert!((e.se - se).abs() < 1e-12, "{} {}", e.se, se);
    // Duration: 280 plies over 6 games.
    assert!((g.get(Metric::Duration).unwrap().value - 280.0 / 6.0).abs() < 1e-12);
    // Balance: South won 3, North 2, a draw: 1 - |3 - 2| / 6.
    assert!((g.get(Metric::Balance).unwrap().value - (1.0 - 1.0 / 6.0)).abs() < 1e-12);
    // Draws 1 of 6; advantage (3.5 / 6) - 0.5.
    assert!((g.get(Metric::Draws).unwrap().value - 1.0 / 6.0).abs() < 1e-12);
    assert!((g.get(Metric::Advantage).unwrap().value - (3.5 / 6.0 - 0.5)).abs() < 1e-12);
    // Completion: the 5 decisive games ended normally; with the last South
    // win stalled instead, 4 of 6 (Ludii's Completion: a winner by play).
    assert!((g.get(Metric::Completion).unwrap().value - 5.0 / 6.0).abs() < 1e-12);
    let mut stalled = BalanceTally::new();
    for (id, &(winner, plies, captures)) in games.iter().enumerate() {
        let m = GameMeasures {
            captures,
            decided: plies,
            ..GameMeasures::default()
        };
        let mut r = row(id as u64, "a", "a", winner, plies);
        if id == 3 {
            r.ending = Ending::NoCaptureLimit;
        }
        stalled.add(&r, &m);
    }
    let s = &stalled.metrics()[0];
    assert!((s.get(Metric::Completion).unwrap().value - 4.0 / 6.0).abs() < 1e-12);
    assert!((s.get(Metric::Stalls).unwrap().value - 1.0 / 6.0).abs() < 1e-12);
    // Decided at the last ply in every decisive game: 1.
    assert!((g.get(Metric::DecidedAt).unwrap().value - 1.0).abs() < 1e-12);
    assert_eq!(groups[1].key.pairing, "a");
    assert_eq!(groups[1].get(Metric::Duration), g.get(Metric::Duration));
}

const SMALL: &str = r#"
name = "metrics"
seed = 5
games = 12
[rules]
variants = ["ii", "iii"]
holes = "6..=7"
[openings]
random_plies = 2
[tournament]
format = "round-robin"
agents = ["random", "greedy"]
self_play = true
[roster.random]
kind = "random"
[roster.greedy]
kind = "greedy"
"#;

fn hoyito(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn run(config: &Path, out: &Path, threads: &str) {
    let o = hoyito(&[
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        threads,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn metrics_csv_is_the_same_for_any_thread_count_and_after_a_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("m.toml");
    fs::write(&config, SMALL).unwrap();
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    run(&config, &one, "1");
    run(&config, &two, "2");
    let a = fs::read(one.join(METRICS_FILE)).unwrap();
    assert_eq!(a, fs::read(two.join(METRICS_FILE)).unwrap());
    let text = String::from_utf8(a.clone()).unwrap();
    // 2 variants x 2 boards x 3 pairings x 12 games, and the header.
    assert_eq!(text.lines().count(), 144 + 1);
    // Kill mid-write: metrics.csv cut to 10 rows and a torn line.
    let cut: String = text.lines().take(11).map(|l| format!("{l}\n")).collect();
    fs::write(two.join(METRICS_FILE), format!("{cut}11,3,")).unwrap();
    run(&config, &two, "2");
    assert_eq!(a, fs::read(two.join(METRICS_FILE)).unwrap());
    assert_eq!(
        fs::read(one.join("games.csv")).unwrap(),
        fs::read(two.join("games.csv")).unwrap()
    );
    let report = fs::read_to_string(one.join("report.md")).unwrap();
    assert!(report.contains("## Balance\n"), "{report}");
    assert!(report.contains("### Balance: outcome"));
    assert!(one.join("charts/balance_tension.svg").exists());
    let summary = fs::read_to_string(one.join("summary.json")).unwrap();
    assert!(summary.contains("\"balance\""));
}

#[test]
fn without_metrics_the_report_keeps_its_shape() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("m.toml");
    let text = SMALL.replace("[openings]", "[record]\nmetrics = false\n[openings]");
    fs::write(&config, text).unwrap();
    let out = tmp.path().join("off");
    run(&config, &out, "2");
    assert!(!out.join(METRICS_FILE).exists());
    let report = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(!report.contains("Balance:"), "{report}");
    assert!(!out.join("charts/balance_outcome.svg").exists());
}

#[test]
fn a_bad_holes_range_is_one_line_naming_the_key() {
    let tmp = tempfile::tempdir().unwrap();
    for (range, says) in [
        ("\"4..16\"", "A..=B"),
        ("\"9..=4\"", "is empty"),
        ("\"4..=20\"", "beyond 16"),
    ] {
        let config = tmp.path().join("bad.toml");
        fs::write(&config, SMALL.replace("\"6..=7\"", range)).unwrap();
        let o = hoyito(&["run", config.to_str().unwrap(), "--out", "/nonexistent/x"]);
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains("rules.holes") && err.contains(says), "{err}");
    }
}

/// A count's interval never goes below zero: plies since the last capture,
/// 0 in five games of six and 1 in one, gives a normal interval below zero.
#[test]
fn a_count_interval_is_clamped_at_zero() {
    let mut tally = BalanceTally::new();
    for id in 0..6u64 {
        let m = GameMeasures {
            since_capture: u32::from(id == 5),
            decided: 10,
            ..GameMeasures::default()
        };
        tally.add(&row(id, "a", "a", Winner::S, 10), &m);
    }
    let e = *tally.metrics()[0].get(Metric::QuietEnd).unwrap();
    assert!((e.value - 1.0 / 6.0).abs() < 1e-12);
    assert!(e.low == 0.0 && e.high > e.value, "{e:?}");
}
