//! How the first player's seat fares: South's win, draw and loss rates and
//! first-player advantage (South's score minus 0.5), each with a 95% Wilson
//! interval, and Ludii's AdvantageP1 and Balance figures beside them.
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

use super::pairing::{rank, AgentKey, Wdl};
use super::tally::SettingTally;
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
    /// Games counted.
    pub games: u64,
    /// Games South won.
    pub south_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games North won.
    pub north_wins: u64,
    /// South's win rate with its 95% interval.
    pub south_win_rate: Proportion,
    /// The draw rate with its 95% interval.
    pub draw_rate: Proportion,
    /// South's loss rate with its 95% interval.
    pub south_loss_rate: Proportion,
    /// South's score, draws as half points, with its 95% interval.
    pub south_score: Proportion,
    /// First-player advantage: South's score minus 0.5, with its interval.
    pub advantage: Proportion,
    /// Ludii's AdvantageP1 (player 1 = South).
    pub ludii_advantage_p1: f64,
    /// Ludii's Balance.
    pub ludii_balance: f64,
}

/// Ludii's AdvantageP1: player 1's (South's) mean result, draws as half wins.
pub fn ludii_advantage_p1(south_wins: u64, draws: u64, games: u64) -> f64 {
    if games == 0 {
        return 0.5;
    }
    (south_wins as f64 + 0.5 * draws as f64) / games as f64
}

/// Ludii's Balance for two players: 1 minus the gap between their win rates,
/// draws as half wins, so 1 is perfectly even and 0 is one seat always winning.
pub fn ludii_balance(south_wins: u64, draws: u64, north_wins: u64) -> f64 {
    let games = south_wins + draws + north_wins;
    if games == 0 {
        return 1.0;
    }
    let south = ludii_advantage_p1(south_wins, draws, games);
    let north = ludii_advantage_p1(north_wins, draws, games);
    1.0 - (south - north).abs()
}

/// The statistics of games where South won, drew and lost as in `south`.
fn seat_stats(scope: Scope, south: Wdl) -> SeatStats {
    let (south_wins, draws, north_wins) = (south.wins, south.draws, south.losses);
    let n = south.games();
    let points = south_wins as f64 + 0.5 * draws as f64;
    let south_score = wilson(points, n, Z95);
    SeatStats {
        scope,
        games: n,
        south_wins,
        draws,
        north_wins,
        south_win_rate: wilson(south_wins as f64, n, Z95),
        draw_rate: wilson(draws as f64, n, Z95),
        south_loss_rate: wilson(north_wins as f64, n, Z95),
        south_score,
        advantage: south_score.shifted(-0.5),
        ludii_advantage_p1: ludii_advantage_p1(south_wins, draws, n),
        ludii_balance: ludii_balance(south_wins, draws, north_wins),
    }
}

/// First-player statistics of one setting: all games first, then each
/// pairing of two different agents, then each agent's self-play, agents in
/// `agent_order` (unlisted agents after, by name).
pub fn first_player(games: &SettingTally<'_>, agent_order: &[String]) -> Vec<SeatStats> {
    let mut all = Wdl::default();
    let mut pairs: BTreeMap<(AgentKey, AgentKey), Wdl> = BTreeMap::new();
    let mut selves: BTreeMap<AgentKey, Wdl> = BTreeMap::new();
    for (south, north, wdl) in games.seats() {
        let (a, b) = (
            rank(agent_order, games.name(south)),
            rank(agent_order, games.name(north)),
        );
        all += wdl;
        if a == b {
            *selves.entry(a).or_default() += wdl;
        } else {
            *pairs
                .entry(if a < b { (a, b) } else { (b, a) })
                .or_default() += wdl;
        }
    }
    let mut out = vec![seat_stats(Scope::AllGames, all)];
    for (((_, agent), (_, opponent)), south) in pairs {
        let scope = Scope::Pairing {
            agent: agent.to_string(),
            opponent: opponent.to_string(),
        };
        out.push(seat_stats(scope, south));
    }
    for ((_, agent), south) in selves {
        let scope = Scope::SelfPlay {
            agent: agent.to_string(),
        };
        out.push(seat_stats(scope, south));
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
    }
}
