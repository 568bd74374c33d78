//! One lap of relay sowing on a whole board at once, read from tables, for
//! the batch's lanes (`lanes.rs`) and the long sowings they hand on
//! (`long_sowing.rs`).
//!
//! The laps are the engine's (`src/engine/sowing.rs`): a lap of `hand`
//! seeds picked up from board index `from` drops `hand / len` seeds in
//! every hole (the emptied one included) and one more in each of the
//! `hand % len` holes after `from`. What a lap adds, where its last seed
//! falls and how many seeds it adds there are read from tables indexed by
//! the hole picked up and the seeds in hand (`adds`, `landing`): a lap
//! then waits on one load, not on a division (measured on II 2x6: the step
//! 1.10x to 1.14x, eight and six paired runs).
//!
//! Hoyito I takes a hole each time a seed that is not its lap's last makes
//! it hold four. Within one lap a hole receives its seeds one after another
//! and nothing else touches it, so what it ends with depends only on its
//! count before the lap and the seeds it receives ([`Bytes::en_passant`]):
//! the whole board is still one addition, then one masking. The hole of
//! the last seed is counted apart, since its last seed never captures en
//! passant: it makes a casa (four), or ends the sowing (one), or is picked
//! up again.

use super::bytes::Bytes;

/// Entries of the lap tables: a hand of up to 255 seeds from each of 32
/// board indices (on boards of up to 16 holes the upper half is unused; a
/// fixed size lets every index be masked into range, with no bounds check
/// on the laps' chain).
pub(super) const LAP_TABLE: usize = 32 * 256;

/// The bits of a lap tables' index: the seeds in hand (8 bits) and the
/// board index picked up (5 bits).
pub(super) const LAP_INDEX: u32 = LAP_TABLE as u32 - 1;

/// The lap tables' index of a lap of `hand` seeds (at most 255: no hole
/// holds more) picked up from board index `from`.
#[inline(always)]
pub(super) fn lap_index(from: usize, hand: u32) -> usize {
    ((from & 31) << 8 | (hand & 0xFF) as usize) & LAP_INDEX as usize
}

/// The tables of one lap on a board of `len` holes held in `N` bytes.
#[derive(Clone)]
pub(super) struct LapTables<const N: usize> {
    /// Holes on the board.
    pub(super) len: usize,
    /// `adds[lap_index(from, hand)]`: what that lap adds to the board, byte
    /// by byte.
    adds: Box<[Bytes<N>; LAP_TABLE]>,
    /// `landing[lap_index(from, hand)]`: the board index of that lap's last
    /// seed (low 5 bits) and the seeds the lap adds there (high 8 bits).
    landing: Box<[u16; LAP_TABLE]>,
    /// `clear[i]`: every byte but the `i`-th.
    pub(super) clear: [Bytes<N>; N],
    /// `hole[i]`: the `i`-th byte alone, all ones.
    hole: [Bytes<N>; N],
    /// Every bit of the board's `len` bytes.
    pub(super) on_board: Bytes<N>,
}

