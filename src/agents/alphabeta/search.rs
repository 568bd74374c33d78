//! The node search: negamax alpha-beta over the children of a position, with
//! the transposition table, the stall rules on the line, and (in the enhanced
//! search, `E = true`) principal variation search, killer and history
//! ordering, late move reductions, quiescence at the leaves and endgame-table
//! scores.
//!
//! The plain search is the same code with `E = false`, so that its moves and
//! node counts stay exactly those of the roster's existing agents.

use crate::agents::eval_margin::{limit_reached, stalled_margin, terminal_margin, Score};
use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::Rules;
use crate::solver::prefetch::prefetch;

use super::ordering::{encode, order_children, table_child, Child, Children, NO_MOVE};
use super::tt::{self, Entry, EXACT, LOWER, UPPER};
use super::{AlphaBeta, CLOCK_EVERY, INF};

/// Moves searched at full depth at a node before late move reductions start
/// (the table's move counted).
const REDUCE_AFTER: usize = 3;
/// The shallowest node whose late moves are reduced.
const REDUCE_FROM_DEPTH: u32 = 3;

/// The capture difference for the side to move.
#[inline]
pub(super) fn material(pos: &Position) -> Score {
    terminal_margin(pos, pos.side_to_move())
}

impl AlphaBeta {
    /// One iteration at the root in the window `alpha..beta`; `None` if the
    /// budget ran out during it. The score is exact inside the window, a
    /// bound outside it (fail-soft).
    pub(super) fn root<const E: bool>(
        &mut self,
        rules: &Rules,
        pos: &Position,
        depth: u32,
        previous: Move,
        mut alpha: Score,
        beta: Score,
    ) -> Option<(Move, Score)> {
        let mut children = Children::new();
        order_children(pos, rules, encode(previous), NO_MOVE, &mut children);
        self.nodes += children.len() as u64;
        let mut best: Option<(Move, Score)> = None;
        for child in children.iter() {
            let v = if E && self.options.pvs && best.is_some() {
                self.scout(rules, pos, child, depth - 1, alpha, beta, 0, None)
            } else {
                self.child_value::<E>(rules, pos, child, depth - 1, alpha, beta, 0, None)
            };
            if self.aborted {
                return None;
            }
            if best.map_or(true, |(_, b)| v > b) {
                best = Some((child.mv, v));
            }
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// A child after the first in principal variation search: a null window
    /// first, the full window again only when the child may be better.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn scout(
        &mut self,
        rules: &Rules,
        pos: &Position,
        child: &Child,
        depth: u32,
        alpha: Score,
        beta: Score,
        since: u32,
        floor: Option<usize>,
    ) -> Score {
        let v = self.child_value::<true>(rules, pos, child, depth, alpha, alpha + 1, since, floor);
        if v > alpha && v < beta && !self.aborted {
            self.child_value::<true>(rules, pos, child, depth, alpha, beta, since, floor)
        } else {
            v
        }
    }

    /// A late quiet child in principal variation search: a null window
    /// `r` plies shallower first (not below depth 1), then [`Self::scout`] at
    /// full depth only when the child beats alpha (late move reductions, as
    /// in chess programs: the moves ordered last rarely turn out best, so
    /// most are refuted by the cheaper search).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn reduced(
        &mut self,
        rules: &Rules,
        pos: &Position,
        child: &Child,
        depth: u32,
        r: u32,
        alpha: Score,
        beta: Score,
        since: u32,
        floor: Option<usize>,
    ) -> Score {
        let shallow = depth.saturating_sub(r).max(1);
        let v =
            self.child_value::<true>(rules, pos, child, shallow, alpha, alpha + 1, since, floor);
        if v > alpha && !self.aborted {
            self.scout(rules, pos, child, depth, alpha, beta, since, floor)
        } else {
            v
        }
    }

