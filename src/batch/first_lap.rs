//! The first laps of every hole of a mover's row at once (two, and in
//! Hoyito II and III three), for the batch's lanes (`lanes.rs`): which
//! sowings end within them, and so need no lane.
//!
//! A lap of `c < len` seeds from board index `i` drops one seed in each of
//! the `c` holes after `i` and none elsewhere, so its last seed falls in
//! `L = (i + c) mod len`, which then holds one more seed than before (the
//! hole picked up is never `L`). The sowing ends there when `L` held 0 or 3
//! seeds. In Hoyito I as well: no hole receives two seeds in the lap, so a
//! capture en passant never touches `L`.
//!
//! Otherwise the second lap picks up `h = B[L] + 1` seeds from `L`, and
//! when `h < len` its last seed falls in `L2 = (L + h) mod len` (never `L`),
//! which held, after the first lap: nothing if `L2 = i`; one seed more than
//! before if the first lap passed it (`L2` among the `c` holes after `i`),
//! or nothing in Hoyito I if that seed made four and was taken en passant;
//! its seeds before otherwise. The sowing ends there when that is 0 or 3.
//!
//! Otherwise the third lap picks up `h3` (that count, plus one) from `L2`,
//! and when `h3 < len` its last seed falls in `L3 = (L2 + h3) mod len`
//! (never `L2`), which held: nothing if `L3 = L` (picked up by the second
//! lap, which does not reach it again); one seed if `L3 = i` and the
//! second lap passed it (none otherwise); else its seeds before, plus one
//! for each of the two laps that passed it. Hoyito I is left to the lanes
//! after the second lap: its captures en passant would need each hole's
//! count after every lap.
//!
//! Looked up for every hole at once (byte shuffles of the board by the
//! holes' landing indices, in the lanes' AVX2 build; two positions a
//! 32-byte instruction, one in each half: 20 cycles a position on II 2x12
//! against 28 for one position a 16-byte instruction, for two laps), this
//! decides nine in ten of the non-empty holes of a random II 2x12 position
//! (3.2, 1.2 and 0.55 of 5.6) without a lane; only the others (and holes
//! of `len` seeds or more, which this leaves undecided) are sown lap by
//! lap. The third lap costs the lookup 7 cycles a position on II 2x12 and
//! saves the lanes 9 (TSC cycle counts, steady state, 4,096 games).

use super::bytes::Bytes;
#[cfg(target_arch = "x86_64")]
use crate::engine::bits::SELECT;

/// The mover's holes whose sowing ends within its first laps (bit `k`
/// for the row's hole `k`), and those left to the lanes: the other
/// non-empty ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FirstLaps {
    /// Sowings that end within the laps looked up (two, three in Hoyito II
    /// and III).
    pub(super) ended: u32,
    /// Non-empty holes whose sowing this leaves undecided.
    pub(super) undecided: u32,
    /// Byte `k`: for an undecided hole `k` whose two laps this followed
    /// (its hand, and the second lap's, below `len`), the seeds in the
    /// second lap's last hole, where the sowing goes on; 0 otherwise.
    pub(super) second: [u8; 16],
}

