//! Proved bounds on a start's value where an exact solve does not fit.
//!
//! Two depth-limited alpha-beta searches from the start, with exact table
//! values at every position the tables cover (and 0 at the end of the game),
//! differ only at the horizon: the *pessimistic* search scores a horizon
//! position as the worst the root's mover could still get there (every seed
//! left on the board lost: `-s` when the root's mover is to move, `+s` for the
//! opponent), the *optimistic* one as the best (every seed won). The true
//! value `v` satisfies `v(p) = max over moves (exit value, or -v(child))`
//! (the fixed point of [`crate::solver::retrograde`]), so by induction on the
//! depth a negamax over sound lower bounds at the leaves is a lower bound at
//! the root, and likewise for upper bounds: the start's value lies in
//! `[pessimistic, optimistic]`. Iterative deepening narrows the interval
//! until it closes, is narrow enough, or the budget runs out.
//!
//! The transposition table keeps, per position and mode, the depth searched
//! and the alpha-beta bound found; an entry is used only for a search no
//! deeper than its own, and every entry is itself a sound statement about a
//! search with sound leaves, so reusing it keeps the result sound. Entries are
//! matched on the whole board and side to move (never on a hash alone).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::time::Instant;

use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::Rules;
use crate::engine::side::Side;
use crate::solver::tablebase::Tablebase;

const INF: i32 = 1_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flag {
    Exact,
    Lower,
    Upper,
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    depth: u16,
    value: i16,
    flag: Flag,
    best: Option<Move>,
}

/// The seeds the mover of `pos` gained net by the move to `child`.
fn net_gain(pos: &Position, child: &Position) -> i32 {
    let mover = pos.side;
    let got = |p: &Position, side: Side| p.captures[side] as i32;
    (got(child, mover) - got(pos, mover))
        - (got(child, mover.opponent()) - got(pos, mover.opponent()))
}

/// A position's identity in the table: its board and side to move.
type Key = ([u8; 32], Side);

#[derive(Default)]
struct PositionHasher(u64);

impl std::hash::Hasher for PositionHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            let h = (self.0 ^ u64::from_le_bytes(w)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            self.0 = h ^ (h >> 29);
        }
    }
}

/// Bounds proved on a start's value, for its side to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProvedBounds {
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
    /// The deepest search finished, in plies.
    pub depth: u32,
    /// Nodes searched in all.
    pub nodes: u64,
    /// The pessimistic search's line from the start, to its horizon.
    pub line: Vec<Move>,
}

/// Stops the deepening.
#[derive(Debug, Clone, Copy)]
pub struct BoundsBudget {
    /// Deepest iteration.
    pub max_depth: u32,
    /// Stop once the interval is at most this wide.
    pub width: i32,
    /// Stop starting new iterations after this many nodes.
    pub nodes: u64,
    /// Entries the table may hold before it is cleared (about 64 bytes each).
    pub table_entries: usize,
}

struct Searcher<'a> {
    rules: Rules,
    tables: &'a Tablebase,
    exact_up_to: u32,
    root: Side,
    pessimistic: bool,
    table: HashMap<Key, Entry, BuildHasherDefault<PositionHasher>>,
    table_entries: usize,
    nodes: u64,
}

impl Searcher<'_> {
    fn horizon(&self, pos: &Position) -> i32 {
        let s = pos.seeds_on_board() as i32;
        if (pos.side == self.root) == self.pessimistic {
            -s
        } else {
            s
        }
    }

    fn exact(&self, pos: &Position) -> Option<i32> {
        if pos.is_over() {
            return Some(0);
        }
        if pos.seeds_on_board() <= self.exact_up_to {
            return Some(self.tables.probe(pos).map(|p| p.value as i32).unwrap_or(0));
        }
        None
    }

    /// Negamax alpha-beta, fail-soft: the bound for `pos`'s mover.
    fn search(&mut self, pos: &Position, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if let Some(v) = self.exact(pos) {
            return v;
        }
        if depth == 0 {
            return self.horizon(pos);
        }
        let key: Key = (pos.board, pos.side);
        let mut first = None;
        if let Some(e) = self.table.get(&key) {
            first = e.best;
            if e.depth as u32 >= depth {
                let v = e.value as i32;
                match e.flag {
                    Flag::Exact => return v,
                    Flag::Lower if v >= beta => return v,
                    Flag::Upper if v <= alpha => return v,
                    _ => {}
                }
            }
        }
        let mut children: Vec<(Move, Position, i32)> = Vec::with_capacity(16);
        let mover = pos.side;
        pos.for_each_child(&self.rules, |mv, child, _| {
            children.push((mv, child, net_gain(pos, &child)));
        });
        // The table's move first, then the larger captures.
        children.sort_by_key(|&(mv, _, gain)| (Some(mv) != first, -gain));
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for (mv, child, gain) in children {
            let v = if child.side == mover && !child.is_over() {
                gain + self.search(&child, depth - 1, alpha - gain, beta - gain)
            } else {
                gain - self.search(&child, depth - 1, -(beta - gain), -(alpha - gain))
            };
            if v > best {
                best = v;
                best_move = Some(mv);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let flag = if best <= alpha0 {
            Flag::Upper
        } else if best >= beta {
            Flag::Lower
        } else {
            Flag::Exact
        };
        if self.table.len() >= self.table_entries {
            self.table.clear();
        }
        self.table.insert(
            key,
            Entry {
                depth: depth as u16,
                value: best as i16,
                flag,
                best: best_move,
            },
        );
        best
    }

    /// The line of table moves from `pos`, at most `plies` long.
    fn line(&self, pos: &Position, plies: u32) -> Vec<Move> {
        let mut line = Vec::new();
        let mut pos = *pos;
        for _ in 0..plies {
            let Some(mv) = self.table.get(&(pos.board, pos.side)).and_then(|e| e.best) else {
                break;
            };
            let Ok((child, _)) = pos.play(&self.rules, mv) else {
                break;
            };
            line.push(mv);
            pos = child;
            if pos.is_over() {
                break;
            }
        }
        line
    }
}

/// The pessimistic and the optimistic searcher, in that order, both scoring
/// the horizon for `root`'s side.
fn searcher_pair<'a>(
    rules: Rules,
    tables: &'a Tablebase,
    exact_up_to: u32,
    root: Side,
    budget: BoundsBudget,
) -> [Searcher<'a>; 2] {
    [true, false].map(|pessimistic| Searcher {
        rules,
        tables,
        exact_up_to,
        root,
        pessimistic,
        table: HashMap::default(),
        table_entries: budget.table_entries,
        nodes: 0,
    })
}

