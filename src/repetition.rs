//! Counts how often each position occurred since the last capture, in constant
//! time per ply, exactly.
//!
//! A stalled-by-repetition check runs after every ply of every game, so a scan of
//! the history would make long capture-free stretches quadratic. This is an
//! open-addressing table keyed by the position hash; a slot keeps the index of
//! the position's first occurrence so that equal hashes are confirmed by a full
//! comparison. A capture starts a new generation, which empties the table
//! without touching it.

use crate::position::Position;

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    hash: u64,
    generation: u32,
    first: u32,
    count: u32,
}

/// Occurrence counts of the positions since the last capture.
#[derive(Debug, Clone)]
pub(crate) struct Repetitions {
    slots: Vec<Slot>,
    positions: Vec<Position>,
    generation: u32,
}

impl Repetitions {
    /// An empty table.
    pub(crate) fn new() -> Repetitions {
        Repetitions {
            slots: vec![Slot::default(); 64],
            positions: Vec::with_capacity(32),
            generation: 1,
        }
    }

    /// Forgets every position (a capture happened).
    pub(crate) fn clear(&mut self) {
        self.positions.clear();
        self.generation += 1;
    }

    /// Positions recorded since the last clear.
    pub(crate) fn len(&self) -> usize {
        self.positions.len()
    }

    /// Records one occurrence of `pos` and returns how many there have been
    /// since the last clear, this one included.
    pub(crate) fn record(&mut self, pos: Position) -> u32 {
        if 2 * (self.positions.len() + 1) > self.slots.len() {
            self.grow();
        }
        let hash = pos.hash_key();
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let slot = &mut self.slots[i];
            if slot.generation != self.generation {
                *slot = Slot {
                    hash,
                    generation: self.generation,
                    first: self.positions.len() as u32,
                    count: 1,
                };
                self.positions.push(pos);
                return 1;
            }
            if slot.hash == hash && self.positions[slot.first as usize] == pos {
                slot.count += 1;
                self.positions.push(pos);
                return slot.count;
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the table and re-enters the positions so far.
    fn grow(&mut self) {
        let positions = std::mem::take(&mut self.positions);
        self.slots = vec![Slot::default(); self.slots.len() * 2];
        self.generation = 1;
        for pos in positions {
            self.record(pos);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_exact_occurrences_across_growth_and_clears() {
        let a: Position = "4,4/4,4 S 0-0".parse().unwrap();
        let b: Position = "4,4/4,4 N 0-0".parse().unwrap();
        let mut reps = Repetitions::new();
        assert_eq!(reps.record(a), 1);
        assert_eq!(reps.record(b), 1);
        assert_eq!(reps.record(a), 2);
        // Fill past the table's first size with distinct positions.
        for k in 0..300u32 {
            let p: Position = format!("{},{}/1,1 S 0-0", k % 100, k / 100)
                .parse()
                .unwrap();
            reps.record(p);
        }
        assert_eq!(reps.record(a), 3);
        assert_eq!(reps.record(b), 2);
        assert_eq!(reps.len(), 305);
        reps.clear();
        assert_eq!(reps.len(), 0);
        assert_eq!(reps.record(a), 1);
    }
}