/// [`FirstLaps`] of the `n` holes from board index `row` (`n <= 16`) of
/// the board `bytes` (`len` holes, those past `len` empty), captures
/// `en_passant` or not, one hole after another: the model of
/// [`first_laps_avx2`] that tests hold to the lap tables on every platform.
/// (The baseline build does not use it: its branches on the board cannot be
/// foreseen, and made that build half as fast as listing every hole.)
#[cfg(test)]
pub(super) fn first_laps(
    bytes: &[u8; 32],
    row: usize,
    n: usize,
    len: usize,
    en_passant: bool,
) -> FirstLaps {
    let wrap = |index: usize| if index >= len { index - len } else { index };
    let at = |index: usize| usize::from(bytes[index & 31]);
    let (mut ended, mut undecided, mut second) = (0u32, 0u32, [0u8; 16]);
    for (k, second) in second.iter_mut().enumerate().take(n) {
        let from = row + k;
        let seeds = at(from);
        let last = wrap(from + seeds);
        let before = at(last);
        let sown = seeds != 0;
        let short = sown & (seeds < len);
        let ends = short & ((before == 0) | (before == 3));
        // The second lap: `before + 1` seeds from `last`.
        let short2 = before + 1 < len;
        let last2 = wrap((last + before + 1) & 63);
        let seen = at(last2);
        let passed = wrap((last2 + len - from) & 63);
        let dropped = (passed != 0) & (passed <= seeds);
        let taken = en_passant & dropped & (seen == 3);
        let held = (seen + usize::from(dropped)) * usize::from((passed != 0) & !taken);
        let ends2 = short & short2 & ((held == 0) | (held == 3));
        // The third lap: `held + 1` seeds from `last2`.
        let short3 = held + 1 < len;
        let last3 = wrap((last2 + held + 1) & 63);
        let from_start = wrap((last3 + len - from) & 63);
        let from_last = wrap((last3 + len).wrapping_sub(last) & 63);
        let dropped1 = (from_start != 0) & (from_start <= seeds);
        let dropped2 = (from_last != 0) & (from_last <= before + 1);
        let held3 = match (from_last, from_start) {
            (0, _) => 0,
            (_, 0) => usize::from(dropped2),
            _ => at(last3) + usize::from(dropped1) + usize::from(dropped2),
        };
        let followed = short & !ends & short2 & !ends2;
        let ends3 = !en_passant & followed & short3 & ((held3 == 0) | (held3 == 3));
        let ends = ends | ends2 | ends3;
        ended |= u32::from(ends) << k;
        undecided |= u32::from(sown & !ends) << k;
        *second = (held as u8 + 1) * u8::from(followed & !ends3);
    }
    FirstLaps {
        ended,
        undecided,
        second,
    }
}

/// The holes of a row as byte indices: `row + k` in byte `k < n`, and
/// indices whose lookups give 0 in the bytes past `n`.
#[cfg(target_arch = "x86_64")]
pub(super) fn row_indices(row: usize, n: usize) -> [u8; 16] {
    std::array::from_fn(|k| if k < n { (row + k) as u8 } else { 0x80 })
}

