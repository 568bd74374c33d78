//! `moves.csv`: the whole of every game, so that a game can be seen again,
//! exported or checked without running its agents (impossible for a time
//! budget or an agent in another process).
//!
//! Two columns, `game_id,moves`, one row per game in game-id order, written
//! beside `games.csv` by the same ordered writer. `moves` is the game from the
//! start position, opening included, as space-separated tokens of RULES.md
//! (hole numbers `1..n` of the side to move, or `pass`); its FNV-1a hash is
//! the `moves_hash` column of `games.csv`. No field ever needs quoting, so
//! rows are formatted straight into the chunk's bytes, without the csv crate.

use std::path::Path;

use super::moves_hash::{push_moves_text, MovesHash};
use super::record_lines::{RecordFileError, RecordLines};
use crate::engine::moves::Move;
use crate::records::csv_text::push_decimal;

/// The move records.
pub const MOVES_FILE: &str = "moves.csv";

/// The header line of `moves.csv`, with its newline.
pub const MOVES_HEADER: &str = "game_id,moves\n";

/// A `moves.csv` that cannot be read.
pub type MovesFileError = RecordFileError;

/// Appends the row of one game (`17,3 5 pass 2` and a newline) to `out`.
pub fn push_moves_row(out: &mut Vec<u8>, game_id: u64, moves: &[Move]) {
    push_decimal(out, game_id);
    out.push(b',');
    push_moves_text(out, moves);
    out.push(b'\n');
}

/// One row of `moves.csv`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MovesRow {
    /// The game.
    pub game_id: u64,
    /// Its moves from the start position, opening included.
    pub moves: Vec<Move>,
}

impl MovesRow {
    /// Reads a row (without its newline) into `self`, reusing its move list;
    /// the error says what is wrong.
    pub fn parse_into(&mut self, line: &str) -> Result<(), String> {
        let (id, moves) = line
            .split_once(',')
            .ok_or_else(|| "expected `game_id,moves`".to_string())?;
        self.game_id = id
            .parse()
            .map_err(|_| format!("column `game_id`: {id:?} is not a game id"))?;
        self.moves.clear();
        if !moves.is_empty() {
            for token in moves.split(' ') {
                let mv = token
                    .parse()
                    .map_err(|err| format!("column `moves`: {err}"))?;
                self.moves.push(mv);
            }
        }
        Ok(())
    }

    /// The text of the `moves` column.
    pub fn moves_text(&self) -> String {
        let mut out = Vec::new();
        push_moves_text(&mut out, &self.moves);
        String::from_utf8(out).expect("move tokens are ASCII")
    }

    /// The hash of the moves, as in the `moves_hash` column of `games.csv`.
    pub fn hash(&self) -> MovesHash {
        MovesHash::of_moves(&self.moves)
    }
}

/// Reads a `moves.csv` row by row, holding one row at a time, checking the
/// header and that game ids increase.
#[derive(Debug)]
pub struct MovesReader {
    lines: RecordLines,
}

impl MovesReader {
    /// Opens `path` and checks its header.
    pub fn open(path: &Path) -> Result<MovesReader, MovesFileError> {
        let lines = RecordLines::open(
            path,
            MOVES_HEADER.trim_end(),
            "not the moves.csv header `game_id,moves`",
        )?;
        Ok(MovesReader { lines })
    }

    /// Reads the next row into `row`; `false` at the end of the file. A last
    /// line without its newline (a run killed mid-write) is not a row.
    pub fn next_row(&mut self, row: &mut MovesRow) -> Result<bool, MovesFileError> {
        if !self.lines.read_line()? {
            return Ok(false);
        }
        row.parse_into(self.lines.text())
            .map_err(|message| self.lines.error(message))?;
        self.lines.follow(row.game_id)?;
        Ok(true)
    }

    /// The line of the row read last (the header is line 1).
    pub fn line(&self) -> u64 {
        self.lines.line()
    }

    /// An error at the current line.
    pub fn error(&self, message: String) -> MovesFileError {
        self.lines.error(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_written_and_read_back() {
        let mut out = Vec::new();
        push_moves_row(&mut out, 0, &[Move::Sow(2), Move::Pass, Move::Sow(15)]);
        push_moves_row(&mut out, 1_234_567_890_123, &[]);
        push_moves_row(&mut out, u64::MAX, &[Move::Sow(9)]);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "0,3 pass 16\n1234567890123,\n18446744073709551615,10\n"
        );
        let mut row = MovesRow::default();
        let lines: Vec<&str> = text.lines().collect();
        row.parse_into(lines[0]).unwrap();
        assert_eq!(row.game_id, 0);
        assert_eq!(row.moves, [Move::Sow(2), Move::Pass, Move::Sow(15)]);
        assert_eq!(row.moves_text(), "3 pass 16");
        row.parse_into(lines[1]).unwrap();
        assert_eq!((row.game_id, row.moves.len()), (1_234_567_890_123, 0));
        assert_eq!(row.hash(), MovesHash::of_text(b""));
    }

    #[test]
    fn bad_rows_name_the_column() {
        let mut row = MovesRow::default();
        let err = row.parse_into("x,3").unwrap_err();
        assert!(err.contains("game_id"), "{err}");
        let err = row.parse_into("3,3 17").unwrap_err();
        assert!(err.contains("moves") && err.contains("\"17\""), "{err}");
        let err = row.parse_into("3,3  4").unwrap_err();
        assert!(err.contains("moves"), "{err}");
        assert!(row.parse_into("3").is_err());
    }

    #[test]
    fn the_reader_checks_header_and_order_and_skips_a_torn_line() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(MOVES_FILE);
        std::fs::write(&path, format!("{MOVES_HEADER}0,1 2\n1,3\n2,4 5")).unwrap();
        let mut reader = MovesReader::open(&path).unwrap();
        let mut row = MovesRow::default();
        let mut ids = Vec::new();
        while reader.next_row(&mut row).unwrap() {
            ids.push(row.game_id);
        }
        assert_eq!(ids, [0, 1]);
        std::fs::write(&path, format!("{MOVES_HEADER}1,1\n0,2\n")).unwrap();
        let mut reader = MovesReader::open(&path).unwrap();
        assert!(reader.next_row(&mut row).unwrap());
        let err = reader.next_row(&mut row).unwrap_err().to_string();
        assert!(
            err.ends_with("line 3: game 0 comes after game 1: rows must be in game-id order"),
            "{err}"
        );
        std::fs::write(&path, "game_id,moves,x\n").unwrap();
        let err = MovesReader::open(&path).unwrap_err().to_string();
        assert!(err.contains("line 1: not the moves.csv header"), "{err}");
    }
}
