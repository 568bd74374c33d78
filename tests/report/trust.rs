//! What makes a report trustworthy: distinct games and pairs, stall-aware
//! counts, caveats, the experiment's agent order and limit, the committed
//! ladder reproduced, and Balance printed exactly.

use super::*;

/// A game of `a` (South) against `b` with its move hash and ending.
fn hashed(id: u64, south: &str, north: &str, winner: Winner, hash: u64, ending: Ending) -> GameRow {
    GameRow {
        moves_hash: MovesHash(hash),
        ending,
        ..game(id, south, north, winner, 50)
    }
}

/// The mean and 95% normal interval of pair scores (each pair's points / 2),
/// written out independently of the library: mean, population variance,
/// standard error over the pairs.
fn pair_interval(pair_points: &[f64]) -> (f64, f64, f64) {
    let n = pair_points.len() as f64;
    let scores: Vec<f64> = pair_points.iter().map(|p| p / 2.0).collect();
    let mean = scores.iter().sum::<f64>() / n;
    let variance = scores.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    let se = (variance / n).sqrt();
    (
        mean,
        mean - 1.959_963_984_540_054 * se,
        mean + 1.959_963_984_540_054 * se,
    )
}

#[test]
fn tally_counts_distinct_games_repeated_pairs_and_endings_per_pairing() {
    use Ending::{NoCaptureLimit, Normal};
    let rows = [
        // Pair 0: a wins both (2 points for a).
        hashed(0, "a", "b", Winner::S, 1, Normal),
        hashed(1, "b", "a", Winner::N, 2, Normal),
        // Pair 1: the same two games again.
        hashed(2, "a", "b", Winner::S, 1, Normal),
        hashed(3, "b", "a", Winner::N, 2, Normal),
        // Pair 2: a draws, then loses by the no-capture limit (1/2 point).
        hashed(4, "a", "b", Winner::Draw, 3, Normal),
        hashed(5, "b", "a", Winner::S, 4, NoCaptureLimit),
        // Pair 3: its first game repeats game 0's moves, its second is new:
        // a distinct pair (a loses, then wins: 1 point).
        hashed(6, "a", "b", Winner::N, 1, Normal),
        hashed(7, "b", "a", Winner::N, 5, Normal),
        // Self-play of c: the same game twice in one pair, then the pair again.
        hashed(8, "c", "c", Winner::S, 9, Normal),
        hashed(9, "c", "c", Winner::S, 9, Normal),
        hashed(10, "c", "c", Winner::S, 9, Normal),
        hashed(11, "c", "c", Winner::S, 9, Normal),
    ];
    let tally = tally(&rows);
    let agents = order(&["a", "b", "c"]);
    let stats = pairings(&only(&tally), &agents);
    assert_eq!(stats.len(), 1);
    let p = &stats[0];
    let g = &p.games;
    assert_eq!((g.games, g.distinct_games), (8, 5));
    assert_eq!((g.pairs, g.distinct_pairs, g.unpaired_games), (4, 3, 0));
    assert_eq!(
        (
            g.endings.normal,
            g.endings.repetition,
            g.endings.no_capture_limit
        ),
        (7, 0, 1)
    );
    assert!(g.repeated());
    // Per game, repeats included: W W W W D L L W.
    assert_eq!(
        p.wdl,
        Wdl {
            wins: 5,
            draws: 1,
            losses: 2
        }
    );
    assert_eq!(p.score_wilson.value, 5.5 / 8.0);
    // Pair-based: the distinct pairs only (2, 1/2 and 1 point).
    assert_eq!(p.pentanomial, Pentanomial([0, 1, 1, 0, 1]));
    assert_eq!(p.trinomial, Trinomial([0, 0, 0]));
    let e = p.estimate.expect("pairs were played");
    assert_eq!((e.unit, e.units, e.games), (SampleUnit::Pair, 3, 6));
    let (mean, low, high) = pair_interval(&[2.0, 0.5, 1.0]);
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(
        close(e.score.value, mean) && close(e.score.value, 3.5 / 6.0),
        "{e:?}"
    );
    assert!(
        close(e.score.low, low) && close(e.score.high, high),
        "{e:?}"
    );
    // Normal endings only: pairs 0 and 3 whole, pair 2's first game alone
    // (a draw): 2 + 1 + 1/2 points over 5 games.
    assert_eq!(p.games.games_normal, 5);
    assert!(
        close(p.score_normal.value, 3.5 / 5.0),
        "{:?}",
        p.score_normal
    );

    let seats = first_player(&only(&tally), &agents);
    let labels: Vec<String> = seats.iter().map(|s| s.scope.label()).collect();
    assert_eq!(labels, ["all games", "a vs b", "c self-play"]);
    // South's points in the distinct a-b pairs: 1 + 0, 1/2 + 1, 0 + 0 = 2.5 of 6.
    let ab = &seats[1];
    assert!(
        close(ab.advantage.value, 2.5 / 6.0 - 0.5),
        "{:?}",
        ab.advantage
    );
    // Per game, repeats included: South won 3 of 8 and drew 1.
    assert!(close(ab.advantage_wilson.value, 3.5 / 8.0 - 0.5));
    let c = &seats[2];
    assert_eq!(
        (
            c.games.games,
            c.games.distinct_games,
            c.games.pairs,
            c.games.distinct_pairs
        ),
        (4, 1, 2, 1)
    );
    // The one distinct self-play pair: South won both; one cluster gives no
    // interval but the uninformative one.
    assert_eq!(c.advantage.value, 0.5);
    assert_eq!((c.advantage.low, c.advantage.high), (-0.5, 0.5));
    let all = &seats[0];
    assert_eq!(
        (
            all.games.games,
            all.games.distinct_games,
            all.games.distinct_pairs
        ),
        (12, 6, 4)
    );
    assert_eq!(all.games.endings.no_capture_limit, 1);
}

