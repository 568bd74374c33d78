//! Results of each pairing of two different agents: the pair-based score,
//! Elo and nElo with their intervals and LOS (the headline), how many games
//! were distinct and how they ended, the score among games that ended
//! normally, and the per-game wins, draws, losses and Wilson interval kept
//! for comparison.
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

use super::elo::ScoreEstimate;
use super::endings::EndingCounts;
use super::outcomes::{Pentanomial, Wdl};
use super::tally::{GroupCounts, SettingTally};
use super::units::Trinomial;
use super::wilson::{wilson, Proportion, Z95};

/// One pairing of two different agents on one setting.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairingStats {
    /// The agent whose point of view the figures take (listed first).
    pub agent: String,
    /// Its opponent.
    pub opponent: String,
    /// How many games were played, were distinct, and how they ended.
    #[serde(flatten)]
    pub games: GroupGames,
    /// The agent's wins, draws and losses over all games.
    pub wdl: Wdl,
    /// The headline: score, Elo, nElo and LOS from the pentanomial counts of
    /// the distinct pairs (the trinomial counts of the distinct games when no
    /// pair is complete).
    pub estimate: Option<ScoreEstimate>,
    /// The agent's score over all games as a proportion of games, with its
    /// per-game 95% Wilson interval (ignores the pairing; for comparison).
    pub score_wilson: Proportion,
    /// Pair scores of the distinct complete seat-swapped pairs.
    pub pentanomial: Pentanomial,
    /// Scores of the distinct games without a partner.
    pub trinomial: Trinomial,
    /// The agent's score among the games that ended normally, with its
    /// pair-clustered 95% interval.
    pub score_normal: Proportion,
}

/// How many games a group played, how many were distinct, how they ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct GroupGames {
    /// Games played, repeats included (not those that ended inside the
    /// opening).
    pub games: u64,
    /// Games that ended inside their random opening, before any agent
    /// moved: left out of every figure.
    pub opening_ended: u64,
    /// Different games (move sequences, with the seat order of the agents).
    pub distinct_games: u64,
    /// Complete seat-swapped pairs, repeats included.
    pub pairs: u64,
    /// Complete pairs that were not a repeat of an earlier pair.
    pub distinct_pairs: u64,
    /// Games whose partner is missing or not seat-swapped.
    pub unpaired_games: u64,
    /// How the games ended.
    pub endings: EndingCounts,
    /// The games behind the figures among games that ended normally: the
    /// distinct games (repeats counted once) that ended normally.
    pub games_normal: u64,
}

impl AddAssign for GroupGames {
    fn add_assign(&mut self, other: GroupGames) {
        self.games += other.games;
        self.opening_ended += other.opening_ended;
        self.distinct_games += other.distinct_games;
        self.pairs += other.pairs;
        self.distinct_pairs += other.distinct_pairs;
        self.unpaired_games += other.unpaired_games;
        self.endings += other.endings;
        self.games_normal += other.games_normal;
    }
}

impl GroupGames {
    /// The counts of one group.
    pub(crate) fn of(group: &GroupCounts) -> GroupGames {
        GroupGames {
            games: group.games,
            opening_ended: group.opening_ended,
            distinct_games: group.distinct_games,
            pairs: group.pairs,
            distinct_pairs: group.distinct_pairs,
            unpaired_games: group.unpaired,
            endings: group.endings,
            games_normal: group.south_normal.games(),
        }
    }

    /// Whether some game was played more than once.
    pub fn repeated(&self) -> bool {
        self.distinct_games < self.games
    }
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
    let mut wdls: BTreeMap<(AgentKey, AgentKey), Wdl> = BTreeMap::new();
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
        *wdls.entry(key).or_default() += wdl;
    }
    let mut out: Vec<((AgentKey, AgentKey), PairingStats)> = games
        .groups()
        .filter(|(first, second, _)| first != second)
        .map(|(first, second, group)| {
            let (a, b) = (
                rank(agent_order, games.name(first)),
                rank(agent_order, games.name(second)),
            );
            let (key, score, score_normal) = if a <= b {
                ((a, b), group.score, group.score_normal)
            } else {
                ((b, a), group.score.flipped(), group.score_normal.flipped())
            };
            let wdl = wdls.get(&key).copied().unwrap_or_default();
            let stats = PairingStats {
                agent: key.0 .1.to_string(),
                opponent: key.1 .1.to_string(),
                games: GroupGames::of(group),
                wdl,
                estimate: score.estimate(),
                score_wilson: wilson(wdl.points(), wdl.games(), Z95),
                pentanomial: score.pairs,
                trinomial: score.lone,
                score_normal: score_normal.clustered().interval(),
            };
            (key, stats)
        })
        .collect();
    out.sort_by(|x, y| x.0.cmp(&y.0));
    out.into_iter().map(|(_, stats)| stats).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::game_row::Winner;

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
