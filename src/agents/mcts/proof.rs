//! The proof of a node where a playout stops: a finished game's proof by its
//! margin, and the reward a proven node backs up. Below both the search
//! (`mcts`) and MCTS-Solver's climbing of proofs (`solver`).

use crate::agents::mcts::leaf::end_margin;
use crate::agents::mcts::node::{Node, Proof};
use crate::engine::rules::Rules;
use crate::engine::side::Side;

/// The proof of a terminal node for its mover.
pub(super) fn terminal_proof(node: &Node, rules: &Rules) -> Proof {
    Proof::of_margin(end_margin(&node.pos, rules)).seen_by(Side::South, node.mover)
}

/// The reward for its mover that a playout stopping at a proven node backs
/// up: a draw is exactly ½ (margin 0); a win or loss of unknown margin is
/// scored as the middle of its range of [`crate::agents::outcome_reward`].
pub(super) fn proven_reward(proof: Proof) -> f64 {
    match proof {
        Proof::Win => 0.95,
        Proof::Loss => 0.05,
        Proof::Draw | Proof::Unknown => 0.5,
    }
}
