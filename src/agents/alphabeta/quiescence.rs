//! The quiescence search (Beal 1990, "A generalised quiescence search
//! algorithm"): at a leaf of the main search, where a capture may be pending,
//! the static evaluation is not trusted until the captures have been played
//! out.
//!
//! At each node the side to move may stand pat (take the static evaluation) or
//! play a capturing move (or one that ends the game). A turn with extra moves
//! is one unit: the captures that a side chains with its extra moves (II and
//! III) are followed within the same turn, and only a change of the side to
//! move counts against the `quiescence` option. Captures only take seeds off
//! the board, so a turn's chain cannot go on forever, and [`super::MAX_LINE`]
//! bounds every line besides. (Searching every move of a side in the middle of
//! its turn, quiet ones included, was tried first: it multiplied the nodes of
//! a 12-ply search on 2x12 by 34.)

use crate::agents::eval_margin::{limit_reached, stalled_margin, terminal_margin, Score};
use crate::engine::position::Position;
use crate::engine::rules::Rules;

use super::ordering::{order_children, Child, Children, NO_MOVE};
use super::{AlphaBeta, MAX_LINE};

impl AlphaBeta {
    /// The quiescence score of `pos` for its side to move, with `turns` turns
    /// of captures left; `continues` when the side to move is in the middle of
    /// its turn (it just captured and moves again: its captures go on whatever
    /// `turns`). Fail-soft: a score at or
    /// below `alpha` is an upper bound, one at or above `beta` a lower bound.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn quiesce(
        &mut self,
        rules: &Rules,
        pos: &Position,
        turns: u32,
        mut alpha: Score,
        beta: Score,
        since: u32,
        floor: Option<usize>,
        continues: bool,
    ) -> Score {
        if self.out_of_budget() {
            self.aborted = true;
            return 0;
        }
        if let Some(s) = self.endgame.as_ref().and_then(|e| e.score(pos)) {
            return s;
        }
        let stand = self.evaluator.evaluate(pos, rules);
        if self.path.len() >= MAX_LINE || (!continues && turns == 0) || stand >= beta {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        let mut children = Children::new();
        order_children(pos, rules, NO_MOVE, NO_MOVE, &mut children);
        self.nodes += children.len() as u64;
        for child in children.iter() {
            if child.is_quiet() {
                // Captures come first: the rest are quiet.
                break;
            }
            let v = self.quiet_child(rules, pos, child, turns, alpha, beta, since, floor);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The quiescence score of `child` for the side to move in `pos`, with the
    /// stall rules as in the main search.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn quiet_child(
        &mut self,
        rules: &Rules,
        pos: &Position,
        child: &Child,
        turns: u32,
        alpha: Score,
        beta: Score,
        since: u32,
        floor: Option<usize>,
    ) -> Score {
        self.visited += 1;
        let me = pos.side_to_move();
        let next = &child.pos;
        if next.is_over() {
            return terminal_margin(next, me);
        }
        let captured = child.effect.captured > 0;
        let (since, floor) = if captured {
            (0, Some(self.path.len()))
        } else {
            (since + 1, floor)
        };
        let key = next.hash_key();
        if !captured && (limit_reached(rules, since) || self.repeats(rules, key, floor)) {
            return stalled_margin(next, rules.stall.leftover, me);
        }
        self.path.push(key);
        let v = if next.side_to_move() == me {
            self.quiesce(rules, next, turns, alpha, beta, since, floor, true)
        } else {
            let turns = turns.saturating_sub(1);
            -self.quiesce(rules, next, turns, -beta, -alpha, since, floor, false)
        };
        self.path.pop();
        v
    }
}
