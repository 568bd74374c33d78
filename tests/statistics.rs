//! The pair-aware statistics: score estimates (Elo, nElo, LOS) from
//! pentanomial and trinomial counts, the SPRT's log-likelihood ratio, the
//! pair-clustered mean and the Bradley-Terry sandwich intervals, each checked
//! against hand-computed values, Fishtest's published numbers or a second,
//! textbook implementation written here from the list of games.

use hoyito::stats::{
    bradley_terry, elo_from_logit, elo_from_score, normal_cdf, ClusteredMean, Pentanomial,
    SampleUnit, ScoreEstimate, Sprt, SprtConfig, SprtDecision, SprtModel, Tally, Wdl, Z95,
};
use hoyito::tournament::{GameRow, MovesHash, Winner};
use hoyito::{Ending, Variant};

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

fn game(id: u64, south: &str, north: &str, winner: Winner) -> GameRow {
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
        plies: 40,
        ending: Ending::Normal,
        moves_hash: MovesHash(id),
    }
}

/// A game result from one agent's side: 2 win, 1 draw, 0 loss (half points).
fn winner_for_south(south_half_points: u8) -> Winner {
    match south_half_points {
        2 => Winner::S,
        1 => Winner::Draw,
        _ => Winner::N,
    }
}

/// One seat-swapped pair between `a` and `b`, numbered `pair`: `a` sits South
/// first and scores `first` then `second` half points.
fn pair(pair: u64, a: &str, b: &str, first: u8, second: u8) -> [GameRow; 2] {
    [
        game(2 * pair, a, b, winner_for_south(first)),
        game(2 * pair + 1, b, a, winner_for_south(2 - second)),
    ]
}

/// Textbook mean and population variance of a list.
fn mean_variance(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (mean, xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n)
}

#[test]
fn pentanomial_estimate_matches_the_list_of_pairs() {
    let counts = Pentanomial([3, 7, 12, 9, 4]);
    // Second implementation: every pair written out as its mean score.
    let pairs: Vec<f64> = counts
        .0
        .iter()
        .enumerate()
        .flat_map(|(k, &n)| std::iter::repeat(k as f64 / 4.0).take(n as usize))
        .collect();
    let (mean, variance) = mean_variance(&pairs);
    let se = (variance / pairs.len() as f64).sqrt();
    let e = ScoreEstimate::from_pentanomial(&counts).expect("pairs");
    assert_eq!((e.unit, e.units, e.games), (SampleUnit::Pair, 35, 70));
    assert!(close(e.score.value, mean, 1e-12) && close(e.variance, variance, 1e-12));
    assert!(close(e.standard_error, se, 1e-12));
    assert!(close(e.score.low, mean - Z95 * se, 1e-12));
    // Logistic Elo of each end, as fastchess: -400 log10(1 / s - 1).
    let elo = |s: f64| -400.0 * (1.0 / s - 1.0).log10();
    assert!(close(e.elo.value, elo(mean), 1e-9));
    assert!(close(e.elo.low, elo(mean - Z95 * se), 1e-9));
    assert!(close(e.elo.high, elo(mean + Z95 * se), 1e-9));
    // nElo divides by the per-game deviation sqrt(2 variance).
    let nelo = e.nelo.expect("spread");
    let per_game_sd = (2.0 * variance).sqrt();
    assert!(close(
        nelo.value,
        (mean - 0.5) / per_game_sd * 800.0 / 10f64.ln(),
        1e-9
    ));
    assert!(close(
        nelo.half_width(),
        Z95 * se / per_game_sd * 800.0 / 10f64.ln(),
        1e-9
    ));
    assert!(close(e.los, normal_cdf((mean - 0.5) / se), 1e-15));
    // Counts: 35 pairs, 3*0 + 7*.25 + 12*.5 + 9*.75 + 4*1 = 18.5, so the
    // score is 18.5 / 35 = 0.528571...
    assert!(close(e.score.value, 18.5 / 35.0, 1e-15));
}

#[test]
fn trinomial_estimate_matches_the_list_of_games() {
    let wdl = Wdl {
        wins: 13,
        draws: 5,
        losses: 8,
    };
    let games: Vec<f64> = [(1.0, 13), (0.5, 5), (0.0, 8)]
        .iter()
        .flat_map(|&(x, n)| std::iter::repeat(x).take(n))
        .collect();
    let (mean, variance) = mean_variance(&games);
    let e = ScoreEstimate::from_wdl(&wdl).expect("games");
    assert_eq!((e.unit, e.units, e.games), (SampleUnit::Game, 26, 26));
    assert!(close(e.score.value, mean, 1e-12) && close(e.variance, variance, 1e-12));
    let nelo = e.nelo.expect("spread");
    assert!(close(
        nelo.value,
        (mean - 0.5) / variance.sqrt() * 800.0 / 10f64.ln(),
        1e-9
    ));
    // 15.5 / 26 = 0.596154; Elo = -400 log10(26 / 15.5 - 1)
    // = -400 log10(0.677419) = 67.6570...
    assert!(close(e.elo.value, 67.657, 1e-3), "{e:?}");
}

