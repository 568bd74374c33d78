//! Full-width game-tree search, the strong and exactly reproducible opponent:
//! negamax alpha-beta with iterative deepening and a transposition table.

use std::time::{Duration, Instant};

use crate::agent::{Agent, AgentRng};
use crate::agents::evaluation::{
    limit_reached, stalled_margin, terminal_margin, Evaluator, Score, StallTracker,
};
use crate::game::Game;
use crate::moves::Move;
use crate::position::{MoveEffect, Position};
use crate::rules::Rules;

/// Larger than any margin (at most 255 seeds are in play).
const INF: Score = 10_000;
/// Transposition-table slots (a power of two; 16 bytes each, 4 MiB).
const TT_SLOTS: usize = 1 << 18;
/// How often, in nodes, a time budget looks at the clock.
const CLOCK_EVERY: u64 = 2048;

/// What limits a search: a nominal depth, and optionally nodes and wall-clock time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlphaBetaBudget {
    /// Deepest iteration, in plies (extra moves count as plies).
    pub depth: u32,
    /// Stop after this many nodes, keeping the last finished iteration.
    pub nodes: Option<u64>,
    /// Stop after this many milliseconds: not reproducible.
    pub time_ms: Option<u64>,
}

impl AlphaBetaBudget {
    /// The default depth: [`AlphaBeta`] with no parameter searches 8 plies.
    pub const DEFAULT_DEPTH: u32 = 8;
    /// The deepest iteration allowed, the cap when only nodes or time are given.
    pub const MAX_DEPTH: u32 = 64;
}

/// The result of one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchInfo {
    /// The move chosen.
    pub best: Move,
    /// Its score, a seed margin for the side to move.
    pub score: Score,
    /// The last depth searched completely.
    pub depth: u32,
    /// Positions made: the root and every child simulated by move generation
    /// (each legal move is played in full to be generated, so this counts what
    /// chess engines count, one per move made).
    pub nodes: u64,
    /// Positions searched: the root and every child the search went into (a
    /// child cut off before it is searched is made but not visited).
    pub visited: u64,
}

/// Negamax alpha-beta search (Knuth & Moore 1975, "An analysis of alpha-beta
/// pruning") with iterative deepening and a transposition table (Greenblatt,
/// Eastlake & Crocker 1967; Zobrist 1970 for the hashing idea).
///
/// - Scores are seed margins for the side to move (the shared evaluation,
///   [`crate::evaluate`]): a finished game scores its true margin, a stalled line the
///   margin the `leftover` policy gives, a leaf the margin if the game stalled
///   there. A line is stalled when it reaches `no_capture_limit` plies without a
///   capture (counting the game's own plies) or repeats a position seen since
///   the last capture (in the game or on the line): a repetition is taken to be
///   headed for the stall, as chess engines score a repetition as a draw.
/// - Extra moves: after a capture in II and III the same side moves again, so
///   the child is searched with the same window and its score is not negated.
/// - Move ordering: the table's move, then captures (most seeds first).
/// - The table is keyed by [`Position::hash_key`] (board and side to move) and
///   stores scores relative to the capture difference, so that positions reached
///   with different captures share entries. It lives for one game.
/// - Budget: `depth` (default 8, [`AlphaBetaBudget::DEFAULT_DEPTH`]; the roster's
///   `alphabeta-d8` is the default alpha-beta); `nodes` stops the deepening
///   after that many nodes and plays the last finished iteration's move (depth
///   then defaults to 64); `time_ms` does the same by the clock and is the only
///   budget that makes play depend on the machine. No randomness is used.
#[derive(Debug, Clone)]
pub struct AlphaBeta {
    budget: AlphaBetaBudget,
    evaluator: Evaluator,
    rules: Option<Rules>,
    tt: Vec<Entry>,
    nodes: u64,
    visited: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    tracker: StallTracker,
    /// Hash keys of the positions on the current line.
    path: Vec<u64>,
}

/// Bound kinds of a table entry.
const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;
/// "No move" in a table entry; a pass is stored as 16.
const NO_MOVE: u8 = 255;

