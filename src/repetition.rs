//! Counts how often each position occurred since the last capture, exactly and
//! cheaply.
//!
//! The stalled-by-repetition check runs after every ply of every game. Most
//! stretches between captures are short, so positions are first compared by a
//! linear scan of a dense array of hashes; a stretch that grows long (a stalled
//! 2x12 game can run 200 plies without a capture) switches to an open-addressing
//! table keyed by the hash, so that it never becomes quadratic. Equal hashes are
//! always confirmed by comparing the positions. A capture starts a new
//! generation, which empties the table without touching it.

use crate::position::Position;

/// Stretches up to this long are scanned; longer ones use the table.
const SCAN_LIMIT: usize = 24;

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    hash: u64,
    generation: u32,
    first: u32,
    count: u32,
}

/// Occurrence counts of the positions since the last capture.
#[derive(Debug, Clone, Default)]
pub(crate) struct Repetitions {
    hashes: Vec<u64>,
    positions: Vec<Position>,
    /// Empty until a stretch outgrows the scan; then a power of two, at most half full.
    slots: Vec<Slot>,
    /// The table holds the current stretch when `indexed` is true.
    indexed: bool,
    generation: u32,
}

impl Repetitions {
    /// An empty record.
    pub(crate) fn new() -> Repetitions {
        Repetitions {
            hashes: Vec::with_capacity(SCAN_LIMIT),
            positions: Vec::with_capacity(SCAN_LIMIT),
            generation: 1,
            ..Repetitions::default()
        }
    }

    /// Forgets every position (a capture happened).
    pub(crate) fn clear(&mut self) {
        self.hashes.clear();
        self.positions.clear();
        self.indexed = false;
        self.generation += 1;
    }

    /// Positions recorded since the last clear.
    pub(crate) fn len(&self) -> usize {
        self.positions.len()
    }

    /// Records one occurrence of `pos` and returns how many there have been
    /// since the last clear, this one included.
    pub(crate) fn record(&mut self, pos: Position) -> u32 {
        let hash = key(&pos);
        if self.positions.len() < SCAN_LIMIT {
            let mut count = 1;
            for (i, &h) in self.hashes.iter().enumerate() {
                if h == hash && self.positions[i] == pos {
                    count += 1;
                }
            }
            self.hashes.push(hash);
            self.positions.push(pos);
            return count;
        }
        self.hashes.push(hash);
        self.positions.push(pos);
        let last = self.positions.len() - 1;
        if !self.indexed || 2 * self.positions.len() > self.slots.len() {
            self.rebuild()
        } else {
            self.insert(last)
        }
    }

    /// Enters occurrence `index` of the stretch and returns its count so far.
    fn insert(&mut self, index: usize) -> u32 {
        let hash = self.hashes[index];
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let slot = &mut self.slots[i];
            if slot.generation != self.generation {
                *slot = Slot {
                    hash,
                    generation: self.generation,
                    first: index as u32,
                    count: 1,
                };
                return 1;
            }
            if slot.hash == hash && self.positions[slot.first as usize] == self.positions[index] {
                slot.count += 1;
                return slot.count;
            }
            i = (i + 1) & mask;
        }
    }

    /// Sizes the table for the stretch, enters every occurrence of it and
    /// returns the count of the last.
    fn rebuild(&mut self) -> u32 {
        let wanted = (4 * self.positions.len()).next_power_of_two();
        if self.slots.len() < wanted {
            self.slots = vec![Slot::default(); wanted];
            self.generation = 1;
        } else {
            self.generation += 1;
        }
        self.indexed = true;
        let mut count = 0;
        for index in 0..self.positions.len() {
            count = self.insert(index);
        }
        count
    }
}

/// A hash of board and side to move, cheaper than [`Position::hash_key`]
/// (one multiplication): it only narrows the search, as equal hashes are
/// always confirmed by comparing the positions. The four words of the board
/// are rotated apart so that seeds moved between words do not cancel.
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
            assert_eq!(reps.record(a), 1);
            assert_eq!(reps.record(b), 1);
            assert_eq!(reps.record(a), 2);
            // Past the scan limit and through several table growths.
            for k in 0..300u32 {
                let p: Position = format!("{},{}/1,1 S 0-0", k % 100, k / 100)
                    .parse()
                    .unwrap();
                assert_eq!(reps.record(p), 1);
            }
            assert_eq!(reps.record(a), 3);
            assert_eq!(reps.record(b), 2);
            assert_eq!(reps.len(), 305);
            reps.clear();
            assert_eq!(reps.len(), 0);
            assert_eq!(reps.record(a), 1);
            for _ in 0..40 {
                reps.record(b);
            }
            assert_eq!(reps.record(b), 41);
            assert_eq!(reps.record(a), 2);
        }
    }
}
