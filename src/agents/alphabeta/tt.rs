//! The transposition table (Greenblatt, Eastlake & Crocker 1967; Zobrist 1970
//! for the hashing idea): what the search learnt about a position, kept for
//! the rest of the game, and the principal variation read back from it.
//!
//! Entries are keyed by [`Position::hash_key`] (board and side to move) and
//! store scores relative to the capture difference, so that positions reached
//! with different captures share entries. One slot per key index (the key's
//! low bits), always replaced. The table holds a power of two of slots: 4 MiB
//! by default, more with the `tt_mb` key.

use crate::agents::evaluation::Score;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;

use super::ordering::{encode, table_child, NO_MOVE};

/// Bytes of one slot.
pub(super) const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

/// The slots of a table of `mb` MiB (a power of two).
pub(super) fn slots_of(mb: u32) -> usize {
    (mb as usize) << 20 >> ENTRY_BYTES.trailing_zeros()
}

/// Bound kinds of a table entry.
pub(super) const EXACT: u8 = 0;
pub(super) const LOWER: u8 = 1;
pub(super) const UPPER: u8 = 2;

/// One transposition-table slot.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Entry {
    pub key: u64,
    /// Score minus the capture difference of the side to move.
    pub score: i16,
    pub depth: u8,
    pub bound: u8,
    pub mv: u8,
}

/// The slot of `key` in a table of `slots` slots (a power of two).
#[inline]
pub(super) fn slot(key: u64, slots: usize) -> usize {
    key as usize & (slots - 1)
}

/// The principal variation from `root` after its best move `best`: the table's
/// moves from each following position, as long as an entry is there, its move
/// is legal and no position repeats, at most `max` moves in all.
pub(super) fn principal_variation(
    tt: &[Entry],
    rules: &Rules,
    root: &Position,
    best: Move,
    max: usize,
) -> Vec<Move> {
    let mut pv = vec![best];
    let Some((mut pos, _)) = root.play_unchecked(rules, best) else {
        return pv;
    };
    let mut seen = vec![root.hash_key()];
    while pv.len() < max && !pos.is_over() {
        let key = pos.hash_key();
        let entry = tt[slot(key, tt.len())];
        if entry.key != key || entry.mv == NO_MOVE || seen.contains(&key) {
            break;
        }
        let mv = if entry.mv == encode(Move::Pass) {
            pos.play_unchecked(rules, Move::Pass)
                .map(|(next, _)| (Move::Pass, next))
        } else {
            table_child(&pos, rules, entry.mv).map(|child| (child.mv, child.pos))
        };
        let Some((mv, next)) = mv else {
            break;
        };
        seen.push(key);
        pv.push(mv);
        pos = next;
    }
    pv
}

/// The score an entry gives at a node with `depth` plies to go, window
/// `alpha..beta` and capture difference `base`, if it is usable there.
#[inline]
pub(super) fn usable(
    entry: &Entry,
    depth: u32,
    alpha: Score,
    beta: Score,
    base: Score,
) -> Option<Score> {
    if entry.depth as u32 >= depth {
        let s = entry.score as Score + base;
        let ok = match entry.bound {
            EXACT => true,
            LOWER => s >= beta,
            _ => s <= alpha,
        };
        if ok {
            return Some(s);
        }
    }
    None
}
