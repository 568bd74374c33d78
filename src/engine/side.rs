//! The two players and values kept once per player.
//!
//! Hoyito has no colours, only seats: South (player 0) owns the near row and
//! North (player 1) the far row. `BySide<T>` keeps one value per seat so that
//! code never indexes a bare `[T; 2]` with a bare integer.

use std::fmt;
use std::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

/// A seat at the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    /// Player 0: owns holes `0..n`, moves first in a standard game.
    South,
    /// Player 1: owns holes `n..2n`.
    North,
}

impl Side {
    /// Both sides, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// The other seat.
    #[inline]
    pub fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The letter used in the position notation and in game records.
    pub fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }

    /// Reads the notation letter (`S` or `N`).
    pub fn from_letter(s: &str) -> Option<Side> {
        match s {
            "S" => Some(Side::South),
            "N" => Some(Side::North),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "South",
            Side::North => "North",
        })
    }
}

/// One value per side, indexed by [`Side`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct BySide<T> {
    /// South's value.
    pub south: T,
    /// North's value.
    pub north: T,
}

impl<T> BySide<T> {
    /// Builds from South's and North's values.
    pub const fn new(south: T, north: T) -> Self {
        BySide { south, north }
    }

    /// Applies `f` to both values.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> BySide<U> {
        BySide {
            south: f(self.south),
            north: f(self.north),
        }
    }
}

impl<T> Index<Side> for BySide<T> {
    type Output = T;
    #[inline]
    fn index(&self, side: Side) -> &T {
        match side {
            Side::South => &self.south,
            Side::North => &self.north,
        }
    }
}

impl<T> IndexMut<Side> for BySide<T> {
    #[inline]
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::South => &mut self.south,
            Side::North => &mut self.north,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_flips_and_indexes_by_side() {
        assert_eq!(Side::South.opponent(), Side::North);
        assert_eq!(Side::North.opponent(), Side::South);
        let mut v = BySide::new(1, 2);
        v[Side::North] += 5;
        assert_eq!((v[Side::South], v[Side::North]), (1, 7));
        assert_eq!(Side::from_letter("N"), Some(Side::North));
        assert_eq!(Side::from_letter("x"), None);
    }
}
