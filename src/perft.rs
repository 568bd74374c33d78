//! Perft: counts move sequences to a fixed depth, the standard check of move
//! generation (definition in RULES.md: stall rules ignored, a forced pass is one
//! action, a finished game has none).

use crate::position::Position;
use crate::rules::Rules;

/// The number of legal move sequences of length `depth` from `pos`.
pub fn perft(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    pos.for_each_child(rules, |_, child, _| {
        total += if depth == 1 {
            1
        } else {
            perft(&child, rules, depth - 1)
        };
    });
    total
}