/// [`first_laps`] by byte shuffles, every hole of a row of two positions
/// at once (one in each 16-byte half of the vectors, so that each
/// instruction serves both): `boards[j]` with the row whose
/// [`row_indices`] are `holes[16 * j..]`.
///
/// # Safety
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
#[inline]
pub(super) unsafe fn first_laps_avx2<const N: usize>(
    boards: [&Bytes<N>; 2],
    holes: &[u8; 32],
    len: usize,
    en_passant: bool,
) -> [FirstLaps; 2] {
    use std::arch::x86_64::*;
    let half = |board: &Bytes<N>, i: usize| _mm_loadu_si128(board.0.as_ptr().add(i).cast());
    // The boards' first 16 bytes, and their next 16 (each position's in
    // its half).
    let low = _mm256_set_m128i(half(boards[1], 0), half(boards[0], 0));
    let high = if N > 16 {
        _mm256_set_m128i(half(boards[1], 16), half(boards[0], 16))
    } else {
        _mm256_setzero_si256()
    };
    // Byte `k` of the board's byte `index[k]` (0 where `index[k]` has its
    // top bit set): a shuffle of each half, chosen by the index's bit 4.
    let lookup = |index: __m256i| {
        let from_low = _mm256_shuffle_epi8(low, index);
        if N > 16 {
            let from_high = _mm256_shuffle_epi8(high, index);
            _mm256_blendv_epi8(from_low, from_high, _mm256_slli_epi16::<3>(index))
        } else {
            from_low
        }
    };
    let splat = |byte: usize| _mm256_set1_epi8(byte as i8);
    let (zero, three, len_bytes) = (_mm256_setzero_si256(), splat(3), splat(len));
    // Where `a <= b`, unsigned, byte by byte.
    let at_most = |a: __m256i, b: __m256i| _mm256_cmpeq_epi8(_mm256_min_epu8(a, b), a);
    // `index` (below `2 * len`) brought below `len`.
    let wrap = |index: __m256i| _mm256_min_epu8(index, _mm256_sub_epi8(index, len_bytes));
    let zero_or_three =
        |x: __m256i| _mm256_or_si256(_mm256_cmpeq_epi8(x, zero), _mm256_cmpeq_epi8(x, three));
    let holes = _mm256_loadu_si256(holes.as_ptr().cast());
    let seeds = lookup(holes);
    let last = wrap(_mm256_add_epi8(holes, seeds));
    let before = lookup(last);
    let sown = _mm256_andnot_si256(_mm256_cmpeq_epi8(seeds, zero), splat(0xFF));
    let short = _mm256_and_si256(sown, at_most(seeds, splat(len - 1)));
    let ends = _mm256_and_si256(short, zero_or_three(before));
    // The second lap.
    let last2 = wrap(_mm256_add_epi8(_mm256_add_epi8(last, before), splat(1)));
    let seen = lookup(last2);
    let passed = _mm256_sub_epi8(last2, holes);
    let passed = _mm256_min_epu8(passed, _mm256_add_epi8(passed, len_bytes));
    let from = _mm256_cmpeq_epi8(passed, zero);
    let dropped = _mm256_andnot_si256(from, at_most(passed, seeds));
    // `seen`, plus one where the first lap dropped a seed (minus all ones).
    let held = _mm256_sub_epi8(seen, dropped);
    let taken = _mm256_and_si256(
        _mm256_and_si256(dropped, _mm256_cmpeq_epi8(seen, three)),
        splat(if en_passant { 0xFF } else { 0 }),
    );
    let held = _mm256_andnot_si256(_mm256_or_si256(from, taken), held);
    let short2 = at_most(before, splat(len.saturating_sub(2)));
    let both_short = _mm256_and_si256(short, short2);
    let ends2 = _mm256_and_si256(both_short, zero_or_three(held));
    let followed = _mm256_andnot_si256(_mm256_or_si256(ends, ends2), both_short);
    let hand3 = _mm256_add_epi8(held, splat(1));
    // The third lap (none in Hoyito I).
    let third = || {
        let hand2 = _mm256_add_epi8(before, splat(1));
        let last3 = wrap(_mm256_add_epi8(last2, hand3));
        // How far `last3` lies after `from`, below `len`.
        let after = |from: __m256i| {
            let d = _mm256_sub_epi8(last3, from);
            _mm256_min_epu8(d, _mm256_add_epi8(d, len_bytes))
        };
        let (from_start, from_last) = (after(holes), after(last));
        let (at_start, at_last) = (
            _mm256_cmpeq_epi8(from_start, zero),
            _mm256_cmpeq_epi8(from_last, zero),
        );
        let dropped1 = _mm256_andnot_si256(at_start, at_most(from_start, seeds));
        let dropped2 = _mm256_andnot_si256(at_last, at_most(from_last, hand2));
        // Its count, plus one a lap that passed it (minus all ones): nothing at
        // `from`, all of it gone at `last`.
        let held3 = _mm256_andnot_si256(at_start, _mm256_sub_epi8(lookup(last3), dropped1));
        let held3 = _mm256_andnot_si256(at_last, _mm256_sub_epi8(held3, dropped2));
        let short3 = at_most(held, splat(len.saturating_sub(2)));
        _mm256_and_si256(_mm256_and_si256(followed, short3), zero_or_three(held3))
    };
    let ends3 = if en_passant { zero } else { third() };
    let followed = _mm256_andnot_si256(ends3, followed);
    let second = _mm256_and_si256(followed, hand3);
    let ends = _mm256_or_si256(_mm256_or_si256(ends, ends2), ends3);
    let undecided = _mm256_andnot_si256(ends, sown);
    let (ended, undecided) = (
        _mm256_movemask_epi8(ends) as u32,
        _mm256_movemask_epi8(undecided) as u32,
    );
    let second = std::mem::transmute::<__m256i, [[u8; 16]; 2]>(second);
    [0, 1].map(|j| FirstLaps {
        ended: ended >> (16 * j) & 0xFFFF,
        undecided: undecided >> (16 * j) & 0xFFFF,
        second: second[j],
    })
}

/// The entries of a position's undecided holes for the lanes' list:
/// `entry + 0x21 * k` for each hole `k` set in `undecided`, in order,
/// written at `list[listed..]`; the entries listed after them (returned).
/// Every hole of the row is written, each set one kept: no branch on the
/// holes (`entry` is `(16 * position) << 5 | row`, so that `0x21 * k`
/// adds the hole to both the lane's id and its board index).
#[inline(always)]
pub(super) fn list_undecided(
    entry: u32,
    undecided: u32,
    n: usize,
    list: &mut [u32; LIST],
    listed: usize,
) -> usize {
    let mut listed = listed;
    for k in 0..n {
        list[listed & (LIST - 1)] = entry + 0x21 * k as u32;
        listed += (undecided >> k & 1) as usize;
    }
    listed
}

