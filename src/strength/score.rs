//! Scoring moves against perfect play.
//!
//! In each position the tables give the exact value `v` (the capture margin
//! still to come for the side to move under perfect play) and the exact value
//! `v(m)` of every move `m`. An agent's move is *best* when `v(m) = v`, and
//! its *loss* is `v - v(m) >= 0`, the seeds of margin it gives away against a
//! perfect opponent. Per agent:
//!
//! - the share of positions where its move is best, with the 95% Wilson
//!   interval ([`crate::stats::wilson`]; positions are independent draws, or,
//!   for the tree, a census whose interval reads as that of a population the
//!   positions represent);
//! - the mean loss, with the 95% normal interval `mean ± 1.96 s / sqrt(n)`
//!   (`s` the sample standard deviation, `n - 1` in its denominator), its low
//!   end cut at 0 since no loss is negative. Losses are bounded (by twice the
//!   seeds on the board), so the central limit theorem holds; at the sizes
//!   measured (thousands of positions) the normal interval is close to a
//!   bootstrap one. With fewer than two positions there is no interval.
//!
//! Source: the normal interval for a mean, e.g. Wasserman, "All of
//! Statistics" (2004), 6.3.2.

use serde::Serialize;

use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::solver::probe::Probe;
use crate::solver::tablebase::Tablebase;
use crate::stats::wilson;
use crate::stats::wilson::{Proportion, Z95};
use crate::strength::StrengthError;

/// What the tables say about one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    /// The position.
    pub position: Position,
    /// Its value and the value of each move.
    pub probe: Probe,
}

impl Judged {
    /// The values of every position of `positions` from `tables`.
    pub fn all(tables: &Tablebase, positions: &[Position]) -> Result<Vec<Judged>, StrengthError> {
        positions
            .iter()
            .map(|pos| {
                tables
                    .probe(pos)
                    .map(|probe| Judged {
                        position: *pos,
                        probe,
                    })
                    .ok_or_else(|| StrengthError::OutsideTables(pos.to_string()))
            })
            .collect()
    }

    /// The seeds `mv` gives away against perfect play, or `None` when it is not
    /// a legal move here.
    pub fn loss(&self, mv: Move) -> Option<u32> {
        self.probe
            .moves
            .iter()
            .find(|&&(m, _)| m == mv)
            .map(|&(_, v)| (i32::from(self.probe.value) - i32::from(v)) as u32)
    }
}

/// A mean with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MeanInterval {
    /// The sample mean.
    pub mean: f64,
    /// Lower end of the 95% interval (`None` with fewer than two values).
    pub low: Option<f64>,
    /// Upper end of the 95% interval.
    pub high: Option<f64>,
}

/// The mean of `values` with the normal interval of the module documentation,
/// the low end cut at `floor`.
pub fn mean_interval(values: &[u32], floor: f64) -> MeanInterval {
    let n = values.len() as f64;
    if values.is_empty() {
        return MeanInterval {
            mean: 0.0,
            low: None,
            high: None,
        };
    }
    let mean = values.iter().map(|&v| f64::from(v)).sum::<f64>() / n;
    if values.len() < 2 {
        return MeanInterval {
            mean,
            low: None,
            high: None,
        };
    }
    let var = values
        .iter()
        .map(|&v| (f64::from(v) - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0);
    let half = Z95 * (var / n).sqrt();
    MeanInterval {
        mean,
        low: Some((mean - half).max(floor)),
        high: Some(mean + half),
    }
}

/// One agent's accuracy over a set of positions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AgentAccuracy {
    /// The agent's name.
    pub agent: String,
    /// Positions measured.
    pub positions: u64,
    /// Positions where it played a best move.
    pub best: u64,
    /// `best / positions` with its Wilson interval.
    pub best_share: Proportion,
    /// Mean loss in seeds, with its interval.
    pub loss: MeanInterval,
    /// The largest loss in one position.
    pub max_loss: u32,
    /// The agent's move in each position, in order.
    #[serde(skip)]
    pub moves: Vec<Move>,
    /// Its loss in each position, in order.
    #[serde(skip)]
    pub losses: Vec<u32>,
}

/// Scores `moves`, the agent's move in each of `judged`, in the same order.
pub fn score_moves(
    agent: &str,
    judged: &[Judged],
    moves: &[Move],
) -> Result<AgentAccuracy, StrengthError> {
    debug_assert_eq!(judged.len(), moves.len());
    let losses = judged
        .iter()
        .zip(moves)
        .map(|(j, &mv)| {
            j.loss(mv).ok_or_else(|| StrengthError::BadMove {
                agent: agent.to_string(),
                position: j.position.to_string(),
                problem: format!("chose {mv}, which is not a legal move"),
            })
        })
        .collect::<Result<Vec<u32>, _>>()?;
    let best = losses.iter().filter(|&&l| l == 0).count() as u64;
    let positions = losses.len() as u64;
    Ok(AgentAccuracy {
        agent: agent.to_string(),
        positions,
        best,
        best_share: wilson(best as f64, positions, Z95),
        loss: mean_interval(&losses, 0.0),
        max_loss: losses.iter().copied().max().unwrap_or(0),
        moves: moves.to_vec(),
        losses,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mean_interval_matches_a_hand_computation() {
        // 0, 0, 2, 4: mean 1.5, s^2 = (2.25 + 2.25 + 0.25 + 6.25) / 3 = 11/3,
        // half width 1.959964 * sqrt(11/12) = 1.876523; the low end is cut at 0.
        let m = mean_interval(&[0, 0, 2, 4], 0.0);
        assert!((m.mean - 1.5).abs() < 1e-12);
        assert_eq!(m.low, Some(0.0));
        assert!((m.high.unwrap() - 3.376523).abs() < 1e-6, "{m:?}");
        let m = mean_interval(&[2, 4, 4, 6], 0.0);
        // mean 4, s^2 = 8/3, half width 1.959964 * sqrt(2/3) = 1.600304.
        assert!((m.low.unwrap() - 2.399696).abs() < 1e-6, "{m:?}");
        assert_eq!(mean_interval(&[3], 0.0).low, None);
        assert_eq!(mean_interval(&[], 0.0).mean, 0.0);
    }

    #[test]
    fn losses_are_the_value_minus_the_move_value() {
        let pos: Position = "1,2/0,1 S 0-0".parse().unwrap();
        let judged = Judged {
            position: pos,
            probe: Probe {
                value: 3,
                moves: vec![(Move::Sow(0), 3), (Move::Sow(1), -1)],
            },
        };
        assert_eq!(judged.loss(Move::Sow(0)), Some(0));
        assert_eq!(judged.loss(Move::Sow(1)), Some(4));
        assert_eq!(judged.loss(Move::Pass), None);
        let acc = score_moves(
            "x",
            &[judged.clone(), judged.clone()],
            &[Move::Sow(0), Move::Sow(1)],
        )
        .unwrap();
        assert_eq!((acc.positions, acc.best, acc.max_loss), (2, 1, 4));
        assert!((acc.loss.mean - 2.0).abs() < 1e-12);
        assert!((acc.best_share.value - 0.5).abs() < 1e-12);
        assert!(score_moves("x", &[judged], &[Move::Pass]).is_err());
    }
}
