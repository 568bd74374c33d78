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
    // a wins every game: no stall, no repeat, a score of 1 with a zero-width
    // interval, an advantage of exactly 0 and b's rating far below a's:
    // nothing to say.
    assert_eq!(caveat_kinds(&a_sweeps(20, 0)), []);
    // Exactly a quarter stalled: not more than a quarter.
    assert_eq!(caveat_kinds(&a_sweeps(20, 10)), []);
    // Eleven of forty stalled.
    let caveats = caveat_kinds(&a_sweeps(20, 11));
    assert_eq!(caveats.len(), 1, "{caveats:?}");
    match &caveats[0] {
        Caveat::StallRules {
            games,
            repetition,
            no_capture_limit,
            groups,
            ..
        } => {
            assert_eq!((*games, *repetition, *no_capture_limit), (40, 0, 11));
            assert_eq!(groups.len(), 1);
            assert_eq!((groups[0].games, groups[0].stalled), (40, 11));
            assert_eq!(groups[0].agents, ["a", "b"]);
        }
        other => panic!("expected a stall caveat, got {other:?}"),
    }
    assert!(
        caveats[0].text().contains("11 of 40 games (27.5%)"),
        "{}",
        caveats[0].text()
    );

    // The same pair played twice.
    let mut rows = a_sweeps(20, 0);
    rows[2].moves_hash = rows[0].moves_hash;
    rows[3].moves_hash = rows[1].moves_hash;
    let caveats = caveat_kinds(&rows);
    assert_eq!(
        caveats,
        [Caveat::RepeatedGames {
            setting: hoyito::stats::Setting {
                variant: Variant::Ii,
                holes: 6,
                seeds: 4
            },
            agents: order(&["a", "b"]),
            games: 40,
            distinct_games: 38,
            pairs: 20,
            distinct_pairs: 19,
        }]
    );
    assert!(caveats[0]
        .text()
        .contains("only 38 of 40 games are distinct"));

    // a wins 3 pairs, loses 1, draws... a score whose interval includes 1/2.
    let rows: Vec<GameRow> = [
        pair(0, "a", "b", Winner::S, Winner::N),
        pair(1, "a", "b", Winner::N, Winner::S),
        pair(2, "a", "b", Winner::S, Winner::N),
        pair(3, "a", "b", Winner::S, Winner::Draw),
    ]
    .into_iter()
    .flatten()
    .collect();
    let caveats = caveat_kinds(&rows);
    let figures: Vec<(Figure, Vec<String>)> = caveats
        .iter()
        .filter_map(|c| match c {
            Caveat::NoDirection {
                figure,
                agents,
                low,
                high,
                null,
                ..
            } => {
                assert!(low <= null && null <= high);
                Some((*figure, agents.clone()))
            }
            _ => None,
        })
        .collect();
    assert!(
        figures.contains(&(Figure::Score, order(&["a", "b"]))),
        "{caveats:?}"
    );
    // South scored 1/2 + 1/2 + 1/2 + 1 of 2 per pair: advantage +1/16 with an
    // interval around 0, both for all games and the pairing.
    assert!(
        figures.contains(&(Figure::FirstPlayerAdvantage, vec![])),
        "{caveats:?}"
    );
    assert!(figures.contains(&(Figure::FirstPlayerAdvantage, order(&["a", "b"]))));
    assert_eq!(caveats.len(), figures.len(), "{caveats:?}");
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

/// The strategies study of `reports/README.md` (issue 16) is redrawn from its
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
