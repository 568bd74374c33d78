//! Statistics and reports: Wilson intervals, pentanomial counts, first-player
//! figures and Bradley-Terry ratings on the tally of hand-made rows, and
//! `hoyito report` on a small hand-written `games.csv`, good and malformed,
//! against the summary and report that the row-by-row code wrote for it.

use std::fs;
use std::path::Path;
use std::process::Command;

use hoyito::report::{tally_games_csv, write_report_from_csv, ReportError};
use hoyito::stats::{
    bradley_terry, first_player, length_stats, pairings, wilson, Pentanomial, Scope, SettingTally,
    Tally, Wdl, Z95,
};
use hoyito::tournament::{GameRow, MovesHash, Winner};
use hoyito::{Ending, Variant};

fn game(id: u64, south: &str, north: &str, winner: Winner, plies: u32) -> GameRow {
    GameRow {
        game_id: id,
        pair_id: id / 2,
        variant: Variant::Ii,
        holes: 6,
        seeds: 4,
        south: south.to_string(),
        north: north.to_string(),
        game_seed: id,
        opening: String::new(),
        winner,
        south_captures: 24,
        north_captures: 24,
        plies,
        ending: Ending::Normal,
        moves_hash: MovesHash(id),
    }
}

/// A seat-swapped pair: `a` sits South in the first game, North in the second;
/// the winners are given by seat.
fn pair(id: u64, a: &str, b: &str, first: Winner, second: Winner) -> [GameRow; 2] {
    [
        game(2 * id, a, b, first, 50),
        game(2 * id + 1, b, a, second, 50),
    ]
}

fn order(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn tally(rows: &[GameRow]) -> Tally {
    Tally::from_rows(rows)
}

/// The one setting of a tally.
fn only(tally: &Tally) -> SettingTally<'_> {
    let mut settings = tally.settings();
    let setting = settings.next().expect("one setting");
    assert!(settings.next().is_none(), "only one setting");
    setting
}

#[test]
fn wilson_matches_known_values() {
    let close = |a: f64, b: f64| (a - b).abs() < 1e-4;
    // 81 of 263: [0.2553, 0.3662]; 15 of 20: [0.5313, 0.8881].
    let p = wilson(81.0, 263, Z95);
    assert!(close(p.low, 0.2553) && close(p.high, 0.3662), "{p:?}");
    let p = wilson(15.0, 20, Z95);
    assert!(close(p.low, 0.5313) && close(p.high, 0.8881), "{p:?}");
    // A score with draws: 7 wins and 1 draw in 10 games is 7.5 points.
    let p = wilson(7.5, 10, Z95);
    assert!(close(p.value, 0.75) && close(p.low, 0.4422) && close(p.high, 0.9191));
}

#[test]
fn pentanomial_counts_hand_made_pairs() {
    // From a's side: WW (2), WL (1), DD (1), LD (0.5), LL (0), WD (1.5).
    let rows: Vec<GameRow> = [
        pair(0, "a", "b", Winner::S, Winner::N),
        pair(1, "a", "b", Winner::S, Winner::S),
        pair(2, "a", "b", Winner::Draw, Winner::Draw),
        pair(3, "a", "b", Winner::N, Winner::Draw),
        pair(4, "a", "b", Winner::N, Winner::S),
        pair(5, "a", "b", Winner::S, Winner::Draw),
    ]
    .into_iter()
    .flatten()
    .collect();
    let stats = pairings(&only(&tally(&rows)), &order(&["a", "b"]));
    assert_eq!(stats.len(), 1);
    let p = &stats[0];
    assert_eq!((p.agent.as_str(), p.opponent.as_str()), ("a", "b"));
    assert_eq!(p.pentanomial, Pentanomial([1, 1, 2, 1, 1]));
    assert_eq!(
        p.wdl,
        Wdl {
            wins: 4,
            draws: 4,
            losses: 4
        }
    );
    assert_eq!(p.score_wilson.value, 0.5);
    assert_eq!(p.games.unpaired_games, 0);

    // Listed the other way round, the same games from b's side.
    let flipped = pairings(&only(&tally(&rows)), &order(&["b", "a"]));
    assert_eq!(flipped[0].agent, "b");
    assert_eq!(flipped[0].pentanomial, Pentanomial([1, 1, 2, 1, 1]));

    // A game whose partner is missing counts in W/D/L but not in the pairs.
    let lone = &rows[..3];
    let p = &pairings(&only(&tally(lone)), &order(&["a", "b"]))[0];
    assert_eq!((p.pentanomial.pairs(), p.games.unpaired_games), (1, 1));
}