/// Entries the list of undecided holes holds: 16 a position of a block of
/// 256, rounded up to a power of two past the 8 that a store of the AVX2
/// build may write beyond the last.
pub(super) const LIST: usize = 2 * 16 * 256;

/// [`list_undecided`] eight holes at a time: the set holes' entries
/// permuted to the front of a vector (by the engine's table of each byte's
/// set bits; the entries past them are never read), stored whole.
///
/// # Safety
/// The processor must have AVX2 and POPCNT; `listed + 16 <= LIST`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
#[inline]
pub(super) unsafe fn list_undecided_avx2(
    entry: u32,
    undecided: u32,
    n: usize,
    list: &mut [u32; LIST],
    listed: usize,
) -> usize {
    use std::arch::x86_64::*;
    debug_assert!(listed + 16 <= LIST);
    let mut listed = listed;
    for half in 0..n.div_ceil(8) {
        let bits = (undecided >> (8 * half) & 0xFF) as usize;
        let holes = _mm256_cvtepu8_epi32(_mm_loadl_epi64(SELECT[bits].as_ptr().cast()));
        let holes = _mm256_add_epi32(holes, _mm256_set1_epi32(8 * half as i32));
        let entries = _mm256_add_epi32(
            _mm256_set1_epi32(entry as i32),
            _mm256_or_si256(_mm256_slli_epi32::<5>(holes), holes),
        );
        _mm256_storeu_si256(list.as_mut_ptr().add(listed).cast(), entries);
        listed += bits.count_ones() as usize;
    }
    listed
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::super::bytes::avx2;
    use super::super::laps::{lap_index, LapTables};
    use super::*;

    /// Both ways of deciding first laps agree with laps sown by the lap
    /// tables, en passant or not, on random boards of every length of
    /// both widths (counts 0 to 40, so holes and hands of `len` seeds and
    /// more come up): a hole is ended when it held fewer than `len` seeds
    /// and its sowing ends with its first lap, or with its second when
    /// that lap's hand is below `len`, or (without captures en passant)
    /// with its third when that lap's hand is below `len` too; undecided
    /// when it held seeds otherwise, with the count of its second lap's
    /// last hole when the first two hands were below `len`.
    #[test]
    fn first_laps_end_where_the_lap_tables_end_them() {
        fn check<const N: usize>(
            len: usize,
            rng: &mut ChaCha8Rng,
            (seconds, thirds): (&mut u32, &mut u32),
        ) {
            let tables = LapTables::<N>::new(len);
            let n = len / 2;
            // The cases of each rules (en passant or not), for the AVX2
            // build's pairs.
            let mut cases: [Vec<(Bytes<N>, usize, FirstLaps, String)>; 2] = Default::default();
            for _ in 0..400 {
                let mut board = Bytes::<N>::default();
                for hole in 0..len {
                    board.0[hole] = match rng.random_range(0..4) {
                        0 => 0,
                        1 => 3,
                        2 => rng.random_range(0..8),
                        _ => rng.random_range(0..=40),
                    };
                }
                for row in [0, n] {
                    for en_passant in [false, true] {
                        let lap = |board: &Bytes<N>, from: usize, hand: u32| {
                            let at = lap_index(from, hand);
                            let (seeds, last, sown) = match en_passant {
                                true => tables.lap::<true>(board, at),
                                false => tables.lap::<false>(board, at),
                            };
                            (seeds, last, tables.pick_up(sown, last))
                        };
                        let (mut ended, mut undecided, mut second) = (0u32, 0u32, [0u8; 16]);
                        for (k, second) in second.iter_mut().enumerate().take(n) {
                            let from = row + k;
                            let seeds = u32::from(board.0[from]);
                            if seeds == 0 {
                                continue;
                            }
                            let (hand, last, picked) =
                                lap(&tables.pick_up(board, from), from, seeds);
                            let short = (seeds as usize) < len;
                            let first = hand == 1 || hand == 4;
                            let followed = short && !first && (hand as usize) < len;
                            let (count, last2, picked2) = lap(&picked, last, hand);
                            let ends_second = count == 1 || count == 4;
                            let third = !en_passant && !ends_second && (count as usize) < len;
                            let ends_third = third && {
                                let (count3, _, _) = lap(&picked2, last2, count);
                                count3 == 1 || count3 == 4
                            };
                            let ends_late = ends_second || ends_third;
                            let ends = short && (first || followed && ends_late);
                            *seconds += u32::from(ends && !first && ends_second);
                            *thirds += u32::from(ends && !first && ends_third);
                            ended |= u32::from(ends) << k;
                            undecided |= u32::from(!ends) << k;
                            if followed && !ends_late {
                                *second = count as u8;
                            }
                        }
                        let want = FirstLaps {
                            ended,
                            undecided,
                            second,
                        };
                        let case = format!("{board:?} {row} ({en_passant})");
                        let mut bytes = [0u8; 32];
                        bytes[..N].copy_from_slice(&board.0);
                        assert_eq!(first_laps(&bytes, row, n, len, en_passant), want, "{case}");
                        cases[usize::from(en_passant)].push((board, row, want, case));
                    }
                }
            }
            // Each case beside the next (and the last beside the first): a
            // pair whose halves differ in board and row.
            #[cfg(target_arch = "x86_64")]
            if avx2() {
                for (en_passant, cases) in [false, true].into_iter().zip(&cases) {
                    for (i, a) in cases.iter().enumerate() {
                        let b = &cases[(i + 1) % cases.len()];
                        let mut holes = [0u8; 32];
                        holes[..16].copy_from_slice(&row_indices(a.1, n));
                        holes[16..].copy_from_slice(&row_indices(b.1, n));
                        // SAFETY: the processor has AVX2.
                        let got = unsafe { first_laps_avx2([&a.0, &b.0], &holes, len, en_passant) };
                        assert_eq!(got[0], a.2, "{} (AVX2, first of a pair)", a.3);
                        assert_eq!(got[1], b.2, "{} (AVX2, second of a pair)", b.3);
                    }
                }
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let (mut seconds, mut thirds) = (0, 0);
        for len in (4..=16).step_by(2) {
            check::<16>(len, &mut rng, (&mut seconds, &mut thirds));
        }
        for len in (4..=32).step_by(2) {
            check::<32>(len, &mut rng, (&mut seconds, &mut thirds));
        }
        assert!(
            seconds > 1000,
            "{seconds} sowings ended by their second lap"
        );
        assert!(thirds > 1000, "{thirds} sowings ended by their third lap");
    }

    /// Both ways of listing a position's undecided holes list each set
    /// hole's entry, in order, after those listed before, for every row
    /// length and every set of holes of rows of up to 10 (and samples of
    /// longer rows).
    #[test]
    fn undecided_holes_are_listed_in_order() {
        let mut rng = ChaCha8Rng::seed_from_u64(22);
        for n in 1..=16usize {
            for trial in 0..1024u32 {
                let undecided = match n {
                    ..=10 => trial & ((1 << n) - 1),
                    _ => rng.random_range(0..1u32 << n),
                };
                // Position 37, its row from board index 12.
                let entry = (16 * 37) << 5 | 12;
                let before = rng.random_range(0..100);
                let want: Vec<u32> = (0..n as u32)
                    .filter(|k| undecided >> k & 1 == 1)
                    .map(|k| (16 * 37 + k) << 5 | (12 + k))
                    .collect();
                let mut list = Box::new([u32::MAX; LIST]);
                let listed = list_undecided(entry, undecided, n, &mut list, before);
                assert_eq!(list[before..listed], want, "{undecided:b} of {n}");
                #[cfg(target_arch = "x86_64")]
                if avx2() {
                    let mut list = Box::new([u32::MAX; LIST]);
                    // SAFETY: the processor has AVX2 and POPCNT; `before + 16`
                    // is within the list.
                    let listed =
                        unsafe { list_undecided_avx2(entry, undecided, n, &mut list, before) };
                    assert_eq!(list[before..listed], want, "{undecided:b} of {n} (AVX2)");
                }
            }
        }
    }
}
