//! A board as one vector of bytes, a byte a hole, for the batch's lanes
//! (`lanes.rs`): 16 bytes for boards of up to 2x8, 32 for those up to 2x16.
//!
//! Each operation is written byte by byte over a fixed-size array, which
//! the compiler turns into vector operations: one 16-byte operation a step
//! where the processor has 16-byte vectors (as every x86-64 and AArch64
//! does), one 32-byte operation where the lanes are compiled for AVX2
//! ([`simd`]), two 16-byte ones otherwise. As a `u128`, two words and a
//! carry, the step of II 2x6 was 1.15x slower (eight paired runs).

/// `N` bytes, a byte a hole (16 or 32), added and masked byte by byte.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(16))]
pub(super) struct Bytes<const N: usize>(pub(super) [u8; N]);

impl<const N: usize> Default for Bytes<N> {
    fn default() -> Self {
        Bytes([0; N])
    }
}

impl<const N: usize> Bytes<N> {
    /// `value` in byte `i` alone.
    pub(super) fn only(i: usize, value: u8) -> Bytes<N> {
        Bytes(std::array::from_fn(|j| if j == i { value } else { 0 }))
    }

    /// The first `N` bytes of a board of 32.
    #[inline(always)]
    pub(super) fn of_board(board: &[u8; 32]) -> Bytes<N> {
        Bytes(board[..N].try_into().expect("N <= 32"))
    }

    /// Byte-wise sum (no byte overflows: no hole holds more than 255).
    #[inline(always)]
    pub(super) fn add(self, other: &Bytes<N>) -> Bytes<N> {
        Bytes(std::array::from_fn(|i| self.0[i].wrapping_add(other.0[i])))
    }

    /// Byte-wise and.
    #[inline(always)]
    pub(super) fn and(self, other: &Bytes<N>) -> Bytes<N> {
        Bytes(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    /// Byte-wise or.
    #[inline(always)]
    pub(super) fn or(self, other: &Bytes<N>) -> Bytes<N> {
        Bytes(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    /// `value` in every byte.
    #[inline(always)]
    pub(super) fn splat(value: u8) -> Bytes<N> {
        Bytes([value; N])
    }

    /// Hoyito I's captures en passant, in every hole at once: `self` is the
    /// board before a lap, `sown` the board after the lap dropped its seeds
    /// without capturing. A hole that held fewer than four before the lap
    /// is taken each time its count reaches four, so it ends holding its
    /// count modulo four (a hole that received no seed keeps its count,
    /// already below four); a hole that held four or more never holds
    /// exactly four again and keeps every seed. The hole of the lap's last
    /// seed, whose last seed never captures en passant, is the caller's.
    #[inline(always)]
    pub(super) fn en_passant(self, sown: Bytes<N>) -> Bytes<N> {
        Bytes(std::array::from_fn(|i| {
            let below_four = if self.0[i] < 4 { 0xFC } else { 0 };
            sown.0[i] & !below_four
        }))
    }

    /// The seeds on the board: the sum of the bytes.
    #[inline]
    pub(super) fn total(&self) -> u32 {
        self.0.iter().map(|&b| u32::from(b)).sum()
    }
}

/// Whether the lanes run their AVX2 build: where the processor has AVX2
/// (detected at run time, once) and the environment variable
/// `HOYITO_BATCH_SIMD` is not `off` (set so, they run the build for the
/// processor's baseline, which is also what tests compare the AVX2 build
/// with).
pub(super) fn simd() -> bool {
    static SIMD: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SIMD.get_or_init(|| {
        let wanted = std::env::var("HOYITO_BATCH_SIMD").map_or(true, |v| v != "off");
        wanted && avx2()
    })
}

/// Whether this processor has AVX2 (and POPCNT, which every processor
/// with AVX2 has, and the AVX2 build counts bits with).
pub(super) fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Captures en passant, all holes at once, are the seed-by-seed count:
    /// for every count before a lap (0 to 40) and every number of seeds a
    /// lap drops in one hole (0 to 40), the hole ends as a hole fed seed by
    /// seed and emptied at each four does.
    #[test]
    fn en_passant_in_every_hole_is_seed_by_seed() {
        for before in 0..=40u8 {
            for dropped in 0..=40u8 {
                let mut hole = before;
                for _ in 0..dropped {
                    hole += 1;
                    if hole == 4 {
                        hole = 0;
                    }
                }
                let board = Bytes::<32>::splat(before);
                let sown = board.add(&Bytes::splat(dropped));
                let after = board.en_passant(sown);
                assert_eq!(after, Bytes::splat(hole), "{before} then {dropped} seeds");
            }
        }
    }
}
