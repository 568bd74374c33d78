//! RAVE and GRAVE: all-moves-as-first (AMAF) statistics, which let every
//! playout inform the value of every move its players made, not only the move
//! at the top of the playout.
//!
//! Sources: Gelly & Silver 2007, "Combining online and offline knowledge in
//! UCT" (RAVE, the schedule `β = √(k / (3n + k))`); Cazenave 2015,
//! "Generalized Rapid Action Value Estimation" (GRAVE: take the AMAF values of
//! the closest ancestor with more than `ref` playouts, so that young nodes use
//! statistics with more data behind them). Ludii's `GRAVE` selection
//! (`search/mcts/selection/McGRAVE.java`) keeps, as here, AMAF values per node
//! for every move, whoever plays it.
//!
//! A move is a hole of one side's row (passes are not counted: a pass is only
//! ever the one legal move). Each expanded node holds `2 × holes` slots, South's
//! row then North's; slot `h` of node `n` holds the playouts through `n` in
//! which the owner of `h` sowed `h` at some point after `n`, and that owner's
//! reward in them.

use crate::engine::moves::Move;
use crate::engine::side::Side;

/// A node's slots when it has none.
pub(crate) const NO_SLOTS: u32 = u32::MAX;

/// AMAF statistics of one move at one node.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Amaf {
    pub(crate) visits: u32,
    /// Sum of the rewards of the move's owner.
    pub(crate) total: f64,
}

/// The slot of `mv` played by `side` on a board of `holes` holes per row, or
/// `None` for a pass.
#[inline]
pub(crate) fn slot(side: Side, mv: Move, holes: u8) -> Option<usize> {
    match mv {
        Move::Sow(h) => Some(side.index() * holes as usize + h as usize),
        Move::Pass => None,
    }
}

/// Gelly & Silver's weight of the AMAF value in a child's value after `n`
/// playouts, with schedule constant `k`: `√(k / (3n + k))`, 1 at `n = 0`,
/// ½ at `n = k`.
#[inline]
pub(crate) fn beta(k: f64, n: f64) -> f64 {
    (k / (3.0 * n + k)).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beta_follows_the_schedule() {
        assert_eq!(beta(100.0, 0.0), 1.0);
        assert!((beta(100.0, 100.0) - 0.5).abs() < 1e-12);
        // √(100 / 3100) = 0.1796
        assert!((beta(100.0, 1000.0) - 0.179_605_302).abs() < 1e-8);
    }

    #[test]
    fn slots_follow_rows() {
        assert_eq!(slot(Side::South, Move::Sow(2), 6), Some(2));
        assert_eq!(slot(Side::North, Move::Sow(2), 6), Some(8));
        assert_eq!(slot(Side::North, Move::Pass, 6), None);
    }
}
