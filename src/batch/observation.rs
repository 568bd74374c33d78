//! What a learner sees of a position, the same for one game and for a
//! batch: the board from the mover's side and the legal actions as a mask.
//!
//! Observation (length `2n + 2`): the mover's row, holes `1..n` in sowing
//! order, then the opponent's row the same way, then the mover's captures
//! and the opponent's. Seen so, a position is the same to whichever side
//! moves. Mask (length `n + 1`): index 0 is the pass, index `k` the hole `k`.

use crate::engine::position::Position;
use crate::engine::side::Side;

/// The length of an observation on `2 x holes`.
pub fn observation_len(holes: usize) -> usize {
    2 * holes + 2
}

/// Writes the observation of `pos` into `out` (`observation_len` long).
#[inline]
pub fn write_observation(pos: &Position, out: &mut [f32]) {
    write_observation_from(pos, pos.side_to_move(), out);
}

/// Writes the observation of `pos` as `me` sees it into `out`.
#[inline]
pub fn write_observation_from(pos: &Position, me: Side, out: &mut [f32]) {
    observe(pos, me, pos.holes() as usize, out);
}

/// [`write_observation_from`] on `n` holes a row: a constant where
/// [`write_rows`] compiles a board's length in, so that the writes unroll.
#[inline(always)]
fn observe(pos: &Position, me: Side, n: usize, out: &mut [f32]) {
    let other = me.opponent();
    let (mine, theirs) = (me.index() * n, other.index() * n);
    for (slot, &seeds) in out[..n].iter_mut().zip(&pos.board[mine..mine + n]) {
        *slot = f32::from(seeds);
    }
    for (slot, &seeds) in out[n..2 * n].iter_mut().zip(&pos.board[theirs..theirs + n]) {
        *slot = f32::from(seeds);
    }
    let captures = pos.captures();
    out[2 * n] = f32::from(captures[me]);
    out[2 * n + 1] = f32::from(captures[other]);
}

/// Writes the mask of the action bits `actions` (bit 0 the pass, bit `k`
/// the hole `k`) into `out` (`holes + 1` long).
#[inline]
pub fn write_action_mask(actions: u32, out: &mut [bool]) {
    // SAFETY: a bool is one byte, and only 0 and 1 are written.
    let bytes = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<u8>(), out.len()) };
    // Eight flags a word, not a flag a store (13 stores and 26 shifts a row
    // on 2x12 took a third of the rows' time).
    for (j, chunk) in bytes.chunks_mut(8).enumerate() {
        let bits = u64::from(actions).checked_shr(8 * j as u32).unwrap_or(0) & 0xFF;
        chunk.copy_from_slice(&SPREAD[bits as usize].to_le_bytes()[..chunk.len()]);
    }
}

/// `SPREAD[m]`: byte `k` is bit `k` of `m`.
static SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut m = 0;
    while m < 256 {
        let mut k = 0;
        while k < 8 {
            table[m] |= ((m as u64 >> k) & 1) << (8 * k);
            k += 1;
        }
        m += 1;
    }
    table
};

/// Writes the observation and the action mask of each of `positions` (on
/// `2 x holes`, with the action bits `actions`) into consecutive rows of
/// `observations` and `masks`: what [`write_observation`] and
/// [`write_action_mask`] write, a batch's block at a time. For each board
/// of up to 2x12 the row's length is known when compiled, so that the
/// writes are unrolled and vectorized (for 2x6 they are a few vector
/// operations instead of 21 single stores). Where the lanes run their AVX2
/// build (`bytes::simd`), so do the rows: eight seeds are converted to
/// floats at once, not four.
pub(crate) fn write_rows<'a>(
    positions: impl Iterator<Item = &'a Position>,
    actions: &[u32],
    holes: usize,
    observations: &mut [f32],
    masks: &mut [bool],
) {
    #[cfg(target_arch = "x86_64")]
    if super::bytes::simd() {
        // SAFETY: the AVX2 build is chosen only where the processor has it.
        return unsafe { write_rows_avx2(positions, actions, holes, observations, masks) };
    }
    write_rows_with(positions, actions, holes, observations, masks)
}

/// [`write_rows`] compiled for AVX2.
///
/// # Safety
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline(never)]
unsafe fn write_rows_avx2<'a>(
    positions: impl Iterator<Item = &'a Position>,
    actions: &[u32],
    holes: usize,
    observations: &mut [f32],
    masks: &mut [bool],
) {
    write_rows_with(positions, actions, holes, observations, masks)
}

