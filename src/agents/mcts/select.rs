//! Which child a descent goes to: UCB1 (Kocsis & Szepesvári 2006), and the
//! enhanced rule that adds MCTS-Solver's skipping of proven losses, progressive
//! bias and RAVE/GRAVE.
//!
//! Progressive bias: Chaslot, Winands, van den Herik, Uiterwijk & Bouzy 2008,
//! "Progressive strategies for Monte-Carlo tree search": a term `w · H / (n + 1)`
//! added to UCB1, strong while a child has few visits and fading as they grow;
//! `H` is the heuristic value of the child for the side moving into it (the
//! evaluation's margin through [`super::logistic_reward`], in `[0, 1]`).

use crate::agents::mcts::node::Proof;
use crate::agents::mcts::rave::{beta, slot, NO_SLOTS};
use crate::agents::mcts::Mcts;

/// Added to the value of unvisited children, so that each child is tried once
/// before any is tried twice (as plain UCT does), best prior first.
const UNVISITED: f64 = 1e6;

impl Mcts {
    /// The child of `at` to descend to: an unvisited one (the first, in the
    /// random order drawn at expansion), else the best by UCB1.
    pub(super) fn select_plain(&self, at: u32) -> u32 {
        let parent = &self.nodes[at as usize];
        let first = parent.first_child;
        let log_n = (parent.visits.max(1) as f64).ln();
        let c = self.params.exploration;
        let mut best = first;
        let mut best_value = f64::NEG_INFINITY;
        for i in first..first + parent.children as u32 {
            let child = &self.nodes[i as usize];
            if child.visits == 0 {
                return i;
            }
            let n = child.visits as f64;
            let value = child.total / n + c * (log_n / n).sqrt();
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        best
    }

    /// The child of `at` to descend to with the enhancements: proven losses
    /// (for the side choosing) skipped under MCTS-Solver; the value
    /// `(1 - β)·mean + β·amaf + c·√(ln N / n) + w·H / (n + 1)`, where `amaf` is
    /// the move's AMAF mean at `reference` (GRAVE's reference node; `at`
    /// itself for plain RAVE) and β is 0 without RAVE. Unvisited children come
    /// first, the one with the best prior (AMAF mean plus bias) first.
    pub(super) fn select_enhanced(&self, at: u32, reference: u32) -> u32 {
        let parent = &self.nodes[at as usize];
        let side = parent.pos.side_to_move();
        let holes = parent.pos.holes();
        let log_n = (parent.visits.max(1) as f64).ln();
        let c = self.params.exploration;
        let options = &self.options;
        let slots = if options.rave > 0.0 {
            self.amaf_at[reference as usize]
        } else {
            NO_SLOTS
        };
        let mut best = parent.first_child;
        let mut best_value = f64::NEG_INFINITY;
        for i in parent.child_range() {
            let child = &self.nodes[i as usize];
            if options.solver && child.proof == Proof::Loss {
                continue;
            }
            let n = child.visits as f64;
            let bias = if options.progressive_bias > 0.0 {
                options.progressive_bias * f64::from(self.heuristic[i as usize]) / (n + 1.0)
            } else {
                0.0
            };
            let amaf = match slot(side, child.mv, holes) {
                Some(s) if slots != NO_SLOTS => {
                    let stats = self.amaf[slots as usize + s];
                    (stats.visits > 0).then(|| stats.total / stats.visits as f64)
                }
                _ => None,
            };
            let value = if child.visits == 0 {
                UNVISITED + amaf.unwrap_or(0.0) + bias
            } else {
                let mean = child.total / n;
                let q = match amaf {
                    Some(a) => {
                        let b = beta(options.rave, n);
                        (1.0 - b) * mean + b * a
                    }
                    None => mean,
                };
                q + c * (log_n / n).sqrt() + bias
            };
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        best
    }
}
