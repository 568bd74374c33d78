//! The unit of work of a layer's retrograde solve: a chunk of South-to-move
//! positions with their moves, and the solver's fallible allocation (a large
//! vector that cannot be had is an error naming its bytes, not an abort).
//! Shared by the sweeps (`retrograde`) and the rounds over parents
//! (`frontier`), below both.

/// Positions per chunk of work: large enough to amortise scheduling, small
/// enough to balance two to sixteen threads.
pub(super) const CHUNK: usize = 1 << 15;

/// Marks a position without a capturing move.
/// The moves of one chunk of South-to-move positions.
pub(super) struct Chunk {
    /// Best exit value per position, or the retrograde solver's `NO_EXIT`.
    pub(super) exit: Vec<i8>,
    /// Number of inner moves per position.
    pub(super) degree: Vec<u8>,
    /// Ranks of the inner children (North to move), position by position.
    pub(super) children: Vec<u32>,
    /// Rank of each position's mirror image (rows swapped, North to move).
    pub(super) mirror: Vec<u32>,
}

/// A vector of `len` zeros, or the bytes that could not be allocated: the
/// solver's large allocations fail as errors, not as an abort of the process.
pub(super) fn zeroed<T: Clone + Default>(len: usize) -> Result<Vec<T>, u64> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| (len as u64).saturating_mul(std::mem::size_of::<T>() as u64))?;
    v.resize(len, T::default());
    Ok(v)
}

/// An empty vector with room for `len` items, or the bytes that could not be allocated.
pub(super) fn with_capacity<T>(len: usize) -> Result<Vec<T>, u64> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| (len as u64).saturating_mul(std::mem::size_of::<T>() as u64))?;
    Ok(v)
}
