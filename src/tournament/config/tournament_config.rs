//! `[tournament]` of an experiment: the format and the agents, and the
//! pairings they make.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How agents are paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every agent against every other.
    RoundRobin,
    /// The champion against every other agent.
    Gauntlet,
    /// Every agent against itself (first-player advantage at one level of play).
    SelfPlay,
    /// A strength ladder: every agent against the one listed just before it
    /// (list them weakest first).
    Ladder,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
            Format::SelfPlay => "self-play",
            Format::Ladder => "ladder",
        })
    }
}

/// `[tournament]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentConfig {
    /// `round-robin`, `gauntlet`, `self-play` or `ladder`.
    pub format: Format,
    /// Roster names (files in the agents directory).
    pub agents: Vec<String>,
    /// The agent that meets all others in a gauntlet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub champion: Option<String>,
    /// Also play every agent against itself (round-robin and gauntlet).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub self_play: bool,
}

impl TournamentConfig {
    /// The pairings, as indices into `agents`: `(a, b)` plays pairs of games,
    /// `a` in South's seat in the first game of each pair.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.agents.len();
        let selves = (0..n).map(|i| (i, i));
        match self.format {
            Format::SelfPlay => selves.collect(),
            Format::RoundRobin => {
                let mut list: Vec<_> = (0..n)
                    .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                    .collect();
                if self.self_play {
                    list.extend(selves);
                }
                list
            }
            Format::Ladder => {
                let mut list: Vec<_> = (1..n).map(|i| (i, i - 1)).collect();
                if self.self_play {
                    list.extend(selves);
                }
                list
            }
            Format::Gauntlet => {
                let champion = self
                    .champion
                    .as_ref()
                    .and_then(|c| self.agents.iter().position(|a| a == c))
                    .expect("checked: the champion is one of the agents");
                let mut list: Vec<_> = (0..n)
                    .filter(|&j| j != champion)
                    .map(|j| (champion, j))
                    .collect();
                if self.self_play {
                    list.extend(selves);
                }
                list
            }
        }
    }
}
