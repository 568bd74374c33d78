//! The one-line position notation of RULES.md, read and written.
//!
//! `<South hole 1..n>/<North hole 1..n> <S|N> <South captured>-<North captured>`,
//! e.g. the 2x6 start `4,4,4,4,4,4/4,4,4,4,4,4 S 0-0`. Reading checks everything
//! a person can get wrong and names it; writing is the exact inverse.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::engine::position::Position;
use crate::engine::rules::{MAX_HOLES, MAX_TOTAL_SEEDS, MIN_HOLES};
use crate::engine::side::{BySide, Side};

/// What is wrong with a position string.
///
/// Each mistake is named, with what was read:
///
/// ```
/// use hoyito::{ParsePositionError, Position};
///
/// let err = |text: &str| text.parse::<Position>().unwrap_err();
/// assert_eq!(
///     err("4,4/4,4,4 S 0-0"),
///     ParsePositionError::RowLengths { south: 2, north: 3 }
/// );
/// assert_eq!(err("4,4/4,4 X 0-0"), ParsePositionError::Side("X".into()));
/// assert_eq!(err("4,4/4,4 S"), ParsePositionError::Fields(2));
/// assert_eq!(
///     err("4,4/4,4 S 0").to_string(),
///     "captures \"0\" must be written <south>-<north>, e.g. 0-0"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParsePositionError {
    /// Not three space-separated fields.
    #[error("expected \"<south holes>/<north holes> <S|N> <south>-<north>\", got {0} field(s)")]
    Fields(usize),
    /// The board field has no single `/`.
    #[error("the board {0:?} must be two rows separated by one '/'")]
    Rows(String),
    /// The rows have different lengths.
    #[error("rows of different length: South has {south} holes, North has {north}")]
    RowLengths {
        /// South's row length.
        south: usize,
        /// North's row length.
        north: usize,
    },
    /// Row length outside 2..=16.
    #[error("{0} holes per row is out of range: the engine supports 2 to 16")]
    Holes(usize),
    /// A negative seed count.
    #[error("negative count {0:?} in {1}")]
    Negative(String, &'static str),
    /// Something that is not a number.
    #[error("{0:?} in {1} is not a number of seeds")]
    NotANumber(String, &'static str),
    /// Unknown side to move.
    #[error("unknown side to move {0:?}: expected S or N")]
    Side(String),
    /// Captures not written `<south>-<north>`.
    #[error("captures {0:?} must be written <south>-<north>, e.g. 0-0")]
    Captures(String),
    /// More seeds than the engine holds.
    #[error("the position holds {0} seeds in all: at most 255 are supported")]
    TooManySeeds(u32),
    /// One count larger than the engine holds in all, as written (it may
    /// not fit any integer type, so it is never wrapped into a total).
    #[error("{0} seeds in {1} is too large: at most 255 seeds in all are supported")]
    TooLarge(String, &'static str),
}

fn count(text: &str, what: &'static str) -> Result<u8, ParsePositionError> {
    let text = text.trim();
    if text.starts_with('-') && text.len() > 1 && text[1..].bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParsePositionError::Negative(text.to_string(), what));
    }
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParsePositionError::NotANumber(text.to_string(), what));
    }
    // Any number of digits: a count too large for any integer type is named
    // as written, never wrapped (18446744073709551615 is not reported as
    // 4294967295 seeds in all).
    match text.parse::<u32>() {
        Ok(v) if v <= MAX_TOTAL_SEEDS => Ok(v as u8),
        _ => Err(ParsePositionError::TooLarge(
            text.trim_start_matches('0').to_string(),
            what,
        )),
    }
}

