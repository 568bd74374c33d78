//! The `k`-th set bit of a hole mask: how a random move is drawn (the `k`-th
//! of the mover's non-empty holes) by `Position::play_random_in_place`, the
//! one draw of the harness's game loop, the MCTS rollouts and the bench's
//! floor.
//!
//! Clearing the lowest set bit `k` times costs a loop whose trip count is
//! random, and so a mispredicted branch on most draws; a table of the set
//! bits of each byte answers with a lookup per byte instead (masks hold at
//! most 16 holes, two bytes).

/// `SELECT[b][j]`: the position of the `j`-th set bit (0-based) of byte `b`,
/// 8 where there is none. (The batch's lanes list a row's holes with it.)
pub(crate) static SELECT: [[u8; 8]; 256] = {
    let mut table = [[8u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        let mut j = 0;
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[byte][j] = bit as u8;
                j += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The index of the `k`-th set bit (0-based) of `mask`, which must exist
/// and lie in the low 16 bits.
#[inline]
pub(crate) fn nth_set_bit(mask: u32, k: u32) -> u32 {
    debug_assert!(mask < 1 << 16 && k < mask.count_ones());
    let low = mask & 0xff;
    let in_low = low.count_ones();
    // Branch-free choice of the byte that holds the bit.
    let high = k >= in_low;
    let byte = if high { mask >> 8 } else { low };
    let j = if high { k - in_low } else { k };
    u32::from(SELECT[byte as usize][j as usize & 7]) + 8 * u32::from(high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kth_set_bit_of_every_16_bit_mask() {
        for mask in 1u32..1 << 16 {
            let mut m = mask;
            for k in 0..mask.count_ones() {
                assert_eq!(nth_set_bit(mask, k), m.trailing_zeros(), "{mask:#x} {k}");
                m &= m - 1;
            }
        }
    }
}
