//! Counts how often each position occurred since the last capture, exactly and
//! cheaply.
//!
//! The stalled-by-repetition check runs after every ply of every game, so it
//! must cost a few nanoseconds. The record is one open-addressed table whose
//! slots hold the positions themselves with their counts: a ply hashes its
//! position, finds its slot (nearly always the first probed, the table being
//! at most half full) and either counts one more occurrence or takes an empty
//! slot. Equal hashes never decide anything: a slot matches only a position
//! equal to its own. A capture starts a new *generation*: slots of older
//! generations count as empty, so the table is emptied without being touched.
//! The table starts small and doubles when the stretch between captures
//! outgrows half of it (a stalled 2x12 game can run 200 plies without a
//! capture), so the record never becomes quadratic. A finished game's table
//! goes back to a small per-thread store and serves the thread's next game,
//! grown and with its generation carried on, so that playing thousands of
//! games allocates and grows tables only a few times per thread.

use std::cell::RefCell;

use crate::position::Position;
use crate::side::{BySide, Side};

/// Slots of a new table: enough for a stretch of 32 plies.
const FIRST_SLOTS: usize = 64;

/// One position of the stretch and its count; empty when its generation is
/// not the record's.
#[derive(Debug, Clone, Copy)]
struct Slot {
    position: Position,
    generation: u32,
    count: u32,
}

/// A slot never used (generation 0); its position is never compared.
const EMPTY: Slot = Slot {
    position: Position {
        board: [0; 32],
        holes: 0,
        side: Side::South,
        captures: BySide { south: 0, north: 0 },
    },
    generation: 0,
    count: 0,
};

/// Occurrence counts of the positions since the last capture.
#[derive(Debug, Clone)]
pub(crate) struct Repetitions {
    /// A power of two, at most half full.
    slots: Vec<Slot>,
    /// The current generation; never 0, the generation of a slot never used.
    generation: u32,
    /// Positions recorded since the last clear, repeats included.
    len: u32,
    /// Distinct positions since the last clear (slots taken).
    distinct: u32,
}

impl Repetitions {
    /// An empty record: a table from this thread's store (emptied by a new
    /// generation), or a new one.
    pub(crate) fn new() -> Repetitions {
        match SPARE.with(|spare| spare.borrow_mut().pop()) {
            Some((slots, generation)) => {
                let mut record = Repetitions {
                    slots,
                    generation,
                    len: 0,
                    distinct: 0,
                };
                record.clear();
                record
            }
            None => Repetitions {
                slots: vec![EMPTY; FIRST_SLOTS],
                generation: 1,
                len: 0,
                distinct: 0,
            },
        }
    }

