//! How the first player's seat fares: first-player advantage (South's score
//! minus 0.5) with a pair-clustered interval over all games and over the
//! games that ended normally, the per-game Wilson figures kept for comparison,
//! and Ludii's AdvantageP1 and Balance beside them.
//!
//! "First player" means the South seat, which moves first, never a particular
//! agent: in a seat-swapped pair each agent sits there once, so agent strength
//! cancels and what is left is the seat.
//!
//! Ludii's metrics, as in `Ludeme/Ludii`,
//! `Evaluation/src/metrics/single/outcome/AdvantageP1.java` and `Balance.java`:
//! AdvantageP1 is player 1's mean result with draws as partial (half) wins;
//! Balance is 1 minus the largest gap between two players' win rates, draws
//! again as half wins. (Ludii's `Balance` adds the half wins into an `int`
//! array, which drops them; we follow its documented definition.)

use std::collections::BTreeMap;

use serde::Serialize;

use super::outcomes::Wdl;
use super::pairing::{rank, AgentKey, GroupGames};
use super::tally::{GroupCounts, SettingTally};
use super::units::Units;
use super::wilson::{wilson, Proportion, Z95};

/// Which games a line of first-player statistics covers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "scope", rename_all = "kebab-case")]
pub enum Scope {
    /// Every game of the setting.
    AllGames,
    /// The games between two different agents, both seat orders.
    Pairing {
        /// The agent listed first.
        agent: String,
        /// The other.
        opponent: String,
    },
    /// An agent against itself.
    SelfPlay {
        /// The agent.
        agent: String,
    },
}

impl Scope {
    /// A short label for tables and charts.
    pub fn label(&self) -> String {
        match self {
            Scope::AllGames => "all games".to_string(),
            Scope::Pairing { agent, opponent } => format!("{agent} vs {opponent}"),
            Scope::SelfPlay { agent } => format!("{agent} self-play"),
        }
    }
}

/// The South seat's results over a set of games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeatStats {
    /// The games covered.
    #[serde(flatten)]
    pub scope: Scope,
    /// How many games were played, were distinct, and how they ended.
    #[serde(flatten)]
    pub games: GroupGames,
    /// Games South won.
    pub south_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games North won.
    pub north_wins: u64,
    /// South's win rate with its per-game 95% Wilson interval.
    pub south_win_rate: Proportion,
    /// The draw rate with its per-game 95% Wilson interval.
    pub draw_rate: Proportion,
    /// South's loss rate with its per-game 95% Wilson interval.
    pub south_loss_rate: Proportion,
    /// First-player advantage, South's score minus 0.5, over the distinct
    /// units, with its pair-clustered 95% interval: the headline.
    pub advantage: Proportion,
    /// The same over every pair, repeats counted as often as they were
    /// played (each draw of an opening is a sample), with its pair-clustered
    /// 95% interval: equal to `advantage` when no pair repeats.
    pub advantage_all_pairs: Proportion,
    /// The same over all games, with the per-game 95% Wilson interval of
    /// South's score (ignores the pairing; for comparison).
    pub advantage_wilson: Proportion,
    /// First-player advantage among the games that ended normally, with its
    /// pair-clustered 95% interval.
    pub advantage_normal: Proportion,
    /// Where some games ended inside their random opening: the advantage
    /// over every opening, those games included with the exact result of
    /// their opening (by the rules, or by the tables' perfect play where
    /// adjudication ended them), distinct units, pair-clustered 95%
    /// interval. `advantage` leaves them out: it is of the games the agents
    /// played, a selection of the openings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advantage_all_openings: Option<Proportion>,
    /// The same over the games that ended inside their opening alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advantage_opening_ended: Option<Proportion>,
    /// How many of the games that ended inside their opening were
    /// adjudicated (the rest ended by the rules during the random plies).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening_ended_adjudicated: Option<u64>,
    /// Ludii's AdvantageP1 (player 1 = South).
    pub ludii_advantage_p1: f64,
    /// Ludii's Balance.
    pub ludii_balance: f64,
}

/// Ludii's AdvantageP1: player 1's (South's) mean result, draws as half wins,
/// computed as one division of the counts, so exact to the last digit.
pub fn ludii_advantage_p1(south_wins: u64, draws: u64, games: u64) -> f64 {
    if games == 0 {
        return 0.5;
    }
    (2 * south_wins + draws) as f64 / (2 * games) as f64
}

/// Ludii's Balance for two players: 1 minus the gap between their win rates,
/// draws as half wins, so 1 is perfectly even and 0 is one seat always winning.
/// The draws cancel: it is `(games - |south_wins - north_wins|) / games`,
/// computed as one division of the counts, so exact to the last digit.
pub fn ludii_balance(south_wins: u64, draws: u64, north_wins: u64) -> f64 {
    let games = south_wins + draws + north_wins;
    if games == 0 {
        return 1.0;
    }
    (games - south_wins.abs_diff(north_wins)) as f64 / games as f64
}

