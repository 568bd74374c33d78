//! Move ordering, on which alpha-beta's speed depends: the table's move first,
//! then captures by seeds taken, then (when enabled) the killer moves and the
//! quiet moves by their history score, the rest in hole order.
//!
//! Killer moves: Akl & Newborn 1977, "The principal continuation and the killer
//! heuristic". History heuristic: Schaeffer 1989, "The history heuristic and
//! alpha-beta search enhancements in practice".

use std::mem::MaybeUninit;

use crate::engine::moves::Move;
use crate::engine::position::{ChildSink, MoveEffect, Position};
use crate::engine::rules::Rules;
use crate::engine::side::Side;

/// "No move" in a table entry or a killer slot; a pass is stored as 16.
pub(super) const NO_MOVE: u8 = 255;
/// Slots of the history table per side: holes 0..=15 and the pass.
const HISTORY_SLOTS: usize = 17;
/// History scores are halved when one reaches this, so they stay below the
/// killers' keys.
const HISTORY_CAP: i32 = 1 << 20;
/// Ordering keys of the enhanced search: captures above killers above history.
const CAPTURE_KEY: i32 = 1 << 24;
const KILLER_KEY: i32 = 1 << 22;

/// A move in one byte (a hole index, or 16 for a pass).
#[inline]
pub(super) fn encode(mv: Move) -> u8 {
    match mv {
        Move::Sow(i) => i,
        Move::Pass => 16,
    }
}

/// A child of the node being searched.
#[derive(Clone, Copy)]
pub(super) struct Child {
    pub mv: Move,
    pub pos: Position,
    pub effect: MoveEffect,
}

impl Child {
    /// A move that neither captures nor ends the game.
    #[inline]
    pub fn is_quiet(&self) -> bool {
        self.effect.captured == 0 && !self.effect.game_over
    }
}

/// The children of a node in search order. Each child is made in place, in
/// the slot where it stays (see [`Position::generate_children`]), and the
/// order is kept as one small key per child (its ordering key, then hole order
/// among equals): only the keys are sorted. Copying and moving whole children
/// (52 bytes each, just written by the sowing) cost about a fifth of the
/// search. The slots start uninitialised: clearing them took
/// about 1 KB of stores at every node.
pub(super) struct Children {
    /// `items[..len]` are initialised, the rest not.
    items: [MaybeUninit<Child>; 16],
    /// Sorted highest first: the ordering key (offset to be unsigned) above
    /// bit 8, and `15 - i` for the child at `items[i]` below, so that equal
    /// keys keep generation order.
    keys: [u64; 16],
    len: usize,
}

impl Children {
    /// No children yet.
    #[inline]
    pub fn new() -> Children {
        Children {
            items: [const { MaybeUninit::uninit() }; 16],
            keys: [0; 16],
            len: 0,
        }
    }

    /// How many.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// The children, highest key first.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = &Child> + '_ {
        self.keys[..self.len].iter().map(|&key| {
            let i = 15 - (key & 0xff) as usize;
            debug_assert!(i < self.len);
            // SAFETY: the keys name the slots `0..len`, each written whole
            // by `slot` (its position) and `keep` (its move and effect).
            unsafe { self.items[i].assume_init_ref() }
        })
    }
}

/// Fills [`Children`] from move generation, ordering by `key`.
struct Ordered<'a, K> {
    out: &'a mut Children,
    key: K,
}

impl<K: FnMut(Move, &MoveEffect) -> i32> ChildSink for Ordered<'_, K> {
    #[inline(always)]
    fn slot(&mut self, parent: &Position) -> &mut Position {
        let child = self.out.items[self.out.len].as_mut_ptr();
        // SAFETY: `child` points into `items`, borrowed mutably with `self`
        // for the reference's lifetime; the field is written before the
        // reference to it is made.
        unsafe {
            let pos = std::ptr::addr_of_mut!((*child).pos);
            pos.write(*parent);
            &mut *pos
        }
    }

    #[inline(always)]
    fn keep(&mut self, mv: Move, effect: MoveEffect) {
        let out = &mut *self.out;
        let n = out.len;
        let order = (self.key)(mv, &effect);
        let child = out.items[n].as_mut_ptr();
        // SAFETY: as in `slot`; with these two fields and the position that
        // `slot` wrote, the child is whole and `items[n]` initialised.
        unsafe {
            std::ptr::addr_of_mut!((*child).mv).write(mv);
            std::ptr::addr_of_mut!((*child).effect).write(effect);
        }
        let key = ((i64::from(order) - i64::from(i32::MIN)) as u64) << 8 | (15 - n as u64);
        let mut i = n;
        while i > 0 && out.keys[i - 1] < key {
            out.keys[i] = out.keys[i - 1];
            i -= 1;
        }
        out.keys[i] = key;
        out.len = n + 1;
    }
}

/// The child reached by the table's move `mv`, if it names a legal move of
/// `pos` (a hash collision may name any).
#[inline]
pub(super) fn table_child(pos: &Position, rules: &Rules, mv: u8) -> Option<Child> {
    let mv = match mv {
        i if i < pos.holes() && pos.row(pos.side_to_move())[i as usize] > 0 => Move::Sow(i),
        _ => return None,
    };
    let (child, effect) = pos.play_unchecked(rules, mv)?;
    Some(Child {
        mv,
        pos: child,
        effect,
    })
}

