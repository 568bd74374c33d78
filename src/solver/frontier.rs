//! The tail of a layer's iteration: once a sweep changes few positions, only
//! the parents of what changed are updated, found through an index of parents.
//!
//! A sweep of [`retrograde`](super::retrograde) reads every successor list of
//! the layer to find the few positions with a changed child. On II 2x6 layer
//! 18 the last 33 of 42 sweeps each changed under 1% of the positions, yet
//! each read all 105 million successors, and they took two thirds of the
//! iteration. Those late changes are not the same positions changing again:
//! most are positions that never changed before (a change travels along
//! chains of inner moves), so no cheap guess finds them, and only the reverse
//! of the successor lists names a changed position's parents.
//!
//! The index of parents ([`ParentIndex`]) is built from the successor lists
//! when the dense sweeps have made the changes sparse. It costs 4 bytes per
//! inner move, as much as the successor lists themselves, so it is built only
//! where the memory is free: the build gives up the mirror ranks first (4
//! bytes a position, recomputed from the board for the few positions that
//! change now), and falls back to full sweeps where the memory is not there.
//!
//! Rounds ([`settle`]) then update, from the values at the start of the
//! round, exactly the South-to-move positions with a child that changed in
//! the round before (Jacobi over the frontier, so that the rounds, like the
//! sweeps, are the same for any number of threads), and stop when a round
//! changes nothing. The fixed point is the same as the sweeps' (see
//! `retrograde`: any order of updates reaches it): a position that is never
//! updated again has no child that changed since its last update.

use rayon::prelude::*;

use crate::solver::chunk::{with_capacity, zeroed, Chunk, CHUNK};
use crate::solver::index::LayerIndex;

/// Successors of the South-to-move positions, each position's list found
/// without walking its chunk from the start: the offset in the chunk's list
/// of every 64th position.
pub(super) struct ChildLists<'a> {
    chunks: &'a [Chunk],
    /// Offset in its chunk's `children` of the list of every 64th position.
    starts: Vec<u32>,
}

/// Positions whose list offset is stored; the others add their degrees from there.
const STRIDE: usize = 64;

impl<'a> ChildLists<'a> {
    /// Offsets stored for `chunks`: one per `STRIDE` positions of each chunk.
    fn blocks(chunks: &[Chunk]) -> usize {
        chunks.iter().map(|c| c.degree.len().div_ceil(STRIDE)).sum()
    }

    /// Bytes [`ChildLists::new`] allocates for `chunks`.
    pub(super) fn bytes(chunks: &[Chunk]) -> u64 {
        4 * Self::blocks(chunks) as u64
    }

    /// The lists of `chunks`, or the bytes that could not be allocated.
    pub(super) fn new(chunks: &'a [Chunk]) -> Result<ChildLists<'a>, u64> {
        let mut starts = with_capacity::<u32>(Self::blocks(chunks))?;
        for chunk in chunks {
            let mut first = 0u32;
            for (i, &degree) in chunk.degree.iter().enumerate() {
                if i % STRIDE == 0 {
                    starts.push(first);
                }
                first += u32::from(degree);
            }
        }
        Ok(ChildLists { chunks, starts })
    }

    /// The best exit value of South-to-move position `p` and its inner
    /// children (North-to-move ranks).
    #[inline]
    fn of(&self, p: usize) -> (i8, &'a [u32]) {
        let chunk = &self.chunks[p / CHUNK];
        let i = p % CHUNK;
        let from = i - i % STRIDE;
        let block = (p / CHUNK) * (CHUNK / STRIDE) + i / STRIDE;
        let first = self.starts[block] as usize
            + chunk.degree[from..i]
                .iter()
                .map(|&d| d as usize)
                .sum::<usize>();
        let children = &chunk.children[first..first + chunk.degree[i] as usize];
        (chunk.exit[i], children)
    }
}

/// The parents of every North-to-move position among the South-to-move
/// positions of a layer: the successor lists turned around.
///
/// Children are grouped in blocks of `2^low_bits` consecutive ranks; a
/// block's entries hold each parent's rank shifted left by `low_bits` with the
/// child's rank within the block below, so that an entry is 4 bytes however
/// large the block is. Finding one child's parents reads its block's entries
/// (a few cache lines).
pub(super) struct ParentIndex {
    low_bits: u32,
    /// Block `b`'s entries are `entries[offsets[b]..offsets[b + 1]]`.
    offsets: Vec<u64>,
    entries: Vec<u32>,
}

/// Largest block of children: the entries of a block are read whole to find
/// one child's parents.
const MAX_LOW_BITS: u32 = 6;

impl ParentIndex {
    /// Bytes the index of a layer of `count` positions per side to move with
    /// `edges` South-to-move inner moves needs.
    pub(super) fn bytes(count: usize, edges: u64) -> u64 {
        let blocks = count.div_ceil(1 << Self::low_bits(count)) as u64 + 1;
        // The offsets, and the cursors of the build.
        4 * edges + 2 * 8 * blocks
    }

