//! Moves as players name them, and a fixed-size list of them.
//!
//! A move names the hole it empties by its number in the mover's own row
//! (`1..n` on the wire, `0..n` inside), or is a pass. Keeping the row-relative
//! number means a move means the same thing for either player.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::rules::MAX_HOLES;

/// One ply.
///
/// Read and written as players name moves: the hole number `1..n` in the
/// mover's own row, or `pass`; stored 0-based in [`Move::Sow`]:
///
/// ```
/// use hoyito::{Move, ParseMoveError};
///
/// let third: Move = "3".parse()?;
/// assert_eq!(third, Move::Sow(2));
/// assert_eq!(third.to_string(), "3");
/// assert_eq!("pass".parse::<Move>()?, Move::Pass);
///
/// // Hole numbers start at 1, and only digits are read.
/// assert_eq!("0".parse::<Move>(), Err(ParseMoveError("0".into())));
/// assert_eq!("+3".parse::<Move>(), Err(ParseMoveError("+3".into())));
/// # Ok::<(), ParseMoveError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Move {
    /// Empty the mover's hole with this 0-based number in their own row and sow it.
    Sow(u8),
    /// Pass: allowed only when the mover has no legal sowing.
    Pass,
}

impl Move {
    /// The move that empties the mover's hole `number` (1-based, as written).
    ///
    /// ```
    /// use hoyito::Move;
    ///
    /// assert_eq!(Move::hole(1), Some(Move::Sow(0)));
    /// assert_eq!(Move::hole(16).map(|mv| mv.to_string()), Some("16".to_string()));
    /// assert_eq!(Move::hole(0), None);
    /// assert_eq!(Move::hole(17), None);
    /// ```
    pub fn hole(number: u8) -> Option<Move> {
        (1..=MAX_HOLES)
            .contains(&number)
            .then(|| Move::Sow(number - 1))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Sow(i) => write!(f, "{}", i + 1),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl From<Move> for String {
    fn from(mv: Move) -> String {
        mv.to_string()
    }
}

impl TryFrom<String> for Move {
    type Error = ParseMoveError;
    fn try_from(s: String) -> Result<Move, ParseMoveError> {
        s.parse()
    }
}

/// A move that is neither a hole number nor `pass`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cannot read move {0:?}: expected a hole number 1..16 or \"pass\"")]
pub struct ParseMoveError(pub String);

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        // Digits only, as counts are read (notation.rs): `+3` is refused like `+4`.
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseMoveError(s.to_string()));
        }
        s.parse::<u8>()
            .ok()
            .and_then(Move::hole)
            .ok_or_else(|| ParseMoveError(s.to_string()))
    }
}

/// Up to 16 moves, stored inline: move generation never allocates.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct MoveList {
    moves: [Move; MAX_HOLES as usize],
    len: u8,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::Pass; MAX_HOLES as usize],
            len: 0,
        }
    }

    /// Appends a move; the list holds at most 16 (one per hole of a row).
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len as usize] = mv;
        self.len += 1;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there is no move (a finished game).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_read_and_print_one_based() {
        assert_eq!("3".parse::<Move>(), Ok(Move::Sow(2)));
        assert_eq!("pass".parse::<Move>(), Ok(Move::Pass));
        assert_eq!(Move::Sow(2).to_string(), "3");
        assert!("0".parse::<Move>().is_err());
        assert!("17".parse::<Move>().is_err());
        assert!("x".parse::<Move>().is_err());
    }

    /// A signed move (`+3`) is refused as a signed count (`+4`) is: both
    /// read digits only.
    #[test]
    fn signed_moves_are_refused_like_signed_counts() {
        for text in ["+3", "-3", " 3", "3 ", "", "0x3"] {
            assert_eq!(text.parse::<Move>(), Err(ParseMoveError(text.into())));
        }
        assert!("+4,4/4,4 S 0-0"
            .parse::<crate::engine::position::Position>()
            .is_err());
        assert_eq!("03".parse::<Move>(), Ok(Move::Sow(2)));
    }

    #[test]
    fn list_keeps_order() {
        let mut l = MoveList::new();
        assert!(l.is_empty());
        l.push(Move::Sow(4));
        l.push(Move::Pass);
        assert_eq!(l.as_slice(), &[Move::Sow(4), Move::Pass]);
        assert_eq!(l.len(), 2);
    }
}