/// Generates the children of `pos` into `out`, sorted by `key` (highest first,
/// hole order among equals), but the move `done` (already searched, or
/// [`NO_MOVE`]).
#[inline]
fn sorted_children(
    pos: &Position,
    rules: &Rules,
    done: u8,
    out: &mut Children,
    key: impl FnMut(Move, &MoveEffect) -> i32,
) {
    pos.generate_children(rules, done, &mut Ordered { out, key });
}

/// Generates the children of `pos` into `out`, the move `first` first, then
/// captures by seeds taken, then the rest in hole order, but the move `done`
/// (already searched, or [`NO_MOVE`]).
#[inline]
pub(super) fn order_children(
    pos: &Position,
    rules: &Rules,
    first: u8,
    done: u8,
    out: &mut Children,
) {
    sorted_children(pos, rules, done, out, |mv, effect| {
        if encode(mv) == first {
            i32::MAX
        } else {
            effect.captured as i32 + effect.game_over as i32 * 256
        }
    })
}

/// Killer moves per ply and history scores per side, for one search.
#[derive(Debug, Clone)]
pub(super) struct MoveOrder {
    killers: Vec<[u8; 2]>,
    history: [[i32; HISTORY_SLOTS]; 2],
}

impl MoveOrder {
    /// Empty, for lines of up to `plies` plies.
    pub fn new(plies: usize) -> MoveOrder {
        MoveOrder {
            killers: vec![[NO_MOVE; 2]; plies],
            history: [[0; HISTORY_SLOTS]; 2],
        }
    }

    /// Forgets everything (a new search).
    pub fn clear(&mut self) {
        self.killers.fill([NO_MOVE; 2]);
        self.history = [[0; HISTORY_SLOTS]; 2];
    }

    /// The quiet move `mv` of `side` refuted the position at `ply` with
    /// `depth` plies to go.
    pub fn cutoff(&mut self, ply: usize, side: Side, mv: Move, depth: u32, killers: bool) {
        let code = encode(mv);
        if killers {
            if let Some(slot) = self.killers.get_mut(ply) {
                if slot[0] != code {
                    slot[1] = slot[0];
                    slot[0] = code;
                }
            }
        }
        let row = &mut self.history[side.index()];
        let bonus = (depth * depth).min(HISTORY_CAP as u32) as i32;
        row[code as usize] += bonus;
        if row[code as usize] >= HISTORY_CAP {
            row.iter_mut().for_each(|h| *h /= 2);
        }
    }

    /// Generates the children of `pos` (at `ply` from the root) into `out`:
    /// captures by seeds taken, then the killers of the ply (if `killers`),
    /// then quiet moves by history score (if `history`), hole order among
    /// equals, but the move `done` (already searched, or [`NO_MOVE`]).
    #[allow(clippy::too_many_arguments)]
    pub fn children(
        &self,
        pos: &Position,
        rules: &Rules,
        ply: usize,
        killers: bool,
        history: bool,
        done: u8,
        out: &mut Children,
    ) {
        let slot = match self.killers.get(ply) {
            Some(&slot) if killers => slot,
            _ => [NO_MOVE; 2],
        };
        let row = &self.history[pos.side_to_move().index()];
        sorted_children(pos, rules, done, out, |mv, effect| {
            let code = encode(mv);
            if effect.captured > 0 || effect.game_over {
                CAPTURE_KEY + effect.captured as i32 + effect.game_over as i32 * 256
            } else if code == slot[0] {
                KILLER_KEY + 1
            } else if code == slot[1] {
                KILLER_KEY
            } else if history {
                row[code as usize]
            } else {
                0
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Variant;

    #[test]
    fn killers_come_after_captures_and_history_orders_the_rest() {
        let rules = Rules::new(Variant::Ii);
        let pos = Position::start(&rules);
        let mut order = MoveOrder::new(4);
        let children = |order: &MoveOrder, killers, history| {
            let mut out = Children::new();
            order.children(&pos, &rules, 1, killers, history, NO_MOVE, &mut out);
            out.iter().map(|c| encode(c.mv)).collect::<Vec<u8>>()
        };
        // No capture from the start: hole order.
        assert_eq!(children(&order, true, true), vec![0, 1, 2, 3, 4, 5]);
        order.cutoff(1, Side::South, Move::Sow(4), 3, true);
        order.cutoff(1, Side::South, Move::Sow(2), 1, true);
        order.cutoff(2, Side::South, Move::Sow(5), 9, true);
        // Killers of ply 1 (latest first), then history: hole 6 has 81.
        assert_eq!(children(&order, true, true), vec![2, 4, 5, 0, 1, 3]);
        assert_eq!(children(&order, false, false), vec![0, 1, 2, 3, 4, 5]);
        // History alone: holes 6 (81), 5 (9) and 3 (1), then hole order.
        assert_eq!(children(&order, false, true), vec![5, 4, 2, 0, 1, 3]);
        order.clear();
        assert_eq!(children(&order, true, true), vec![0, 1, 2, 3, 4, 5]);
    }
}
