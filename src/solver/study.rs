//! Who can still force a capture: the question that decides many 2x12 games,
//! where random play often reaches a few seeds that nobody can gather into a casa.
//!
//! This is the retrograde analysis of [`crate::solver::retrograde`] on one layer
//! with every capture worth one point to its maker and endless play worth
//! nothing: a position is worth +1 when the side to move can force the next
//! capture to be its own, -1 when the opponent can, and 0 when neither can
//! (each can stop the other, or nobody can ever capture). No smaller layer is
//! needed.

use crate::rules::{Rules, Variant};
use crate::solver::retrograde;
use crate::solver::SolveError;

/// How the positions of one layer split by who can force the next capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaptureShare {
    /// Seeds on the board.
    pub seeds: u32,
    /// Positions (boards times sides to move).
    pub positions: u64,
    /// Positions where the side to move can force the next capture to be its own.
    pub mover: u64,
    /// Positions where the opponent can force the next capture to be theirs.
    pub opponent: u64,
}

impl CaptureShare {
    /// Positions where one side or the other can force the next capture.
    pub fn either(&self) -> u64 {
        self.mover + self.opponent
    }
}

/// Counts, over every position with `seeds` seeds on the board, who can force
/// the next capture.
pub fn capture_share(
    variant: Variant,
    holes: u8,
    seeds: u32,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<CaptureShare, SolveError> {
    let rules = Rules::new(variant).with_board(holes as u32, 1)?;
    let (values, _) = retrograde::build_layer(&rules, seeds, &|_, _| 1, progress)?;
    let count = |v: i8| values.iter().filter(|&&x| x == v).count() as u64;
    Ok(CaptureShare {
        seeds,
        positions: values.len() as u64,
        mover: count(1),
        opponent: count(-1),
    })
}
