//! Perfect indexing of seed distributions, so that a table is a flat array.
//!
//! A layer holds every board with `k` seeds in `m = 2n` holes: the compositions of
//! `k` into `m` non-negative parts, of which there are `C(k + m - 1, m - 1)`
//! ("stars and bars"). Ranking them in lexicographic order (hole 0 most
//! significant) gives every board a unique index in `0..count` with no gaps, so a
//! table needs no keys and no hashing: one byte per board and side to move.
//!
//! Rank: `sum over holes i of (comp(r_i, m - i) - comp(r_i - b_i, m - i))`, where
//! `r_i` is the number of seeds from hole `i` on and `comp(r, j)` the number of
//! compositions of `r` into `j` parts (the hockey-stick identity sums the boards
//! that have fewer seeds in hole `i`). Layers are walked in rank order with
//! [`LayerIndex::advance`], which needs no unranking.

use crate::engine::position::Position;
use crate::engine::side::{BySide, Side};
use crate::engine::sowing::Board;

/// The ranks of all boards with a given number of seeds on a board of `n` holes per row.
#[derive(Debug, Clone)]
pub struct LayerIndex {
    holes: usize,
    seeds: u32,
    count: u64,
    /// `comp[j * stride + r]`: compositions of `r` seeds into `j` parts, `j <= 2n`.
    comp: Vec<u64>,
    stride: usize,
}

impl LayerIndex {
    /// The index of the boards with `seeds` seeds and `holes` holes per row.
    pub fn new(holes: u8, seeds: u32) -> LayerIndex {
        let m = 2 * holes as usize;
        let stride = seeds as usize + 1;
        let mut comp = vec![0u64; (m + 1) * stride];
        comp[0] = 1;
        for j in 1..=m {
            // comp(r, j) = sum over the first part b of comp(r - b, j - 1)
            //            = comp(r - 1, j) + comp(r, j - 1).
            for r in 0..stride {
                let left = if r > 0 { comp[j * stride + r - 1] } else { 0 };
                comp[j * stride + r] = left.saturating_add(comp[(j - 1) * stride + r]);
            }
        }
        let count = comp[m * stride + seeds as usize];
        LayerIndex {
            holes: m,
            seeds,
            count,
            comp,
            stride,
        }
    }

    /// Number of boards in the layer (per side to move).
    #[inline]
    pub fn count(&self) -> u64 {
        self.count
    }

    #[inline(always)]
    fn comp(&self, r: u32, j: usize) -> u64 {
        self.comp[j * self.stride + r as usize]
    }

    /// The rank of `board` (its first `2n` holes, which must hold exactly the
    /// layer's seeds).
    #[inline]
    pub fn rank(&self, board: &Board) -> u64 {
        self.rank_of(|i| board[i])
    }

    /// The rank of `board` with its two rows swapped: the board as the other
    /// player sees it. The rules treat both players alike, so the position with
    /// `board` and North to move has the value of the rotated board with South
    /// to move.
    #[inline]
    pub fn rotated_rank(&self, board: &Board) -> u64 {
        let n = self.holes / 2;
        self.rank_of(|i| board[(i + n) % self.holes])
    }

    /// The rank of the board whose hole `i` holds `hole(i)` seeds.
    #[inline(always)]
    fn rank_of(&self, hole: impl Fn(usize) -> u8) -> u64 {
        let mut rank = 0;
        let mut left = self.seeds;
        for i in 0..self.holes - 1 {
            let b = hole(i) as u32;
            let j = self.holes - i;
            rank += self.comp(left, j) - self.comp(left - b, j);
            left -= b;
        }
        debug_assert_eq!(left, hole(self.holes - 1) as u32, "board not in layer");
        rank
    }

    /// The board of rank `rank`, which must be below [`LayerIndex::count`].
    pub fn unrank(&self, mut rank: u64) -> Board {
        debug_assert!(rank < self.count);
        let mut board = [0u8; 32];
        let mut left = self.seeds;
        for (i, hole) in board[..self.holes - 1].iter_mut().enumerate() {
            let rest = self.holes - i - 1;
            let mut b = 0;
            loop {
                let with_b = self.comp(left - b, rest);
                if rank < with_b {
                    break;
                }
                rank -= with_b;
                b += 1;
            }
            *hole = b as u8;
            left -= b;
        }
        board[self.holes - 1] = left as u8;
        board
    }

    /// Moves `board` to the board of the next rank; returns `false` (and leaves
    /// the board unspecified) after the last one.
    #[inline]
    pub fn advance(&self, board: &mut Board) -> bool {
        let m = self.holes;
        // The next composition in lexicographic order: find the last non-empty
        // hole j >= 1, move one seed to hole j - 1 and the rest of j to the end.
        let Some(j) = (1..m).rev().find(|&j| board[j] > 0) else {
            return false;
        };
        let rest = board[j];
        board[j] = 0;
        board[j - 1] += 1;
        board[m - 1] = rest - 1;
        true
    }

    /// The position with `board` and `side` to move, captures 0-0.
    #[inline]
    pub fn position(&self, board: Board, side: Side) -> Position {
        Position {
            board,
            holes: (self.holes / 2) as u8,
            side,
            captures: BySide::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binomial(n: u64, k: u64) -> u64 {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }

    #[test]
    fn counts_are_stars_and_bars() {
        for holes in [2u8, 3, 6, 12] {
            for seeds in [0u32, 1, 4, 9, 20] {
                let m = 2 * holes as u64;
                let idx = LayerIndex::new(holes, seeds);
                assert_eq!(idx.count(), binomial(seeds as u64 + m - 1, m - 1));
            }
        }
        assert_eq!(LayerIndex::new(6, 20).count(), 84_672_315);
    }

    #[test]
    fn rank_unrank_and_advance_agree_on_whole_layers() {
        for (holes, seeds) in [(2u8, 0u32), (2, 7), (3, 9), (4, 5), (6, 4)] {
            let idx = LayerIndex::new(holes, seeds);
            let mut board = idx.unrank(0);
            for r in 0..idx.count() {
                assert_eq!(idx.rank(&board), r, "{holes} {seeds} {board:?}");
                assert_eq!(idx.unrank(r), board);
                let sum: u32 = board.iter().map(|&b| b as u32).sum();
                assert_eq!(sum, seeds);
                let more = idx.advance(&mut board);
                assert_eq!(more, r + 1 < idx.count());
            }
        }
    }

    #[test]
    fn rotated_rank_is_the_rank_of_the_swapped_rows() {
        for (holes, seeds) in [(2u8, 5u32), (3, 4), (6, 3)] {
            let idx = LayerIndex::new(holes, seeds);
            let n = holes as usize;
            let mut board = idx.unrank(0);
            loop {
                let mut swapped = [0u8; 32];
                swapped[..n].copy_from_slice(&board[n..2 * n]);
                swapped[n..2 * n].copy_from_slice(&board[..n]);
                assert_eq!(idx.rotated_rank(&board), idx.rank(&swapped), "{board:?}");
                if !idx.advance(&mut board) {
                    break;
                }
            }
        }
    }

    #[test]
    fn ranks_of_large_layers_round_trip() {
        let idx = LayerIndex::new(12, 40);
        for r in [0, 1, 12_345, idx.count() / 3, idx.count() - 1] {
            assert_eq!(idx.rank(&idx.unrank(r)), r);
        }
    }
}
