//! The independent units of a set of games, counted by score: complete
//! seat-swapped pairs by their total (the pentanomial counts) and games
//! without a partner by theirs (trinomial). Both games of a pair share an
//! opening, so the pair, not the game, is what is sampled independently;
//! every pair-based figure (score, Elo, first-player advantage) is a function
//! of these counts.

use serde::Serialize;

use super::pairing::Pentanomial;
use super::wilson::{wilson, Proportion, Z95};

/// How many lone games (no partner) scored 0, 1/2 and 1 (index = points × 2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Trinomial(pub [u64; 3]);

impl Trinomial {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The same games from the other side.
    pub fn flipped(self) -> Trinomial {
        let mut counts = self.0;
        counts.reverse();
        Trinomial(counts)
    }
}

/// The independent units of a set of games by score: complete seat-swapped
/// pairs by their total (pentanomial) and lone games by theirs (trinomial).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Units {
    /// Complete pairs that scored 0, 1/2, 1, 3/2 and 2 points.
    pub pairs: Pentanomial,
    /// Games without a partner that scored 0, 1/2 and 1 point.
    pub lone: Trinomial,
}

impl Units {
    /// Games counted: two per pair, one per lone game.
    pub fn games(&self) -> u64 {
        2 * self.pairs.pairs() + self.lone.games()
    }

    /// Points scored, draws as half points.
    pub fn points(&self) -> f64 {
        let half: u64 = (self.pairs.0.iter().enumerate())
            .chain(self.lone.0.iter().enumerate())
            .map(|(k, &n)| k as u64 * n)
            .sum();
        half as f64 / 2.0
    }

    /// The same units from the other side.
    pub fn flipped(self) -> Units {
        Units {
            pairs: self.pairs.flipped(),
            lone: self.lone.flipped(),
        }
    }

    pub(crate) fn add_pair(&mut self, half_points: usize) {
        self.pairs.0[half_points] += 1;
    }

    pub(crate) fn add_lone(&mut self, half_points: usize) {
        self.lone.0[half_points] += 1;
    }

    pub(crate) fn remove_lone(&mut self, half_points: usize) {
        self.lone.0[half_points] -= 1;
    }
}

impl std::ops::AddAssign for Units {
    fn add_assign(&mut self, other: Units) {
        self.pairs += other.pairs;
        self.lone
            .0
            .iter_mut()
            .zip(other.lone.0)
            .for_each(|(a, b)| *a += b);
    }
}

/// Which counts a pairing's headline figures come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// The complete seat-swapped pairs (lone games left out).
    Pentanomial,
    /// The games alone, when no pair is complete.
    Trinomial,
}

/// A pairing's pair-based figures, from the first agent's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PairFigures {
    /// The counts used.
    pub basis: Basis,
    /// The score with its 95% interval.
    pub score: Proportion,
    /// The logistic Elo difference with its 95% interval.
    pub elo: Proportion,
    /// The normalized Elo difference with its 95% interval.
    pub nelo: Proportion,
    /// The likelihood of superiority.
    pub los: f64,
}

/// The headline figures of a pairing from its distinct units: the
/// pentanomial counts when there is a complete pair, else the trinomial.
pub fn pair_figures(units: &Units) -> PairFigures {
    let (basis, games, points) = if units.pairs.pairs() > 0 {
        let only_pairs = Units {
            pairs: units.pairs,
            lone: Trinomial::default(),
        };
        (Basis::Pentanomial, only_pairs.games(), only_pairs.points())
    } else {
        (Basis::Trinomial, units.games(), units.points())
    };
    let score = wilson(points, games, Z95);
    PairFigures {
        basis,
        score,
        elo: score,
        nelo: score,
        los: 0.5,
    }
}

/// The mean score per game over `units`, with a 95% interval that takes the
/// pair as the unit of sampling.
pub fn clustered_mean(units: &Units) -> Proportion {
    wilson(units.points(), units.games(), Z95)
}
