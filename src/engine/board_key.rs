//! A key of the board that the sowing keeps up to date as it goes, so that
//! the probe of a game's repetition record never waits on a freshly sown
//! board.
//!
//! The key is linear: the sum over the holes of the seeds in each hole times
//! a fixed random odd weight of that hole (wrapping, 64 bits). A lap of `k`
//! seeds from hole `h` adds the weights of the `k` holes after `h`, going
//! round the board: the difference of two entries of a table of running
//! sums, whatever `k`. Picking up a hole and capturing one subtract its
//! weight times its seeds. So the key follows a move in a few additions per
//! lap, fed by the steps the sowing reports to its [`Observer`], while the
//! board itself is still being written.
//!
//! Why: a hash of the position after every ply, for the record of the
//! positions since the last capture, waits for the sowing's last byte stores
//! (a wide load of bytes still in the store buffer cannot be forwarded), and
//! the probe of the table, and the slot it finds, wait on the hash. With this
//! key the probe does not wait on the board.
//!
//! The key only narrows the search: different boards can share a key, and the
//! record compares the positions themselves (`src/engine/repetition.rs`).

use crate::engine::position::Position;
use crate::engine::seeding::splitmix64_nth;
use crate::engine::sowing::{Board, Observer, Step};

/// Holes on the largest board (2 x 16).
const MAX_HOLES: usize = 32;

/// Entries of a table of running sums: a lap starts after a hole below 32
/// and sows at most 255 seeds.
const SUMS: usize = MAX_HOLES + 256;

/// The weight of each hole: random odd 64-bit numbers (the SplitMix64
/// stream of the tournament's seeding, from a fixed seed), so that seeds
/// moved between holes change the key.
const WEIGHTS: [u64; MAX_HOLES] = {
    let mut weights = [0u64; MAX_HOLES];
    let mut i = 0;
    while i < MAX_HOLES {
        weights[i] = splitmix64_nth(0x5EED_0F40_5EED, i as u64) | 1;
        i += 1;
    }
    weights
};

/// Running sums of the weights round a board of `len` holes: entry `j` is
/// the sum of the weights of holes `0, 1, ..., j - 1` taken modulo `len`.
pub(crate) struct LapSums([u64; SUMS]);

/// The running sums of every board: entry `n` for a board of `n` holes
/// (2 x 2 to 2 x 16; the others are unused).
static LAP_SUMS: [LapSums; MAX_HOLES + 1] = {
    let mut all = [const { LapSums([0; SUMS]) }; MAX_HOLES + 1];
    let mut len = 1;
    while len <= MAX_HOLES {
        let mut j = 1;
        while j < SUMS {
            all[len].0[j] = all[len].0[j - 1].wrapping_add(WEIGHTS[(j - 1) % len]);
            j += 1;
        }
        len += 1;
    }
    all
};

impl std::fmt::Debug for LapSums {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LapSums(..)")
    }
}

impl LapSums {
    /// The running sums of a board of `len` holes (both rows).
    pub(crate) fn of(len: usize) -> &'static LapSums {
        &LAP_SUMS[len]
    }
}

/// The key of the first `len` holes of `board`, computed from the board.
pub(crate) fn of(board: &Board, len: usize) -> u64 {
    board[..len]
        .iter()
        .zip(WEIGHTS)
        .fold(0u64, |key, (&seeds, weight)| {
            key.wrapping_add(u64::from(seeds).wrapping_mul(weight))
        })
}

/// The key of `pos`'s board, computed from the board.
pub(crate) fn of_position(pos: &Position) -> u64 {
    of(&pos.board, pos.len())
}

/// An [`Observer`] that keeps the key of the board it watches up to date,
/// step by step (the board of `len` holes whose running sums it holds).
#[derive(Clone, Copy)]
pub(crate) struct KeyKeeper {
    /// The key of the board after the steps seen so far.
    pub(crate) key: u64,
    sums: &'static LapSums,
}