impl<const N: usize> LapTables<N> {
    /// The tables of a board of `len` holes (`2 <= len <= N`).
    pub(super) fn new(len: usize) -> LapTables<N> {
        assert!((2..=N).contains(&len) && N.is_power_of_two() && N <= 32);
        let mut adds: Box<[Bytes<N>; LAP_TABLE]> = vec![Bytes::default(); LAP_TABLE]
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("LAP_TABLE entries"));
        let mut landing = Box::new([0u16; LAP_TABLE]);
        fill(len, &mut adds, &mut landing);
        LapTables {
            len,
            adds,
            landing,
            clear: std::array::from_fn(complement),
            hole: std::array::from_fn(|i| Bytes::only(i, 0xFF)),
            on_board: Bytes(std::array::from_fn(|i| if i < len { 0xFF } else { 0 })),
        }
    }

    /// One lap of the seeds that `at` ([`lap_index`]) names, sown on
    /// `board` (the hole picked up already emptied): the seeds in the hole
    /// of the last seed once it fell, that hole, and the board sown. The
    /// count is read from the board before the lap (the lap adds a known
    /// number to that hole), so that the next lap waits on the count alone.
    /// With captures `EN_PASSANT` (Hoyito I) the sown board has them taken,
    /// and its byte of the last hole is not the count (see
    /// [`LapTables::settle`]).
    #[inline(always)]
    pub(super) fn lap<const EN_PASSANT: bool>(
        &self,
        board: &Bytes<N>,
        at: usize,
    ) -> (u32, usize, Bytes<N>) {
        self.lap_counted::<EN_PASSANT>(*board, at, |last| u32::from(board.0[last]))
    }

    /// [`LapTables::lap`] from `board` as it was before board index `from`
    /// was picked up: read from the board in memory, not from one picked up
    /// in registers (whose bytes would wait on a store to be read back).
    #[inline(always)]
    pub(super) fn first_lap<const EN_PASSANT: bool>(
        &self,
        board: &Bytes<N>,
        from: usize,
        at: usize,
    ) -> (u32, usize, Bytes<N>) {
        let picked = self.pick_up(*board, from);
        self.lap_counted::<EN_PASSANT>(picked, at, |last| {
            if last == from {
                0
            } else {
                u32::from(board.0[last])
            }
        })
    }

    /// The lap of [`LapTables::lap`] on `picked` (the hole picked up
    /// already emptied), `count(last)` being the seeds its last hole held
    /// before the lap.
    #[inline(always)]
    fn lap_counted<const EN_PASSANT: bool>(
        &self,
        picked: Bytes<N>,
        at: usize,
        count: impl FnOnce(usize) -> u32,
    ) -> (u32, usize, Bytes<N>) {
        let at = at & LAP_INDEX as usize;
        let end = self.landing[at];
        let (last, added) = (usize::from(end & 31) & (N - 1), u32::from(end >> 8));
        let before = count(last);
        let sown = self.sow::<EN_PASSANT>(picked, at);
        let seeds = if EN_PASSANT && before < 4 {
            // The last hole's seeds before its last are taken at each four
            // when it held fewer than four; its last seed then falls.
            ((before + added - 1) & 3) + 1
        } else {
            before + added
        };
        (seeds, last, sown)
    }

    /// The board `picked` after the lap that `at` ([`lap_index`]) names,
    /// captures en passant taken (its last hole then not holding its count:
    /// [`LapTables::settle`]).
    #[inline(always)]
    fn sow<const EN_PASSANT: bool>(&self, picked: Bytes<N>, at: usize) -> Bytes<N> {
        let sown = picked.add(&self.adds[at & LAP_INDEX as usize]);
        if EN_PASSANT {
            picked.en_passant(sown)
        } else {
            sown
        }
    }

    /// The board of a sowing from board index `from` of `hand` seeds (fewer
    /// than the board's holes) after its first two laps, the last hole of
    /// each picked up, and the second lap's last hole: for a sowing that
    /// goes on after both (`first_lap.rs` says which), read from `board` in
    /// memory as [`LapTables::first_lap`] reads it.
    #[inline(always)]
    pub(super) fn two_laps<const EN_PASSANT: bool>(
        &self,
        board: &Bytes<N>,
        from: usize,
        hand: u32,
    ) -> (Bytes<N>, usize) {
        let at = lap_index(from, hand);
        let first = usize::from(self.landing[at] & 31) & (N - 1);
        // The first lap passed `first` once, and did not end there.
        let hand = u32::from(board.0[first]) + 1;
        let sown = self.sow::<EN_PASSANT>(self.pick_up(*board, from), at);
        let at = lap_index(first, hand);
        let last = usize::from(self.landing[at] & 31) & (N - 1);
        let sown = self.sow::<EN_PASSANT>(self.pick_up(sown, first), at);
        (self.pick_up(sown, last), last)
    }

    /// The board of a lap whose sowing goes on from `last`: `sown` with that
    /// hole picked up.
    #[inline(always)]
    pub(super) fn pick_up(&self, sown: Bytes<N>, last: usize) -> Bytes<N> {
        sown.and(&self.clear[last & (N - 1)])
    }

    /// The board a sowing ended with, `seeds` in its last hole `last`: for
    /// Hoyito I, whose sown board does not hold that count
    /// ([`LapTables::lap`]).
    #[inline(always)]
    pub(super) fn settle(&self, sown: Bytes<N>, last: usize, seeds: u32) -> Bytes<N> {
        // A table of one-byte masks, not `Bytes::only`: this runs every
        // lap of Hoyito I's chosen moves, and `Bytes::only` made its step 3%
        // to 5% slower (eight paired runs).
        self.pick_up(sown, last)
            .or(&Bytes::splat(seeds as u8).and(&self.hole[last & (N - 1)]))
    }
}

/// Every byte but the `i`-th, all ones.
fn complement<const N: usize>(i: usize) -> Bytes<N> {
    Bytes(std::array::from_fn(|j| if j == i { 0 } else { 0xFF }))
}

