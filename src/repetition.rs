//! Counts how often each position occurred since the last capture, exactly and
//! cheaply.
//!
//! The stalled-by-repetition check runs after every ply of every game, so it
//! must cost a few nanoseconds. The record is an open-addressed table of small
//! slots (a 64-bit key, a generation and an index: 16 bytes, four to a cache
//! line) over a list of the stretch's distinct positions with their counts.
//! A ply brings its position with the key of its board, which the game keeps
//! up to date as the seeds of a random move are sown (`src/board_key.rs`;
//! other moves compute it from the board), so the probe does not wait for
//! the board's last stores: a slot of an older generation is
//! empty, and takes the position as a new entry at the end of the list; a
//! slot with the same key sends the ply to its entry, which counts it only if
//! the positions are equal. Equal keys never decide anything: the positions
//! are compared. The table is kept at most a quarter full, so a probe nearly
//! always ends at its first slot, and most plies bring a new position and
//! compare no positions at all.
//!
//! A capture starts a new *generation*: slots of older generations count as
//! empty and the list is truncated, so the record is emptied without its
//! memory being touched. The table starts small and doubles when the stretch
//! between captures outgrows a quarter of it (a stalled 2x12 game can run 200
//! plies without a capture), so the record never becomes quadratic. A
//! finished game's table and list go back to a small per-thread store and
//! serve the thread's next game, grown and with the generation carried on, so
//! that playing thousands of games allocates only a few times per thread.

use std::cell::RefCell;

use crate::position::Position;

/// Slots of a new table: enough for a stretch of 32 plies.
const FIRST_SLOTS: usize = 128;

/// A slot of the table: where a position of the stretch is in the list,
/// found by its key; empty when its generation is not the record's.
#[derive(Debug, Clone, Copy)]
struct Slot {
    key: u64,
    generation: u32,
    index: u32,
}

/// A slot never used (generation 0).
const EMPTY: Slot = Slot {
    key: 0,
    generation: 0,
    index: 0,
};

/// A distinct position of the stretch and how often it occurred.
#[derive(Debug, Clone, Copy)]
struct Entry {
    position: Position,
    count: u32,
}

/// Occurrence counts of the positions since the last capture.
#[derive(Debug, Clone)]
pub(crate) struct Repetitions {
    /// A power of two, at most a quarter full.
    slots: Vec<Slot>,
    /// The stretch's distinct positions, in the order they first occurred.
    entries: Vec<Entry>,
    /// The current generation; never 0, the generation of a slot never used.
    generation: u32,
    /// Positions recorded since the last clear, repeats included.
    len: u32,
}

/// A finished game's table and list, kept for the thread's next game.
type Spare = (Vec<Slot>, Vec<Entry>, u32);

impl Repetitions {
    /// An empty record: a table from this thread's store (emptied by a new
    /// generation), or a new one.
    pub(crate) fn new() -> Repetitions {
        match SPARE.with(|spare| spare.borrow_mut().pop()) {
            Some((slots, entries, generation)) => {
                let mut record = Repetitions {
                    slots,
                    entries,
                    generation,
                    len: 0,
                };
                record.clear();
                record
            }
            None => Repetitions {
                slots: vec![EMPTY; FIRST_SLOTS],
                entries: Vec::with_capacity(FIRST_SLOTS / 4),
                generation: 1,
                len: 0,
            },
        }
    }

    /// Forgets every position (a capture happened).
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.entries.clear();
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

