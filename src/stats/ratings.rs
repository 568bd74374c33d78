//! Ratings of all agents on one setting by a Bradley-Terry maximum-likelihood
//! fit, so that agents that never met can still be compared through common
//! opponents, with 95% intervals and an Elo-scale output.
//!
//! Model: agent i scores against j with probability
//! `pi_i / (pi_i + pi_j)`, draws counting as half a win for each side.
//! Source: R. A. Bradley & M. E. Terry, "Rank analysis of incomplete block
//! designs I", Biometrika 39 (1952) 324-345. Fit by the MM algorithm of
//! D. R. Hunter, "MM algorithms for generalized Bradley-Terry models",
//! Annals of Statistics 32 (2004) 384-406: `pi_i <- W_i / sum_j n_ij / (pi_i + pi_j)`.
//!
//! Intervals: `theta_i +- 1.96 sd` for `theta = ln pi` (the anchor fixed at
//! 0, its row and column removed), with `sd` from a cluster-robust sandwich
//! covariance in which the seat-swapped pair, not the game, is the
//! independent unit: `V = B^-1 M B^-1`, where the bread `B` is the observed
//! information (`B_ii = sum_j n_ij p_ij p_ji`, `B_ij = -n_ij p_ij p_ji`) and
//! the meat `M` sums the outer products of each pair's score (gradient)
//! contribution. Source: P. J. Huber (1967) and H. White, "A
//! heteroskedasticity-consistent covariance matrix estimator", Econometrica
//! 48 (1980) 817-838; for clusters, Cameron & Miller, "A Practitioner's
//! Guide to Cluster-Robust Inference", J. Human Resources 50 (2015) 317-372.
//!
//! Derivation. A game in which i scores `y` (1, 1/2 or 0) against j adds
//! `y ln p_ij + (1 - y) ln p_ji` to the log-likelihood, whose gradient in
//! `theta` is `(y - p_ij) (e_i - e_j)`. A pair of games between i and j
//! (seats swapped) in which i scores `Y` points (0, 1/2, .., 2) therefore
//! contributes `(Y - 2 p_ij) (e_i - e_j)`, which depends only on its
//! pentanomial cell: `M = sum over pairings {i, j} of
//! c_ij (e_i - e_j)(e_i - e_j)^T` with
//! `c_ij = sum_k n_k (k / 2 - 2 p_ij)^2` over the pairing's pentanomial
//! counts `n_k`. A game left without its partner is a cluster of one; the
//! tally does not keep its own result, so it adds the pairing's mean squared
//! per-game residual `(W (1 - p)^2 + D (1/2 - p)^2 + L p^2) / games`; a
//! virtual draw (below) adds `(1/2 - p)^2`. No small-sample factor
//! `G / (G - 1)` is applied, so that with two agents the interval is exactly
//! the pentanomial score interval of fastchess (`ScoreEstimate`) carried to
//! the logit scale by the delta method. The information-only interval, which counts games as
//! independent, stays in `information_low` / `information_high`.
//!
//! The maximum-likelihood fit is finite only when every agent has scored
//! against, and conceded to, the rest (Hunter 2004, assumption 1: the
//! "scored against" graph is strongly connected). When it is not, as when a
//! strong agent wins every game against `random`, one virtual draw is added
//! to every pairing that played, as BayesElo's prior does (R. Coulom, 2005),
//! and the table says so. The ratings that the prior then holds up are
//! marked (`held_by_prior`): those of agents outside the anchor's strongly
//! connected component of the "scored against" graph. Within a component
//! the fit's differences are finite; between components the likelihood
//! grows without bound as they are pulled apart (every game between them
//! went one way), so such a rating measures the prior, not the games. An
//! agent that won, or lost, every game it played is its own component.

use serde::Serialize;

use super::matrix::invert;
use super::outcomes::{Pentanomial, Wdl};
use super::pairing::rank;
use super::tally::SettingTally;
use super::wilson::Z95;

/// Elo points per unit of the Bradley-Terry logit: `400 / ln 10`.
pub fn elo_from_logit(theta: f64) -> f64 {
    theta * 400.0 / std::f64::consts::LN_10
}