#[test]
fn units_cluster_pairs_and_lone_games() {
    let units = Units {
        pairs: Pentanomial([0, 0, 1, 0, 1]),
        lone: Trinomial([0, 1, 0]),
    };
    assert_eq!((units.games(), units.points()), (5, 3.5));
    let mean = units.clustered();
    assert_eq!((mean.clusters(), mean.games()), (3, 5));
    assert_eq!(mean.mean(), 0.7);
    // No complete pair: the trinomial estimate, game by game.
    let lone = Units {
        pairs: Pentanomial::default(),
        lone: Trinomial([1, 0, 3]),
    };
    let e = lone.estimate().expect("games");
    assert_eq!(
        (e.unit, e.units, e.score.value),
        (SampleUnit::Game, 4, 0.75)
    );
    assert!(Units::default().estimate().is_none());
}

/// The caveats of a summary of `rows`, by kind.
fn caveat_kinds(rows: &[GameRow]) -> Vec<Caveat> {
    summarize(&tally(rows), &order(&["a", "b"]), None).caveats
}

/// `pairs` seat-swapped pairs of a against b, a winning both games of each,
/// every game distinct; the first `stalled` games end by the no-capture limit.
fn a_sweeps(pairs: u64, stalled: usize) -> Vec<GameRow> {
    let mut rows: Vec<GameRow> = (0..pairs)
        .flat_map(|k| pair(k, "a", "b", Winner::S, Winner::N))
        .collect();
    rows.iter_mut()
        .take(stalled)
        .for_each(|r| r.ending = Ending::NoCaptureLimit);
    rows
}