#[test]
fn first_player_stats_on_hand_made_rows() {
    let rows: Vec<GameRow> = [
        pair(0, "a", "b", Winner::S, Winner::S),
        pair(1, "a", "b", Winner::S, Winner::N),
        pair(2, "a", "a", Winner::S, Winner::Draw),
        pair(3, "a", "a", Winner::S, Winner::S),
    ]
    .into_iter()
    .flatten()
    .collect();
    let stats = first_player(&only(&tally(&rows)), &order(&["a", "b"]));
    let scopes: Vec<String> = stats.iter().map(|s| s.scope.label()).collect();
    assert_eq!(scopes, ["all games", "a vs b", "a self-play"]);

    let all = &stats[0];
    assert_eq!(all.scope, Scope::AllGames);
    assert_eq!(
        (all.games.games, all.south_wins, all.draws, all.north_wins),
        (8, 6, 1, 1)
    );
    assert!((all.advantage_wilson.value - (6.5 / 8.0 - 0.5)).abs() < 1e-12);
    assert!((all.advantage.value - (6.5 / 8.0 - 0.5)).abs() < 1e-12);
    let wilson_score = wilson(6.5, 8, Z95);
    assert!((all.advantage_wilson.low - (wilson_score.low - 0.5)).abs() < 1e-12);
    assert!((all.ludii_advantage_p1 - 6.5 / 8.0).abs() < 1e-12);
    assert!((all.ludii_balance - (1.0 - (6.5 - 1.5) / 8.0)).abs() < 1e-12);
    assert!((all.south_win_rate.value - 0.75).abs() < 1e-12);

    let selfplay = &stats[2];
    assert_eq!(
        (selfplay.south_wins, selfplay.draws, selfplay.north_wins),
        (3, 1, 0)
    );
    assert!((selfplay.advantage.value - 0.375).abs() < 1e-12);
    assert!(selfplay.advantage.low > -0.5 && selfplay.advantage.high <= 0.5);
}

#[test]
fn length_stats_by_nearest_rank() {
    let mut rows: Vec<GameRow> = (1..=10)
        .map(|i| game(i, "a", "b", Winner::S, i as u32 * 10))
        .collect();
    rows[0].ending = Ending::Repetition;
    rows[1].ending = Ending::NoCaptureLimit;
    let l = length_stats(&only(&tally(&rows)));
    assert_eq!(
        (l.games, l.mean, l.median, l.p90, l.max),
        (10, 55.0, 55.0, 90, 100)
    );
    assert_eq!(
        (
            l.endings.normal,
            l.endings.repetition,
            l.endings.no_capture_limit
        ),
        (8, 1, 1)
    );
}

/// Games between every two agents in exactly the proportions that strengths
/// `theta` (logits) predict, in seat-swapped pairs.
fn synthetic(theta: &[(&str, f64)], pairs_per_pairing: u64) -> Vec<GameRow> {
    let mut rows = Vec::new();
    let mut id = 0;
    for (i, &(a, ta)) in theta.iter().enumerate() {
        for &(b, tb) in &theta[i + 1..] {
            let p = 1.0 / (1.0 + (tb - ta).exp());
            let a_wins = (p * 2.0 * pairs_per_pairing as f64).round() as u64;
            for k in 0..pairs_per_pairing {
                // a wins its first `a_wins` games, counted across both seats.
                let first = if 2 * k < a_wins { Winner::S } else { Winner::N };
                let second = if 2 * k + 1 < a_wins {
                    Winner::N
                } else {
                    Winner::S
                };
                rows.extend(pair(id, a, b, first, second));
                id += 1;
            }
        }
    }
    rows
}

