//! How games ended, counted: by ending (normal, a stall rule, a forfeit, an
//! adjudication) and, for forfeits, by the agent at fault and the reason.
//! Plain counts that every statistic above them adds up.

use std::collections::BTreeMap;
use std::ops::AddAssign;

use serde::Serialize;

use crate::engine::forfeit::ForfeitReason;
use crate::engine::game::Ending;
use crate::records::game_row::{GameRow, Winner};

/// Games by how they ended, named as in `games.csv` (`normal`,
/// `repetition`, `no-capture-limit`, and the four `forfeit-*` together).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct EndingCounts {
    /// The last seeds were taken.
    pub normal: u64,
    /// A position came back a third time.
    pub repetition: u64,
    /// Too many plies without a capture.
    pub no_capture_limit: u64,
    /// Lost by forfeit (`forfeit-crash`, `-timeout`, `-protocol`, `-illegal`);
    /// who forfeited and why is counted by [`ForfeitCounts`]. Left out of
    /// `summary.json` when 0, as in every run without external agents.
    #[serde(skip_serializing_if = "is_zero")]
    pub forfeit: u64,
    /// Adjudicated by the endgame tables (`[adjudication] tablebase`): the
    /// result is perfect play's from there. Left out when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub tablebase: u64,
    /// Adjudicated as decided (`[adjudication] decided`): the winner is
    /// exact, the margin a lower bound. Left out when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub decided: u64,
}

impl EndingCounts {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.normal
            + self.repetition
            + self.no_capture_limit
            + self.forfeit
            + self.tablebase
            + self.decided
    }

    /// Games settled by a stall rule: repetition or the no-capture limit.
    pub fn stalled(&self) -> u64 {
        self.repetition + self.no_capture_limit
    }

    /// Whether more than a fifth of the games were settled by a stall rule:
    /// enough to change who appears to play better.
    pub fn much_stalled(&self) -> bool {
        5 * self.stalled() > self.games()
    }

    /// Counts one game.
    pub(crate) fn add(&mut self, ending: Ending) {
        match ending {
            Ending::Normal => self.normal += 1,
            Ending::Repetition => self.repetition += 1,
            Ending::NoCaptureLimit => self.no_capture_limit += 1,
            Ending::ForfeitCrash
            | Ending::ForfeitTimeout
            | Ending::ForfeitProtocol
            | Ending::ForfeitIllegal => self.forfeit += 1,
            Ending::Tablebase => self.tablebase += 1,
            Ending::Decided => self.decided += 1,
        }
    }
}

impl AddAssign for EndingCounts {
    fn add_assign(&mut self, other: EndingCounts) {
        self.normal += other.normal;
        self.repetition += other.repetition;
        self.no_capture_limit += other.no_capture_limit;
        self.forfeit += other.forfeit;
        self.tablebase += other.tablebase;
        self.decided += other.decided;
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Forfeits per agent and reason: the agent at fault is the loser of a game
/// with a `forfeit-*` ending.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ForfeitCounts {
    by_agent: BTreeMap<String, [u64; 4]>,
}

/// One agent's forfeits, by reason, as `summary.json` writes them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AgentForfeits {
    /// The roster name.
    pub agent: String,
    /// The process crashed, exited or could not start.
    pub crash: u64,
    /// No answer in time.
    pub timeout: u64,
    /// A line that is not the protocol.
    pub protocol: u64,
    /// A move that is not legal.
    pub illegal: u64,
}

impl ForfeitCounts {
    /// Counts `row` if it was lost by forfeit.
    pub(crate) fn add(&mut self, row: &GameRow) {
        let Some(reason) = row.ending.forfeit_reason() else {
            return;
        };
        let agent = match row.winner {
            Winner::S => &row.north,
            Winner::N => &row.south,
            // A forfeit always has a winner; a hand-edited row may not.
            Winner::Draw => return,
        };
        let slot = ForfeitReason::ALL
            .iter()
            .position(|&r| r == reason)
            .expect("ALL lists every reason");
        self.by_agent.entry(agent.clone()).or_default()[slot] += 1;
    }

    /// Whether no game was forfeited.
    pub fn is_empty(&self) -> bool {
        self.by_agent.is_empty()
    }

    /// The agents that forfeited, by name, with their counts.
    pub fn agents(&self) -> Vec<AgentForfeits> {
        self.by_agent
            .iter()
            .map(
                |(agent, &[crash, timeout, protocol, illegal])| AgentForfeits {
                    agent: agent.clone(),
                    crash,
                    timeout,
                    protocol,
                    illegal,
                },
            )
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::play_scheduled::empty_row;

    fn row(south: &str, north: &str, winner: Winner, ending: Ending) -> GameRow {
        let mut row = empty_row();
        row.south = south.into();
        row.north = north.into();
        row.winner = winner;
        row.ending = ending;
        row
    }

    /// The loser of a forfeit is at fault, in either seat; other games and a
    /// (hand-made) drawn forfeit count for nobody.
    #[test]
    fn forfeits_are_counted_for_the_loser_by_reason() {
        let mut counts = ForfeitCounts::default();
        let mut endings = EndingCounts::default();
        for r in [
            row("py", "random", Winner::N, Ending::ForfeitTimeout),
            row("random", "py", Winner::S, Ending::ForfeitTimeout),
            row("random", "py", Winner::S, Ending::ForfeitIllegal),
            row("greedy", "py", Winner::N, Ending::ForfeitCrash),
            row("py", "random", Winner::S, Ending::Normal),
            row("py", "random", Winner::Draw, Ending::ForfeitProtocol),
        ] {
            counts.add(&r);
            endings.add(r.ending);
        }
        assert_eq!(
            counts.agents(),
            vec![
                AgentForfeits {
                    agent: "greedy".into(),
                    crash: 1,
                    timeout: 0,
                    protocol: 0,
                    illegal: 0
                },
                AgentForfeits {
                    agent: "py".into(),
                    crash: 0,
                    timeout: 2,
                    protocol: 0,
                    illegal: 1
                },
            ]
        );
        assert_eq!(
            (endings.forfeit, endings.normal, endings.games()),
            (5, 1, 6)
        );
        assert_eq!(endings.stalled(), 0);
        let json = serde_json::to_string(&EndingCounts::default()).unwrap();
        assert!(!json.contains("forfeit"), "{json}");
    }
}
