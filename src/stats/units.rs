//! The independent units of a set of games, counted by score: complete
//! seat-swapped pairs by their total (the pentanomial counts) and games
//! without a partner by theirs (trinomial). Both games of a pair share an
//! opening, so the pair, not the game, is what is sampled independently;
//! every pair-based figure (score, Elo, first-player advantage) is a function
//! of these counts.

use serde::Serialize;

use super::cluster::ClusteredMean;
use super::elo::ScoreEstimate;
use super::outcomes::{Pentanomial, Wdl};

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

impl Units {
    /// The headline estimate of a pairing from its units, from the point of
    /// view they are scored for: from the pentanomial counts when a pair is
    /// complete (games without a partner left out), else from the lone
    /// games' trinomial counts; `None` with no units.
    pub fn estimate(&self) -> Option<ScoreEstimate> {
        if self.pairs.pairs() > 0 {
            return ScoreEstimate::from_pentanomial(&self.pairs);
        }
        let [losses, draws, wins] = self.lone.0;
        ScoreEstimate::from_wdl(&Wdl {
            wins,
            draws,
            losses,
        })
    }

    /// The mean score per game over every unit, pairs and lone games alike,
    /// each unit one cluster, with its cluster-robust 95% interval.
    pub fn clustered(&self) -> ClusteredMean {
        let mut mean = ClusteredMean::new();
        let pairs = self.pairs.0.iter().map(|&n| (n, 2));
        let lone = self.lone.0.iter().map(|&n| (n, 1));
        for (half_points, (count, games)) in (0u64..).zip(pairs).chain((0u64..).zip(lone)) {
            for _ in 0..count {
                mean.add_cluster(half_points, games);
            }
        }
        mean
    }
}
