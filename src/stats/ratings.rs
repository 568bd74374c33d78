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
//! Intervals: the inverse of the observed information matrix of
//! `theta = ln pi` with the anchor's row and column removed (the anchor is
//! fixed at 0), `theta_i +- 1.96 sd`.
//!
//! The maximum-likelihood fit is finite only when every agent has scored
//! against, and conceded to, the rest (Hunter 2004, assumption 1: the
//! "scored against" graph is strongly connected). When it is not, as when a
//! strong agent wins every game against `random`, one virtual draw is added
//! to every pairing that played, as BayesElo's prior does (R. Coulom, 2005),
//! and the table says so.

use serde::Serialize;

use super::matrix::invert;
use super::pairing::{rank, Wdl};
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
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
    /// Games counted (self-play excluded).
    pub games: u64,
    /// Points scored, draws as half points.
    pub points: f64,
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

/// Game counts and points between agents, indexed by agent.
struct Results {
    games: Vec<Vec<f64>>,
    points: Vec<Vec<f64>>,
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
        games: keep
            .iter()
            .map(|&i| keep.iter().map(|&j| results.games[i][j]).collect())
            .collect(),
        points: keep
            .iter()
            .map(|&i| keep.iter().map(|&j| results.points[i][j]).collect())
            .collect(),
    };
    let sub_anchor = keep.iter().position(|&i| i == anchor)?;
    let virtual_draws = !strongly_connected(&sub, sub_anchor);
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
    let sd = standard_errors(&sub, &theta, sub_anchor);
    let ratings = keep
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let half = Z95 * sd[k];
            Rating {
                agent: agents[i].to_string(),
                elo: elo_from_logit(theta[k]),
                low: elo_from_logit(theta[k] - half),
                high: elo_from_logit(theta[k] + half),
                games: observed_games[k] as u64,
                points: observed_points[k],
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

/// Whether every agent both scored against and conceded to the others
/// (Hunter 2004, assumption 1): the graph "i scored against j" is strongly
/// connected, checked as reachability from the anchor both ways.
fn strongly_connected(r: &Results, anchor: usize) -> bool {
    let n = r.games.len();
    let scored = |i: usize, j: usize| r.points[i][j] > 0.0;
    let forward = reachable(n, anchor, scored);
    let backward = reachable(n, anchor, |i, j| scored(j, i));
    forward.iter().chain(&backward).all(|&x| x)
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

/// Standard errors of `theta` relative to the anchor (0 for the anchor), from
/// the observed information matrix
/// `I_ii = sum_j n_ij p_ij p_ji`, `I_ij = -n_ij p_ij p_ji`.
fn standard_errors(r: &Results, theta: &[f64], anchor: usize) -> Vec<f64> {
    let n = theta.len();
    let others: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let weight = |i: usize, j: usize| {
        let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
        r.games[i][j] * p * (1.0 - p)
    };
    let info: Vec<Vec<f64>> = others
        .iter()
        .map(|&i| {
            others
                .iter()
                .map(|&j| {
                    if i == j {
                        (0..n).filter(|&k| k != i).map(|k| weight(i, k)).sum()
                    } else {
                        -weight(i, j)
                    }
                })
                .collect()
        })
        .collect();
    let covariance = invert(&info);
    let mut sd = vec![0.0; n];
    for (k, &i) in others.iter().enumerate() {
        sd[i] = covariance
            .as_ref()
            .map_or(f64::INFINITY, |c| c[k][k].max(0.0).sqrt());
    }
    sd
}
