//! Counts how often each position occurred since the last capture, exactly and
//! cheaply.
//!
//! The stalled-by-repetition check runs after every ply of every game, so it
//! must cost a few nanoseconds. The record is an open-addressed table of small
//! slots (a 32-bit tag of the position's key, a generation, the ply of the
//! stretch where the position first occurred and its count: 16 bytes, four
//! to a cache line). A ply brings its position with the key of its board,
//! which the game keeps up to date as the seeds of a random move are sown
//! (`src/engine/board_key.rs`; other moves compute it from the board), so the probe
//! does not wait for the board's last stores: a slot of an older generation
//! is empty, and takes the position as new; a slot with the same tag sends
//! the ply to the position it stands for, which counts it only if the
//! positions are equal. Equal tags never decide anything: the positions are
//! compared. The table is kept at most a quarter full, so a probe nearly
//! always ends at its first slot, and most plies bring a new position and
//! compare no positions at all.
//!
//! The positions themselves are not kept: a repetition is rare (on 2x12 about
//! one random game in 200 has one), and copying every position (36 bytes a
//! ply) was about half of what the record cost the random harness. The rare
//! position a tag leads to is made again by the game's moves, which the game
//! hands to the record with each ply: from the stretch's first position, kept
//! at each capture, through checkpoints every [`CHECKPOINT`] plies that are
//! made as far as they are needed, so that no position costs more than
//! `CHECKPOINT - 1` moves once the checkpoints before it exist, and the
//! checkpoints cost each move of the stretch once at most.
//!
//! A capture starts a new *generation*: slots of older generations count as
//! empty and the checkpoints are forgotten, so the record is emptied without
//! its memory being touched. The table starts small and doubles when the
//! stretch between captures outgrows a quarter of it (a stalled 2x12 game
//! can run 200 plies without a capture), so the record never becomes
//! quadratic. A finished game's table goes back to a small per-thread store
//! and serves the thread's next game, grown and with the generation carried
//! on, so that playing thousands of games allocates only a few times per
//! thread.

use std::cell::RefCell;

use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::Rules;

/// Slots of a new table: enough for a stretch of 32 plies.
const FIRST_SLOTS: usize = 128;

/// Plies between checkpoints: once the checkpoints before a position
/// exist, the most moves played again to make it is one less.
const CHECKPOINT: u32 = 16;

/// A slot of the table: a position of the stretch, found by its tag;
/// empty when its generation is not the record's.
#[derive(Debug, Clone, Copy)]
struct Slot {
    tag: u32,
    generation: u32,
    /// The ply of the stretch (0 for its first position) where the position
    /// first occurred.
    ply: u32,
    /// Its occurrences so far.
    count: u32,
}

/// A slot never used (generation 0).
const EMPTY: Slot = Slot {
    tag: 0,
    generation: 0,
    ply: 0,
    count: 0,
};

/// The moves of the game so far, the last one the move that made the
/// position being recorded: what makes a position of the stretch again.
#[derive(Debug, Clone, Copy)]
pub(crate) struct History<'a> {
    pub(crate) rules: &'a Rules,
    pub(crate) moves: &'a [Move],
}

/// Occurrence counts of the positions since the last capture.
#[derive(Debug, Clone)]
pub(crate) struct Repetitions {
    /// A power of two, at most a quarter full.
    slots: Vec<Slot>,
    /// The stretch's first position.
    first: Position,
    /// The stretch's positions at plies `CHECKPOINT`, 2 `CHECKPOINT`... as
    /// far as they were needed to make positions again.
    checkpoints: Vec<Position>,
    /// The current generation; never 0, the generation of a slot never used.
    generation: u32,
    /// Positions recorded since the last clear, repeats included.
    len: u32,
}

/// A finished game's table and checkpoints, kept for the thread's next game.
type Spare = (Vec<Slot>, Vec<Position>, u32);

impl Repetitions {
    /// An empty record for a game from `start` (not recorded yet): a table
    /// from this thread's store (emptied by a new generation), or a new one.
    pub(crate) fn new(start: &Position) -> Repetitions {
        let (slots, checkpoints, generation) = SPARE
            .with(|spare| spare.borrow_mut().pop())
            .unwrap_or_else(|| (vec![EMPTY; FIRST_SLOTS], Vec::new(), 0));
        let mut record = Repetitions {
            slots,
            first: *start,
            checkpoints,
            generation,
            len: 0,
        };
        record.clear(start);
        record
    }

