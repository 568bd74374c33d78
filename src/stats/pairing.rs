//! Results of each pairing of two different agents: wins, draws and losses,
//! the score with its Wilson interval, and the pentanomial counts of the
//! seat-swapped pairs.
//!
//! Games come in pairs that share an opening with the seats swapped, so the
//! pair, not the game, is the independent trial; the pentanomial counts (the
//! pair scores 0, 0.5, 1, 1.5 and 2) are what a paired test or SPRT needs.
//! Source: the pentanomial game-pair statistics of fastchess
//! (`Disservin/fastchess`, `types/stats.hpp`: `penta_LL` .. `penta_WW`) and
//! Fishtest, with WL and DD merged as both score one point.

use std::collections::BTreeMap;
use std::ops::AddAssign;

use serde::Serialize;

use super::tally::{PairCounts, SettingTally};
use super::wilson::{wilson, Proportion, Z95};

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

/// One pairing of two different agents on one setting.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairingStats {
    /// The agent whose point of view the figures take (listed first).
    pub agent: String,
    /// Its opponent.
    pub opponent: String,
    /// The agent's wins, draws and losses.
    pub wdl: Wdl,
    /// The agent's score (draws as half points) with its 95% Wilson interval.
    pub score: Proportion,
    /// Pair scores of the complete seat-swapped pairs.
    pub pentanomial: Pentanomial,
    /// Games whose pair partner is missing or not seat-swapped; counted in
    /// `wdl` but not in `pentanomial`.
    pub unpaired_games: u64,
}

/// An agent's sort key: its position in the listed order, then its name.
pub(crate) type AgentKey<'a> = (usize, &'a str);

/// The position of an agent in the listed order; unlisted agents come after,
/// by name.
pub(crate) fn rank<'a>(agent_order: &[String], name: &'a str) -> AgentKey<'a> {
    let index = agent_order.iter().position(|a| a == name);
    (index.unwrap_or(agent_order.len()), name)
}

/// Statistics of every pairing of two different agents on one setting, each
/// from the point of view of the agent listed first in `agent_order`,
/// pairings in that order. Self-play is left to the first-player statistics:
/// an agent against itself always scores 0.5.
pub fn pairings(games: &SettingTally<'_>, agent_order: &[String]) -> Vec<PairingStats> {
    let mut by_pairing: BTreeMap<(AgentKey, AgentKey), (Wdl, PairCounts)> = BTreeMap::new();
    for (south, north, wdl) in games.seats().filter(|(s, n, _)| s != n) {
        let (a, b) = (
            rank(agent_order, games.name(south)),
            rank(agent_order, games.name(north)),
        );
        // South's results are the first agent's when it sat South.
        let (key, wdl) = if a <= b {
            ((a, b), wdl)
        } else {
            ((b, a), wdl.flipped())
        };
        by_pairing.entry(key).or_default().0 += wdl;
    }
    for (first, second, counts) in games.pairs() {
        let (a, b) = (
            rank(agent_order, games.name(first)),
            rank(agent_order, games.name(second)),
        );
        let (key, pentanomial) = if a <= b {
            ((a, b), counts.pentanomial)
        } else {
            ((b, a), counts.pentanomial.flipped())
        };
        let entry = &mut by_pairing.entry(key).or_default().1;
        entry.pentanomial += pentanomial;
        entry.unpaired += counts.unpaired;
    }
    by_pairing
        .into_iter()
        .map(|(((_, agent), (_, opponent)), (wdl, pairs))| PairingStats {
            agent: agent.to_string(),
            opponent: opponent.to_string(),
            score: wilson(wdl.points(), wdl.games(), Z95),
            wdl,
            pentanomial: pairs.pentanomial,
            unpaired_games: pairs.unpaired,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::Winner;

    #[test]
    fn wdl_counts_scores() {
        let mut wdl = Wdl::default();
        for w in [Winner::S, Winner::Draw, Winner::N, Winner::S] {
            wdl.add(w.south_score());
        }
        assert_eq!(
            wdl,
            Wdl {
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(wdl.points(), 2.5);
    }
}
