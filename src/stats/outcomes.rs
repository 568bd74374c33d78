//! The outcomes counted from one agent's point of view: wins, draws and
//! losses of games (`Wdl`), and the points of seat-swapped pairs
//! (`Pentanomial`: a pair scores 0, 0.5, 1, 1.5 or 2). Plain counts, at the
//! bottom of the statistics: the estimates (Elo, units) and the tallies are
//! built on them.

use std::ops::AddAssign;

use serde::Serialize;

/// Wins, draws and losses from one agent's point of view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points, draws as half points.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The same games from the other side: wins and losses swapped.
    pub fn flipped(self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Counts one game scored 1, 0.5 or 0.
    pub(crate) fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }
}

impl AddAssign for Wdl {
    fn add_assign(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// How many seat-swapped pairs scored 0, 0.5, 1, 1.5 and 2 points for the
/// agent (index = points × 2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Complete pairs counted.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The same pairs from the other agent's side.
    pub fn flipped(self) -> Pentanomial {
        let mut counts = self.0;
        counts.reverse();
        Pentanomial(counts)
    }
}

impl AddAssign for Pentanomial {
    fn add_assign(&mut self, other: Pentanomial) {
        self.0.iter_mut().zip(other.0).for_each(|(a, b)| *a += b);
    }
}