impl KeyKeeper {
    /// A keeper of a board with key `key` and running sums `sums`.
    pub(crate) fn new(key: u64, sums: &'static LapSums) -> KeyKeeper {
        KeyKeeper { key, sums }
    }
}

impl Observer for KeyKeeper {
    #[inline(always)]
    fn step(&mut self, step: Step) {
        match step {
            Step::Lap { from, seeds } => {
                // Hole `from` was emptied into the hand, which then went round.
                let (from, seeds) = (from as usize, seeds as usize);
                let sown = self.sums.0[from + 1 + seeds].wrapping_sub(self.sums.0[from + 1]);
                let taken = (seeds as u64).wrapping_mul(WEIGHTS[from]);
                self.key = self.key.wrapping_add(sown).wrapping_sub(taken);
            }
            Step::Capture { hole, .. } => {
                let taken = 4u64.wrapping_mul(WEIGHTS[hole as usize]);
                self.key = self.key.wrapping_sub(taken);
            }
            Step::LastSeeds { .. } => self.key = 0,
            Step::LapEnd { .. } | Step::ExtraMove(_) | Step::Pass => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{Rules, Variant};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The kept key equals the key computed from the board after every move
    /// of random games of every variant on boards of 2 x 2, 3, 6, 12 and 16
    /// holes with 1, 4 and 7 seeds a hole, and of 2 x 2 with 63 and 2 x 3
    /// with 42 (laps of up to 250 seeds round a board of 4 or 6 holes):
    /// relay laps, laps of more seeds than holes, captures and last seeds
    /// included.
    #[test]
    fn the_kept_key_is_the_key_of_the_board_after_every_move() {
        let mut rng = ChaCha8Rng::seed_from_u64(15);
        let mut moves = 0u32;
        for variant in [Variant::I, Variant::Ii, Variant::Iii] {
            for (holes, seeds) in [2u32, 3, 6, 12, 16]
                .into_iter()
                .flat_map(|holes| [1u32, 4, 7].map(|seeds| (holes, seeds)))
                .chain([(2, 63), (3, 42)])
            {
                let rules = Rules::new(variant).with_board(holes, seeds).unwrap();
                let len = 2 * holes as usize;
                for _ in 0..20 {
                    let mut pos = Position::start(&rules);
                    let mut keeper = KeyKeeper::new(of(&pos.board, len), LapSums::of(len));
                    for _ in 0..300 {
                        if pos.is_over() {
                            break;
                        }
                        let mask = pos.nonempty_mask();
                        pos.play_random_in_place_observed(&rules, mask, &mut rng, &mut keeper);
                        assert_eq!(keeper.key, of(&pos.board, len), "{pos}");
                        moves += 1;
                    }
                }
            }
        }
        assert!(moves > 50_000, "only {moves} moves");
    }

    /// The largest lap there is: 255 seeds from the last hole of 2 x 16, the
    /// last entry of the running sums.
    #[test]
    fn the_largest_lap_is_kept() {
        let len = 32;
        let mut board: Board = [0; 32];
        board[31] = 255;
        let mut keeper = KeyKeeper::new(of(&board, len), LapSums::of(len));
        keeper.step(Step::Lap {
            from: 31,
            seeds: 255,
        });
        board[31] = 0;
        for (i, hole) in board.iter_mut().enumerate() {
            // 7 rounds of 32, then one more seed in holes 0 to 30.
            *hole = 7 + u8::from(i < 31);
        }
        assert_eq!(keeper.key, of(&board, len));
    }

    #[test]
    fn every_hole_weighs_and_a_seed_moved_changes_the_key() {
        let len = 32;
        let mut board: Board = [0; 32];
        board[..len].fill(4);
        let key = of(&board, len);
        for from in 0..len {
            for to in 0..len {
                if from != to {
                    let mut moved = board;
                    moved[from] -= 1;
                    moved[to] += 1;
                    assert_ne!(of(&moved, len), key, "{from} to {to}");
                }
            }
        }
    }
}
