//! How MCTS rollouts choose moves: the `rollout` key of an MCTS agent.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How MCTS rollouts choose moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RolloutPolicy {
    /// Uniform random legal moves (default).
    #[default]
    Random,
    /// The greedy agent's move.
    Greedy,
    /// No rollout: the new leaf is scored by the evaluation
    /// ([`crate::agents::logistic_reward`]).
    None,
}

impl fmt::Display for RolloutPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RolloutPolicy::Random => "random",
            RolloutPolicy::Greedy => "greedy",
            RolloutPolicy::None => "none",
        })
    }
}