#[test]
fn anticorrelated_pairs_narrow_the_interval() {
    // Every pair is split 1-1 except a few: the seat decides, not the agent,
    // so the pair scores vary far less than the games. The pair interval is
    // narrower than the games-as-independent one, as measured on the ladder
    // run.
    let pairs = Pentanomial([0, 2, 40, 6, 0]);
    let by_pairs = ScoreEstimate::from_pentanomial(&pairs).expect("pairs");
    let by_games = ScoreEstimate::from_wdl(&Wdl {
        wins: 40 + 6,
        draws: 2 + 6,
        losses: 40 + 2,
    })
    .expect("games");
    assert!(close(by_pairs.score.value, by_games.score.value, 1e-12));
    assert!(
        by_pairs.standard_error < 0.5 * by_games.standard_error,
        "{by_pairs:?}"
    );
}

#[test]
fn degenerate_estimates_serialize_without_nan() {
    for counts in [[0, 0, 0, 0, 5], [5, 0, 0, 0, 0], [0, 0, 5, 0, 0]] {
        let e = ScoreEstimate::from_pentanomial(&Pentanomial(counts)).expect("pairs");
        // serde_json writes a non-finite number as null: the only null is
        // the undefined nElo.
        let json = serde_json::to_string(&e).expect("serializes");
        assert_eq!(json.matches("null").count(), 1, "{json}");
        assert!(json.contains("\"nelo\":null"), "{json}");
        assert!(e.elo.value.abs() <= elo_from_score(1.0) + 1e-9, "{e:?}");
    }
}

#[test]
fn sprt_through_the_public_api() {
    // Fishtest LLRcalc.py (official-stockfish/fishtest at b8eecff2, scipy
    // 1.17.1): LLR_normalized(0.764, 3.439, [39, 2226, 31451, 2412, 40])
    // = 2.162940869584568, the example of Fishtest's stat_util.py.
    let config: SprtConfig = toml::from_str(
        "elo0 = 0.764\nelo1 = 3.439\nalpha = 0.05\nbeta = 0.05\nmodel = \"normalized\"",
    )
    .expect("parses");
    let test = Sprt::new(config).expect("valid");
    let status = test.status(&Pentanomial([39, 2226, 31451, 2412, 40]));
    assert!(close(status.llr, 2.162_940_869_584_568, 1e-6), "{status:?}");
    assert_eq!(
        (status.pairs, status.decision),
        (36168, SprtDecision::Continue)
    );
    // Fishtest LLR_logistic(-3, 1, [10789, 19328, 33806, 19402, 10543])
    // = 2.1310678117940807.
    let logistic = Sprt::new(SprtConfig {
        elo0: -3.0,
        elo1: 1.0,
        alpha: 0.05,
        beta: 0.05,
        model: SprtModel::Logistic,
    })
    .expect("valid");
    let llr = logistic.llr(&Pentanomial([10789, 19328, 33806, 19402, 10543]));
    assert!(close(llr, 2.131_067_811_794_080_7, 1e-6), "{llr}");
    let refused = Sprt::new(SprtConfig {
        elo0: 5.0,
        ..config
    });
    let message = refused.expect_err("elo0 > elo1").to_string();
    assert!(
        message.contains("elo0") && message.contains("less than elo1"),
        "{message}"
    );
}

