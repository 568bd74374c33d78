//! Who can still force a capture: the question that decides many 2x12 games,
//! where random play often reaches a few seeds that nobody can gather into a casa.
//!
//! This is the retrograde analysis of [`crate::solver::retrograde`] on one layer
//! with every capture worth one point to its maker and endless play worth
//! nothing: a position is worth +1 when the side to move can force the next
//! capture to be its own, -1 when the opponent can, and 0 when neither can
//! (each can stop the other, or nobody can ever capture). No smaller layer is
//! needed.

use crate::engine::rules::{Rules, Variant, MAX_TOTAL_SEEDS};
use crate::solver::index::LayerIndex;
use crate::solver::memory::memory_budget;
use crate::solver::retrograde;
use crate::solver::SolveError;

/// Bytes per position of a study: its value and its successor lists (as for a
/// table layer's build).
const BYTES_PER_POSITION: u64 = 13;

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

/// Checks before any work that the layer of `seeds` seeds on 2x`holes` can be
/// studied: a board the engine plays, at most [`MAX_TOTAL_SEEDS`] seeds, a
/// layer small enough to index and to hold in the memory the process may use.
/// Returns its number of positions.
pub fn check_layer(variant: Variant, holes: u8, seeds: u32) -> Result<u64, SolveError> {
    Rules::new(variant).with_board(holes as u32, 1)?;
    if seeds > MAX_TOTAL_SEEDS {
        return Err(SolveError::SeedsOutOfRange {
            seeds,
            max: MAX_TOTAL_SEEDS,
        });
    }
    let boards = LayerIndex::new(holes, seeds).count();
    if boards > u32::MAX as u64 {
        return Err(SolveError::LayerTooLarge {
            holes,
            seeds,
            boards,
        });
    }
    let positions = 2 * boards;
    let needed = positions.saturating_mul(BYTES_PER_POSITION);
    if let Some(budget) = memory_budget(rayon::current_num_threads()) {
        if needed > budget.bytes {
            return Err(SolveError::NotEnoughMemory {
                holes,
                seeds,
                needed_mb: needed >> 20,
                available_mb: budget.bytes >> 20,
                limit: budget.source,
            });
        }
    }
    Ok(positions)
}

/// Counts, over every position with `seeds` seeds on the board, who can force
/// the next capture; refuses up front what [`check_layer`] refuses.
pub fn capture_share(
    variant: Variant,
    holes: u8,
    seeds: u32,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<CaptureShare, SolveError> {
    check_layer(variant, holes, seeds)?;
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