/// Proves bounds on the value of `start` for its side to move, with the
/// exact values of `tables` for every position of at most `exact_up_to`
/// seeds (those layers must be loaded). `progress` is told each depth's
/// bounds and the nodes so far.
pub fn prove_bounds(
    rules: Rules,
    start: Position,
    tables: &Tablebase,
    exact_up_to: u32,
    budget: BoundsBudget,
    progress: &mut dyn FnMut(u32, i32, i32, u64, f64),
) -> ProvedBounds {
    let clock = Instant::now();
    let mut searchers = searcher_pair(rules, tables, exact_up_to, start.side, budget);
    let seeds = start.seeds_on_board() as i32;
    let mut result = ProvedBounds {
        lower: -seeds,
        upper: seeds,
        depth: 0,
        nodes: 0,
        line: Vec::new(),
    };
    for depth in 1..=budget.max_depth {
        let low = searchers[0].search(&start, depth, -INF, INF);
        let high = searchers[1].search(&start, depth, -INF, INF);
        result.lower = result.lower.max(low);
        result.upper = result.upper.min(high);
        result.depth = depth;
        result.nodes = searchers.iter().map(|s| s.nodes).sum();
        result.line = searchers[0].line(&start, depth);
        progress(
            depth,
            result.lower,
            result.upper,
            result.nodes,
            clock.elapsed().as_secs_f64(),
        );
        if result.upper - result.lower <= budget.width || result.nodes >= budget.nodes {
            break;
        }
    }
    result
}