/// One agent's rating.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rating {
    /// Roster name.
    pub agent: String,
    /// Rating on the Elo scale, anchor at 0.
    pub elo: f64,
    /// Lower end of the 95% interval, seat-swapped pairs as the unit
    /// (cluster-robust sandwich).
    pub low: f64,
    /// Upper end of the 95% interval, seat-swapped pairs as the unit.
    pub high: f64,
    /// Lower end of the 95% interval from the observed information alone,
    /// games taken as independent.
    pub information_low: f64,
    /// Upper end of that interval.
    pub information_high: f64,
    /// Games counted (self-play excluded).
    pub games: u64,
    /// Points scored, draws as half points.
    pub points: f64,
    /// Whether the rating is held by the virtual draws alone: the agent and
    /// the anchor are apart in the "scored against" graph (every game
    /// between the anchor's side and the agent's went one way, as when an
    /// agent won or lost every game), so the plain fit puts it infinitely
    /// far from the anchor. Written only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub held_by_prior: bool,
}

/// The ratings of one setting.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingTable {
    /// The agent fixed at 0.
    pub anchor: String,
    /// Whether one virtual draw per pairing was added because the plain
    /// maximum-likelihood fit has no finite solution.
    pub virtual_draws: bool,
    /// Rated agents, in the listed order.
    pub ratings: Vec<Rating>,
    /// Agents with no chain of games to the anchor, which cannot be rated
    /// on its scale.
    pub unrated: Vec<String>,
}

/// What the sandwich needs of the games of agent i against agent j, from
/// i's point of view.
#[derive(Debug, Clone, Copy, Default)]
struct Clusters {
    /// i's wins, draws and losses in both seats.
    wdl: Wdl,
    /// i's pair scores in the complete seat-swapped pairs.
    pentanomial: Pentanomial,
    /// Games without their partner.
    unpaired: u64,
}

/// Game counts and points between agents, indexed by agent.
struct Results {
    games: Vec<Vec<f64>>,
    points: Vec<Vec<f64>>,
    clusters: Vec<Vec<Clusters>>,
}

impl Results {
    fn total_points(&self, i: usize) -> f64 {
        self.points[i].iter().sum()
    }
}

