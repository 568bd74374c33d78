//! MCTS-Solver: positions whose result is certain are marked proven, and the
//! proofs climb the tree, so that the search stops spending playouts on them,
//! never picks a proven loss and plays a proven win at once.
//!
//! Source: Winands, Björnsson & Saito 2008, "Monte-Carlo Tree Search Solver".
//! Their rule is stated for alternating players; Hoyito's extra moves let one
//! side move twice in a row, so proofs are worked out by sides: every node
//! holds its proof for the side that moved into it, and a node's children were
//! all moved into by the node's side to move `s`. The node is then proven
//! - a win for `s` when one child is a proven win (for `s`);
//! - otherwise, once every child is proven, the best of the children's results
//!   for `s` (a draw if one is a draw, else a loss);
//!
//! and that result is turned to the view of the side that moved into the node.
//! Finished games are proven by their margin's sign, and so are games ended by
//! the no-capture limit, by the `leftover` policy (the search's own rules:
//! repetitions are not looked for). Proofs are on win, draw or loss, not on
//! margins: a proven win may be won by more or fewer seeds.

use crate::agents::mcts::node::Proof;
use crate::agents::mcts::Mcts;

impl Mcts {
    /// Proves node `at` from its children if they allow it; returns whether it
    /// is (now) proven.
    fn prove_from_children(&mut self, at: u32) -> bool {
        let node = self.nodes[at as usize];
        if node.proof != Proof::Unknown {
            return true;
        }
        if !node.expanded {
            return false;
        }
        let mut best = Proof::Loss;
        let mut all = true;
        for i in node.child_range() {
            match self.nodes[i as usize].proof {
                Proof::Win => {
                    best = Proof::Win;
                    all = true;
                    break;
                }
                Proof::Unknown => all = false,
                Proof::Draw => best = Proof::Draw,
                Proof::Loss => {}
            }
        }
        if !all {
            return false;
        }
        let side = node.pos.side_to_move();
        self.nodes[at as usize].proof = best.seen_by(side, node.mover);
        true
    }

    /// After a playout down `path`, proves what its end allows, from the
    /// parent of the last node upwards, stopping at the first node that stays
    /// unproven (nothing above it can change).
    pub(super) fn propagate(&mut self, path: &[u32]) {
        for &at in path.iter().rev().skip(1) {
            if !self.prove_from_children(at) {
                break;
            }
        }
    }

    /// The root child to play under MCTS-Solver: a proven win if there is one
    /// (the most visited such), else the most visited child that is not a
    /// proven loss, else the most visited.
    pub(super) fn solver_choice(&self) -> u32 {
        let root = &self.nodes[0];
        root.child_range()
            .max_by(|&a, &b| {
                let (a, b) = (&self.nodes[a as usize], &self.nodes[b as usize]);
                (a.proof.rank(), a.visits, a.total)
                    .partial_cmp(&(b.proof.rank(), b.visits, b.total))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .expect("the root of an unfinished game has a move")
    }
}
