//! What a start solve reports: per layer, what closing and solving it took
//! ([`LayerSolveStats`]), told to the caller as each layer is done
//! ([`Progress`]) and kept for the summary, and how a layer still under way
//! goes, every [`PROGRESS_EVERY`] ([`Ticker`]): a layer of a large start can
//! take an hour, and a solve that says nothing for that long looks hung.

use std::time::{Duration, Instant};

/// How often a layer still being closed or solved is reported.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(2);

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
    /// The layer of `seeds` seeds is being closed: `positions` found so far.
    Closing {
        /// Seeds on the board.
        seeds: u32,
        /// Positions of the layer found so far.
        positions: u64,
    },
    /// The layer of `seeds` seeds is being solved: its moves read
    /// (`sweep` 0, `done` positions of `positions`) or sweep `sweep` of the
    /// iteration under way.
    Solving {
        /// Seeds on the board.
        seeds: u32,
        /// Positions of the layer.
        positions: u64,
        /// Positions whose moves were read (`sweep` 0).
        done: u64,
        /// The sweep under way, 0 while the moves are read.
        sweep: u32,
    },
}

/// Calls of [`Ticker::due_in_a_loop`] between two looks at the clock.
const CLOCK_EVERY: u32 = 1 << 12;

/// Says when a layer under way is due to be reported again.
pub(super) struct Ticker {
    last: Instant,
    /// Calls of [`Ticker::due_in_a_loop`] so far.
    calls: u32,
}

impl Ticker {
    pub(super) fn new() -> Ticker {
        Ticker {
            last: Instant::now(),
            calls: 0,
        }
    }

    /// As [`Ticker::due`], for a call once a position: the clock is read
    /// only every [`CLOCK_EVERY`] calls.
    pub(super) fn due_in_a_loop(&mut self) -> bool {
        self.calls = self.calls.wrapping_add(1);
        self.calls % CLOCK_EVERY == 0 && self.due()
    }

    /// Whether [`PROGRESS_EVERY`] has passed since the last report (which
    /// this one then is).
    pub(super) fn due(&mut self) -> bool {
        if self.last.elapsed() < PROGRESS_EVERY {
            return false;
        }
        self.last = Instant::now();
        true
    }
}