/// Fits ratings to the games of one setting between different agents, anchored
/// at `random` when it played, else at the first agent in `agent_order` that
/// played (else the first by name). `None` when no such games were played.
pub fn bradley_terry(games: &SettingTally<'_>, agent_order: &[String]) -> Option<RatingTable> {
    let seats: Vec<(&str, &str, Wdl)> = games
        .seats()
        .filter(|(s, n, _)| s != n)
        .map(|(s, n, wdl)| (games.name(s), games.name(n), wdl))
        .collect();
    let mut agents: Vec<&str> = seats.iter().flat_map(|&(s, n, _)| [s, n]).collect();
    agents.sort_by_key(|a| rank(agent_order, a));
    agents.dedup();
    let anchor_name = if agents.contains(&"random") {
        "random"
    } else {
        agents.first().copied()?
    };
    let index = |name: &str| agents.iter().position(|a| *a == name);
    let n = agents.len();
    let mut results = Results {
        games: vec![vec![0.0; n]; n],
        points: vec![vec![0.0; n]; n],
        clusters: vec![vec![Clusters::default(); n]; n],
    };
    for &(south, north, wdl) in &seats {
        let (Some(s), Some(t)) = (index(south), index(north)) else {
            continue;
        };
        let played = wdl.games() as f64;
        results.games[s][t] += played;
        results.games[t][s] += played;
        results.points[s][t] += wdl.points();
        results.points[t][s] += wdl.flipped().points();
        results.clusters[s][t].wdl += wdl;
        results.clusters[t][s].wdl += wdl.flipped();
    }
    for (first, second, counts) in games.pairs() {
        let (Some(a), Some(b)) = (index(games.name(first)), index(games.name(second))) else {
            continue;
        };
        results.clusters[a][b].pentanomial += counts.pentanomial;
        results.clusters[a][b].unpaired += counts.unpaired;
        results.clusters[b][a].pentanomial += counts.pentanomial.flipped();
        results.clusters[b][a].unpaired += counts.unpaired;
    }
    let anchor = index(anchor_name)?;

    // Only agents joined to the anchor by a chain of games share its scale.
    let rated = reachable(n, anchor, |i, j| results.games[i][j] > 0.0);
    let keep: Vec<usize> = (0..n).filter(|&i| rated[i]).collect();
    let unrated = (0..n)
        .filter(|&i| !rated[i])
        .map(|i| agents[i].to_string())
        .collect();
    let mut sub = Results {
        games: select(&results.games, &keep),
        points: select(&results.points, &keep),
        clusters: select(&results.clusters, &keep),
    };
    let sub_anchor = keep.iter().position(|&i| i == anchor)?;
    let component = anchor_component(&sub, sub_anchor);
    let virtual_draws = !component.iter().all(|&c| c);
    let observed_games: Vec<f64> = sub.games.iter().map(|r| r.iter().sum()).collect();
    let observed_points: Vec<f64> = (0..keep.len()).map(|i| sub.total_points(i)).collect();
    if virtual_draws {
        for i in 0..keep.len() {
            for j in 0..keep.len() {
                if sub.games[i][j] > 0.0 {
                    sub.games[i][j] += 1.0;
                    sub.points[i][j] += 0.5;
                }
            }
        }
    }
    let theta = fit(&sub, sub_anchor);
    let sd = standard_errors(&sub, &theta, sub_anchor, virtual_draws);
    let ratings = keep
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let (half, information_half) = (Z95 * sd[k].clustered, Z95 * sd[k].information);
            Rating {
                agent: agents[i].to_string(),
                elo: elo_from_logit(theta[k]),
                low: elo_from_logit(theta[k] - half),
                high: elo_from_logit(theta[k] + half),
                information_low: elo_from_logit(theta[k] - information_half),
                information_high: elo_from_logit(theta[k] + information_half),
                games: observed_games[k] as u64,
                points: observed_points[k],
                held_by_prior: !component[k],
            }
        })
        .collect();
    Some(RatingTable {
        anchor: anchor_name.to_string(),
        virtual_draws,
        ratings,
        unrated,
    })
}

/// The rows and columns `keep` of a square matrix.
fn select<T: Copy>(matrix: &[Vec<T>], keep: &[usize]) -> Vec<Vec<T>> {
    keep.iter()
        .map(|&i| keep.iter().map(|&j| matrix[i][j]).collect())
        .collect()
}

/// Which of `n` agents `start` reaches along edges `i -> j` where `edge(i, j)`.
fn reachable(n: usize, start: usize, edge: impl Fn(usize, usize) -> bool) -> Vec<bool> {
    let mut seen = vec![false; n];
    let mut stack = vec![start];
    while let Some(i) = stack.pop() {
        if !std::mem::replace(&mut seen[i], true) {
            stack.extend((0..n).filter(|&j| !seen[j] && edge(i, j)));
        }
    }
    seen
}

/// Which agents share the anchor's strongly connected component of the
/// graph "i scored against j": reached from the anchor both ways. All of
/// them when every agent both scored against and conceded to the others
/// (Hunter 2004, assumption 1), so that the plain fit is finite.
fn anchor_component(r: &Results, anchor: usize) -> Vec<bool> {
    let n = r.games.len();
    let scored = |i: usize, j: usize| r.points[i][j] > 0.0;
    let forward = reachable(n, anchor, scored);
    let backward = reachable(n, anchor, |i, j| scored(j, i));
    forward
        .iter()
        .zip(&backward)
        .map(|(&f, &b)| f && b)
        .collect()
}

