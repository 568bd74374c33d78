//! Perfect play: endgame tablebases by retrograde analysis, and exact solutions of
//! small boards.
//!
//! No mancala tool knew the exact value of a Hoyito position. Captures only
//! remove seeds, so positions fall into layers by the seeds on the board, each
//! depending only on smaller layers (and only on layers `k - 4j`, since every
//! capture takes whole casas of four, or empties the board): [`index`] numbers
//! the boards of a layer without gaps, [`retrograde`] solves a layer exactly,
//! [`table`] saves and loads layers, [`Tablebase`] holds them, [`probe`] answers
//! questions about a position, [`strategy`] plays perfectly, making progress
//! where a value must be forced through cycles, and [`study`] asks who can still
//! force a capture.
//!
//! The value of a position is the capture margin still to come for the side to
//! move under perfect play, with endless play worth nothing more (the `none`
//! leftover policy) and the last-four rule of RULES.md (who takes the last seeds
//! is the capturer). Captures already made do not matter, so tables are indexed
//! by board and side to move only.

pub mod bounds;
mod chunk;
mod frontier;
pub mod index;
pub mod mapped_files;
pub mod memory;
pub mod outcome;
pub(crate) mod prefetch;
pub mod probe;
pub mod retrograde;
pub mod shared;
pub mod start;
pub mod strategy;
pub mod study;
pub mod table;
pub(crate) mod tablebase;

use std::path::PathBuf;

use thiserror::Error;

use crate::engine::rules::{LastFour, Leftover, RulesError, Variant};
use crate::engine::side::Side;
use crate::solver::memory::MemorySource;

pub use shared::{open_shared, OpenTables};
pub use tablebase::{LayerReport, LayerSource, Tablebase};

/// Largest layer a table can hold: values are stored as `i8`.
pub const MAX_TABLE_SEEDS: u32 = 120;

/// Why a tablebase cannot be built or used.
#[derive(Debug, Error)]
pub enum SolveError {
    /// The board is not one the engine plays.
    #[error(transparent)]
    Board(#[from] RulesError),
    /// A layer beyond what a byte per position can hold.
    #[error(
        "{seeds} seeds on the board is out of range: tables go from 0 to {MAX_TABLE_SEEDS} seeds"
    )]
    TooManySeeds {
        /// Seeds asked for.
        seeds: u32,
    },
    /// More seeds than a board can hold.
    #[error("{seeds} seeds on the board is out of range: the engine holds 0 to {max}")]
    SeedsOutOfRange {
        /// Seeds asked for.
        seeds: u32,
        /// The most a board holds.
        max: u32,
    },
    /// A layer too large to index with 32 bits.
    #[error(
        "the layer of {seeds} seeds on 2x{holes} has {boards} boards: too many to solve in memory"
    )]
    LayerTooLarge {
        /// Holes per row.
        holes: u8,
        /// Seeds on the board.
        seeds: u32,
        /// Boards in the layer.
        boards: u64,
    },
    /// Building the tables would need more memory than the process may use.
    #[error(
        "the tables up to {seeds} seeds on 2x{holes} need about {needed_mb} MB to build, \
         and only {available_mb} MB of memory are available ({limit}): \
         ask for fewer seeds on the board"
    )]
    NotEnoughMemory {
        /// Holes per row.
        holes: u8,
        /// Seeds asked for.
        seeds: u32,
        /// The estimate, in megabytes.
        needed_mb: u64,
        /// The smallest limit, in megabytes.
        available_mb: u64,
        /// Which limit that is.
        limit: MemorySource,
    },
    /// An allocation failed while building (the up-front estimate was not
    /// enough, or another process took the memory meanwhile).
    #[error(
        "out of memory building the layer of {seeds} seeds on 2x{holes}: \
         cannot allocate {bytes} more bytes; ask for fewer seeds on the board"
    )]
    OutOfMemory {
        /// Holes per row.
        holes: u8,
        /// The layer being built.
        seeds: u32,
        /// The allocation that failed.
        bytes: u64,
    },
    /// A table file could not be saved or loaded.
    #[error(transparent)]
    Table(#[from] table::TableError),
    /// No table holds for these rules: the solver plays only with the
    /// capturer taking the last seeds and stalled leftovers going to nobody.
    #[error(
        "no tables exist for {}: tables hold only when the capturer takes the last seeds \
         and the leftovers of a stalled game go to nobody",
        unsupported(*last_four, *leftover)
    )]
    UnsupportedRules {
        /// Who takes the last seeds under the rules asked for.
        last_four: LastFour,
        /// Who takes stalled leftovers under the rules asked for.
        leftover: Leftover,
    },
    /// A layer that the tables asked for need is not in the table directory.
    #[error(
        "table file {path} is missing{}: the tables of Hoyito {variant} on 2x{holes} \
         up to {top} seeds need it; build them with `{rebuild}`",
        and_more(*also_missing)
    )]
    MissingTable {
        /// The first missing file, smallest layer first.
        path: PathBuf,
        /// Which Hoyito.
        variant: Variant,
        /// Holes per row.
        holes: u8,
        /// The top layer asked for.
        top: u32,
        /// How many more of its layers are missing.
        also_missing: usize,
        /// The command that builds every missing layer.
        rebuild: String,
    },
    /// No complete layer of a board is in the table directory.
    #[error(
        "no tables for Hoyito {variant} on 2x{holes} with {seeds} seeds per hole in {}: \
         looked for {looked_for}, each with every smaller layer it needs; \
         build them with `{rebuild}` (a smaller --max-seeds, by steps of 4, \
         builds the endgame only)",
        dir.display()
    )]
    NoTables {
        /// Which Hoyito.
        variant: Variant,
        /// Holes per row.
        holes: u8,
        /// Seeds per hole at the start.
        seeds: u8,
        /// The table directory.
        dir: PathBuf,
        /// The file names looked for, largest layer first.
        looked_for: String,
        /// The command that builds the tables of the whole board.
        rebuild: String,
    },
}

/// The rules of [`SolveError::UnsupportedRules`], in words.
fn unsupported(last_four: LastFour, leftover: Leftover) -> String {
    let last = match last_four {
        LastFour::Capturer => None,
        LastFour::Player(Side::South) => Some("South taking the last seeds"),
        LastFour::Player(Side::North) => Some("North taking the last seeds"),
    };
    let left = match leftover {
        Leftover::None => None,
        Leftover::OwnSide => Some("stalled leftovers going to their row's owner"),
        Leftover::Split => Some("stalled leftovers split"),
    };
    match (last, left) {
        (Some(a), Some(b)) => format!("{a} and {b}"),
        (Some(a), None) | (None, Some(a)) => a.to_string(),
        (None, None) => "these rules".to_string(),
    }
}

/// The other missing layers of [`SolveError::MissingTable`], in words.
fn and_more(also_missing: usize) -> String {
    match also_missing {
        0 => String::new(),
        1 => " (and so is 1 more layer)".to_string(),
        n => format!(" (and so are {n} more layers)"),
    }
}
