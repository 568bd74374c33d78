//! What a start solve reports: per layer, what closing and solving it took
//! ([`LayerSolveStats`]), told to the caller as each layer is done
//! ([`Progress`]) and kept for the summary.

use std::time::Duration;

/// What the solve of one layer took.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerSolveStats {
    /// Seeds on the board.
    pub seeds: u32,
    /// Reachable positions.
    pub positions: u64,
    /// Inner moves (no capture) among them.
    pub inner_moves: u64,
    /// Jacobi sweeps to the fixed point (the last one changes nothing).
    pub sweeps: u32,
    /// Time of the forward closure.
    pub forward: Duration,
    /// Time of the backward pass (moves and iteration).
    pub backward: Duration,
    /// Whether the layer is held on disk, memory-mapped, rather than in memory.
    pub mapped: bool,
    /// Sorted runs written to scratch files while closing the layer (its own
    /// keys, its work stack, and keys waiting for smaller layers), because
    /// they exceeded their share of the memory budget.
    pub spills: u32,
}

/// What a solve reports as it goes.
#[derive(Debug, Clone, Copy)]
pub enum Progress<'a> {
    /// A layer was closed (or loaded from the state directory).
    Closed(&'a LayerSolveStats, bool),
    /// A layer was solved (or loaded from the state directory).
    Solved(&'a LayerSolveStats, bool),
}