    /// Forgets every position (a capture happened): the next one recorded
    /// is `first`.
    pub(crate) fn clear(&mut self, first: &Position) {
        self.len = 0;
        self.first = *first;
        self.checkpoints.clear();
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
    /// (any function of the board; equal boards must have equal keys) and
    /// which the last of `history`'s moves made (none for the first position
    /// of a game), and returns how many there have been since the last
    /// clear, this one included.
    #[inline(always)]
    pub(crate) fn record(&mut self, pos: &Position, board_key: u64, history: History<'_>) -> u32 {
        let ply = self.len;
        self.len += 1;
        let tag = spread(board_key, pos.side as u64);
        let mask = self.slots.len() - 1;
        let mut i = tag as usize & mask;
        loop {
            let slot = &mut self.slots[i];
            if slot.generation != self.generation {
                *slot = Slot {
                    tag,
                    generation: self.generation,
                    ply,
                    count: 1,
                };
                if 4 * self.len as usize > self.slots.len() {
                    self.grow();
                }
                return 1;
            }
            if slot.tag == tag {
                let first = slot.ply;
                if self.position_at(first, history) == *pos {
                    let slot = &mut self.slots[i];
                    slot.count += 1;
                    return slot.count;
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// The position at ply `ply` of the stretch, made again from the
    /// checkpoint before it, the checkpoints up to it made first if they
    /// are not yet: the rare path, where a tag matched.
    #[cold]
    #[inline(never)]
    fn position_at(&mut self, ply: u32, history: History<'_>) -> Position {
        // The stretch's moves: the one at k made the position at ply k + 1.
        let moves = &history.moves[history.moves.len() + 1 - self.len as usize..];
        let replay = |mut pos: Position, plies: std::ops::Range<u32>| {
            for &mv in &moves[plies.start as usize..plies.end as usize] {
                pos.play_unchecked_in_place(history.rules, mv)
                    .expect("a move of the game is played again as it was");
            }
            pos
        };
        let wanted = (ply / CHECKPOINT) as usize;
        while self.checkpoints.len() < wanted {
            let known = self.checkpoints.len() as u32 * CHECKPOINT;
            let last = self.checkpoints.last().unwrap_or(&self.first);
            self.checkpoints
                .push(replay(*last, known..known + CHECKPOINT));
        }
        let from = wanted as u32 * CHECKPOINT;
        let checkpoint = match wanted {
            0 => self.first,
            _ => self.checkpoints[wanted - 1],
        };
        replay(checkpoint, from..ply)
    }

    /// Doubles the table and enters the current stretch's slots again.
    #[cold]
    fn grow(&mut self) {
        let doubled = vec![EMPTY; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, doubled);
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|s| s.generation == self.generation) {
            let mut i = slot.tag as usize & mask;
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
        let checkpoints = std::mem::take(&mut self.checkpoints);
        let generation = self.generation;
        // `try_with`: a record dropped while the thread ends just frees its table.
        let _ = SPARE.try_with(|spare| {
            if let Ok(mut spare) = spare.try_borrow_mut() {
                if spare.len() < SPARE_TABLES {
                    spare.push((slots, checkpoints, generation));
                }
            }
        });
    }
}

/// The tag of a board key and the side to move: one multiplication, so that
/// keys that differ in a few bits land in different slots, folded to 32 bits.
#[inline]
fn spread(board_key: u64, side: u64) -> u32 {
    let h = (board_key ^ side).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h ^ (h >> 32)) as u32
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board_key;
    use crate::engine::rules::Variant;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// A stretch of random plies recorded as a game records them, beside a
    /// plain list of its positions.
    struct Stretch {
        rules: Rules,
        key: fn(&Position) -> u64,
        pos: Position,
        moves: Vec<Move>,
        plain: Vec<Position>,
        reps: Repetitions,
    }

    impl Stretch {
        /// A game from the start, its boards keyed by `key`.
        fn new(rules: Rules, key: fn(&Position) -> u64) -> Stretch {
            let pos = Position::start(&rules);
            let mut stretch = Stretch {
                rules,
                key,
                pos,
                moves: Vec::new(),
                plain: Vec::new(),
                reps: Repetitions::new(&pos),
            };
            stretch.record();
            stretch
        }

        /// Records the position and checks its count against the plain
        /// list.
        fn record(&mut self) -> u32 {
            self.plain.push(self.pos);
            let history = History {
                rules: &self.rules,
                moves: &self.moves,
            };
            let count = self.reps.record(&self.pos, (self.key)(&self.pos), history);
            let plain = self.plain.iter().filter(|&&p| p == self.pos).count();
            assert_eq!(count as usize, plain, "ply {}", self.plain.len() - 1);
            assert_eq!(self.reps.len(), self.plain.len());
            count
        }

        /// Plays a random ply (a new game once this one is over) and
        /// records it; a capture, or `limit` plies, starts a new stretch.
        /// The most occurrences of a position recorded.
        fn ply(&mut self, rng: &mut ChaCha8Rng, limit: usize) -> u32 {
            if self.pos.is_over() {
                *self = Stretch::new(self.rules, self.key);
            }
            let (mv, effect) =
                self.pos
                    .play_random_in_place(&self.rules, self.pos.nonempty_mask(), rng);
            self.moves.push(mv);
            if effect.captured > 0 || self.plain.len() >= limit {
                self.reps.clear(&self.pos);
                self.plain.clear();
            }
            self.record()
        }
    }

    /// The board's own key.
    const OWN: fn(&Position) -> u64 = board_key::of_position;

    /// One key for every board.
    const ONE: fn(&Position) -> u64 = |_| 7;

    /// Random play on small boards, where positions recur often, and on
    /// 2x12: every count equals the plain count of the stretch's positions,
    /// with the boards' own keys and with one key for every board (every
    /// record then makes positions again, from checkpoints far into long
    /// stretches), through table growths and many stretches.
    #[test]
    fn counts_equal_a_plain_count_of_the_stretch() {
        let mut rng = ChaCha8Rng::seed_from_u64(15);
        let mut most = 0;
        for variant in [Variant::I, Variant::Ii, Variant::Iii] {
            for (holes, seeds, plies) in [(2, 1, 3000), (2, 2, 3000), (3, 1, 3000), (12, 4, 2000)] {
                let rules = Rules::new(variant).with_board(holes, seeds).unwrap();
                for (key, limit) in [(OWN, 300), (ONE, 100)] {
                    let mut stretch = Stretch::new(rules, key);
                    for _ in 0..plies {
                        most = most.max(stretch.ply(&mut rng, limit));
                    }
                }
            }
        }
        assert!(most >= 10, "positions recurred (at most {most} times)");
    }

    #[test]
    fn positions_with_equal_keys_are_counted_apart() {
        // 2x2, one seed a hole: the few seeds go round and round.
        let rules = Rules::new(Variant::I).with_board(2, 1).unwrap();
        let mut stretch = Stretch::new(rules, ONE);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let counts: Vec<u32> = (0..40).map(|_| stretch.ply(&mut rng, 1000)).collect();
        assert!(
            counts.contains(&1) && counts.iter().any(|&c| c > 2),
            "{counts:?}"
        );
    }

    #[test]
    fn a_table_taken_back_from_a_finished_game_starts_empty() {
        let rules = Rules::new(Variant::Ii).with_board(12, 4).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        {
            let mut stretch = Stretch::new(rules, OWN);
            // Grown past its first size, then dropped into the store.
            for _ in 0..200 {
                stretch.ply(&mut rng, 200);
            }
            assert!(stretch.reps.slots.len() > FIRST_SLOTS);
        }
        let start = Position::start(&rules);
        let reused = Repetitions::new(&start);
        assert!(
            reused.slots.len() > FIRST_SLOTS,
            "the grown table is reused"
        );
        assert_eq!(reused.len(), 0);
        // The same plies again count from nothing.
        let mut stretch = Stretch::new(rules, OWN);
        for _ in 0..200 {
            stretch.ply(&mut rng, 200);
        }
    }

    #[test]
    fn the_generation_wraps_by_emptying_the_table() {
        let rules = Rules::new(Variant::I).with_board(2, 1).unwrap();
        let mut stretch = Stretch::new(rules, OWN);
        stretch.reps.generation = u32::MAX;
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        // Plies of generation u32::MAX, then the wrap to 1 at the next
        // stretch: the plain count holds throughout.
        for _ in 0..20 {
            stretch.ply(&mut rng, 6);
        }
        assert!(stretch.reps.generation < 10, "{}", stretch.reps.generation);
    }
}