#[test]
fn clustered_first_player_score_matches_the_textbook_formula() {
    // South's results in 6 seat-swapped pairs, half points per game.
    let pairs: [(u64, u64); 6] = [(2, 2), (2, 1), (0, 2), (2, 2), (1, 1), (2, 0)];
    let mut clustered = ClusteredMean::new();
    for &(first, second) in &pairs {
        clustered.add_cluster(first + second, 2);
    }
    // Second implementation: OLS of the game scores on a constant with
    // cluster-robust CR1 variance, written out game by game.
    let games: Vec<(usize, f64)> = pairs
        .iter()
        .enumerate()
        .flat_map(|(g, &(a, b))| [(g, a as f64 / 2.0), (g, b as f64 / 2.0)])
        .collect();
    let n = games.len() as f64;
    let mean = games.iter().map(|&(_, y)| y).sum::<f64>() / n;
    let mut cluster_sums = [0.0; 6];
    games.iter().for_each(|&(g, y)| cluster_sums[g] += y - mean);
    let meat: f64 = cluster_sums.iter().map(|u| u * u).sum();
    let se = (6.0 / 5.0 * meat / (n * n)).sqrt();
    // By hand: South scores 17 half points in 12 games, mean 17 / 24.
    assert!(close(clustered.mean(), 17.0 / 24.0, 1e-15));
    assert!(close(clustered.standard_error().expect("pairs"), se, 1e-12));
    let p = clustered.interval();
    assert!(close(p.high, (mean + Z95 * se).min(1.0), 1e-12), "{p:?}");
}

/// A seat-swapped pair as (agent i, agent j, i's half points as South, as
/// North).
type PairResult = (usize, usize, u8, u8);

/// Rows for three agents, every pairing with varied seat-swapped pairs, and
/// the list of pairs that made them.
fn three_agents() -> (Vec<GameRow>, Vec<PairResult>) {
    let names = ["a", "b", "c"];
    let plan = [
        (
            0,
            1,
            vec![(2, 0), (0, 0), (1, 0), (2, 2), (0, 1), (0, 0), (2, 0)],
        ),
        (0, 2, vec![(0, 0), (0, 2), (0, 0), (1, 0), (2, 0), (0, 0)]),
        (
            1,
            2,
            vec![
                (2, 0),
                (0, 1),
                (2, 2),
                (0, 0),
                (1, 1),
                (0, 2),
                (2, 0),
                (0, 0),
            ],
        ),
    ];
    let mut rows = Vec::new();
    let mut list = Vec::new();
    let mut id = 0;
    for (i, j, pairs) in plan {
        for (first, second) in pairs {
            rows.extend(pair(id, names[i], names[j], first, second));
            list.push((i, j, first, second));
            id += 1;
        }
    }
    (rows, list)
}

/// The inverse of a 2x2 matrix.
fn inverse2(m: [[f64; 2]; 2]) -> [[f64; 2]; 2] {
    let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    [
        [m[1][1] / det, -m[0][1] / det],
        [-m[1][0] / det, m[0][0] / det],
    ]
}

fn product2(a: [[f64; 2]; 2], b: [[f64; 2]; 2]) -> [[f64; 2]; 2] {
    let mut out = [[0.0; 2]; 2];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, x) in row.iter_mut().enumerate() {
            *x = a[i][0] * b[0][j] + a[i][1] * b[1][j];
        }
    }
    out
}

#[test]
fn bradley_terry_sandwich_matches_a_game_by_game_computation() {
    let (rows, list) = three_agents();
    let tally = Tally::from_rows(&rows);
    let setting = tally.settings().next().expect("one setting");
    let order: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let table = bradley_terry(&setting, &order).expect("rated");
    assert_eq!(table.anchor, "a");
    assert!(!table.virtual_draws);
    let logit_per_elo = 10f64.ln() / 400.0;
    let theta: Vec<f64> = table
        .ratings
        .iter()
        .map(|r| r.elo * logit_per_elo)
        .collect();
    // Second implementation: per game, the gradient of i's log-likelihood
    // in (theta_b, theta_c) is (y - p)(e_i - e_j) and its information
    // p (1 - p) d d^T; per pair the gradients add before the outer product.
    let direction = |i: usize, j: usize| {
        let mut d = [0.0; 3];
        d[i] += 1.0;
        d[j] -= 1.0;
        [d[1], d[2]]
    };
    let mut bread = [[0.0; 2]; 2];
    let mut meat = [[0.0; 2]; 2];
    for &(i, j, first, second) in &list {
        let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
        let d = direction(i, j);
        let residual = (first as f64 / 2.0 - p) + (second as f64 / 2.0 - p);
        for r in 0..2 {
            for c in 0..2 {
                bread[r][c] += 2.0 * p * (1.0 - p) * d[r] * d[c];
                meat[r][c] += residual * residual * d[r] * d[c];
            }
        }
    }
    let inverse = inverse2(bread);
    let sandwich = product2(product2(inverse, meat), inverse);
    for (k, rating) in table.ratings.iter().enumerate().skip(1) {
        let want = sandwich[k - 1][k - 1].sqrt();
        let got = (rating.high - rating.elo) * logit_per_elo / Z95;
        assert!(close(got, want, 1e-6), "{}: {got} vs {want}", rating.agent);
        let want = inverse[k - 1][k - 1].sqrt();
        let got = (rating.information_high - rating.elo) * logit_per_elo / Z95;
        assert!(close(got, want, 1e-6), "{}: {got} vs {want}", rating.agent);
    }
    // The anchor's interval is a point.
    assert_eq!((table.ratings[0].low, table.ratings[0].high), (0.0, 0.0));
}