    /// Bits of a child's rank kept within an entry, beside a parent's rank.
    fn low_bits(count: usize) -> u32 {
        let rank_bits = usize::BITS - count.saturating_sub(1).leading_zeros();
        32u32.saturating_sub(rank_bits).min(MAX_LOW_BITS)
    }

    /// The index of the parents in `lists` of the `count` North-to-move
    /// positions, or the bytes that could not be allocated. Each of the
    /// threads reads all the lists and files the children of its own range
    /// of blocks, so that no two threads write the same memory and the
    /// entries come out in the same order for any number of threads.
    pub(super) fn build(chunks: &[Chunk], count: usize) -> Result<ParentIndex, u64> {
        assert!(count <= u32::MAX as usize, "ranks are 32-bit");
        let low_bits = Self::low_bits(count);
        let blocks = count.div_ceil(1 << low_bits);
        let edges: usize = chunks.iter().map(|c| c.children.len()).sum();
        let parts = rayon::current_num_threads().clamp(1, blocks.max(1));
        let bounds: Vec<usize> = (0..=parts).map(|k| k * blocks / parts).collect();

        // Entries per block, then where each block starts.
        let mut offsets = zeroed::<u64>(blocks + 1)?;
        split_by(&mut offsets[..blocks], &bounds)
            .into_par_iter()
            .enumerate()
            .for_each(|(part, counts)| {
                let first = bounds[part];
                for chunk in chunks {
                    for &c in &chunk.children {
                        // Blocks below `first` wrap round to large numbers.
                        let b = ((c >> low_bits) as usize).wrapping_sub(first);
                        if b < counts.len() {
                            counts[b] += 1;
                        }
                    }
                }
            });
        let mut total = 0u64;
        for o in offsets.iter_mut() {
            let n = *o;
            *o = total;
            total += n;
        }
        debug_assert_eq!(total, edges as u64);

        // Every entry is written below, once: no need to write zeros first
        // (a quarter of the build's time on II 2x6 layer 18).
        let mut entries = with_capacity::<u32>(edges)?;
        let mut cursors = with_capacity::<u64>(blocks)?;
        cursors.extend_from_slice(&offsets[..blocks]);
        let entry_bounds: Vec<usize> = bounds.iter().map(|&b| offsets[b] as usize).collect();
        split_by(&mut entries.spare_capacity_mut()[..edges], &entry_bounds)
            .into_par_iter()
            .zip(split_by(&mut cursors, &bounds))
            .enumerate()
            .for_each(|(part, (entries, cursors))| {
                let (first, base) = (bounds[part], entry_bounds[part] as u64);
                let mask = (1u32 << low_bits) - 1;
                for (k, chunk) in chunks.iter().enumerate() {
                    let mut next = 0;
                    for (i, &degree) in chunk.degree.iter().enumerate() {
                        let parent = (k * CHUNK + i) as u32;
                        for &c in &chunk.children[next..next + degree as usize] {
                            let b = ((c >> low_bits) as usize).wrapping_sub(first);
                            if b < cursors.len() {
                                let at = &mut cursors[b];
                                entries[(*at - base) as usize]
                                    .write(parent << low_bits | (c & mask));
                                *at += 1;
                            }
                        }
                        next += degree as usize;
                    }
                }
            });
        // Each part's cursors ran from its first entry to the next part's:
        // every entry was written.
        debug_assert!((0..blocks).all(|b| cursors[b] == offsets[b + 1]));
        // SAFETY: the parts cover `0..edges` (`entry_bounds` runs from 0 to
        // `total == edges`), and within a part the cursors of consecutive
        // blocks went from each block's offset to the next one's, writing
        // every entry between (checked above in debug builds; the counts and
        // the fill read the same children, so they cannot disagree).
        unsafe { entries.set_len(edges) };
        Ok(ParentIndex {
            low_bits,
            offsets,
            entries,
        })
    }

    /// The South-to-move parents of North-to-move position `c`, in rank order.
    #[inline]
    fn of(&self, c: u32) -> impl Iterator<Item = u32> + '_ {
        let b = (c >> self.low_bits) as usize;
        let mask = (1u32 << self.low_bits) - 1;
        let block = &self.entries[self.offsets[b] as usize..self.offsets[b + 1] as usize];
        block
            .iter()
            .filter(move |&&e| e & mask == c & mask)
            .map(move |&e| e >> self.low_bits)
    }
}

/// `items` cut at `bounds` (the first at 0, the last at its length, counted
/// in items from the start of `items`).
fn split_by<'s, T>(mut items: &'s mut [T], bounds: &[usize]) -> Vec<&'s mut [T]> {
    let mut parts = Vec::with_capacity(bounds.len() - 1);
    let mut at = bounds[0];
    for &end in &bounds[1..] {
        let (part, rest) = items.split_at_mut(end - at);
        parts.push(part);
        items = rest;
        at = end;
    }
    parts
}

