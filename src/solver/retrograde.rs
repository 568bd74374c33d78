//! Retrograde analysis of one layer: every board with `k` seeds, both sides to move.
//!
//! Captures only remove seeds, so a layer depends only on itself and on smaller
//! layers, as in Awari (Romein & Bal 2003, "Solving Awari with parallel
//! retrograde analysis") and Kalah (Irving, Donkers & Uiterwijk 2000, "Solving
//! Kalah"). A move of the layer either captures (an *exit*: its value, the seeds
//! it takes plus or minus the exact value of the smaller position, is known) or
//! does not (an *inner* move: same seeds, other side to move; passes included).
//! Inner moves can cycle, and endless play without a capture gains nothing more.
//!
//! Relay sowing has no practical inverse, so instead of un-moves and successor
//! counters this module generates every move once, keeps the inner moves as a
//! compact successor list, and iterates negamax from zero to an exact fixed point:
//! `v(p) <- max over moves of (exit value, or -v(child))`, starting at `v = 0`.
//!
//! Why this is exact and terminates. Split the value, seen from one side, into
//! `a = max(v, 0)` and `b = max(-v, 0)`. For a threshold `t >= 1` the mover can
//! secure `t` only by forcing a capture sequence worth `t` (an endless game gives
//! 0), a reachability game; so `a` and `b` are the *least* fixed points of the
//! monotone Bellman operators `a(p) = max over moves (max(e, 0) | b(child))` and
//! `b(p) = min over moves (max(-e, 0) | a(child))`, reached by iterating from
//! `a = b = 0` (Kleene). As long as every iterate lies below that fixed point,
//! which has `a * b = 0` everywhere, `a - b` follows exactly the negamax update
//! above. Hence every value moves monotonically away from 0 towards its final
//! value without crossing zero, each change raises `sum |v|` by at least one,
//! `sum |v| <= k * positions` bounds the number of changes, and a full sweep with
//! no change is the least fixed point: the exact values. No depth cut-off and no
//! iteration cap are involved.
//!
//! Inner moves always hand the move to the other side, so a sweep first updates
//! every South-to-move value from North's, then every North-to-move value from
//! South's (red-black Gauss-Seidel): each half is split into chunks that rayon
//! updates in parallel with no shared writes, so the iteration itself, and not
//! only its result, is deterministic.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::position::Position;
use crate::rules::{Rules, MAX_HOLES};
use crate::side::Side;
use crate::solver::index::LayerIndex;
use crate::solver::SolveError;

/// Positions per chunk of work: large enough to amortise scheduling, small
/// enough to balance two to sixteen threads.
const CHUNK: usize = 1 << 15;

/// Marks a position without a capturing move.
const NO_EXIT: i8 = i8::MIN;

/// How a layer was built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayerStats {
    /// Seeds on the board.
    pub seeds: u32,
    /// Positions (boards times sides to move).
    pub positions: u64,
    /// Inner (non-capturing) moves kept as successor lists.
    pub inner_moves: u64,
    /// Full sweeps until the fixed point (the last one changes nothing).
    pub sweeps: u32,
    /// Time spent simulating the moves.
    pub generation: Duration,
    /// Time spent iterating to the fixed point.
    pub iteration: Duration,
}

/// The value for the mover of a capturing move, given the position and the
/// position it leads to (for tables: [`move_value`] over the smaller layers).
pub(crate) type ExitValue<'a> = dyn Fn(&Position, &Position) -> i8 + Sync + 'a;

/// The moves of one chunk of positions of one side to move.
struct Chunk {
    /// Best exit value per position, or [`NO_EXIT`].
    exit: Vec<i8>,
    /// Number of inner moves per position.
    degree: Vec<u8>,
    /// Ranks of the inner children (the other side to move), position by position.
    children: Vec<u32>,
}

