//! What an MCTS search reports, for `hoyito best` and for tests: the move,
//! the playouts, and each root move's statistics and proof.

use crate::agents::mcts::node::{Node, Proof};
use crate::engine::moves::Move;

/// One root move after a search.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveStats {
    /// The move.
    pub mv: Move,
    /// Playouts through it.
    pub visits: u32,
    /// Its mean reward in `[0, 1]` for the side to move.
    pub mean: f64,
    /// What MCTS-Solver proved about it, for the side to move.
    pub proof: Proof,
}

/// The report of one [`super::Mcts::search_info`].
#[derive(Debug, Clone, PartialEq)]
pub struct MctsInfo {
    /// The move chosen.
    pub best: Move,
    /// Playouts through the move chosen.
    pub best_visits: u32,
    /// The chosen move's mean reward in `[0, 1]` for the side to move.
    pub best_mean: f64,
    /// Playouts run by this search (fewer than the budget when MCTS-Solver
    /// proved the root).
    pub iterations: u32,
    /// Playouts through the root, those of earlier searches kept by tree reuse
    /// included.
    pub root_visits: u32,
    /// Tree nodes kept from the previous search (0 without tree reuse).
    pub reused_nodes: u32,
    /// The root's proven result for the side to move ([`Proof::Unknown`]
    /// without MCTS-Solver).
    pub proven: Proof,
    /// Every root move, in the tree's order.
    pub moves: Vec<MoveStats>,
}

impl MctsInfo {
    /// The report of a search whose tree is `nodes` (root first) and whose
    /// chosen root child is `best`.
    pub(super) fn of_tree(nodes: &[Node], best: u32, iterations: u32, reused: u32) -> MctsInfo {
        let root = &nodes[0];
        let side = root.pos.side_to_move();
        let moves: Vec<MoveStats> = root
            .child_range()
            .map(|i| {
                let child = &nodes[i as usize];
                MoveStats {
                    mv: child.mv,
                    visits: child.visits,
                    mean: child.mean(),
                    proof: child.proof,
                }
            })
            .collect();
        let chosen = &nodes[best as usize];
        MctsInfo {
            best: chosen.mv,
            best_visits: chosen.visits,
            best_mean: chosen.mean(),
            iterations,
            root_visits: root.visits,
            reused_nodes: reused,
            proven: root.proof.seen_by(root.mover, side),
            moves,
        }
    }
}
