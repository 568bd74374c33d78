//! One finished game as a row of `games.csv`: the unit that statistics, charts
//! and resumption are computed from. Everything in a report is a pure function
//! of these rows.

use serde::{Deserialize, Serialize};

use crate::engine::game::{Ending, Outcome};
use crate::engine::rules::Variant;
use crate::engine::side::Side;
use crate::records::csv_text::{push_decimal, push_field};

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

    /// As written in records: `S`, `N` or `draw`.
    pub fn name(self) -> &'static str {
        match self {
            Winner::S => "S",
            Winner::N => "N",
            Winner::Draw => "draw",
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

impl GameRow {
    /// Whether the rules ended the game inside its random opening: no agent
    /// moved in it, so it says nothing about the agents, and every agent
    /// statistic leaves it out (and says how many it left out). A forfeit
    /// right after the opening is the agent's act, not the opening's.
    pub fn ended_in_opening(&self) -> bool {
        self.ending.forfeit_reason().is_none()
            && !self.opening.is_empty()
            && self.plies as usize <= self.opening.split(' ').count()
    }

    /// Appends the row, with its newline, as the `csv` crate serialises it
    /// (the same bytes, tested), without serde: the harness writes one per
    /// game, and a random game of Hoyito I lasts a few microseconds.
    pub fn push_csv(&self, out: &mut Vec<u8>) {
        push_decimal(out, self.game_id);
        out.push(b',');
        push_decimal(out, self.pair_id);
        out.push(b',');
        out.extend_from_slice(self.variant.name().as_bytes());
        out.push(b',');
        push_decimal(out, u64::from(self.holes));
        out.push(b',');
        push_decimal(out, u64::from(self.seeds));
        out.push(b',');
        push_field(out, self.south.as_bytes());
        out.push(b',');
        push_field(out, self.north.as_bytes());
        out.push(b',');
        push_decimal(out, self.game_seed);
        out.push(b',');
        push_field(out, self.opening.as_bytes());
        out.push(b',');
        out.extend_from_slice(self.winner.name().as_bytes());
        out.push(b',');
        push_decimal(out, u64::from(self.south_captures));
        out.push(b',');
        push_decimal(out, u64::from(self.north_captures));
        out.push(b',');
        push_decimal(out, u64::from(self.plies));
        out.push(b',');
        out.extend_from_slice(self.ending.name().as_bytes());
        out.push(b',');
        self.moves_hash.push_hex(out);
        out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::Ending;

    fn serde_csv(row: &GameRow) -> Vec<u8> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        w.serialize(row).unwrap();
        w.into_inner().unwrap()
    }

    #[test]
    fn a_row_written_by_hand_is_the_row_serde_writes() {
        let endings = [
            Ending::Normal,
            Ending::Repetition,
            Ending::NoCaptureLimit,
            Ending::ForfeitCrash,
            Ending::ForfeitTimeout,
            Ending::ForfeitProtocol,
            Ending::ForfeitIllegal,
        ];
        let names = ["random", "a,b", "q\"uote", "", "new\nline", "été"];
        let openings = ["", "3 5 pass", "12"];
        let mut k = 0u64;
        for variant in Variant::ALL {
            for winner in [Winner::S, Winner::N, Winner::Draw] {
                for ending in endings {
                    for opening in openings {
                        k += 1;
                        let row = GameRow {
                            game_id: k * 7919,
                            pair_id: k,
                            variant,
                            holes: (k % 16) as u8,
                            seeds: (k % 9) as u8,
                            south: names[k as usize % names.len()].to_string(),
                            north: names[(k as usize / 3) % names.len()].to_string(),
                            game_seed: u64::MAX - k * 1_000_003,
                            opening: opening.to_string(),
                            winner,
                            south_captures: (k % 97) as u8,
                            north_captures: (k % 89) as u8,
                            plies: (k * 37) as u32,
                            ending,
                            moves_hash: MovesHash(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
                        };
                        let mut ours = Vec::new();
                        row.push_csv(&mut ours);
                        assert_eq!(
                            String::from_utf8_lossy(&ours),
                            String::from_utf8_lossy(&serde_csv(&row))
                        );
                    }
                }
            }
        }
    }
}