#[test]
fn caveats_appear_exactly_when_they_should() {
    let ii = hoyito::stats::Setting {
        variant: Variant::Ii,
        holes: 6,
        seeds: 4,
    };
    // 40 distinct pairs, a wins every game: no stall, no repeat, no thin
    // sample; an interval that includes 0 is a reading, not a caveat.
    assert_eq!(caveat_kinds(&a_sweeps(40, 0)), []);
    // Exactly a fifth stalled (16 of 80): not more than a fifth.
    assert_eq!(caveat_kinds(&a_sweeps(40, 16)), []);
    // 17 of 80 stalled: one caveat, naming the setting and the pairing once.
    let caveats = caveat_kinds(&a_sweeps(40, 17));
    assert_eq!(caveats.len(), 1, "{caveats:?}");
    let Caveat::StallRules { cells } = &caveats[0] else {
        panic!("expected a stall caveat, got {caveats:?}");
    };
    let cells: Vec<(Vec<String>, u64, u64)> = cells
        .iter()
        .map(|c| (c.agents.clone(), c.games, c.no_capture_limit))
        .collect();
    assert_eq!(cells, [(vec![], 80, 17), (order(&["a", "b"]), 80, 17)]);
    let text = caveats[0].text();
    assert!(
        text.contains("ii 2x6 s4 all games 17 of 80 (21.2%"),
        "{text}"
    );
    assert!(text.contains("ii 2x6 s4 a vs b 17 of 80"), "{text}");

    // The same pair played twice: both advantages shown.
    let mut rows = a_sweeps(40, 0);
    rows[2].moves_hash = rows[0].moves_hash;
    rows[3].moves_hash = rows[1].moves_hash;
    let caveats = caveat_kinds(&rows);
    assert_eq!(caveats.len(), 1, "{caveats:?}");
    let Caveat::RepeatedGames { cells } = &caveats[0] else {
        panic!("expected a repeat caveat, got {caveats:?}");
    };
    assert_eq!(cells.len(), 1);
    let c = &cells[0];
    assert_eq!(
        (
            c.setting,
            c.agents.clone(),
            c.games,
            c.distinct_games,
            c.pairs,
            c.distinct_pairs
        ),
        (ii, order(&["a", "b"]), 80, 78, 40, 39)
    );
    // a wins each game of every pair: both weightings give South 0, so the
    // repeat is named in a line and no table is drawn.
    let text = caveats[0].text();
    assert!(
        text.contains(
            "Both weightings agree to three decimals, on the same side of 0, in 1 group: \
             ii 2x6 s4 a vs b."
        ),
        "{text}"
    );
    assert_eq!(caveats[0].table(), None);

    // 20 pairs: a thin sample, named once per group.
    let caveats = caveat_kinds(&a_sweeps(20, 0));
    let Some(Caveat::ThinSample { cells }) = caveats.last() else {
        panic!("expected a thin-sample caveat, got {caveats:?}");
    };
    assert_eq!(cells.len(), 1);
    assert_eq!(
        (cells[0].agents.clone(), cells[0].units),
        (order(&["a", "b"]), 20)
    );

    // A pair that ended inside its 8-ply opening: counted as such, and left
    // out of every figure (the old report counted it as an agent game).
    let mut rows = a_sweeps(40, 0);
    for row in &mut rows[..2] {
        row.opening = "1 2 3 4 5 6 1 2".to_string();
        row.plies = 7;
    }
    let summary = summarize(&tally(&rows), &order(&["a", "b"]), None);
    let s = &summary.settings[0];
    assert_eq!((s.games, s.opening_ended), (80, 2));
    assert_eq!(s.first_player[0].games.games, 78);
    assert_eq!(s.first_player[0].games.opening_ended, 2);
    assert_eq!(s.length.games, 78);
    assert_eq!(s.pairings[0].wdl.games(), 78);
    let Caveat::OpeningEnded { cells } = &summary.caveats[0] else {
        panic!("expected an opening caveat, got {:?}", summary.caveats);
    };
    assert_eq!((cells[0].games, cells[0].opening_ended), (80, 2));
}

#[test]
fn repeated_pairs_are_counted_both_ways() {
    // Three distinct pairs, South scoring 2, 0 and 1 points, the first
    // repeated five times: distinct units give South 0.5 (advantage 0),
    // every pair counted gives (5 * 2 + 0 + 1) / 14 = 0.7857 (+0.286).
    let mut rows: Vec<GameRow> = Vec::new();
    for k in 0..5 {
        let mut p = pair(k, "a", "b", Winner::S, Winner::S);
        p[0].moves_hash = MovesHash(1);
        p[1].moves_hash = MovesHash(2);
        rows.extend(p);
    }
    rows.extend(pair(5, "a", "b", Winner::N, Winner::N));
    rows.extend(pair(6, "a", "b", Winner::S, Winner::N));
    let summary = summarize(&tally(&rows), &order(&["a", "b"]), None);
    let all = &summary.settings[0].first_player[0];
    assert!(all.advantage.value.abs() < 1e-12, "{all:?}");
    assert!((all.advantage_all_pairs.value - (11.0 / 14.0 - 0.5)).abs() < 1e-12);
}