    /// Forgets every position (a capture happened).
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.distinct = 0;
        self.generation = match self.generation.checked_add(1) {
            Some(next) => next,
            None => {
                // After 2^32 captures: empty the slots for real, once.
                self.slots.fill(EMPTY);
                1
            }
        };
    }

    /// Positions recorded since the last clear.
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    /// Records one occurrence of `pos` and returns how many there have been
    /// since the last clear, this one included.
    #[inline]
    pub(crate) fn record(&mut self, pos: &Position) -> u32 {
        self.len += 1;
        let mask = self.slots.len() - 1;
        let mut i = key(pos) as usize & mask;
        loop {
            let slot = &mut self.slots[i];
            if slot.generation != self.generation {
                *slot = Slot {
                    position: *pos,
                    generation: self.generation,
                    count: 1,
                };
                self.distinct += 1;
                if 2 * self.distinct as usize > self.slots.len() {
                    self.grow();
                }
                return 1;
            }
            if slot.position == *pos {
                slot.count += 1;
                return slot.count;
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the table and enters the current stretch's slots again.
    #[cold]
    fn grow(&mut self) {
        let doubled = vec![EMPTY; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, doubled);
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|s| s.generation == self.generation) {
            let mut i = key(&slot.position) as usize & mask;
            while self.slots[i].generation == self.generation {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot;
        }
    }
}

thread_local! {
    /// Tables of finished games kept for the thread's next games, with the
    /// generation they reached; at most [`SPARE_TABLES`].
    static SPARE: RefCell<Vec<(Vec<Slot>, u32)>> = const { RefCell::new(Vec::new()) };
}

/// How many tables a thread keeps (a thread plays one game at a time; a few
/// more for games kept alive side by side).
const SPARE_TABLES: usize = 4;

impl Drop for Repetitions {
    fn drop(&mut self) {
        let slots = std::mem::take(&mut self.slots);
        let generation = self.generation;
        // `try_with`: a record dropped while the thread ends just frees its table.
        let _ = SPARE.try_with(|spare| {
            if let Ok(mut spare) = spare.try_borrow_mut() {
                if spare.len() < SPARE_TABLES {
                    spare.push((slots, generation));
                }
            }
        });
    }
}

/// A hash of board and side to move, cheaper than [`Position::hash_key`]
/// (one multiplication): it only spreads the positions over the table, as a
/// slot matches only an equal position. The four words of the board are
/// rotated apart so that seeds moved between words do not cancel.
#[inline]
fn key(pos: &Position) -> u64 {
    let word = |i: usize| {
        u64::from_le_bytes(
            pos.board[8 * i..8 * i + 8]
                .try_into()
                .expect("four words of eight bytes"),
        )
    };
    let mixed = word(0)
        ^ word(1).rotate_left(16)
        ^ word(2).rotate_left(32)
        ^ word(3).rotate_left(48)
        ^ pos.side as u64;
    let h = mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ (h >> 32)
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_exact_occurrences_across_the_switch_to_the_table_and_clears() {
        let a: Position = "4,4/4,4 S 0-0".parse().unwrap();
        let b: Position = "4,4/4,4 N 0-0".parse().unwrap();
        {
            let mut reps = Repetitions::new();
            assert_eq!(reps.record(&a), 1);
            assert_eq!(reps.record(&b), 1);
            assert_eq!(reps.record(&a), 2);
            // Past the scan limit and through several table growths.
            for k in 0..300u32 {
                let p: Position = format!("{},{}/1,1 S 0-0", k % 100, k / 100)
                    .parse()
                    .unwrap();
                assert_eq!(reps.record(&p), 1);
            }
            assert_eq!(reps.record(&a), 3);
            assert_eq!(reps.record(&b), 2);
            assert_eq!(reps.len(), 305);
            reps.clear();
            assert_eq!(reps.len(), 0);
            assert_eq!(reps.record(&a), 1);
            for _ in 0..40 {
                reps.record(&b);
            }
            assert_eq!(reps.record(&b), 41);
            assert_eq!(reps.record(&a), 2);
        }
    }

    #[test]
    fn a_table_taken_back_from_a_finished_game_starts_empty() {
        let a: Position = "4,4/4,4 S 0-0".parse().unwrap();
        {
            let mut reps = Repetitions::new();
            for k in 1..=5 {
                assert_eq!(reps.record(&a), k);
            }
            // Grown past its first size, then dropped into the store.
            for k in 0..100u32 {
                let p: Position = format!("{},{}/2,2 N 0-0", k % 50, k / 50).parse().unwrap();
                assert_eq!(reps.record(&p), 1);
            }
        }
        let mut reused = Repetitions::new();
        assert!(
            reused.slots.len() > FIRST_SLOTS,
            "the grown table is reused"
        );
        assert_eq!(reused.len(), 0);
        assert_eq!(reused.record(&a), 1);
        let p: Position = "3,0/2,2 N 0-0".parse().unwrap();
        assert_eq!(reused.record(&p), 1);
        assert_eq!(reused.record(&p), 2);
    }

    #[test]
    fn the_generation_wraps_by_emptying_the_table() {
        let a: Position = "4,4/4,4 S 0-0".parse().unwrap();
        let mut reps = Repetitions::new();
        reps.generation = u32::MAX;
        assert_eq!(reps.record(&a), 1);
        assert_eq!(reps.record(&a), 2);
        reps.clear();
        assert_eq!(reps.generation, 1);
        assert_eq!(
            reps.record(&a),
            1,
            "a slot of the last generation is not counted"
        );
        reps.clear();
        assert_eq!(reps.record(&a), 1);
    }
}