/// Bytes of one searcher's transposition table (the run's memory check).
pub(crate) const TT_BYTES: usize = TT_SLOTS * std::mem::size_of::<Entry>();

/// One transposition-table slot.
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// Score minus the capture difference of the side to move.
    score: i16,
    depth: u8,
    bound: u8,
    mv: u8,
}

fn encode(mv: Move) -> u8 {
    match mv {
        Move::Sow(i) => i,
        Move::Pass => 16,
    }
}

/// A child of the node being searched.
#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    pos: Position,
    effect: MoveEffect,
    order: i32,
}

/// The capture difference for the side to move.
#[inline]
fn material(pos: &Position) -> Score {
    terminal_margin(pos, pos.side_to_move())
}

impl AlphaBeta {
    /// A searcher with this budget.
    pub fn new(budget: AlphaBetaBudget) -> AlphaBeta {
        AlphaBeta {
            budget,
            evaluator: Evaluator::default(),
            rules: None,
            tt: vec![Entry::default(); TT_SLOTS],
            nodes: 0,
            visited: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
            tracker: StallTracker::default(),
            path: Vec::with_capacity(AlphaBetaBudget::MAX_DEPTH as usize + 1),
        }
    }

    /// The same searcher scoring its leaves with `evaluator`.
    pub fn with_evaluator(mut self, evaluator: Evaluator) -> AlphaBeta {
        self.evaluator = evaluator;
        self
    }

    /// Searches the current position of `game` (not over) within the budget.
    pub fn search(&mut self, game: &Game) -> SearchInfo {
        if self.rules != Some(*game.rules()) {
            self.clear(game.rules());
        }
        let rules = *game.rules();
        let root = *game.position();
        self.tracker = StallTracker::of(game);
        self.nodes = 1;
        self.visited = 1;
        self.aborted = false;
        self.node_limit = u64::MAX;
        self.deadline = None;
        let mut info = SearchInfo {
            best: Move::Pass,
            score: 0,
            depth: 0,
            nodes: 0,
            visited: 0,
        };
        for depth in 1..=self.budget.depth.min(AlphaBetaBudget::MAX_DEPTH) {
            let Some((best, score)) = self.root(&rules, &root, depth, info.best) else {
                break;
            };
            info = SearchInfo {
                best,
                score,
                depth,
                nodes: self.nodes,
                visited: self.visited,
            };
            // Budgets apply once one iteration has given a move.
            if depth == 1 {
                self.node_limit = self.budget.nodes.unwrap_or(u64::MAX);
                self.deadline = self
                    .budget
                    .time_ms
                    .map(|ms| Instant::now() + Duration::from_millis(ms));
            }
        }
        info.nodes = self.nodes;
        info.visited = self.visited;
        info
    }

    /// Forgets the table and takes `rules` for the game to come.
    fn clear(&mut self, rules: &Rules) {
        self.rules = Some(*rules);
        self.tt.fill(Entry::default());
    }

    /// One iteration at the root; `None` if the budget ran out during it.
    fn root(
        &mut self,
        rules: &Rules,
        pos: &Position,
        depth: u32,
        previous: Move,
    ) -> Option<(Move, Score)> {
        let mut children = [None; 16];
        let n = order_children(pos, rules, encode(previous), &mut children);
        self.nodes += n as u64;
        let mut alpha = -INF;
        let mut best = None;
        for child in children[..n].iter().flatten() {
            let v = self.child_value(rules, pos, child, depth - 1, alpha, INF, 0, None);
            if self.aborted {
                return None;
            }
            if best.is_none() || v > alpha {
                alpha = v;
                best = Some((child.mv, v));
            }
        }
        best
    }

