//! Playing with the tables: perfect play inside them, a search that scores its
//! leaves exactly outside them.
//!
//! Keeping the value is not enough to realise a positive value: where moves
//! cycle, a move that keeps the value may also let the game go round forever,
//! and endless play gains nothing. So a side whose value `t` is positive steers
//! by *attractor rank* (the number of its own moves still needed to force a
//! capture sequence worth `t`, as in the rank-by-rank construction of
//! retrograde analysis): it explores the positions it can steer through while
//! keeping `t` and always moves to the lowest rank. A side whose value is zero
//! or less only has to keep it, which any value-keeping move does.
//!
//! The explored region is at most the capture-free positions reachable from the
//! current one: small on the boards the tests play (2x3), possibly a large part
//! of a layer on big boards (not measured there); storing ranks in the tables
//! would avoid the exploration at the cost of a second byte per position.

use std::collections::HashMap;

use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::solver::tablebase::Tablebase;

/// A perfect move from `pos`, or `None` when the position is not inside the
/// tables (or the game is over). Against any opponent, playing these moves
/// secures at least the table value of `pos`.
pub fn perfect_move(tb: &Tablebase, pos: &Position) -> Option<Move> {
    let probe = tb.probe(pos)?;
    let t = probe.value;
    if t <= 0 {
        return probe.best_moves().first().copied();
    }
    Some(forcing_move(tb, pos, t))
}

/// A node of the explored region: a position and its inner moves.
struct Node {
    ours: bool,
    /// Ours: a capturing move secures `t` now.
    target: bool,
    children: Vec<usize>,
}

/// The move from `root` (value `t > 0`) that most directly forces a capture
/// sequence worth `t`.
fn forcing_move(tb: &Tablebase, root: &Position, t: i8) -> Move {
    let rules = tb.rules();
    let value = |p: &Position| tb.value(p).expect("inner moves stay in the layer");
    let mut ids: HashMap<Position, usize> = HashMap::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut queue = vec![*root];
    ids.insert(*root, 0);
    let mut at = 0;
    while at < queue.len() {
        let pos = queue[at];
        at += 1;
        let ours = pos.side_to_move() == root.side_to_move();
        let mut node = Node {
            ours,
            target: false,
            children: Vec::new(),
        };
        let probe = tb.probe(&pos).expect("the root's layers are available");
        let mut k = 0;
        pos.for_each_child(rules, |_, child, effect| {
            let move_value = probe.moves[k].1;
            k += 1;
            if effect.captured > 0 {
                node.target |= ours && move_value >= t;
            } else if !ours || -value(&child) >= t {
                let next = ids.len();
                let id = *ids.entry(child).or_insert(next);
                if id == next {
                    queue.push(child);
                }
                node.children.push(id);
            }
        });
        nodes.push(node);
    }
    let ranks = attractor_ranks(&nodes);
    let mut best: Option<(u32, Move)> = None;
    let mut k = 0;
    let probe = tb.probe(root).expect("the root is inside the tables");
    root.for_each_child(rules, |mv, child, effect| {
        let move_value = probe.moves[k].1;
        k += 1;
        let rank = if effect.captured > 0 {
            (move_value >= t).then_some(0)
        } else {
            ids.get(&child).and_then(|&id| ranks[id])
        };
        if let Some(rank) = rank {
            if best.map_or(true, |(r, _)| rank < r) {
                best = Some((rank, mv));
            }
        }
    });
    best.expect("a positive value is forced from its attractor")
        .1
}

/// Ranks of the nodes from which our side forces a target: ours at rank 0 when
/// a target; ours one more than its best child; theirs one more than its worst
/// child (and 0 with no inner move: all their moves capture, each worth at
/// least `t` to us). `None` where the target cannot be forced.
fn attractor_ranks(nodes: &[Node]) -> Vec<Option<u32>> {
    let mut ranks: Vec<Option<u32>> = nodes
        .iter()
        .map(|n| (n.ours && n.target || !n.ours && n.children.is_empty()).then_some(0))
        .collect();
    loop {
        let mut changed = false;
        for (i, node) in nodes.iter().enumerate() {
            if ranks[i].is_some() {
                continue;
            }
            let mut child_ranks = node.children.iter().map(|&c| ranks[c]);
            let rank = if node.ours {
                child_ranks.flatten().min()
            } else {
                child_ranks.try_fold(0, |m, r| r.map(|r| m.max(r)))
            };
            if let Some(rank) = rank {
                ranks[i] = Some(rank + 1);
                changed = true;
            }
        }
        if !changed {
            return ranks;
        }
    }
}

/// The best move by a negamax search of `depth` plies whose leaves inside the
/// tables are scored exactly and whose other leaves count the captures made on
/// the way; perfect when `pos` is inside the tables.
pub fn search_move(tb: &Tablebase, pos: &Position, depth: u32) -> Option<Move> {
    if let Some(mv) = perfect_move(tb, pos) {
        return Some(mv);
    }
    let mut best: Option<(i32, Move)> = None;
    pos.for_each_child(tb.rules(), |mv, child, _| {
        let score = step_score(tb, pos, &child, depth.saturating_sub(1));
        if best.map_or(true, |(s, _)| score > s) {
            best = Some((score, mv));
        }
    });
    best.map(|(_, mv)| mv)
}

/// The mover's score of the move from `pos` to `child`: seeds taken now plus the
/// searched value of `child`, signed for the mover.
fn step_score(tb: &Tablebase, pos: &Position, child: &Position, depth: u32) -> i32 {
    let mover = pos.side_to_move();
    let gain = |p: &Position| p.captures()[mover] as i32 - p.captures()[mover.opponent()] as i32;
    let rest = if child.is_over() {
        0
    } else if child.side_to_move() == mover {
        negamax(tb, child, depth)
    } else {
        -negamax(tb, child, depth)
    };
    gain(child) - gain(pos) + rest
}

/// The searched value of `pos` for the side to move.
fn negamax(tb: &Tablebase, pos: &Position, depth: u32) -> i32 {
    if let Some(v) = tb.value(pos) {
        return v as i32;
    }
    if depth == 0 {
        return 0;
    }
    let mut best = i32::MIN;
    pos.for_each_child(tb.rules(), |_, child, _| {
        best = best.max(step_score(tb, pos, &child, depth - 1));
    });
    best
}
