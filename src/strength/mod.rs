//! How close an agent plays to perfect play, measured with the endgame tables.
//!
//! Game results say which of two agents is stronger, never how far either is
//! from perfect play; the tables say that exactly, position by position. So
//! this module draws positions whose exact values the tables hold
//! ([`sample`]: uniformly from the tables' index; [`tree`]: every position of a
//! small board's opening tree), asks each agent for its move in each
//! ([`play`]), scores the move against the tables ([`score`]: is it a best
//! move, and how many seeds does it give away) and writes the figures
//! ([`output`]: a markdown table, a CSV and a JSON file).

pub mod output;
pub mod play;
pub mod sample;
pub mod score;
pub mod tree;

use thiserror::Error;

use crate::solver::SolveError;

pub use output::{write_outputs, AccuracyReport};
pub use play::{agent_moves, PositionSet};
pub use sample::{sample_positions, SampleSpec};
pub use score::{score_moves, AgentAccuracy, Judged};
pub use tree::tree_positions;

/// The fewest legal moves a position must offer to be measured: with one
/// move there is no choice to get wrong.
pub const MIN_CHOICES: usize = 2;

/// Why a strength measurement cannot be made.
#[derive(Debug, Error)]
pub enum StrengthError {
    /// The tables cannot be built or loaded.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// Fewer than two seeds: no position offers a choice.
    #[error("--max-seeds {0} is too small: positions with a choice of moves need at least 2 seeds on the board")]
    TooFewSeeds(u32),
    /// Zero positions asked for.
    #[error("--positions 0: ask for at least one position")]
    NoPositions,
    /// No position of the layers offers a choice (rejection sampling gave up).
    #[error("no position with {min_seeds} to {max_seeds} seeds on 2x{holes} offers at least two legal moves")]
    NoEligiblePosition {
        /// Holes per row.
        holes: u8,
        /// Fewest seeds sampled.
        min_seeds: u32,
        /// Most seeds sampled.
        max_seeds: u32,
    },
    /// A position the tables do not cover (its layer was not built).
    #[error("position {0} is outside the tables")]
    OutsideTables(String),
    /// An agent chose a move that is not legal, or forfeited.
    #[error("agent {agent} at position {position}: {problem}")]
    BadMove {
        /// The agent's name.
        agent: String,
        /// The position, in the notation of RULES.md.
        position: String,
        /// What went wrong.
        problem: String,
    },
    /// An agent cannot be used here.
    #[error("agent {agent}: {problem}")]
    Agent {
        /// The agent's name.
        agent: String,
        /// Why.
        problem: String,
    },
    /// The results cannot be written.
    #[error("cannot write {path}")]
    Write {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}