/// Builds the layer of `seeds` seeds: one value per position, South-to-move
/// boards in rank order, then North-to-move.
pub(crate) fn build_layer(
    rules: &Rules,
    seeds: u32,
    exit: &ExitValue<'_>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Vec<i8>, LayerStats), SolveError> {
    let index = LayerIndex::new(rules.holes, seeds);
    let count = index.count();
    if count > u32::MAX as u64 || 2 * count > isize::MAX as u64 {
        return Err(SolveError::LayerTooLarge {
            holes: rules.holes,
            seeds,
            boards: count,
        });
    }
    let count = count as usize;
    let clock = Instant::now();
    let starts: Vec<usize> = (0..count).step_by(CHUNK).collect();
    let out_of_memory = |bytes: u64| SolveError::OutOfMemory {
        holes: rules.holes,
        seeds,
        bytes,
    };
    let generate = |side: Side| -> Result<Vec<Chunk>, SolveError> {
        starts
            .par_iter()
            .map(|&start| {
                let len = CHUNK.min(count - start);
                let chunk = generate_chunk(rules, &index, side, start, len, exit);
                progress(len as u64);
                chunk.map_err(out_of_memory)
            })
            .collect()
    };
    let south = generate(Side::South)?;
    let north = generate(Side::North)?;
    let inner_moves = south
        .iter()
        .chain(&north)
        .map(|c| c.children.len() as u64)
        .sum();

    let generation = clock.elapsed();
    let clock = Instant::now();
    let mut values = zeroed::<i8>(2 * count).map_err(out_of_memory)?;
    let words = count.div_ceil(64);
    let mut south_changed = zeroed::<u64>(words).map_err(out_of_memory)?;
    let mut north_changed = zeroed::<u64>(words).map_err(out_of_memory)?;
    let mut sweeps = 0;
    loop {
        let first = sweeps == 0;
        sweeps += 1;
        let (south_values, north_values) = values.split_at_mut(count);
        let changed = half_sweep(
            Half::new(south_values, &mut south_changed, &south),
            north_values,
            &north_changed,
            first,
        ) + half_sweep(
            Half::new(north_values, &mut north_changed, &north),
            south_values,
            &south_changed,
            first,
        );
        if changed == 0 {
            break;
        }
    }
    let stats = LayerStats {
        seeds,
        positions: 2 * count as u64,
        inner_moves,
        sweeps,
        generation,
        iteration: clock.elapsed(),
    };
    Ok((values, stats))
}

/// A vector of `len` zeros, or the bytes that could not be allocated: the
/// solver's large allocations fail as errors, not as an abort of the process.
fn zeroed<T: Clone + Default>(len: usize) -> Result<Vec<T>, u64> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| (len as u64).saturating_mul(std::mem::size_of::<T>() as u64))?;
    v.resize(len, T::default());
    Ok(v)
}

/// An empty vector with room for `len` items, or the bytes that could not be allocated.
fn with_capacity<T>(len: usize) -> Result<Vec<T>, u64> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| (len as u64).saturating_mul(std::mem::size_of::<T>() as u64))?;
    Ok(v)
}

/// Simulates every move of the positions `start..start + len` of `side`; fails
/// with the bytes it could not allocate.
fn generate_chunk(
    rules: &Rules,
    index: &LayerIndex,
    side: Side,
    start: usize,
    len: usize,
    exit: &ExitValue<'_>,
) -> Result<Chunk, u64> {
    let mut chunk = Chunk {
        exit: with_capacity(len)?,
        degree: with_capacity(len)?,
        children: with_capacity(len * 4)?,
    };
    let mut board = index.unrank(start as u64);
    for k in 0..len {
        let pos = index.position(board, side);
        let mut best = NO_EXIT;
        let mut degree = 0u8;
        // At most MAX_HOLES inner moves: room for them is made before the moves are
        // generated, so that pushing never allocates.
        let children = &mut chunk.children;
        if children.capacity() - children.len() < MAX_HOLES as usize {
            let more = children.capacity().max(64);
            children.try_reserve(more).map_err(|_| 4 * more as u64)?;
        }
        pos.for_each_child(rules, |_, child, effect| {
            if effect.captured == 0 {
                debug_assert_eq!(child.side, side.opponent(), "inner moves switch sides");
                children.push(index.rank(&child.board) as u32);
                degree += 1;
            } else {
                best = best.max(exit(&pos, &child));
            }
        });
        if pos.is_over() {
            // The empty board: the game is over and nothing more is to come.
            best = 0;
        }
        chunk.exit.push(best);
        chunk.degree.push(degree);
        if k + 1 < len {
            let more = index.advance(&mut board);
            debug_assert!(more, "chunk runs past the layer");
        }
    }
    chunk.children.shrink_to_fit();
    Ok(chunk)
}