/// The repeated-games caveat keeps its table to the groups whose figures the
/// repetition changes, and names the rest in a line: a deterministic
/// agent's self-play (a pair's two games alike by design) apart from the
/// groups whose two weightings agree to three decimals. It used to list
/// every group in one bullet of thousands of characters.
#[test]
fn the_repeat_caveat_tables_only_the_groups_whose_figures_change() {
    let mut rows: Vec<GameRow> = Vec::new();
    // a vs b: the first pair (South wins both) played five times; 40 pairs.
    for k in 0..5 {
        let mut p = pair(k, "a", "b", Winner::S, Winner::S);
        p[0].moves_hash = MovesHash(1);
        p[1].moves_hash = MovesHash(2);
        rows.extend(p);
    }
    for k in 5..40 {
        rows.extend(pair(k, "a", "b", Winner::S, Winner::N));
    }
    // a self-play, deterministic: each pair's two games are one game.
    for k in 40..80 {
        let mut p = pair(k, "a", "a", Winner::S, Winner::S);
        p[1].moves_hash = p[0].moves_hash;
        rows.extend(p);
    }
    // b self-play: one pair played twice, each pair a win for each seat.
    for k in 80..120 {
        let mut p = pair(k, "b", "b", Winner::S, Winner::N);
        if k == 81 {
            p[0].moves_hash = MovesHash(160);
            p[1].moves_hash = MovesHash(161);
        }
        rows.extend(p);
    }
    let summary = summarize(&tally(&rows), &order(&["a", "b"]), None);
    let caveat = summary
        .caveats
        .iter()
        .find(|c| matches!(c, Caveat::RepeatedGames { .. }))
        .expect("a repeat caveat");
    let text = caveat.text();
    for words in [
        "The repetition changes a figure in 1 group (the table below gives both).",
        "It changes no figure in 1 group of one deterministic agent's self-play, whose two \
         games of a pair are one game by design: ii 2x6 s4 a self-play.",
        "Both weightings agree to three decimals, on the same side of 0, in 1 group more: \
         ii 2x6 s4 b self-play.",
    ] {
        assert!(text.contains(words), "{words:?} not in {text}");
    }
    let table = caveat.table().expect("a table");
    let lines: Vec<&str> = table.lines().filter(|l| l.starts_with("| ii")).collect();
    // The point moves from +0.014 to +0.062 and the interval leaves out 0.
    assert_eq!(
        lines,
        ["| ii 2x6 s4 a vs b | 80 (72) | 40 (36) | +0.014 [-0.013, +0.041] | +0.062 [+0.011, +0.114] |"],
        "{table}"
    );
    let mut report = Vec::new();
    write_markdown(&mut report, &summary, &[]).expect("written");
    let report = String::from_utf8(report).expect("utf-8");
    assert!(report.contains(&table), "{report}");
}

/// A report directory holding `games_small.csv`, with the experiment file
/// beside it when `experiment` is true.
fn small_run(experiment: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::copy("tests/data/games_small.csv", dir.path().join("games.csv")).expect("copy fixture");
    if experiment {
        fs::copy(
            "tests/data/games_small_experiment.toml",
            dir.path().join("experiment.toml"),
        )
        .expect("copy experiment");
    }
    dir
}