/// Proved bounds on the value of each move from `start`, for the start's
/// mover: the seeds the move captures net, plus (or minus, when the opponent
/// moves next) the child's value, proved by the same two searches deepened
/// per child until its bounds meet, `budget.max_depth` is reached, or the
/// child has used `budget.nodes` nodes. Both searches keep their horizon on
/// the start's mover for every child, so one pair of transposition tables
/// serves them all: the pessimistic search's value of any position is a
/// lower bound for the start's mover (an upper bound for the child's mover
/// when the opponent moves next), and likewise for the optimistic one.
/// `progress` is told each move's bounds once they are final.
pub fn prove_first_moves(
    rules: Rules,
    start: Position,
    tables: &Tablebase,
    exact_up_to: u32,
    budget: BoundsBudget,
    progress: &mut dyn FnMut(Move, i32, i32, u64),
) -> Vec<(Move, i32, i32)> {
    let mut searchers = searcher_pair(rules, tables, exact_up_to, start.side, budget);
    let mut children = Vec::new();
    start.for_each_child(&rules, |mv, child, _| children.push((mv, child)));
    let mut out = Vec::with_capacity(children.len());
    for (mv, child) in children {
        let gain = net_gain(&start, &child);
        let same = child.side == start.side;
        // The start mover's bounds on the move from the child's bounds.
        let lift = |low: i32, high: i32| {
            if same {
                (gain + low, gain + high)
            } else {
                (gain - high, gain - low)
            }
        };
        let seeds = child.seeds_on_board() as i32;
        let (mut lower, mut upper) = (gain - seeds, gain + seeds);
        if child.is_over() {
            (lower, upper) = (gain, gain);
        }
        let nodes = |s: &[Searcher<'_>]| s.iter().map(|s| s.nodes).sum::<u64>();
        let before = nodes(&searchers);
        let mut depth = 0;
        while lower < upper && depth < budget.max_depth {
            depth += 1;
            let a = searchers[0].search(&child, depth, -INF, INF);
            let b = searchers[1].search(&child, depth, -INF, INF);
            // For the child's mover: when it is the start's mover the
            // pessimistic search bounds it from below; otherwise from above.
            let (child_low, child_high) = if same { (a, b) } else { (b, a) };
            let (lo, hi) = lift(child_low, child_high);
            lower = lower.max(lo);
            upper = upper.min(hi);
            if nodes(&searchers) - before >= budget.nodes {
                break;
            }
        }
        progress(mv, lower, upper, nodes(&searchers) - before);
        out.push((mv, lower, upper));
    }
    out
}

/// The lines of `plies` plies from `start` in which every ply keeps the
/// position's exact value (`value`, proved, for the start's mover): at each
/// position the moves are proved by [`prove_first_moves`] and only those whose
/// value is proved equal to the position's are followed, so every line is
/// perfect play and none weakens either side. Lines that reach a position
/// already reached by another are dropped (the first in move order stays);
/// a line whose game ends earlier stops there. `progress` is told each
/// position expanded (its ply, the moves kept, the moves there, and those
/// whose bounds did not meet within the budget: never kept, though they may
/// be perfect too).
#[allow(clippy::too_many_arguments)]
pub fn perfect_lines(
    rules: Rules,
    start: Position,
    tables: &Tablebase,
    exact_up_to: u32,
    value: i32,
    plies: u32,
    budget: BoundsBudget,
    progress: &mut dyn FnMut(u32, usize, usize, usize),
) -> Vec<Vec<Move>> {
    let mut level: Vec<(Position, Vec<Move>, i32)> = vec![(start, Vec::new(), value)];
    let mut seen = std::collections::HashSet::new();
    for ply in 0..plies {
        let mut next = Vec::new();
        for (pos, line, value) in level {
            if pos.is_over() {
                next.push((pos, line, value));
                continue;
            }
            let moves = prove_first_moves(
                rules,
                pos,
                tables,
                exact_up_to,
                budget,
                &mut |_, _, _, _| {},
            );
            let kept: Vec<Move> = moves
                .iter()
                .filter(|&&(_, lo, hi)| lo == value && hi == value)
                .map(|&(mv, _, _)| mv)
                .collect();
            let open = moves.iter().filter(|&&(_, lo, hi)| lo < hi).count();
            progress(ply, kept.len(), moves.len(), open);
            for mv in kept {
                let Ok((child, _)) = pos.play(&rules, mv) else {
                    continue;
                };
                if !seen.insert(child) {
                    continue;
                }
                let gain = net_gain(&pos, &child);
                // The child's value for its own mover.
                let rest = if child.side == pos.side {
                    value - gain
                } else {
                    gain - value
                };
                let mut line = line.clone();
                line.push(mv);
                next.push((child, line, rest));
            }
        }
        level = next;
    }
    level.into_iter().map(|(_, line, _)| line).collect()
}

/// A whole game from `start` under perfect play that ends with the proved
/// exact `value` (for the start's mover), played by the rules' [`Game`](crate::Game): above
/// the tables each side plays a move whose value, proved by the same two
/// searches `depth - 1` plies deep from the child, is exactly what the
/// position is worth to it (the depth shrinks with every ply, so the line
/// reaches the tables or the end); inside the tables, the tables' perfect
/// moves. `None` if some position's value could not be proved exactly within
/// the depth left.
pub fn proof_line(
    rules: Rules,
    start: Position,
    tables: &Tablebase,
    exact_up_to: u32,
    value: i32,
    depth: u32,
) -> Option<crate::engine::game::Game> {
    let mut game = crate::engine::game::Game::from_position(rules, start);
    let root = start.side;
    let mut depth = depth;
    // The root mover's net captures since the start.
    let margin = |p: &Position| {
        let net = |q: &Position| q.captures[root] as i32 - q.captures[root.opponent()] as i32;
        net(p) - net(&start)
    };
    while !game.is_over() {
        let pos = *game.position();
        let mv = if pos.seeds_on_board() <= exact_up_to {
            crate::solver::strategy::perfect_move(tables, &pos)?
        } else {
            // What the rest of the game is worth to the mover here.
            let rest = value - margin(&pos);
            let target = if pos.side == root { rest } else { -rest };
            let budget = BoundsBudget {
                max_depth: depth.saturating_sub(1),
                width: 0,
                nodes: u64::MAX,
                table_entries: 4_000_000,
            };
            let mut chosen = None;
            let mut moves = Vec::new();
            pos.for_each_child(&rules, |mv, child, _| moves.push((mv, child)));
            for (mv, child) in moves {
                let gain = net_gain(&pos, &child);
                let (lo, hi) = if child.is_over() {
                    (gain, gain)
                } else {
                    let b = prove_bounds(
                        rules,
                        child,
                        tables,
                        exact_up_to,
                        budget,
                        &mut |_, _, _, _, _| {},
                    );
                    if child.side == pos.side {
                        (gain + b.lower, gain + b.upper)
                    } else {
                        (gain - b.upper, gain - b.lower)
                    }
                };
                if lo == target && hi == target {
                    chosen = Some(mv);
                    break;
                }
            }
            depth = depth.saturating_sub(1);
            chosen?
        };
        game.play(mv).ok()?;
    }
    Some(game)
}