#[test]
fn bradley_terry_recovers_strengths_and_anchors_at_random() {
    let truth = [("strong", 2.0), ("random", 0.0), ("middle", 1.0)];
    let rows = synthetic(&truth, 2000);
    let table =
        bradley_terry(&only(&tally(&rows)), &order(&["strong", "middle"])).expect("games played");
    assert_eq!(table.anchor, "random");
    assert!(!table.virtual_draws);
    let elo_per_logit = 400.0 / std::f64::consts::LN_10;
    for (name, theta) in truth {
        let r = table
            .ratings
            .iter()
            .find(|r| r.agent == name)
            .expect("rated");
        let want = theta * elo_per_logit;
        assert!((r.elo - want).abs() < 2.0, "{name}: {} vs {want}", r.elo);
        assert!(r.low <= want && want <= r.high, "{r:?}");
    }
    let random = table
        .ratings
        .iter()
        .find(|r| r.agent == "random")
        .expect("rated");
    assert_eq!((random.elo, random.low, random.high), (0.0, 0.0, 0.0));
    // Listed agents first, in order, then the unlisted.
    let names: Vec<&str> = table.ratings.iter().map(|r| r.agent.as_str()).collect();
    assert_eq!(names, ["strong", "middle", "random"]);
}

#[test]
fn bradley_terry_anchors_at_first_listed_agent_without_random() {
    let rows = synthetic(&[("a", 0.0), ("b", 0.5), ("c", 1.0)], 500);
    let table =
        bradley_terry(&only(&tally(&rows)), &order(&["b", "a", "c"])).expect("games played");
    assert_eq!(table.anchor, "b");
    let b = &table.ratings[0];
    assert_eq!((b.agent.as_str(), b.elo), ("b", 0.0));
    let a = table
        .ratings
        .iter()
        .find(|r| r.agent == "a")
        .expect("rated");
    assert!(
        (a.elo + 0.5 * 400.0 / std::f64::consts::LN_10).abs() < 3.0,
        "{a:?}"
    );
}

#[test]
fn bradley_terry_adds_virtual_draws_when_an_agent_never_loses() {
    let rows: Vec<GameRow> = (0..10)
        .flat_map(|k| pair(k, "random", "perfect", Winner::N, Winner::S))
        .collect();
    let table = bradley_terry(&only(&tally(&rows)), &[]).expect("games played");
    assert!(table.virtual_draws);
    let perfect = table
        .ratings
        .iter()
        .find(|r| r.agent == "perfect")
        .expect("rated");
    assert!(
        perfect.elo > 300.0 && perfect.elo.is_finite() && perfect.low > 0.0,
        "{perfect:?}"
    );
}

fn hoyito(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .args(args)
        .output()
        .expect("the hoyito binary runs")
}

const CHART_STEMS: [&str; 5] = [
    "winrate_heatmap",
    "first_player_advantage",
    "game_length_ii",
    "game_length_iii",
    "ratings",
];

#[test]
fn report_command_writes_summary_markdown_and_charts() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::copy("tests/data/games_small.csv", dir.path().join("games.csv")).expect("copy fixture");
    let out = hoyito(&["report", &dir.path().to_string_lossy()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let summary: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(dir.path().join("summary.json")).expect("summary"),
    )
    .expect("valid JSON");
    assert_eq!(summary["games"], 12);
    assert_eq!(summary["settings"].as_array().map(Vec::len), Some(2));
    assert_eq!(summary["settings"][0]["ratings"]["anchor"], "random");
    let report = fs::read_to_string(dir.path().join("report.md")).expect("report.md");
    assert!(report.contains("\"First player\" is the South seat"));
    assert!(report.contains("## ii 2x6 s4 (8 games)"));
    assert!(report.contains("](charts/ratings.png)"));
    for stem in CHART_STEMS {
        let png = fs::read(dir.path().join("charts").join(format!("{stem}.png"))).expect("png");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{stem}.png");
        let svg =
            fs::read_to_string(dir.path().join("charts").join(format!("{stem}.svg"))).expect("svg");
        assert!(svg.contains("<svg") && svg.contains("<text"), "{stem}.svg");
    }
    assert!(!dir.path().join(".report.tmp").exists());
    let printed = String::from_utf8_lossy(&out.stdout);
    assert_eq!(printed.lines().count(), 2 + 2 * CHART_STEMS.len());
}