/// [`write_rows`], inlined into each build.
#[inline(always)]
fn write_rows_with<'a>(
    positions: impl Iterator<Item = &'a Position>,
    actions: &[u32],
    holes: usize,
    observations: &mut [f32],
    masks: &mut [bool],
) {
    macro_rules! fixed {
        ($($n:literal)*) => {
            match holes {
                $($n => rows_of(positions, actions, $n, observations, masks),)*
                _ => rows_of(positions, actions, holes, observations, masks),
            }
        };
    }
    fixed!(2 3 4 5 6 7 8 9 10 11 12);
}

/// [`write_rows`] on `2 x n`.
#[inline(always)]
fn rows_of<'a>(
    positions: impl Iterator<Item = &'a Position>,
    actions: &[u32],
    n: usize,
    observations: &mut [f32],
    masks: &mut [bool],
) {
    let rows = observations
        .chunks_exact_mut(observation_len(n))
        .zip(masks.chunks_exact_mut(n + 1));
    for ((pos, &legal), (obs, mask)) in positions.zip(actions).zip(rows) {
        observe(pos, pos.side_to_move(), n, obs);
        write_action_mask(legal, mask);
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::engine::game::Game;
    use crate::engine::rules::{Rules, Variant, MAX_HOLES, MIN_HOLES};

    /// A block's rows are each position's observation and mask, on every
    /// board (those whose length is compiled in, and the others), with
    /// either side to move and action bits of every hole, in the baseline
    /// build and the AVX2 build (where the processor has it).
    #[test]
    fn a_blocks_rows_are_its_positions_rows() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for holes in MIN_HOLES..=MAX_HOLES {
            let rules = Rules::new(Variant::Ii).with_board(holes.into(), 4).unwrap();
            let mut positions = Vec::new();
            let mut game = Game::new(rules);
            while positions.len() < 40 {
                if game.is_over() {
                    game = Game::new(rules);
                }
                positions.push(*game.position());
                game.play_random(&mut rng);
            }
            assert!(
                positions.iter().any(|p| p.side_to_move() == Side::North),
                "2x{holes}"
            );
            assert!(
                positions.iter().any(|p| p.side_to_move() == Side::South),
                "2x{holes}"
            );
            let h = usize::from(holes);
            let (w, m) = (observation_len(h), h + 1);
            let actions: Vec<u32> = (0..positions.len() as u32)
                .map(|k| k.wrapping_mul(0x9E37_79B9) >> (31 - h))
                .collect();
            for build in ["baseline", "avx2"] {
                let mut observations = vec![-1.0; positions.len() * w];
                let mut masks = vec![true; positions.len() * m];
                let (obs, mask) = (&mut observations, &mut masks);
                match build {
                    "baseline" => write_rows_with(positions.iter(), &actions, h, obs, mask),
                    #[cfg(target_arch = "x86_64")]
                    _ if super::super::bytes::avx2() => {
                        // SAFETY: the processor has AVX2.
                        unsafe { write_rows_avx2(positions.iter(), &actions, h, obs, mask) }
                    }
                    _ => continue,
                }
                for (i, (pos, &legal)) in positions.iter().zip(&actions).enumerate() {
                    let mut obs = vec![0.0; w];
                    write_observation(pos, &mut obs);
                    let case = format!("2x{holes} {pos} ({build})");
                    assert_eq!(observations[i * w..(i + 1) * w], obs, "{case}");
                    let mut mask = vec![false; m];
                    write_action_mask(legal, &mut mask);
                    assert_eq!(masks[i * m..(i + 1) * m], mask, "{case} {legal:b}");
                }
            }
        }
    }

    /// A mask's flag `k` is the action bit `k`, on masks of every length
    /// up to 40 (past the 32 bits, flags are clear), for action bits with
    /// every byte busy.
    #[test]
    fn a_masks_flags_are_the_action_bits() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for len in 0..=40 {
            for _ in 0..200 {
                let actions: u32 = rand::Rng::random(&mut rng);
                let mut mask = vec![true; len];
                write_action_mask(actions, &mut mask);
                let want: Vec<bool> = (0..len).map(|k| k < 32 && actions >> k & 1 == 1).collect();
                assert_eq!(mask, want, "{actions:b} in {len} flags");
            }
        }
    }
}