    /// Records one occurrence of `pos`, whose board has the key `board_key`
    /// (any function of the board; equal boards must have equal keys), and
    /// returns how many there have been since the last clear, this one
    /// included.
    #[inline]
    pub(crate) fn record(&mut self, pos: &Position, board_key: u64) -> u32 {
        self.len += 1;
        let key = spread(board_key, pos.side as u64);
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let slot = &mut self.slots[i];
            if slot.generation != self.generation {
                *slot = Slot {
                    key,
                    generation: self.generation,
                    index: self.entries.len() as u32,
                };
                self.entries.push(Entry {
                    position: *pos,
                    count: 1,
                });
                if 4 * self.entries.len() > self.slots.len() {
                    self.grow();
                }
                return 1;
            }
            if slot.key == key {
                let entry = &mut self.entries[slot.index as usize];
                if entry.position == *pos {
                    entry.count += 1;
                    return entry.count;
                }
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
            let mut i = slot.key as usize & mask;
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
    static SPARE: RefCell<Vec<Spare>> = const { RefCell::new(Vec::new()) };
}

/// How many tables a thread keeps (a thread plays one game at a time; a few
/// more for games kept alive side by side).
const SPARE_TABLES: usize = 4;

impl Drop for Repetitions {
    fn drop(&mut self) {
        let slots = std::mem::take(&mut self.slots);
        let entries = std::mem::take(&mut self.entries);
        let generation = self.generation;
        // `try_with`: a record dropped while the thread ends just frees its table.
        let _ = SPARE.try_with(|spare| {
            if let Ok(mut spare) = spare.try_borrow_mut() {
                if spare.len() < SPARE_TABLES {
                    spare.push((slots, entries, generation));
                }
            }
        });
    }
}

/// The slot key of a board key and the side to move: one multiplication,
/// so that keys that differ in a few bits land in different slots.
#[inline]
fn spread(board_key: u64, side: u64) -> u64 {
    let h = (board_key ^ side).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ (h >> 32)
}
#[cfg(test)]
mod tests {
    use super::*;

    /// Records `pos` with the key of its board.
    fn record(reps: &mut Repetitions, pos: &Position) -> u32 {
        reps.record(pos, crate::board_key::of(&pos.board, 32))
    }

    #[test]
    fn positions_with_equal_keys_are_counted_apart() {
        let a: Position = "4,4/4,4 S 0-0".parse().unwrap();
        let b: Position = "3,5/4,4 S 0-0".parse().unwrap();
        let mut reps = Repetitions::new();
        assert_eq!(reps.record(&a, 7), 1);
        assert_eq!(reps.record(&b, 7), 1, "an equal key is not a repetition");
        assert_eq!(reps.record(&a, 7), 2);
        assert_eq!(reps.record(&b, 7), 2);
        assert_eq!(reps.record(&b, 7), 3);
        assert_eq!(reps.len(), 5);
    }

    #[test]
    fn counts_exact_occurrences_across_the_switch_to_the_table_and_clears() {
        let a: Position = "4,4/4,4 S 0-0".parse().unwrap();
        let b: Position = "4,4/4,4 N 0-0".parse().unwrap();
        {
            let mut reps = Repetitions::new();
            assert_eq!(record(&mut reps, &a), 1);
            assert_eq!(record(&mut reps, &b), 1);
            assert_eq!(record(&mut reps, &a), 2);
            // Through several table growths.
            for k in 0..300u32 {
                let p: Position = format!("{},{}/1,1 S 0-0", k % 100, k / 100)
                    .parse()
                    .unwrap();
                assert_eq!(record(&mut reps, &p), 1);
            }
            assert_eq!(record(&mut reps, &a), 3);
            assert_eq!(record(&mut reps, &b), 2);
            assert_eq!(reps.len(), 305);
            reps.clear();
            assert_eq!(reps.len(), 0);
            assert!(reps.entries.is_empty(), "the list is emptied too");
            assert_eq!(record(&mut reps, &a), 1);
            for _ in 0..40 {
                record(&mut reps, &b);
            }
            assert_eq!(record(&mut reps, &b), 41);
            assert_eq!(record(&mut reps, &a), 2);
        }
    }

    #[test]
    fn a_table_taken_back_from_a_finished_game_starts_empty() {
        let a: Position = "4,4/4,4 S 0-0".parse().unwrap();
        {
            let mut reps = Repetitions::new();
            for k in 1..=5 {
                assert_eq!(record(&mut reps, &a), k);
            }
            // Grown past its first size, then dropped into the store.
            for k in 0..100u32 {
                let p: Position = format!("{},{}/2,2 N 0-0", k % 50, k / 50).parse().unwrap();
                assert_eq!(record(&mut reps, &p), 1);
            }
        }
        let mut reused = Repetitions::new();
        assert!(
            reused.slots.len() > FIRST_SLOTS,
            "the grown table is reused"
        );
        assert_eq!(reused.len(), 0);
        assert_eq!(record(&mut reused, &a), 1);
        let p: Position = "3,0/2,2 N 0-0".parse().unwrap();
        assert_eq!(record(&mut reused, &p), 1);
        assert_eq!(record(&mut reused, &p), 2);
    }

    #[test]
    fn the_generation_wraps_by_emptying_the_table() {
        let a: Position = "4,4/4,4 S 0-0".parse().unwrap();
        let mut reps = Repetitions::new();
        reps.generation = u32::MAX;
        assert_eq!(record(&mut reps, &a), 1);
        assert_eq!(record(&mut reps, &a), 2);
        reps.clear();
        assert_eq!(reps.generation, 1);
        assert_eq!(
            record(&mut reps, &a),
            1,
            "a slot of the last generation is not counted"
        );
        reps.clear();
        assert_eq!(record(&mut reps, &a), 1);
    }
}