/// Fills the lap tables of a board of `len` holes.
fn fill<const N: usize>(
    len: usize,
    adds: &mut [Bytes<N>; LAP_TABLE],
    landing: &mut [u16; LAP_TABLE],
) {
    for from in 0..len {
        for hand in 0..=255usize {
            let (rounds, rest) = (hand / len, hand % len);
            let mut lap = Bytes::<N>::default();
            lap.0[..len].fill(rounds as u8);
            for step in 1..=rest {
                lap.0[(from + step) % len] += 1;
            }
            let last = (from + rest) % len;
            let added = rounds + usize::from(rest != 0);
            let at = lap_index(from, hand as u32);
            adds[at] = lap;
            landing[at] = (added << 8 | last) as u16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lap by the tables is a lap sown seed by seed, captures en passant
    /// included: on every board of both widths, from every hole, with
    /// every hand of up to 255 seeds, onto a board whose holes hold
    /// different counts (below four and not), the count of the last hole,
    /// that hole, and the board once that hole is picked up or settled.
    #[test]
    fn a_lap_by_the_tables_is_sown_seed_by_seed() {
        fn check<const N: usize>(len: usize) {
            let tables = LapTables::<N>::new(len);
            let board: [u8; N] = std::array::from_fn(|i| if i < len { (i % 7) as u8 } else { 0 });
            for from in 0..len {
                for hand in 1..=255u32 {
                    for en_passant in [false, true] {
                        let mut sown = board;
                        sown[from] = 0;
                        let picked = Bytes(sown);
                        let mut at = from;
                        for left in (0..hand).rev() {
                            at = (at + 1) % len;
                            sown[at] += 1;
                            if en_passant && sown[at] == 4 && left > 0 {
                                sown[at] = 0;
                            }
                        }
                        let index = lap_index(from, hand);
                        let (seeds, last, out) = if en_passant {
                            tables.lap::<true>(&picked, index)
                        } else {
                            tables.lap::<false>(&picked, index)
                        };
                        let case = format!("{hand} from {from} on {len} ({en_passant})");
                        assert_eq!((last, seeds), (at, u32::from(sown[at])), "{case}");
                        assert_eq!(tables.settle(out, last, seeds), Bytes(sown), "{case}");
                        sown[at] = 0;
                        assert_eq!(tables.pick_up(out, last), Bytes(sown), "{case}");
                    }
                }
            }
        }
        for len in 2..=16 {
            check::<16>(len);
        }
        for len in 2..=32 {
            check::<32>(len);
        }
    }

    /// Two laps at once are the tables' two laps one after the other, on
    /// both widths and every board length, en passant or not: from every
    /// hole of random boards whose hand is below the board's length and
    /// whose first lap goes on with a hand below it too.
    #[test]
    fn two_laps_at_once_are_two_laps() {
        use rand::{Rng, SeedableRng};
        fn check<const N: usize>(len: usize, rng: &mut rand_chacha::ChaCha8Rng) -> u32 {
            let tables = LapTables::<N>::new(len);
            let mut checked = 0;
            for _ in 0..200 {
                let mut board = Bytes::<N>::default();
                for hole in 0..len {
                    board.0[hole] = rng.random_range(0..=(len as u8 + 2).min(9));
                }
                for from in 0..len {
                    let hand = u32::from(board.0[from]);
                    if hand == 0 || hand as usize >= len {
                        continue;
                    }
                    for en_passant in [false, true] {
                        let lap = |board: &Bytes<N>, from: usize, hand: u32| match en_passant {
                            true => tables.lap::<true>(board, lap_index(from, hand)),
                            false => tables.lap::<false>(board, lap_index(from, hand)),
                        };
                        let (seeds, last, sown) = lap(&tables.pick_up(board, from), from, hand);
                        if seeds == 1 || seeds == 4 || seeds as usize >= len {
                            continue;
                        }
                        let (_, last2, sown2) = lap(&tables.pick_up(sown, last), last, seeds);
                        let want = (tables.pick_up(sown2, last2), last2);
                        let got = match en_passant {
                            true => tables.two_laps::<true>(&board, from, hand),
                            false => tables.two_laps::<false>(&board, from, hand),
                        };
                        assert_eq!(got, want, "{board:?} from {from} ({en_passant})");
                        checked += 1;
                    }
                }
            }
            checked
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let mut checked = 0;
        for len in (4..=16).step_by(2) {
            checked += check::<16>(len, &mut rng);
        }
        for len in (4..=32).step_by(2) {
            checked += check::<32>(len, &mut rng);
        }
        assert!(checked > 10_000, "{checked} sowings");
    }
}