    /// The score of `child` for the side to move in `pos`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn child_value<const E: bool>(
        &mut self,
        rules: &Rules,
        pos: &Position,
        child: &Child,
        depth: u32,
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
        if depth > 0 && (!E || self.use_tt) {
            // The child will look up its table entry. The node's loop asked
            // for the entries of its listed children already; this asks for
            // those of the table's move and the root's children too, and
            // again for a child whose entry an older sibling's search may
            // have pushed out of the cache.
            prefetch(&self.tt[tt::slot(key, self.tt.len())]);
        }
        if !captured && (limit_reached(rules, since) || self.repeats(rules, key, floor)) {
            return stalled_margin(next, rules.stall.leftover, me);
        }
        self.path.push(key);
        let v = if next.side_to_move() == me {
            self.negamax::<E>(rules, next, key, depth, alpha, beta, since, floor)
        } else {
            -self.negamax::<E>(rules, next, key, depth, -beta, -alpha, since, floor)
        };
        self.path.pop();
        v
    }

    /// Whether the position with `key` occurred since the last capture: on the
    /// line from `floor` (or the whole line and the game, with no capture on it).
    #[inline]
    pub(super) fn repeats(&self, rules: &Rules, key: u64, floor: Option<usize>) -> bool {
        if rules.stall.repetitions == 0 {
            return false;
        }
        match floor {
            Some(i) => self.path[i..].contains(&key),
            None => self.path.contains(&key) || self.tracker.seen(key),
        }
    }

    #[inline]
    pub(super) fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            return true;
        }
        match self.deadline {
            Some(deadline) if self.nodes % CLOCK_EVERY == 0 => {
                std::time::Instant::now() >= deadline
            }
            _ => false,
        }
    }

    /// Negamax alpha-beta: the score of `pos` for its side to move.
    #[allow(clippy::too_many_arguments)]
    fn negamax<const E: bool>(
        &mut self,
        rules: &Rules,
        pos: &Position,
        key: u64,
        depth: u32,
        mut alpha: Score,
        beta: Score,
        since: u32,
        floor: Option<usize>,
    ) -> Score {
        if self.out_of_budget() {
            self.aborted = true;
            return 0;
        }
        if E {
            if let Some(s) = self.endgame.as_ref().and_then(|e| e.score(pos)) {
                return s;
            }
        }
        if depth == 0 {
            if E && self.options.quiescence > 0 {
                let turns = self.options.quiescence;
                return self.quiesce(rules, pos, turns, alpha, beta, since, floor, false);
            }
            return self.evaluator.evaluate(pos, rules);
        }
        let use_tt = !E || self.use_tt;
        let deep = E && self.options.tt_deep;
        let base = material(pos);
        let mut tt_move = NO_MOVE;
        if let Some(entry) = tt::probe(&self.tt, key, deep).filter(|_| use_tt) {
            tt_move = entry.mv;
            if let Some(s) = tt::usable(&entry, depth, alpha, beta, base) {
                return s;
            }
        }
        let alpha0 = alpha;
        let ply = self.path.len();
        let mut best = -INF;
        let mut best_mv = NO_MOVE;
        // The table's move is played alone first: when it refutes, the other
        // moves are never simulated.
        if let Some(first) = table_child(pos, rules, tt_move) {
            self.nodes += 1;
            best = self.child_value::<E>(rules, pos, &first, depth - 1, alpha, beta, since, floor);
            if self.aborted {
                return 0;
            }
            best_mv = tt_move;
            alpha = alpha.max(best);
            if E && alpha >= beta && first.is_quiet() {
                self.refuted(ply, pos, first.mv, depth);
            }
        } else {
            tt_move = NO_MOVE;
        }
        if alpha < beta {
            // The table's move is not simulated again, but counted again as
            // before, so that node counts and node budgets stay as they were.
            let mut children = Children::new();
            if E {
                let (killers, history) = (self.options.killers, self.options.history);
                self.order
                    .children(pos, rules, ply, killers, history, tt_move, &mut children);
            } else {
                order_children(pos, rules, NO_MOVE, tt_move, &mut children);
            }
            self.nodes += children.len() as u64 + u64::from(tt_move != NO_MOVE);
            if depth > 1 {
                // The children will look up their table entries: a cache miss
                // each, started now so that it overlaps the siblings' search.
                for child in children.iter() {
                    prefetch(&self.tt[tt::slot(child.pos.hash_key(), self.tt.len())]);
                }
            }
            for (index, child) in children.iter().enumerate() {
                let v = if E && self.options.pvs && best_mv != NO_MOVE {
                    let r = self.options.reductions;
                    // Late: the table's move, searched before the list, counts.
                    if r > 0
                        && depth >= REDUCE_FROM_DEPTH
                        && index + usize::from(tt_move != NO_MOVE) >= REDUCE_AFTER
                        && child.is_quiet()
                    {
                        self.reduced(rules, pos, child, depth - 1, r, alpha, beta, since, floor)
                    } else {
                        self.scout(rules, pos, child, depth - 1, alpha, beta, since, floor)
                    }
                } else {
                    self.child_value::<E>(rules, pos, child, depth - 1, alpha, beta, since, floor)
                };
                if self.aborted {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_mv = encode(child.mv);
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            if E && child.is_quiet() {
                                self.refuted(ply, pos, child.mv, depth);
                            }
                            break;
                        }
                    }
                }
            }
        }
        if use_tt {
            let bound = if best <= alpha0 {
                UPPER
            } else if best >= beta {
                LOWER
            } else {
                EXACT
            };
            let new = Entry {
                key,
                score: (best - base) as i16,
                depth: depth as u8,
                bound,
                mv: best_mv,
                age: self.age,
            };
            tt::store(&mut self.tt, new, deep);
        }
        best
    }

    /// A quiet move refuted `pos`: remembered as a killer and in the history.
    #[inline]
    fn refuted(&mut self, ply: usize, pos: &Position, mv: Move, depth: u32) {
        if self.options.killers || self.options.history {
            let killers = self.options.killers;
            self.order
                .cutoff(ply, pos.side_to_move(), mv, depth, killers);
        }
    }
}
