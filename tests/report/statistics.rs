//! The statistics on tallies of hand-made rows: Wilson intervals, pentanomial
//! counts, first-player figures, lengths and Bradley-Terry ratings.

use super::*;

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
