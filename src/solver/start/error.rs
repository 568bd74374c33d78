//! [`StartError`]: why a start cannot be solved (a state file that cannot be
//! used, a board beyond 64-bit ranks, or more memory than the budget, with
//! the estimates that say what would solve it).

use thiserror::Error;

use super::state::StateError;

/// Why a start cannot be solved.
#[derive(Debug, Error)]
pub enum StartError {
    /// A state file cannot be used.
    #[error(transparent)]
    State(#[from] StateError),
    /// The board's layers cannot be ranked in 64 bits.
    #[error(
        "a start with {seeds} seeds on 2x{holes} is beyond the start solver: \
         its layers cannot be numbered in 64 bits"
    )]
    TooLarge {
        /// Holes per row.
        holes: u8,
        /// Seeds on the board.
        seeds: u32,
    },
    /// The solve would need more memory than allowed.
    #[error(
        "the solve of this start {mode}needs about {needed_mb} MB of memory and the budget is \
         {budget_mb} MB{so_far}: it would need {positions} positions or more, \
         {disk_mb} MB or more of disk for its state and {hours:.1} hours or more on one core; \
         not solved ({advice})"
    )]
    NotEnoughMemory {
        /// Estimated memory.
        needed_mb: u64,
        /// The budget.
        budget_mb: u64,
        /// Estimated reachable positions.
        positions: u64,
        /// Estimated disk for the state files (and, out of core, scratch).
        disk_mb: u64,
        /// Estimated time.
        hours: f64,
        /// Where the estimate comes from.
        so_far: String,
        /// `"out of core "` or nothing.
        mode: &'static str,
        /// What would solve it: more memory, or out of core with how much.
        advice: String,
    },
}