fn row(text: &str, what: &'static str) -> Result<Vec<u8>, ParsePositionError> {
    text.split(',').map(|c| count(c, what)).collect()
}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        let [board, side, captures] = fields[..] else {
            return Err(ParsePositionError::Fields(fields.len()));
        };
        let Some((south, north)) = board.split_once('/') else {
            return Err(ParsePositionError::Rows(board.to_string()));
        };
        if north.contains('/') {
            return Err(ParsePositionError::Rows(board.to_string()));
        }
        let south = row(south, "South's row")?;
        let north = row(north, "North's row")?;
        if south.len() != north.len() {
            return Err(ParsePositionError::RowLengths {
                south: south.len(),
                north: north.len(),
            });
        }
        let holes = south.len();
        if !(MIN_HOLES as usize..=MAX_HOLES as usize).contains(&holes) {
            return Err(ParsePositionError::Holes(holes));
        }
        let side =
            Side::from_letter(side).ok_or_else(|| ParsePositionError::Side(side.to_string()))?;
        let (cs, cn) = captures
            .split_once('-')
            .filter(|(a, b)| !a.is_empty() && !b.is_empty())
            .ok_or_else(|| ParsePositionError::Captures(captures.to_string()))?;
        let captures = BySide::new(count(cs, "the captures")?, count(cn, "the captures")?);
        let total: u32 = south.iter().chain(&north).map(|&c| c as u32).sum::<u32>()
            + captures.south as u32
            + captures.north as u32;
        if total > MAX_TOTAL_SEEDS {
            return Err(ParsePositionError::TooManySeeds(total));
        }
        let mut b = [0u8; 32];
        b[..holes].copy_from_slice(&south);
        b[holes..2 * holes].copy_from_slice(&north);
        Ok(Position {
            board: b,
            holes: holes as u8,
            side,
            captures,
        })
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (side, sep) in [(Side::South, "/"), (Side::North, " ")] {
            for (i, c) in self.row(side).iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{c}")?;
            }
            f.write_str(sep)?;
        }
        write!(
            f,
            "{} {}-{}",
            self.side.letter(),
            self.captures.south,
            self.captures.north
        )
    }
}

impl From<Position> for String {
    fn from(pos: Position) -> String {
        pos.to_string()
    }
}

impl TryFrom<String> for Position {
    type Error = ParsePositionError;
    fn try_from(s: String) -> Result<Position, ParsePositionError> {
        s.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let text = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0";
        let p: Position = text.parse().unwrap();
        assert_eq!(p.to_string(), text);
        assert_eq!(p.holes(), 6);
        let q: Position = "0,1,2/3,0,5 N 12-8".parse().unwrap();
        assert_eq!(q.row(Side::North), &[3, 0, 5]);
        assert_eq!(q.side_to_move(), Side::North);
        assert_eq!(q.captures(), BySide::new(12, 8));
        assert_eq!(q.to_string(), "0,1,2/3,0,5 N 12-8");
    }

    #[test]
    fn malformed_positions_name_the_problem() {
        use ParsePositionError as E;
        let err = |s: &str| s.parse::<Position>().unwrap_err();
        assert_eq!(err("4,4/4,4,4 S 0-0"), E::RowLengths { south: 2, north: 3 });
        assert_eq!(
            err("4,x/4,4 S 0-0"),
            E::NotANumber("x".into(), "South's row")
        );
        assert_eq!(
            err("4,-1/4,4 S 0-0"),
            E::Negative("-1".into(), "South's row")
        );
        assert_eq!(err("4/4 S 0-0"), E::Holes(1));
        assert_eq!(
            err("1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 S 0-0"),
            E::Holes(17)
        );
        assert_eq!(err("4,4/4,4 X 0-0"), E::Side("X".into()));
        assert_eq!(err("4,4/4,4 S 0"), E::Captures("0".into()));
        assert_eq!(err("4,4/4,4 S"), E::Fields(2));
        assert_eq!(err("4,4,4,4 S 0-0"), E::Rows("4,4,4,4".into()));
        assert_eq!(
            err("4,4/4,4 S 0--1"),
            E::Negative("-1".into(), "the captures")
        );
        assert_eq!(err("200,200/0,0 S 0-0"), E::TooManySeeds(400));
        assert_eq!(
            err("4,,4/4,4,4 S 0-0"),
            E::NotANumber("".into(), "South's row")
        );
    }

    /// A count beyond 32 bits is named as written, never wrapped to
    /// "4294967295 seeds in all".
    #[test]
    fn a_count_too_large_for_any_integer_is_named_as_written() {
        use ParsePositionError as E;
        let err = |s: &str| s.parse::<Position>().unwrap_err();
        let big = "18446744073709551615";
        assert_eq!(
            err(&format!("4,4/4,4 S {big}-0")),
            E::TooLarge(big.into(), "the captures")
        );
        let text = err(&format!("4,4/4,4 S {big}-0")).to_string();
        assert!(text.contains(big) && !text.contains("4294967295"), "{text}");
        let huge = "9".repeat(40);
        assert_eq!(
            err(&format!("{huge},4/4,4 S 0-0")),
            E::TooLarge(huge, "South's row")
        );
        assert_eq!(
            err("4,4/256,4 S 0-0"),
            E::TooLarge("256".into(), "North's row")
        );
    }
}
