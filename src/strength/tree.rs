//! Every position of a small board's game tree near its start.
//!
//! Random positions from the tables test endgames; the opening tree tests the
//! positions real games go through. On II 2x4 the whole game is solved (the
//! tables of the start's 32 seeds hold every position), so every position
//! reachable from the start within a few plies can be scored exactly.
//!
//! The walk is breadth-first from the start position, children in move order,
//! each distinct position (board, side to move and captures: what an agent
//! sees) kept once, at the first ply it is reached; positions after 0 to
//! `plies` plies are kept, finished ones dropped. A ply is one move, so a turn
//! with extra moves spans several plies. The stall rules are not applied:
//! the no-capture limit (200 plies) cannot be reached within the first plies,
//! and the tables value a position without its history, as the agents are
//! asked (a fresh game from the position).

use std::collections::HashSet;

use crate::engine::position::Position;
use crate::engine::rules::Rules;
use crate::strength::MIN_CHOICES;

/// The positions of the tree walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreePositions {
    /// Distinct unfinished positions reached within the plies.
    pub reached: usize,
    /// Those that offer at least [`MIN_CHOICES`] legal moves, in the order
    /// they were reached.
    pub positions: Vec<Position>,
}

/// Walks the tree of `rules`' start position to `plies` plies, as the module
/// documentation says.
pub fn tree_positions(rules: &Rules, plies: u32) -> TreePositions {
    let start = Position::start(rules);
    let mut seen: HashSet<Position> = HashSet::from([start]);
    let mut order = vec![start];
    let mut frontier = vec![start];
    for _ in 0..plies {
        let mut next = Vec::new();
        for pos in &frontier {
            pos.for_each_child(rules, |_, child, _| {
                if !child.is_over() && seen.insert(child) {
                    next.push(child);
                }
            });
        }
        order.extend_from_slice(&next);
        frontier = next;
    }
    let reached = order.len();
    let positions = order
        .into_iter()
        .filter(|p| p.legal_moves(rules).len() >= MIN_CHOICES)
        .collect();
    TreePositions { reached, positions }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::perft::perft;
    use crate::engine::rules::Variant;

    #[test]
    fn the_first_ply_holds_the_start_and_its_distinct_children() {
        let rules = Rules::new(Variant::Ii).with_board(3, 4).unwrap();
        let start = Position::start(&rules);
        let zero = tree_positions(&rules, 0);
        assert_eq!(zero.reached, 1);
        assert_eq!(zero.positions, vec![start]);
        let one = tree_positions(&rules, 1);
        let children = start.legal_moves(&rules).len();
        assert_eq!(one.reached, 1 + children);
        assert_eq!(one.positions[0], start);
    }

    #[test]
    fn distinct_positions_are_at_most_the_perft_counts() {
        let rules = Rules::new(Variant::Ii).with_board(4, 4).unwrap();
        let tree = tree_positions(&rules, 4);
        let bound: u64 = (0..=4)
            .map(|d| perft(&Position::start(&rules), &rules, d))
            .sum();
        assert!(tree.reached as u64 <= bound, "{} > {bound}", tree.reached);
        let mut unique = tree.positions.clone();
        unique.sort_by_key(|p| format!("{p}"));
        unique.dedup();
        assert_eq!(unique.len(), tree.positions.len());
        assert!(tree.positions.len() <= tree.reached);
    }
}