/// The exact value for the mover of the move from `pos` to `child`:
/// the seeds it took (net, the last seeds included) plus what is still to come.
pub(crate) fn move_value(pos: &Position, child: &Position, lower: &dyn Fn(&Position) -> i8) -> i8 {
    let mover = pos.side;
    let gain = child.captures[mover] as i32
        - pos.captures[mover] as i32
        - (child.captures[mover.opponent()] as i32 - pos.captures[mover.opponent()] as i32);
    let rest = if child.is_over() {
        0
    } else if child.side == mover {
        lower(child) as i32
    } else {
        -(lower(child) as i32)
    };
    (gain + rest) as i8
}

/// One side to move's values, its changed-flags and its moves.
struct Half<'a> {
    values: &'a mut [i8],
    changed: &'a mut [u64],
    chunks: &'a [Chunk],
}

impl<'a> Half<'a> {
    fn new(values: &'a mut [i8], changed: &'a mut [u64], chunks: &'a [Chunk]) -> Half<'a> {
        Half {
            values,
            changed,
            chunks,
        }
    }
}

/// Updates the values of one side to move from the other side's and flags the
/// ones that changed; returns how many changed. A position none of whose inner
/// children changed since its last update keeps its value and is skipped,
/// unless `all` (the first sweep).
fn half_sweep(own: Half<'_>, other: &[i8], other_changed: &[u64], all: bool) -> u64 {
    let flagged = |c: usize| other_changed[c / 64] >> (c % 64) & 1 != 0;
    own.values
        .par_chunks_mut(CHUNK)
        .zip(own.changed.par_chunks_mut(CHUNK / 64))
        .zip(own.chunks.par_iter())
        .map(|((values, changed_words), chunk)| {
            changed_words.fill(0);
            let mut changed = 0;
            let mut next = 0;
            for (i, value) in values.iter_mut().enumerate() {
                let degree = chunk.degree[i] as usize;
                let children = &chunk.children[next..next + degree];
                next += degree;
                if !all && !children.iter().any(|&c| flagged(c as usize)) {
                    continue;
                }
                let mut best = chunk.exit[i];
                for &c in children {
                    best = best.max(-other[c as usize]);
                }
                debug_assert!(best != NO_EXIT, "every position has a move");
                debug_assert!(
                    *value == 0 || best.signum() == value.signum() && best.abs() >= value.abs(),
                    "values move away from zero monotonically"
                );
                if best != *value {
                    *value = best;
                    changed_words[i / 64] |= 1 << (i % 64);
                    changed += 1;
                }
            }
            changed
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 9 item 14: an allocation the solver cannot make is an error
    /// carrying its size, not an abort of the process.
    #[test]
    fn issue9_item14_allocation_failure_is_an_error() {
        let len = usize::MAX / 4;
        assert_eq!(zeroed::<u64>(len), Err(u64::MAX));
        assert_eq!(
            with_capacity::<u32>(len).map(|v| v.len()),
            Err(len as u64 * 4)
        );
        assert_eq!(zeroed::<u8>(1 << 40 << 20).err(), Some(1 << 60));
        assert_eq!(zeroed::<i8>(3), Ok(vec![0, 0, 0]));
    }

    /// The same, through a layer build: the error names the layer.
    #[test]
    fn out_of_memory_names_the_layer() {
        let err = SolveError::OutOfMemory {
            holes: 6,
            seeds: 20,
            bytes: 1 << 30,
        };
        assert_eq!(
            err.to_string(),
            "out of memory building the layer of 20 seeds on 2x6: cannot allocate \
             1073741824 more bytes; ask for fewer seeds on the board"
        );
    }
}