/// Log-strengths `theta` (anchor at 0) by Hunter's MM iteration.
fn fit(r: &Results, anchor: usize) -> Vec<f64> {
    let n = r.games.len();
    let wins: Vec<f64> = (0..n).map(|i| r.total_points(i)).collect();
    let mut pi = vec![1.0; n];
    for _ in 0..100_000 {
        let mut next: Vec<f64> = (0..n)
            .map(|i| {
                let denominator: f64 = (0..n)
                    .filter(|&j| j != i && r.games[i][j] > 0.0)
                    .map(|j| r.games[i][j] / (pi[i] + pi[j]))
                    .sum();
                if denominator > 0.0 {
                    wins[i] / denominator
                } else {
                    pi[i]
                }
            })
            .collect();
        let norm = next[anchor];
        next.iter_mut().for_each(|p| *p /= norm);
        let change = pi
            .iter()
            .zip(&next)
            .map(|(a, b)| (a.ln() - b.ln()).abs())
            .fold(0.0, f64::max);
        pi = next;
        if change < 1e-12 {
            break;
        }
    }
    pi.iter().map(|p| p.ln()).collect()
}

/// The standard errors of one agent's `theta`.
#[derive(Debug, Clone, Copy)]
struct StandardErrors {
    /// From the sandwich, pairs as the unit.
    clustered: f64,
    /// From the observed information alone.
    information: f64,
}

/// The meat weight `c_ij` of the pairing of i and j (see the module doc),
/// where i scores a game with probability `p`; `virtual_draw` when one
/// virtual draw was added to the pairing.
fn meat_weight(c: &Clusters, p: f64, virtual_draw: bool) -> f64 {
    let paired: f64 = c
        .pentanomial
        .0
        .iter()
        .enumerate()
        .map(|(k, &n)| n as f64 * (k as f64 / 2.0 - 2.0 * p).powi(2))
        .sum();
    let games = c.wdl.games();
    let per_game = if games > 0 {
        (c.wdl.wins as f64 * (1.0 - p).powi(2)
            + c.wdl.draws as f64 * (0.5 - p).powi(2)
            + c.wdl.losses as f64 * p * p)
            / games as f64
    } else {
        0.0
    };
    let prior = if virtual_draw { (0.5 - p).powi(2) } else { 0.0 };
    paired + c.unpaired as f64 * per_game + prior
}

/// Standard errors of `theta` relative to the anchor (0 for the anchor):
/// the inverse observed information `B^-1` and the sandwich
/// `B^-1 M B^-1` (see the module doc); infinite when `B` is singular.
fn standard_errors(
    r: &Results,
    theta: &[f64],
    anchor: usize,
    virtual_draws: bool,
) -> Vec<StandardErrors> {
    let n = theta.len();
    let others: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let p = |i: usize, j: usize| 1.0 / (1.0 + (theta[j] - theta[i]).exp());
    let weight = |i: usize, j: usize| r.games[i][j] * p(i, j) * (1.0 - p(i, j));
    let meat = |i: usize, j: usize| {
        if r.games[i][j] > 0.0 {
            meat_weight(&r.clusters[i][j], p(i, j), virtual_draws)
        } else {
            0.0
        }
    };
    // Both matrices share the Laplacian shape of the pairings:
    // diagonal sum_k w_ik, off-diagonal -w_ij.
    let laplacian = |w: &dyn Fn(usize, usize) -> f64| -> Vec<Vec<f64>> {
        others
            .iter()
            .map(|&i| {
                others
                    .iter()
                    .map(|&j| {
                        if i == j {
                            (0..n).filter(|&k| k != i).map(|k| w(i, k)).sum()
                        } else {
                            -w(i, j)
                        }
                    })
                    .collect()
            })
            .collect()
    };
    let info = laplacian(&weight);
    let meat = laplacian(&meat);
    let covariance = invert(&info);
    let sandwich = covariance
        .as_ref()
        .map(|b| multiply(&multiply(b, &meat), b));
    let mut sd = vec![
        StandardErrors {
            clustered: 0.0,
            information: 0.0,
        };
        n
    ];
    for (k, &i) in others.iter().enumerate() {
        let diagonal = |m: &Option<Vec<Vec<f64>>>| {
            m.as_ref()
                .map_or(f64::INFINITY, |c| c[k][k].max(0.0).sqrt())
        };
        sd[i] = StandardErrors {
            clustered: diagonal(&sandwich),
            information: diagonal(&covariance),
        };
    }
    sd
}

