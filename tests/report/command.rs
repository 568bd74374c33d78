//! `hoyito report` on a small hand-written `games.csv`, good and malformed,
//! against golden files, and the rules of pairing rows.

use super::*;

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
    assert_eq!(printed.lines().count(), 3 + 2 * CHART_STEMS.len());
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

/// The summary and report of `games_small.csv`, byte for byte: golden files,
/// updated deliberately whenever the report changes.
#[test]
fn report_of_the_small_fixture_matches_its_golden_files() {
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
    let greedy = &ratings.ratings[1];
    assert_eq!(
        (greedy.information_low, greedy.information_high),
        (-202.3046501999125, 584.0016539756425)
    );
    // Pairs as the unit: random's pair scores 0 and 1/2, so s = 0.25, pair
    // variance 0.0625, se = 0.1767767, sd(logit) = se / 0.1875 = 0.9428090,
    // 190.85 -+ 1.96 * 0.9428090 * 173.7178 = [-130.16, 511.86].
    assert_eq!(
        (greedy.low, greedy.high),
        (-130.15970257276362, 511.8567063484935)
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