#[test]
fn report_takes_agent_order_and_no_capture_limit_from_the_experiment() {
    // The fixture's rows are not the games of its experiment (hand-made
    // seeds, greedy listed first): beside that experiment they are refused.
    let with = small_run(true);
    let err = write_report_from_csv(with.path(), None).expect_err("rows of another experiment");
    assert!(
        err.to_string().ends_with(
            "line 2: column `south`: \"random\", but the experiment's game 0 has \"greedy\""
        ),
        "{err}"
    );
    // A real run of an experiment that lists greedy first.
    let tmp = tempfile::tempdir().expect("temp dir");
    let config = tmp.path().join("c.toml");
    fs::write(
        &config,
        "name = \"c\"\nseed = 3\ngames = 2\n[rules]\nvariants = [\"ii\"]\nholes = [6]\n\
         no_capture_limit = 150\n[tournament]\nformat = \"round-robin\"\n\
         agents = [\"greedy\", \"random\"]\n",
    )
    .expect("config");
    let run = tmp.path().join("run");
    let out = hoyito(&[
        "run",
        &config.to_string_lossy(),
        "--out",
        &run.to_string_lossy(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    write_report_from_csv(&run, None).expect("report");
    let summary: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(run.join("summary.json")).expect("summary"))
            .expect("JSON");
    assert_eq!(summary["agents"], serde_json::json!(["greedy", "random"]));
    assert_eq!(summary["settings"][0]["pairings"][0]["agent"], "greedy");
    assert_eq!(summary["no_capture_limit"], 150);
    assert_eq!(summary["planned_games"], 2);
    assert_eq!(summary["complete"], true);

    let svg = |dir: &Path, stem: &str| {
        fs::read_to_string(dir.join("charts").join(format!("{stem}.svg"))).expect("svg")
    };
    let without = small_run(false);
    write_report_from_csv(without.path(), None).expect("report");
    let summary: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(without.path().join("summary.json")).expect("summary"),
    )
    .expect("JSON");
    assert_eq!(summary["agents"], serde_json::json!(["random", "greedy"]));
    assert_eq!(summary["no_capture_limit"], serde_json::Value::Null);
    assert_eq!(summary["planned_games"], serde_json::Value::Null);
    assert!(!svg(without.path(), "game_length_iii").contains("no-capture limit"));

    // An order given by the caller wins over the experiment's.
    write_report_from_csv(&run, Some(&order(&["random", "greedy"]))).expect("report");
    let summary = fs::read_to_string(run.join("summary.json")).expect("summary");
    assert!(summary.contains("\"agents\": [\n    \"random\",\n    \"greedy\"\n  ]"));
}

#[test]
fn a_broken_experiment_file_is_a_clear_error() {
    let dir = small_run(false);
    fs::write(dir.path().join("experiment.toml"), "name = 3\n").expect("write");
    let out = hoyito(&["report", &dir.path().to_string_lossy()]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("error: cannot take the agent order"),
        "{stderr}"
    );
    assert!(first.contains("experiment.toml"), "{stderr}");
}

/// Regression: `hoyito report` ordered agents by first appearance, so it did
/// not reproduce the ladder that `hoyito run` reported in the experiment's
/// order.
#[test]
fn report_command_reproduces_the_committed_ladder() {
    let dir = tempfile::tempdir().expect("temp dir");
    for file in ["games.csv", "experiment.toml"] {
        fs::copy(
            Path::new("reports/ladder").join(file),
            dir.path().join(file),
        )
        .expect("copy");
    }
    let out = hoyito(&["report", &dir.path().to_string_lossy()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for file in ["summary.json", "report.md"] {
        assert_eq!(
            fs::read_to_string(dir.path().join(file)).expect("written"),
            fs::read_to_string(Path::new("reports/ladder").join(file)).expect("committed"),
            "{file}"
        );
    }
}

/// The strategies study of `reports/README.md` is redrawn from its
/// committed `games.csv` and `metrics.csv` to the committed `summary.json`
/// and `report.md`, byte for byte: the figures the README quotes are those
/// of the games committed beside them.
#[test]
fn report_command_reproduces_the_committed_strategies_study() {
    let dir = tempfile::tempdir().expect("temp dir");
    let study = Path::new("reports/strategies");
    for file in ["games.csv", "metrics.csv", "experiment.toml"] {
        fs::copy(study.join(file), dir.path().join(file)).expect("copy");
    }
    let out = hoyito(&["report", &dir.path().to_string_lossy()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for file in ["summary.json", "report.md"] {
        assert_eq!(
            fs::read_to_string(dir.path().join(file)).expect("written"),
            fs::read_to_string(study.join(file)).expect("committed"),
            "{file}"
        );
    }
}

/// Self-play games of `a` with South winning `south`, drawing `draws` and
/// losing `north` of them, in pairs, every game distinct.
fn seat_results(south: u64, draws: u64, north: u64) -> Vec<GameRow> {
    let winners = (0..south)
        .map(|_| Winner::S)
        .chain((0..draws).map(|_| Winner::Draw))
        .chain((0..north).map(|_| Winner::N));
    winners
        .enumerate()
        .map(|(i, w)| game(i as u64, "a", "a", w, 40))
        .collect()
}

#[test]
fn balance_prints_exactly_from_the_counts() {
    for (rows, balance, p1) in [
        (seat_results(180, 1, 219), "0.9025", "0.45125"),
        (seat_results(190, 9, 201), "0.9725", "0.48625"),
    ] {
        let summary = summarize(&tally(&rows), &order(&["a"]), None);
        let seat = &summary.settings[0].first_player[0];
        assert_eq!(seat.ludii_balance.to_string(), balance);
        assert_eq!(seat.ludii_advantage_p1.to_string(), p1);
        let mut text = Vec::new();
        write_markdown(&mut text, &summary, &[]).expect("markdown");
        let text = String::from_utf8(text).expect("UTF-8");
        let row = text
            .lines()
            .find(|l| l.starts_with("| all games (400)"))
            .expect("all-games row");
        assert!(row.ends_with(&format!("| {p1} | {balance} |")), "{row}");
    }
}

/// report.md opens with the answer (ratings, first player, lengths and
/// endings), then the caveats, then everything else.
#[test]
fn the_report_opens_with_the_answer() {
    let dir = small_run(false);
    write_report_from_csv(dir.path(), None).expect("report");
    let md = fs::read_to_string(dir.path().join("report.md")).expect("report.md");
    let at = |heading: &str| {
        md.find(heading)
            .unwrap_or_else(|| panic!("{heading}\n{md}"))
    };
    let sections: Vec<&str> = md.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(&sections[..2], ["## The answer", "## Caveats"], "{md}");
    assert!(at("### Ratings") < at("### First player (South seat)"));
    assert!(at("### First player (South seat)") < at("### Length and endings"));
    assert!(at("### Length and endings") < at("## Caveats"));
    // Each kind of caveat once, however many cells it concerns.
    let stall = md.matches("**Stall rules, not play to the end").count();
    assert_eq!(stall, 1, "{md}");
    assert!(
        !md.contains("the data do not say which way it goes"),
        "{md}"
    );
}