/// Updates the South-to-move values `south` (and their mirror images in
/// `north`) round by round from the North-to-move positions `frontier` that
/// changed last, until a round changes nothing; returns the rounds, the last
/// one included.
pub(super) fn settle(
    lists: &ChildLists<'_>,
    parents: &ParentIndex,
    index: &LayerIndex,
    south: &mut [i8],
    north: &mut [i8],
    mut frontier: Vec<u32>,
) -> u32 {
    let mut rounds = 0;
    loop {
        rounds += 1;
        let mut candidates: Vec<u32> = frontier
            .par_iter()
            .flat_map_iter(|&c| parents.of(c))
            .collect();
        candidates.par_sort_unstable();
        candidates.dedup();
        let (south_now, north_now) = (&*south, &*north);
        let changed: Vec<(u32, u32, i8)> = candidates
            .par_iter()
            .filter_map(|&p| {
                let (exit, children) = lists.of(p as usize);
                let best = children
                    .iter()
                    .fold(exit, |best, &c| best.max(-north_now[c as usize]));
                let value = south_now[p as usize];
                debug_assert!(
                    value == 0 || best.signum() == value.signum() && best.abs() >= value.abs(),
                    "values move away from zero monotonically"
                );
                (best != value).then(|| {
                    let mirror = index.rotated_rank(&index.unrank(u64::from(p)));
                    (p, mirror as u32, best)
                })
            })
            .collect();
        if changed.is_empty() {
            return rounds;
        }
        frontier.clear();
        for &(p, mirror, value) in &changed {
            south[p as usize] = value;
            north[mirror as usize] = value;
            frontier.push(mirror);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Chunks of `count` positions with random degrees (0 to 6) and random
    /// children among `count` ranks.
    fn random_chunks(count: usize, seed: u64) -> Vec<Chunk> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..count)
            .step_by(CHUNK)
            .map(|start| {
                let len = CHUNK.min(count - start);
                let degree: Vec<u8> = (0..len).map(|_| rng.random_range(0..=6)).collect();
                let edges: usize = degree.iter().map(|&d| d as usize).sum();
                Chunk {
                    exit: (0..len).map(|_| rng.random_range(-9..=9)).collect(),
                    children: (0..edges)
                        .map(|_| rng.random_range(0..count as u32))
                        .collect(),
                    degree,
                    mirror: Vec::new(),
                }
            })
            .collect()
    }

    /// Every (parent, child) pair of the lists, sorted, walking them in order.
    fn pairs_of_the_lists(chunks: &[Chunk]) -> Vec<(u32, u32)> {
        let mut pairs = Vec::new();
        for (k, chunk) in chunks.iter().enumerate() {
            let mut next = 0;
            for (i, &d) in chunk.degree.iter().enumerate() {
                for &c in &chunk.children[next..next + d as usize] {
                    pairs.push((c, (k * CHUNK + i) as u32));
                }
                next += d as usize;
            }
        }
        pairs.sort_unstable();
        pairs
    }

    /// The index names exactly the parents the lists give, as often as they
    /// give them, for one thread and for three, in blocks of one child (a
    /// layer of 2^32 positions leaves no bits for the child) up to 64.
    #[test]
    fn the_index_of_parents_turns_the_lists_round() {
        assert_eq!(ParentIndex::low_bits(1 << 20), 6);
        assert_eq!(ParentIndex::low_bits((1 << 27) + 1), 4);
        assert_eq!(ParentIndex::low_bits(1 << 32), 0);
        for (count, seed) in [(1usize, 1u64), (5_000, 2), (2 * CHUNK + 777, 3)] {
            let chunks = random_chunks(count, seed);
            let expected = pairs_of_the_lists(&chunks);
            for threads in [1, 3] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
                let pool = pool.expect("a thread pool");
                let parents = pool.install(|| ParentIndex::build(&chunks, count));
                let parents = parents.expect("a small index");
                let mut found: Vec<(u32, u32)> = (0..count as u32)
                    .flat_map(|c| parents.of(c).map(move |p| (c, p)))
                    .collect();
                found.sort_unstable();
                assert_eq!(found, expected, "{count} positions, {threads} threads");
            }
        }
    }

    /// A position's exit value and children, found from its block's offset,
    /// are the ones the lists give in order.
    #[test]
    fn child_lists_find_each_position_in_its_chunk() {
        let count = 2 * CHUNK + 100;
        let chunks = random_chunks(count, 4);
        let lists = ChildLists::new(&chunks).expect("small lists");
        for (k, chunk) in chunks.iter().enumerate() {
            let mut next = 0;
            for (i, &d) in chunk.degree.iter().enumerate() {
                let (exit, children) = lists.of(k * CHUNK + i);
                assert_eq!(exit, chunk.exit[i]);
                assert_eq!(children, &chunk.children[next..next + d as usize]);
                next += d as usize;
            }
        }
    }

    #[test]
    fn slices_are_cut_at_their_bounds() {
        let mut items = [0, 1, 2, 3, 4, 5];
        let parts = split_by(&mut items, &[0, 2, 2, 6]);
        let parts: Vec<Vec<i32>> = parts.into_iter().map(|p| p.to_vec()).collect();
        assert_eq!(parts, vec![vec![0, 1], vec![], vec![2, 3, 4, 5]]);
    }
}
