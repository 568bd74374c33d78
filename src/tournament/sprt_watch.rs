//! An experiment's SPRT, followed game by game in game-id order.
//!
//! The test is decided on complete seat-swapped pairs, in id order, so the
//! game after which a run stops depends on the games alone, never on the
//! number of threads or on which finished first: the runner shows every row
//! to this tracker before writing it, and stops after the pair that crosses a
//! bound. The same tracker, fed the rows of `games.csv`, restores the test on
//! resume and states its result in the report.
//!
//! Every complete pair counts, repeated ones included, as in fastchess and
//! Fishtest: the test is about the agents' results under the experiment's
//! openings, and a repeated pair is a result like any other. (The report's
//! pair-based figures, by contrast, count distinct pairs once.)

use crate::stats::outcomes::Pentanomial;
use crate::stats::sprt::{Sprt, SprtDecision, SprtStatus};

use crate::records::game_row::{GameRow, Winner};

/// The state of an SPRT over the games seen so far.
#[derive(Debug, Clone)]
pub struct SprtTracker {
    sprt: Sprt,
    /// The agent whose results the test measures (H1: it is stronger).
    agent: String,
    /// The pair's first game: (pair id, the agent's half points).
    pending: Option<(u64, usize)>,
    pairs: Pentanomial,
    games: u64,
    /// The games counted when the test was decided.
    decided_at: Option<u64>,
}

impl SprtTracker {
    /// A test of `agent` (the first agent listed) against its opponent.
    pub fn new(sprt: Sprt, agent: &str) -> SprtTracker {
        SprtTracker {
            sprt,
            agent: agent.to_string(),
            pending: None,
            pairs: Pentanomial::default(),
            games: 0,
            decided_at: None,
        }
    }

    /// Counts one game (games must come in id order) and says whether the
    /// test is decided after it. Games after the decision are not counted.
    pub fn add(&mut self, row: &GameRow) -> SprtDecision {
        if self.decided_at.is_some() {
            return self.status().decision;
        }
        self.games += 1;
        let south_half_points = match row.winner {
            Winner::S => 2,
            Winner::Draw => 1,
            Winner::N => 0,
        };
        let half_points = if row.south == self.agent {
            south_half_points
        } else {
            2 - south_half_points
        };
        match self.pending.take() {
            Some((pair_id, first)) if pair_id == row.pair_id => {
                self.pairs.0[first + half_points] += 1;
                let decision = self.status().decision;
                if decision != SprtDecision::Continue {
                    self.decided_at = Some(self.games);
                }
                decision
            }
            _ => {
                self.pending = Some((row.pair_id, half_points));
                SprtDecision::Continue
            }
        }
    }

    /// The test on the pairs counted.
    pub fn status(&self) -> SprtStatus {
        self.sprt.status(&self.pairs)
    }

    /// The pair counts of the test, from the tested agent's side.
    pub fn pairs(&self) -> Pentanomial {
        self.pairs
    }

    /// Games counted (the games used, once decided).
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Whether a bound was crossed.
    pub fn is_decided(&self) -> bool {
        self.decided_at.is_some()
    }

    /// The agent the test measures.
    pub fn agent(&self) -> &str {
        &self.agent
    }

    /// The checked test.
    pub fn sprt(&self) -> &Sprt {
        &self.sprt
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::sprt::{SprtConfig, SprtModel};
    use crate::tournament::play_scheduled::empty_row;

    fn row(id: u64, south: &str, north: &str, winner: Winner) -> GameRow {
        let mut row = empty_row();
        row.game_id = id;
        row.pair_id = id / 2;
        row.south = south.to_string();
        row.north = north.to_string();
        row.winner = winner;
        row
    }

    fn sprt() -> Sprt {
        Sprt::new(SprtConfig {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Logistic,
        })
        .expect("a valid test")
    }

    #[test]
    fn pairs_are_scored_from_the_tested_agents_side() {
        let mut tracker = SprtTracker::new(sprt(), "a");
        // Pair 0: a wins as South, draws as North: 1.5 points.
        tracker.add(&row(0, "a", "b", Winner::S));
        tracker.add(&row(1, "b", "a", Winner::Draw));
        // Pair 1: a loses as South, wins as North: 1 point.
        tracker.add(&row(2, "a", "b", Winner::N));
        tracker.add(&row(3, "b", "a", Winner::N));
        // Pair 2: only its first game so far.
        tracker.add(&row(4, "a", "b", Winner::S));
        assert_eq!(tracker.pairs(), Pentanomial([0, 0, 1, 1, 0]));
        assert_eq!(tracker.games(), 5);
        assert_eq!(tracker.status().pairs, 2);
    }

    #[test]
    fn decides_on_a_complete_pair_and_counts_nothing_after() {
        let mut tracker = SprtTracker::new(sprt(), "a");
        let mut decided = None;
        for pair in 0..10_000u64 {
            for seat in 0..2 {
                let id = 2 * pair + seat;
                let (south, north, winner) = if seat == 0 {
                    ("a", "b", Winner::S)
                } else {
                    ("b", "a", Winner::N)
                };
                let decision = tracker.add(&row(id, south, north, winner));
                if decision != SprtDecision::Continue && decided.is_none() {
                    decided = Some((id, decision));
                }
            }
        }
        let (id, decision) = decided.expect("a sweep of wins decides");
        assert_eq!(decision, SprtDecision::H1);
        assert_eq!(id % 2, 1, "decided on the second game of a pair");
        assert_eq!(tracker.games(), id + 1);
        assert!(tracker.is_decided());
    }
}