    /// The score of `child` for the side to move in `pos`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child_value(
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
        if !captured && (limit_reached(rules, since) || self.repeats(rules, key, floor)) {
            return stalled_margin(next, rules.stall.leftover, me);
        }
        self.path.push(key);
        let v = if next.side_to_move() == me {
            self.negamax(rules, next, key, depth, alpha, beta, since, floor)
        } else {
            -self.negamax(rules, next, key, depth, -beta, -alpha, since, floor)
        };
        self.path.pop();
        v
    }

    /// Whether the position with `key` occurred since the last capture: on the
    /// line from `floor` (or the whole line and the game, with no capture on it).
    #[inline]
    fn repeats(&self, rules: &Rules, key: u64, floor: Option<usize>) -> bool {
        if rules.stall.repetitions == 0 {
            return false;
        }
        match floor {
            Some(i) => self.path[i..].contains(&key),
            None => self.path.contains(&key) || self.tracker.seen(key),
        }
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            return true;
        }
        match self.deadline {
            Some(deadline) if self.nodes % CLOCK_EVERY == 0 => Instant::now() >= deadline,
            _ => false,
        }
    }

    /// Negamax alpha-beta: the score of `pos` for its side to move.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
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
        if depth == 0 {
            return self.evaluator.evaluate(pos, rules);
        }
        let base = material(pos);
        let slot = key as usize & (TT_SLOTS - 1);
        let entry = self.tt[slot];
        let mut tt_move = NO_MOVE;
        if entry.key == key {
            tt_move = entry.mv;
            if entry.depth as u32 >= depth {
                let s = entry.score as Score + base;
                let usable = match entry.bound {
                    EXACT => true,
                    LOWER => s >= beta,
                    _ => s <= alpha,
                };
                if usable {
                    return s;
                }
            }
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_mv = NO_MOVE;
        // The table's move is played alone first: when it refutes, the other
        // moves are never simulated.
        if let Some(first) = table_child(pos, rules, tt_move) {
            self.nodes += 1;
            best = self.child_value(rules, pos, &first, depth - 1, alpha, beta, since, floor);
            if self.aborted {
                return 0;
            }
            best_mv = tt_move;
            alpha = alpha.max(best);
        } else {
            tt_move = NO_MOVE;
        }
        if alpha < beta {
            let mut children = [None; 16];
            let n = order_children(pos, rules, NO_MOVE, &mut children);
            self.nodes += n as u64;
            for child in children[..n].iter().flatten() {
                if encode(child.mv) == tt_move {
                    continue;
                }
                let v = self.child_value(rules, pos, child, depth - 1, alpha, beta, since, floor);
                if self.aborted {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_mv = encode(child.mv);
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
        }
        let bound = if best <= alpha0 {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.tt[slot] = Entry {
            key,
            score: (best - base) as i16,
            depth: depth as u8,
            bound,
            mv: best_mv,
        };
        best
    }
}

/// The child reached by the table's move `mv`, if it names a legal move of
/// `pos` (a hash collision may name any).
#[inline]
fn table_child(pos: &Position, rules: &Rules, mv: u8) -> Option<Child> {
    let mv = match mv {
        i if i < pos.holes() && pos.row(pos.side_to_move())[i as usize] > 0 => Move::Sow(i),
        _ => return None,
    };
    let (child, effect) = pos.play_unchecked(rules, mv)?;
    Some(Child {
        mv,
        pos: child,
        effect,
        order: 0,
    })
}

/// Generates the children of `pos` into `out`, the move `first` first, then
/// captures by seeds taken, then the rest in hole order; returns how many.
#[inline]
fn order_children(
    pos: &Position,
    rules: &Rules,
    first: u8,
    out: &mut [Option<Child>; 16],
) -> usize {
    let mut n = 0;
    pos.for_each_child(rules, |mv, child, effect| {
        let order = if encode(mv) == first {
            i32::MAX
        } else {
            effect.captured as i32 + effect.game_over as i32 * 256
        };
        let mut i = n;
        while i > 0 && out[i - 1].is_some_and(|c: Child| c.order < order) {
            out[i] = out[i - 1];
            i -= 1;
        }
        out[i] = Some(Child {
            mv,
            pos: child,
            effect,
            order,
        });
        n += 1;
    });
    n
}

impl Agent for AlphaBeta {
    fn choose(&mut self, game: &Game, _rng: &mut AgentRng) -> Move {
        let moves = game.legal_moves();
        if moves.len() == 1 {
            return moves[0];
        }
        self.search(game).best
    }

    fn new_game(&mut self, rules: &Rules) {
        self.clear(rules);
    }
}
