//! Perft: counts move sequences to a fixed depth, the standard check of move
//! generation (definition in RULES.md: stall rules ignored, a forced pass is one
//! action, a finished game has none).
//!
//! Because the stall rules are ignored, a position that cycles (two seeds
//! passed round a 2x2 board forever) never ends the count: each pass round the
//! cycle is another sequence, counted again, for any depth. So any depth is a
//! legal question, and the walk must not grow the call stack with it: below
//! [`RECURSION_DEPTH`] plies it recurses (the fast path every perft test
//! takes), above it an explicit stack on the heap holds the pending positions,
//! so `--depth 100000` on a cycling position answers instead of overflowing
//! the stack.

use crate::engine::position::Position;
use crate::engine::rules::Rules;

/// Plies walked by recursion; deeper requests keep the extra plies on a heap
/// stack. Small enough that the recursion fits any thread's stack.
const RECURSION_DEPTH: u32 = 64;

/// The number of legal move sequences of length `depth` from `pos`.
///
/// The count cannot overflow in practice: it grows by at most one per position
/// visited, so reaching `u64::MAX` would take centuries.
pub fn perft(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    if depth <= RECURSION_DEPTH {
        return recursive(pos, rules, depth);
    }
    // At most 16 children per ply: the stack holds at most 16 x depth positions,
    // and only one per ply when the position cycles with a single move.
    let mut stack = vec![(*pos, depth)];
    let mut total = 0u64;
    while let Some((p, d)) = stack.pop() {
        if d <= RECURSION_DEPTH {
            total += recursive(&p, rules, d);
        } else {
            p.for_each_child(rules, |_, child, _| stack.push((child, d - 1)));
        }
    }
    total
}

fn recursive(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    pos.for_each_child(rules, |_, child, _| {
        total += if depth == 1 {
            1
        } else {
            recursive(&child, rules, depth - 1)
        };
    });
    total
}