#[test]
fn two_agent_sandwich_is_the_pentanomial_interval_on_the_logit_scale() {
    // b's pair scores (half points, b South first): 10 pairs with pentanomial
    // [1, 2, 3, 3, 1] from b's side: score 0.525, pair variance 0.080625.
    let b_pairs: [(u8, u8); 10] = [
        (0, 0),
        (1, 0),
        (0, 1),
        (2, 0),
        (1, 1),
        (0, 2),
        (2, 1),
        (1, 2),
        (2, 1),
        (2, 2),
    ];
    let rows: Vec<GameRow> = b_pairs
        .iter()
        .enumerate()
        .flat_map(|(k, &(first, second))| pair(k as u64, "b", "a", first, second))
        .collect();
    let tally = Tally::from_rows(&rows);
    let setting = tally.settings().next().expect("one setting");
    let order: Vec<String> = vec!["a".into(), "b".into()];
    let table = bradley_terry(&setting, &order).expect("rated");
    let b = &table.ratings[1];
    let estimate = ScoreEstimate::from_pentanomial(&Pentanomial([1, 2, 3, 3, 1])).expect("pairs");
    // Delta method: sd(logit s) = se(s) / (s (1 - s)) = 0.0897914 / 0.249375
    // = 0.3600658; so b = 17.3863 Elo +- 1.96 * 0.3600658 * 173.7178.
    let s = estimate.score.value;
    let sd = estimate.standard_error / (s * (1.0 - s));
    assert!(close(sd, 0.360_066, 1e-6), "{sd}");
    assert!(close(b.elo, estimate.elo.value, 1e-6), "{b:?}");
    let theta = (s / (1.0 - s)).ln();
    assert!(
        close(b.low, elo_from_logit(theta - Z95 * sd), 1e-6),
        "{b:?}"
    );
    assert!(
        close(b.high, elo_from_logit(theta + Z95 * sd), 1e-6),
        "{b:?}"
    );
    // The games-as-independent interval: information 20 * 0.525 * 0.475.
    let information_sd = (20.0f64 * s * (1.0 - s)).recip().sqrt();
    assert!(close(
        b.information_high,
        elo_from_logit(theta + Z95 * information_sd),
        1e-6
    ));
}

#[test]
fn sandwich_with_virtual_draws_and_an_unpaired_game() {
    // b wins every game: the fit needs one virtual draw, and the sandwich
    // counts it as a cluster of its own; the interval stays finite.
    let sweep: Vec<GameRow> = (0..4).flat_map(|k| pair(k, "b", "a", 2, 2)).collect();
    let tally = Tally::from_rows(&sweep);
    let setting = tally.settings().next().expect("one setting");
    let order: Vec<String> = vec!["a".into(), "b".into()];
    let table = bradley_terry(&setting, &order).expect("rated");
    assert!(table.virtual_draws);
    let b = &table.ratings[1];
    assert!(
        b.low.is_finite() && b.low < b.elo && b.elo < b.high && b.high.is_finite(),
        "{b:?}"
    );
    // With the virtual draw: 8.5 of 9 games, theta = ln 17; the meat is
    // 4 pairs of (2 - 2p)^2 plus (1/2 - p)^2, the bread 9 p (1 - p).
    let p: f64 = 8.5 / 9.0;
    let meat = 4.0 * (2.0 - 2.0 * p) * (2.0 - 2.0 * p) + (0.5 - p) * (0.5 - p);
    let sd = meat.sqrt() / (9.0 * p * (1.0 - p));
    let theta = 17f64.ln();
    assert!(
        close(b.high, elo_from_logit(theta + Z95 * sd), 1e-6),
        "{b:?}"
    );

    // Three pairs and a game whose partner never came: the lone game is a
    // cluster of one, weighted by the pairing's mean squared game residual.
    let mut rows: Vec<GameRow> = [(2, 0), (1, 2), (1, 0)]
        .iter()
        .enumerate()
        .flat_map(|(k, &(first, second))| pair(k as u64, "b", "a", first, second))
        .collect();
    rows.push(game(6, "b", "a", Winner::S));
    let tally = Tally::from_rows(&rows);
    let setting = tally.settings().next().expect("one setting");
    let table = bradley_terry(&setting, &order).expect("rated");
    assert!(!table.virtual_draws);
    let b = &table.ratings[1];
    // b wins 3 (the lone game among them), draws 2, loses 2: 4 of 7; its
    // pair scores are 1, 1.5 and 0.5.
    let p: f64 = 4.0 / 7.0;
    let paired = (1.0 - 2.0 * p).powi(2) + (1.5 - 2.0 * p).powi(2) + (0.5 - 2.0 * p).powi(2);
    let per_game = (3.0 * (1.0 - p).powi(2) + 2.0 * (0.5 - p).powi(2) + 2.0 * p * p) / 7.0;
    let sd = (paired + per_game).sqrt() / (7.0 * p * (1.0 - p));
    let theta = (p / (1.0 - p)).ln();
    assert!(close(b.elo, elo_from_logit(theta), 1e-6), "{b:?}");
    assert!(
        close(b.high, elo_from_logit(theta + Z95 * sd), 1e-6),
        "{b:?}"
    );
}