#[test]
fn malformed_games_csv_names_file_and_line_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good = fs::read_to_string("tests/data/games_small.csv").expect("fixture");
    let bad = good.replacen("3 5,S,30", "3 5,X,30", 1);
    let csv = dir.path().join("games.csv");
    fs::write(&csv, bad).expect("write");
    let out = hoyito(&["report", &dir.path().to_string_lossy()]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("games.csv, line 3"), "{stderr}");
    assert!(stderr.contains("winner"), "{stderr}");
    let left: Vec<_> = fs::read_dir(dir.path()).expect("dir").collect();
    assert_eq!(left.len(), 1, "only games.csv remains");
}

#[test]
fn failed_redraw_keeps_the_previous_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    let csv = dir.path().join("games.csv");
    fs::copy("tests/data/games_small.csv", &csv).expect("copy fixture");
    let out = hoyito(&["report", &dir.path().to_string_lossy()]);
    assert!(out.status.success());
    let before = fs::read(dir.path().join("summary.json")).expect("summary");
    let mut text = fs::read_to_string(&csv).expect("read");
    text.push_str("12,6,ii,6,4,random\n");
    fs::write(&csv, text).expect("write");
    let out = hoyito(&["report", &dir.path().to_string_lossy()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 14"));
    assert_eq!(
        fs::read(dir.path().join("summary.json")).expect("summary"),
        before
    );
}

#[test]
fn library_errors_name_the_problem() {
    let dir = tempfile::tempdir().expect("temp dir");
    let csv = dir.path().join("games.csv");
    let good = fs::read_to_string("tests/data/games_small.csv").expect("fixture");
    let mut lines: Vec<&str> = good.lines().collect();
    lines.push(lines[2]);
    fs::write(&csv, lines.join("\n")).expect("write");
    match tally_games_csv(&csv) {
        Err(ReportError::DuplicateGame {
            line,
            game_id,
            first_line,
            ..
        }) => assert_eq!((line, game_id, first_line), (14, 1, 3)),
        other => panic!("expected a duplicate game, got {other:?}"),
    }
    assert!(matches!(
        tally_games_csv(&dir.path().join("missing.csv")),
        Err(ReportError::Read { .. })
    ));
    fs::write(&csv, format!("{}\n", lines[0])).expect("write");
    assert!(matches!(
        write_report_from_csv(dir.path(), None),
        Err(ReportError::NoGames { .. })
    ));
}

#[test]
fn rows_out_of_game_id_order_or_pair_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let csv = dir.path().join("games.csv");
    let good = fs::read_to_string("tests/data/games_small.csv").expect("fixture");
    let mut lines: Vec<&str> = good.lines().collect();
    lines.swap(4, 5);
    fs::write(&csv, lines.join("\n")).expect("write");
    let err = tally_games_csv(&csv).expect_err("out of order");
    assert!(
        matches!(
            err,
            ReportError::OutOfOrder {
                line: 6,
                game_id: 3,
                previous: 4,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("game-id order"), "{err}");

    let bad = good.replacen("\n3,1,", "\n3,2,", 1);
    fs::write(&csv, bad).expect("write");
    let err = tally_games_csv(&csv).expect_err("wrong pair");
    assert!(
        err.to_string()
            .ends_with("line 5: column `pair_id`: 2, but game 3 belongs to pair 1"),
        "{err}"
    );
}

/// The summary and report that the row-by-row statistics (before the tally)
/// wrote for `games_small.csv`, byte for byte.
#[test]
fn tally_reproduces_the_row_by_row_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::copy("tests/data/games_small.csv", dir.path().join("games.csv")).expect("copy fixture");
    write_report_from_csv(dir.path(), None).expect("report");
    for (written, want) in [
        ("summary.json", "tests/data/games_small_summary.json"),
        ("report.md", "tests/data/games_small_report.md"),
    ] {
        let written = fs::read_to_string(dir.path().join(written)).expect("written");
        assert_eq!(
            written,
            fs::read_to_string(want).expect("expected"),
            "{want}"
        );
    }

    // The same figures straight from the tally, as the row-by-row code gave them.
    let tally = tally_games_csv(Path::new("tests/data/games_small.csv")).expect("fixture");
    assert_eq!(tally.games(), 12);
    assert_eq!(tally.agents(), ["random", "greedy"]);
    let settings: Vec<SettingTally> = tally.settings().collect();
    let agents = tally.agents();
    let ii = &settings[0];
    assert_eq!(
        (ii.setting().to_string(), ii.games()),
        ("ii 2x6 s4".to_string(), 8)
    );
    let p = &pairings(ii, agents)[0];
    assert_eq!(
        (p.wdl, p.pentanomial, p.games.unpaired_games),
        (
            Wdl {
                wins: 1,
                draws: 0,
                losses: 3
            },
            Pentanomial([1, 0, 1, 0, 0]),
            0
        )
    );
    assert_eq!(p.score_wilson.low, 0.04558726080970055);
    let seats: Vec<(String, u64, u64, u64)> = first_player(ii, agents)
        .iter()
        .map(|s| (s.scope.label(), s.south_wins, s.draws, s.north_wins))
        .collect();
    let want = [
        ("all games", 5, 1, 2),
        ("random vs greedy", 3, 0, 1),
        ("random self-play", 1, 1, 0),
        ("greedy self-play", 1, 0, 1),
    ];
    assert_eq!(seats, want.map(|(l, s, d, n)| (l.to_string(), s, d, n)));
    let ratings = bradley_terry(ii, agents).expect("rated");
    assert_eq!(ratings.ratings[1].elo, 190.84850188786496);
    assert_eq!(
        (ratings.ratings[1].low, ratings.ratings[1].high),
        (-202.3046501999125, 584.0016539756425)
    );
    let l = length_stats(ii);
    assert_eq!(
        (l.games, l.mean, l.median, l.p90, l.max),
        (8, 57.125, 50.0, 120, 120)
    );
    assert_eq!((l.endings.normal, l.endings.repetition), (7, 1));

    let iii = &settings[1];
    let p = &pairings(iii, agents)[0];
    assert_eq!(
        (p.wdl.draws, p.wdl.losses, p.pentanomial),
        (1, 3, Pentanomial([1, 1, 0, 0, 0]))
    );
    let l = length_stats(iii);
    assert_eq!(
        (l.games, l.mean, l.median, l.p90, l.max),
        (4, 117.5, 92.5, 200, 200)
    );
    assert_eq!(l.endings.no_capture_limit, 1);
}

#[test]
fn pairs_need_both_games_side_by_side_on_one_board() {
    // Pair 0 complete (a wins both); pair 1 with its second game on another board; pair 2
    // with the same seats twice; pair 3 with a self-play second game.
    let mut rows: Vec<GameRow> = [
        pair(0, "a", "b", Winner::S, Winner::N),
        pair(1, "a", "b", Winner::S, Winner::S),
        pair(2, "a", "b", Winner::Draw, Winner::Draw),
        pair(3, "a", "b", Winner::N, Winner::S),
    ]
    .into_iter()
    .flatten()
    .collect();
    rows[3].holes = 12;
    rows[5].south = "a".to_string();
    rows[5].north = "b".to_string();
    rows[7].north = "a".to_string();
    rows[7].south = "a".to_string();
    let tally = tally(&rows);
    let settings: Vec<SettingTally> = tally.settings().collect();
    let p = &pairings(&settings[0], &order(&["a", "b"]))[0];
    assert_eq!(
        (p.pentanomial, p.games.unpaired_games),
        (Pentanomial([0, 0, 0, 0, 1]), 4)
    );
    let p = &pairings(&settings[1], &order(&["a", "b"]))[0];
    assert_eq!((p.pentanomial.pairs(), p.games.unpaired_games), (0, 1));
}
