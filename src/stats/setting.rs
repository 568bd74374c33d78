//! The unit that statistics are computed over: one variant on one board
//! (holes per row and seeds per hole). Games on different boards are never
//! pooled, because the board changes who is favoured.

use std::fmt;

use serde::Serialize;

use crate::engine::rules::Variant;
use crate::records::game_row::GameRow;

/// A variant on a board: the key every statistic is grouped by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Setting {
    /// Which Hoyito.
    pub variant: Variant,
    /// Holes per row.
    pub holes: u8,
    /// Seeds per hole at the start.
    pub seeds: u8,
}

impl Setting {
    /// The setting a game was played in.
    pub fn of(row: &GameRow) -> Setting {
        Setting {
            variant: row.variant,
            holes: row.holes,
            seeds: row.seeds,
        }
    }

    /// The board alone, as `2x6 s4` (two rows of 6 holes, 4 seeds per hole).
    pub fn board(&self) -> String {
        format!("2x{} s{}", self.holes, self.seeds)
    }
}

impl fmt::Display for Setting {
    /// `ii 2x6 s4`: Hoyito II, two rows of 6 holes, 4 seeds per hole.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.variant, self.board())
    }
}
