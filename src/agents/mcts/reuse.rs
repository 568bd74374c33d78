//! Tree reuse between the moves of one game: after our move and the
//! opponent's reply (or replies, or our own extra moves), the subtree under the
//! position actually reached becomes the new root, with its statistics, so the
//! playouts already spent on it are not thrown away.
//!
//! The previous search is identified by the game it searched (start position,
//! rules and moves); the new game must continue it move for move, so a tree is
//! never carried into another game, and the same seed still gives the same
//! moves. A kept subtree is at most `iterations × holes` nodes (else the search
//! starts afresh), so the tree stays within twice a fresh search's bound.

use crate::agents::mcts::rave::NO_SLOTS;
use crate::agents::mcts::Mcts;
use crate::engine::game::Game;

impl Mcts {
    /// Makes the node of `game`'s current position the root, if the tree in
    /// memory was searched for an earlier position of the same game and holds
    /// it; returns whether it did.
    pub(super) fn reuse_tree(&mut self, game: &Game) -> bool {
        let Some(searched) = self.searched.take() else {
            return false;
        };
        if self.nodes.is_empty()
            || searched.rules != *game.rules()
            || searched.start != *game.start()
            || !game.moves().starts_with(&searched.moves)
        {
            return false;
        }
        let mut at = 0u32;
        for &mv in &game.moves()[searched.moves.len()..] {
            let node = &self.nodes[at as usize];
            if !node.expanded {
                return false;
            }
            match node
                .child_range()
                .find(|&i| self.nodes[i as usize].mv == mv)
            {
                Some(child) => at = child,
                None => return false,
            }
        }
        let cap = self.params.iterations as usize * game.rules().holes as usize;
        self.keep_subtree(at, cap.max(1))
    }

    /// Replaces the tree by the subtree under `root`, renumbered breadth first
    /// (children stay contiguous), unless it has more than `cap` nodes.
    fn keep_subtree(&mut self, root: u32, cap: usize) -> bool {
        let mut order = vec![root];
        let mut nodes = vec![self.nodes[root as usize]];
        let mut i = 0;
        while i < nodes.len() {
            let node = nodes[i];
            if node.expanded {
                nodes[i].first_child = nodes.len() as u32;
                for c in node.child_range() {
                    nodes.push(self.nodes[c as usize]);
                    order.push(c);
                }
                if nodes.len() > cap {
                    return false;
                }
            }
            i += 1;
        }
        if !self.heuristic.is_empty() {
            self.heuristic = order.iter().map(|&o| self.heuristic[o as usize]).collect();
        }
        if !self.amaf_at.is_empty() {
            let width = 2 * nodes[0].pos.holes() as usize;
            let mut amaf_at = Vec::with_capacity(order.len());
            let mut amaf = Vec::new();
            for &o in &order {
                match self.amaf_at[o as usize] {
                    NO_SLOTS => amaf_at.push(NO_SLOTS),
                    s => {
                        amaf_at.push(amaf.len() as u32);
                        amaf.extend_from_slice(&self.amaf[s as usize..s as usize + width]);
                    }
                }
            }
            self.amaf_at = amaf_at;
            self.amaf = amaf;
        }
        self.nodes = nodes;
        true
    }
}
