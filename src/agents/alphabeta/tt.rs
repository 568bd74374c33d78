//! The transposition table (Greenblatt, Eastlake & Crocker 1967; Zobrist 1970
//! for the hashing idea): what the search learnt about a position, kept for
//! the rest of the game, and the principal variation read back from it.
//!
//! Entries are keyed by [`Position::hash_key`] (board and side to move) and
//! store scores relative to the capture difference, so that positions reached
//! with different captures share entries. The table holds a power of two of
//! slots: 4 MiB by default, more with the `tt_mb` key.
//!
//! Which entry a new one replaces:
//! - by default, one slot per key index (the key's low bits), always
//!   replaced;
//! - with the `tt_deep` key, the two slots of an aligned pair (in one cache
//!   line) serve the keys of both indexes: the first keeps the deepest entry
//!   of this search, the second the newest (Breuker, Uiterwijk & van den
//!   Herik 1994, "Replacement schemes for transposition tables": their
//!   TwoDeep). A search of millions of nodes overwrites a small table many
//!   times over, and always replacing loses the deep entries near the root,
//!   which cost the most to find again.

use crate::agents::eval_margin::Score;
use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::Rules;

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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Entry {
    pub key: u64,
    /// Score minus the capture difference of the side to move.
    pub score: i16,
    pub depth: u8,
    pub bound: u8,
    pub mv: u8,
    /// The search (the move of the game) that wrote it, modulo 256: an entry
    /// of an earlier search never keeps a deep slot (`tt_deep`).
    pub age: u8,
}

/// The slot of `key` in a table of `slots` slots (a power of two).
#[inline]
pub(super) fn slot(key: u64, slots: usize) -> usize {
    key as usize & (slots - 1)
}

/// The entry of `key` in `tt`, if there is one: in its slot, or with `deep`
/// in either slot of its pair.
#[inline]
pub(super) fn probe(tt: &[Entry], key: u64, deep: bool) -> Option<Entry> {
    let i = slot(key, tt.len());
    if deep {
        let pair = &tt[i & !1..(i & !1) + 2];
        pair.iter().find(|e| e.key == key).copied()
    } else {
        Some(tt[i]).filter(|e| e.key == key)
    }
}

/// Keeps `new` in its slot (always replaced), or with `deep` in the pair of
/// slots of its key: in the first if it holds the same position, an entry
/// of an earlier search, or one no deeper (which moves to the second); else
/// in the second.
#[inline]
pub(super) fn store(tt: &mut [Entry], new: Entry, deep: bool) {
    let i = slot(new.key, tt.len());
    if !deep {
        tt[i] = new;
        return;
    }
    let first = i & !1;
    let kept = tt[first];
    if kept.key == new.key || kept.age != new.age || new.depth >= kept.depth {
        if kept.key != new.key {
            tt[first + 1] = kept;
        }
        tt[first] = new;
    } else {
        tt[first + 1] = new;
    }
}

/// The principal variation from `root` after its best move `best`: the table's
/// moves from each following position, as long as an entry is there, its move
/// is legal and no position repeats, at most `max` moves in all.
pub(super) fn principal_variation(
    tt: &[Entry],
    deep: bool,
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
        let Some(entry) = probe(tt, key, deep) else {
            break;
        };
        if entry.mv == NO_MOVE || seen.contains(&key) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, depth: u8, age: u8) -> Entry {
        Entry {
            key,
            score: depth as i16,
            depth,
            bound: EXACT,
            mv: 1,
            age,
        }
    }

    /// TwoDeep: the first slot of a pair keeps the deepest entry of the
    /// search, the second takes the rest; the same position, or an entry of
    /// an earlier search, gives way.
    #[test]
    fn a_pair_keeps_the_deepest_entry_of_the_search_beside_the_newest() {
        let mut tt = vec![Entry::default(); 8];
        // Keys 4 and 5 share the pair of slots 4 and 5; 12 too (12 & 7 = 4).
        store(&mut tt, entry(5, 9, 1), true);
        assert_eq!((tt[4].key, tt[5].key), (5, 0));
        store(&mut tt, entry(12, 3, 1), true);
        assert_eq!(
            (tt[4].key, tt[5].key),
            (5, 12),
            "shallower: the second slot"
        );
        store(&mut tt, entry(4, 2, 1), true);
        assert_eq!(
            (tt[4].key, tt[5].key),
            (5, 4),
            "the second slot is always replaced"
        );
        store(&mut tt, entry(12, 9, 1), true);
        assert_eq!(
            (tt[4].key, tt[5].key),
            (12, 5),
            "as deep: first, the old one second"
        );
        store(&mut tt, entry(12, 1, 1), true);
        assert_eq!(
            (tt[4], tt[5].key),
            (entry(12, 1, 1), 5),
            "the same position"
        );
        store(&mut tt, entry(4, 8, 1), true);
        store(&mut tt, entry(5, 2, 2), true);
        assert_eq!(
            (tt[4].key, tt[5].key),
            (5, 4),
            "an earlier search gives way"
        );
        assert!(
            tt[..4].iter().chain(&tt[6..]).all(|e| e.key == 0),
            "other pairs untouched"
        );
        for key in [5, 4] {
            assert_eq!(probe(&tt, key, true).map(|e| e.key), Some(key));
        }
        assert_eq!(probe(&tt, 12, true), None);
        assert_eq!(
            probe(&tt, 4, false).map(|e| e.key),
            None,
            "slot 4 holds key 5"
        );
        assert_eq!(
            probe(&tt, 5, false).map(|e| e.key),
            None,
            "slot 5 holds key 4"
        );
    }
}
