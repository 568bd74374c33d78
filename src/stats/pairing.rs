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

use serde::Serialize;

use crate::tournament::GameRow;

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

    /// Counts one game scored 1, 0.5 or 0.
    fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
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

/// The score of `agent` in a game it played.
fn score_of(row: &GameRow, agent: &str) -> f64 {
    let south = row.winner.south_score();
    if row.south == agent {
        south
    } else {
        1.0 - south
    }
}

/// Whether two rows are the two games of one seat-swapped pair.
fn swapped(a: &GameRow, b: &GameRow) -> bool {
    a.south == b.north && a.north == b.south
}

/// An agent's sort key: its position in the listed order, then its name.
pub(crate) type AgentKey<'a> = (usize, &'a str);

/// Games grouped by the two agents that played them, first agent first.
pub(crate) type ByAgents<'a> = BTreeMap<(AgentKey<'a>, AgentKey<'a>), Vec<&'a GameRow>>;

/// The position of an agent in the listed order; unlisted agents come after,
/// by name.
pub(crate) fn rank<'a>(agent_order: &[String], name: &'a str) -> AgentKey<'a> {
    let index = agent_order.iter().position(|a| a == name);
    (index.unwrap_or(agent_order.len()), name)
}

/// Statistics of every pairing of two different agents in `rows` (one
/// setting), each from the point of view of the agent listed first in
/// `agent_order`, pairings in that order. Self-play is left to the
/// first-player statistics: an agent against itself always scores 0.5.
pub fn pairings(rows: &[&GameRow], agent_order: &[String]) -> Vec<PairingStats> {
    let mut by_pairing = ByAgents::new();
    for row in rows.iter().copied().filter(|r| r.south != r.north) {
        let (a, b) = (rank(agent_order, &row.south), rank(agent_order, &row.north));
        let key = if a <= b { (a, b) } else { (b, a) };
        by_pairing.entry(key).or_default().push(row);
    }
    by_pairing
        .into_iter()
        .map(|(((_, agent), (_, opponent)), games)| pairing(agent, opponent, &games))
        .collect()
}

fn pairing(agent: &str, opponent: &str, games: &[&GameRow]) -> PairingStats {
    let mut wdl = Wdl::default();
    let mut by_pair: BTreeMap<u64, Vec<&GameRow>> = BTreeMap::new();
    for row in games {
        wdl.add(score_of(row, agent));
        by_pair.entry(row.pair_id).or_default().push(row);
    }
    let mut pentanomial = Pentanomial::default();
    let mut unpaired_games = 0;
    for pair in by_pair.values() {
        match pair.as_slice() {
            [a, b] if swapped(a, b) => {
                let points = score_of(a, agent) + score_of(b, agent);
                pentanomial.0[(points * 2.0).round() as usize] += 1;
            }
            other => unpaired_games += other.len() as u64,
        }
    }
    PairingStats {
        agent: agent.to_string(),
        opponent: opponent.to_string(),
        score: wilson(wdl.points(), wdl.games(), Z95),
        wdl,
        pentanomial,
        unpaired_games,
    }
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