/// The counts behind one line of first-player statistics.
#[derive(Default)]
struct Seat {
    wdl: Wdl,
    games: GroupGames,
    south: Units,
    south_normal: Units,
    south_all: Units,
    south_opening: Units,
    opening_adjudicated: u64,
}

impl Seat {
    fn add_group(&mut self, group: &GroupCounts) {
        self.games += GroupGames::of(group);
        self.south += group.south;
        self.south_normal += group.south_normal;
        self.south_all += group.south_all;
        self.south_opening += group.south_opening;
        self.opening_adjudicated += group.opening_adjudicated;
    }

    /// The statistics of the seat's games.
    fn stats(self, scope: Scope) -> SeatStats {
        let south = self.wdl;
        let (south_wins, draws, north_wins) = (south.wins, south.draws, south.losses);
        let n = south.games();
        let opening = (self.games.opening_ended > 0).then(|| {
            let mut every = self.south;
            every += self.south_opening;
            (
                every.clustered().interval().shifted(-0.5),
                self.south_opening.clustered().interval().shifted(-0.5),
            )
        });
        SeatStats {
            scope,
            games: self.games,
            south_wins,
            draws,
            north_wins,
            south_win_rate: wilson(south_wins as f64, n, Z95),
            draw_rate: wilson(draws as f64, n, Z95),
            south_loss_rate: wilson(north_wins as f64, n, Z95),
            advantage: self.south.clustered().interval().shifted(-0.5),
            advantage_all_pairs: self.south_all.clustered().interval().shifted(-0.5),
            advantage_wilson: wilson(south.points(), n, Z95).shifted(-0.5),
            advantage_normal: self.south_normal.clustered().interval().shifted(-0.5),
            advantage_all_openings: opening.map(|(every, _)| every),
            advantage_opening_ended: opening.map(|(_, ended)| ended),
            opening_ended_adjudicated: opening.map(|_| self.opening_adjudicated),
            ludii_advantage_p1: ludii_advantage_p1(south_wins, draws, n),
            ludii_balance: ludii_balance(south_wins, draws, north_wins),
        }
    }
}

/// First-player statistics of one setting: all games first, then each
/// pairing of two different agents, then each agent's self-play, agents in
/// `agent_order` (unlisted agents after, by name).
pub fn first_player(games: &SettingTally<'_>, agent_order: &[String]) -> Vec<SeatStats> {
    let mut all = Seat::default();
    let mut pairs: BTreeMap<(AgentKey, AgentKey), Seat> = BTreeMap::new();
    let mut selves: BTreeMap<AgentKey, Seat> = BTreeMap::new();
    for (south, north, wdl) in games.seats() {
        let (a, b) = (
            rank(agent_order, games.name(south)),
            rank(agent_order, games.name(north)),
        );
        all.wdl += wdl;
        if a == b {
            selves.entry(a).or_default().wdl += wdl;
        } else {
            pairs.entry((a.min(b), a.max(b))).or_default().wdl += wdl;
        }
    }
    for (first, second, group) in games.groups() {
        let (a, b) = (
            rank(agent_order, games.name(first)),
            rank(agent_order, games.name(second)),
        );
        all.add_group(group);
        if a == b {
            selves.entry(a).or_default().add_group(group);
        } else {
            pairs
                .entry((a.min(b), a.max(b)))
                .or_default()
                .add_group(group);
        }
    }
    let mut out = vec![all.stats(Scope::AllGames)];
    for (((_, agent), (_, opponent)), seat) in pairs {
        let scope = Scope::Pairing {
            agent: agent.to_string(),
            opponent: opponent.to_string(),
        };
        out.push(seat.stats(scope));
    }
    for ((_, agent), seat) in selves {
        let scope = Scope::SelfPlay {
            agent: agent.to_string(),
        };
        out.push(seat.stats(scope));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ludii_figures() {
        // 6 South wins, 2 draws, 2 North wins: P1 scores 0.7, North 0.3.
        assert!((ludii_advantage_p1(6, 2, 10) - 0.7).abs() < 1e-12);
        assert!((ludii_balance(6, 2, 2) - 0.6).abs() < 1e-12);
        assert_eq!(ludii_balance(5, 0, 5), 1.0);
        assert_eq!(ludii_balance(10, 0, 0), 0.0);
        // Exact from the counts: 0.9025 and 0.9725 are not rounded away.
        assert_eq!(ludii_balance(180, 1, 219), 0.9025);
        assert_eq!(ludii_balance(190, 9, 201), 0.9725);
        assert_eq!(ludii_balance(0, 0, 0), 1.0);
    }
}
