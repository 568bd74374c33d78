//! One layer of the positions reachable from a start: its sorted keys and,
//! once solved, its values and settling sweeps, each held in memory or
//! memory-mapped from its state file, with the lookup buckets that find a
//! key in under a byte a position.
//!
//! A board is keyed by its rank in [`LayerIndex`] order, North to move
//! stored as its mirror image ([`canonical`]), so a layer is a sorted array
//! of keys and a key's index in it is the position's number.

use std::sync::Arc;

use super::state::Mapped;
use crate::engine::position::Position;
use crate::engine::side::Side;
use crate::solver::index::LayerIndex;

/// The key of `pos` (captures ignored) in the index of its layer.
#[inline]
pub(super) fn canonical(pos: &Position, index: &LayerIndex) -> u64 {
    match pos.side {
        Side::South => index.rank(&pos.board),
        Side::North => index.rotated_rank(&pos.board),
    }
}

/// First index per bucket of a sorted key array's top bits, for lookups:
/// one `u32` per 4 to 8 keys (the bucket count rounded down to a power of
/// two), so at most a byte a key, which is what an out-of-core solve keeps
/// in memory of a mapped layer.
#[derive(Debug, Clone, Default)]
pub(super) struct Buckets {
    first: Vec<u32>,
    shift: u32,
}

impl Buckets {
    /// The buckets of `keys`, sorted ranks below `count`.
    pub(super) fn new(keys: &[u64], count: u64) -> Buckets {
        let want = (keys.len() as u64 / 4).max(1);
        let want_bits = 63 - want.leading_zeros();
        let bits = 64 - count.max(1).leading_zeros();
        let want_bits = want_bits.min(bits);
        let shift = bits - want_bits;
        let buckets = 1usize << want_bits;
        let mut first = Vec::with_capacity(buckets + 1);
        let mut k = 0usize;
        for b in 0..=buckets {
            while k < keys.len() && ((keys[k] >> shift) as usize) < b {
                k += 1;
            }
            first.push(k as u32);
        }
        Buckets { first, shift }
    }

    /// The index of `key` in `keys` (those the buckets were made of).
    #[inline]
    pub(super) fn find(&self, keys: &[u64], key: u64) -> Option<usize> {
        let b = (key >> self.shift) as usize;
        let lo = *self.first.get(b)? as usize;
        let hi = *self.first.get(b + 1)? as usize;
        let slice = keys.get(lo..hi)?;
        slice.binary_search(&key).ok().map(|i| lo + i)
    }

    /// Memory held.
    pub(super) fn bytes(&self) -> u64 {
        4 * self.first.capacity() as u64
    }
}

/// Where a finished layer's keys live.
#[derive(Debug, Clone)]
pub(super) enum KeyStore {
    /// In memory (no state directory).
    Owned(Vec<u64>),
    /// Its keys file, mapped.
    Mapped(Arc<Mapped>),
}

impl KeyStore {
    pub(super) fn get(&self) -> &[u64] {
        match self {
            KeyStore::Owned(keys) => keys,
            KeyStore::Mapped(file) => file.words(),
        }
    }
}

/// Where a solved layer's values live, in the layout of its values file:
/// `n` values (`i8`), then `n` settling sweeps (`u16`, little-endian; after an
/// odd `n` they are not 2-aligned, so they are read byte by byte).
#[derive(Debug, Clone)]
pub(super) enum ValueStore {
    /// Not solved yet.
    Unsolved,
    /// In memory (no state directory).
    Owned(Vec<u8>),
    /// Its values file, mapped.
    Mapped(Arc<Mapped>),
}

impl ValueStore {
    pub(super) fn bytes(&self) -> Option<&[u8]> {
        match self {
            ValueStore::Unsolved => None,
            ValueStore::Owned(bytes) => Some(bytes),
            ValueStore::Mapped(file) => Some(file.data()),
        }
    }
}

/// The positions of one layer that are reachable from the start, with their
/// values once the backward pass has reached the layer: in memory, or, in an
/// out-of-core solve, memory-mapped from the layer's state files.
#[derive(Debug, Clone)]
pub struct ReachableLayer {
    /// Seeds on the board.
    pub seeds: u32,
    /// Sorted ranks of the South-to-move boards (North to move stored mirrored).
    pub(super) keys: KeyStore,
    /// Values and settling sweeps; unsolved until the backward pass.
    pub(super) values: ValueStore,
    /// For lookups.
    pub(super) buckets: Buckets,
}

impl ReachableLayer {
    pub(super) fn new(seeds: u32, keys: KeyStore, count: u64) -> ReachableLayer {
        let buckets = Buckets::new(keys.get(), count);
        ReachableLayer {
            seeds,
            keys,
            values: ValueStore::Unsolved,
            buckets,
        }
    }

    /// Sorted ranks of the South-to-move boards (North to move stored
    /// mirrored); a key's index is the position's number.
    pub fn keys(&self) -> &[u64] {
        self.keys.get()
    }

    /// The value of position `i` for the side to move, once solved.
    #[inline]
    pub fn value(&self, i: usize) -> Option<i8> {
        if i >= self.len() {
            return None;
        }
        self.values.bytes()?.get(i).map(|&v| v as i8)
    }

    /// The Jacobi sweep at which the value of position `i` became final (0:
    /// never changed from 0), once solved.
    #[inline]
    pub fn settled(&self, i: usize) -> Option<u16> {
        let n = self.len();
        if i >= n {
            return None;
        }
        let at = n + 2 * i;
        let pair = self.values.bytes()?.get(at..at + 2)?;
        Some(u16::from_le_bytes([pair[0], pair[1]]))
    }

    /// Whether the layer is held memory-mapped from its state files.
    pub fn is_mapped(&self) -> bool {
        matches!(self.keys, KeyStore::Mapped(_))
    }

    /// The number of the position with rank `key`, if it is in the layer.
    #[inline]
    pub fn find(&self, key: u64) -> Option<usize> {
        self.buckets.find(self.keys.get(), key)
    }

    /// Positions in the layer.
    pub fn len(&self) -> usize {
        self.keys.get().len()
    }

    /// Whether the layer has no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
