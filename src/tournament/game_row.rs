//! One finished game as a row of `games.csv`: the unit that statistics, charts
//! and resumption are computed from. Everything in a report is a pure function
//! of these rows.

use serde::{Deserialize, Serialize};

use crate::game::{Ending, Outcome};
use crate::rules::Variant;
use crate::side::Side;

use super::moves_hash::MovesHash;

/// Who won a game, as written in records: `S`, `N` or `draw`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Winner {
    /// South (the first player's seat in a standard game) won.
    S,
    /// North won.
    N,
    /// Equal captures.
    #[serde(rename = "draw")]
    Draw,
}

impl Winner {
    /// The winner of an outcome.
    pub fn of(outcome: &Outcome) -> Winner {
        match outcome.winner {
            Some(Side::South) => Winner::S,
            Some(Side::North) => Winner::N,
            None => Winner::Draw,
        }
    }

    /// South's score from this result: 1, 0.5 or 0.
    pub fn south_score(self) -> f64 {
        match self {
            Winner::S => 1.0,
            Winner::Draw => 0.5,
            Winner::N => 0.0,
        }
    }
}

/// One row of `games.csv`. Column order is the field order; no timing columns,
/// so that the file is the same byte for byte whatever the machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow {
    /// Position of the game in the experiment's schedule, from 0.
    pub game_id: u64,
    /// The seat-swapped pair the game belongs to (`game_id / 2`).
    pub pair_id: u64,
    /// Which Hoyito.
    pub variant: Variant,
    /// Holes per row.
    pub holes: u8,
    /// Seeds per hole at the start.
    pub seeds: u8,
    /// Roster name of the agent in South's seat (moves first).
    pub south: String,
    /// Roster name of the agent in North's seat.
    pub north: String,
    /// The seed of this game's generator.
    pub game_seed: u64,
    /// The random opening moves, space-separated (`3 5 pass`), empty if none.
    pub opening: String,
    /// `S`, `N` or `draw`.
    pub winner: Winner,
    /// South's final seeds.
    pub south_captures: u8,
    /// North's final seeds.
    pub north_captures: u8,
    /// Plies played, opening included.
    pub plies: u32,
    /// How the game ended.
    pub ending: Ending,
    /// The FNV-1a hash of the whole move sequence from the start position
    /// (the text of the game's `moves.csv` field), as 16 hex digits: equal
    /// games have equal hashes.
    pub moves_hash: MovesHash,
}