#[test]
fn ladder_pairing_reproduces_the_hand_computed_interval() {
    // reports/ladder, ii 2x6: alphabeta-d8 against alphabeta-d16 had pairs
    // [25, 24, 151, 0, 0]; computed by hand, d16's pair-based interval is
    // [0.568, 0.617] against the printed Wilson [0.544, 0.640].
    let d16 = ScoreEstimate::from_pentanomial(&Pentanomial([25, 24, 151, 0, 0]).flipped())
        .expect("pairs");
    assert!(close(d16.score.value, 0.5925, 1e-12));
    assert!(
        close(d16.score.low, 0.568, 5e-4) && close(d16.score.high, 0.617, 5e-4),
        "{d16:?}"
    );
}

/// A self-play pair of a deterministic agent: both games the same moves,
/// South winning (`south_wins`) or losing both; `opening_end` ends them
/// inside their 8-ply random opening with that ending.
fn self_play_pair(pair: u64, south_wins: bool, opening_end: Option<Ending>) -> [GameRow; 2] {
    [0, 1].map(|k| {
        let mut row = game(2 * pair + k, "champion", "champion", Winner::N);
        row.winner = if south_wins { Winner::S } else { Winner::N };
        row.moves_hash = MovesHash(pair);
        row.opening = "1 2 3 4 5 6 1 2".to_string();
        if let Some(ending) = opening_end {
            (row.plies, row.ending) = (7, ending);
        }
        row
    })
}

#[test]
fn games_decided_inside_the_opening_count_in_the_advantage_over_every_opening() {
    // 4 pairs played (South wins 3), 6 pairs decided inside the opening (5 by
    // the tables, 1 by the rules; North wins all 6), as Hoyito I 2x6 under
    // the champion: the headline is over the 4 played pairs alone, the
    // figure over every opening over all 10.
    let mut rows = Vec::new();
    for pair in 0..10 {
        let (wins, end) = match pair {
            0..=2 => (true, None),
            3 => (false, None),
            4..=8 => (false, Some(Ending::Tablebase)),
            _ => (false, Some(Ending::Normal)),
        };
        rows.extend(self_play_pair(pair, wins, end));
    }
    let tally = Tally::from_rows(&rows);
    let setting = tally.settings().next().expect("one setting");
    let lines = hoyito::stats::first_player(&setting, &["champion".to_string()]);
    let line = lines.last().expect("the self-play line");
    assert_eq!(line.games.opening_ended, 12);
    assert!(close(line.advantage.value, 0.75 - 0.5, 1e-12), "{line:?}");
    let every = line
        .advantage_all_openings
        .expect("some games ended in the opening");
    assert!(close(every.value, 0.3 - 0.5, 1e-12), "{every:?}");
    let ended = line
        .advantage_opening_ended
        .expect("some games ended in the opening");
    assert!(close(ended.value, -0.5, 1e-12), "{ended:?}");
    assert_eq!(line.opening_ended_adjudicated, Some(10));
}

#[test]
fn without_games_ended_in_the_opening_there_is_no_second_figure() {
    let rows: Vec<GameRow> = (0..3)
        .flat_map(|p| self_play_pair(p, p == 0, None))
        .collect();
    let tally = Tally::from_rows(&rows);
    let setting = tally.settings().next().expect("one setting");
    for line in hoyito::stats::first_player(&setting, &[]) {
        assert_eq!(line.advantage_all_openings, None);
        assert_eq!(line.advantage_opening_ended, None);
    }
}