/// The product of two square matrices of the same size.
fn multiply(a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
    a.iter()
        .map(|row| {
            (0..b.len())
                .map(|j| row.iter().zip(b).map(|(x, b_row)| x * b_row[j]).sum())
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::game_row::{GameRow, Winner};
    use crate::stats::tally::Tally;
    use crate::tournament::play_scheduled::empty_row;

    /// A seat-swapped pair of `a` against `b`, `a` South first; `a`'s
    /// results in the two games.
    fn pair(id: u64, a: &str, b: &str, results: [Winner; 2]) -> [GameRow; 2] {
        let game = |k: u64, south: &str, north: &str, winner: Winner| {
            let mut row = empty_row();
            row.game_id = 2 * id + k;
            row.pair_id = id;
            row.south = south.into();
            row.north = north.into();
            row.winner = winner;
            row
        };
        let flip = |w: Winner| match w {
            Winner::S => Winner::N,
            Winner::N => Winner::S,
            Winner::Draw => Winner::Draw,
        };
        [game(0, a, b, results[0]), game(1, b, a, flip(results[1]))]
    }

    /// Ten pairs of `a` against `b` for each (a, b, a's two results).
    fn rate(pairings: &[(&str, &str, [Winner; 2])]) -> RatingTable {
        let mut rows = Vec::new();
        let mut id = 0;
        for &(a, b, results) in pairings {
            for _ in 0..10 {
                rows.extend(pair(id, a, b, results));
                id += 1;
            }
        }
        let tally = Tally::from_rows(&rows);
        let setting = tally.settings().next().expect("one setting");
        bradley_terry(&setting, &[]).expect("games played")
    }

    fn held(table: &RatingTable) -> Vec<(&str, bool)> {
        table
            .ratings
            .iter()
            .map(|r| (r.agent.as_str(), r.held_by_prior))
            .collect()
    }

    const WIN: Winner = Winner::S;
    const LOSS: Winner = Winner::N;

    /// An anchor that lost every game (as `random` did in reports/default,
    /// which rated greedy at +1260 on one board only for it): greedy and
    /// alphabeta-d4 scored against each other, but their distance to the
    /// anchor is the prior's, and is marked held.
    #[test]
    fn an_anchor_that_lost_every_game_leaves_the_rest_held() {
        let table = rate(&[
            ("greedy", "random", [WIN, WIN]),
            ("alphabeta", "random", [WIN, WIN]),
            ("alphabeta", "greedy", [WIN, LOSS]),
        ]);
        assert!(table.virtual_draws);
        assert_eq!(table.anchor, "random");
        let mut got = held(&table);
        got.sort_unstable();
        assert_eq!(
            got,
            [("alphabeta", true), ("greedy", true), ("random", false)]
        );
    }

    #[test]
    fn an_agent_that_won_every_game_is_held_and_only_it() {
        let table = rate(&[
            ("perfect", "random", [WIN, WIN]),
            ("perfect", "middle", [WIN, WIN]),
            ("middle", "random", [WIN, LOSS]),
        ]);
        assert!(table.virtual_draws);
        let mut got = held(&table);
        got.sort_unstable();
        assert_eq!(
            got,
            [("middle", false), ("perfect", true), ("random", false)]
        );
    }

    #[test]
    fn nothing_is_held_without_virtual_draws() {
        let table = rate(&[
            ("a", "random", [WIN, Winner::Draw]),
            ("b", "a", [WIN, LOSS]),
        ]);
        assert!(!table.virtual_draws);
        assert!(table.ratings.iter().all(|r| !r.held_by_prior));
    }

    /// The field is written only when true, so that summaries without such
    /// ratings read as before.
    #[test]
    fn held_by_prior_is_written_only_when_true() {
        let table = rate(&[("perfect", "random", [WIN, WIN])]);
        let json = serde_json::to_value(&table).expect("JSON");
        let ratings = json["ratings"].as_array().expect("ratings");
        let field = |name: &str| {
            ratings
                .iter()
                .find(|r| r["agent"] == name)
                .expect("rated")
                .get("held_by_prior")
                .cloned()
        };
        assert_eq!(field("perfect"), Some(serde_json::Value::Bool(true)));
        assert_eq!(field("random"), None);
    }
}
