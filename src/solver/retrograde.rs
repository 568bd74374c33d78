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
//! The rules treat both players alike (the tables use the default options: the
//! capturer takes the last seeds), so a position with North to move has the
//! value of the same board with its rows swapped and South to move. Only the
//! South-to-move positions' moves are simulated and iterated, which halves the
//! moves to simulate, the successor lists and the work of a sweep; the
//! North-to-move values are kept as the mirror image of the South-to-move ones.
//!
//! A sweep updates the South-to-move values from the North-to-move values,
//! and the South values that changed are copied to their mirror images (a
//! permutation, so the copies never collide). Reading children in the
//! North-to-move array, indexed as boards and not as mirror images, keeps a
//! child's rank near its parent's (sowing leaves the holes before the emptied
//! one as they were), so the reads stay local in memory. The layer is cut into
//! `PHASES` parts in rank order, updated one after the other, each from the
//! values the parts before it have just changed (Gauss-Seidel): measured on II
//! 2x6, this needs about 40% fewer sweeps than updating the whole layer from
//! the last sweep's values. (The argument above holds for any order of
//! updates: a value computed from newer values is still below the fixed point,
//! and a sweep in which no part changes anything leaves every position equal
//! to its update.) Within a part, chunks are updated in parallel by
//! rayon with no shared writes but the mirror copies, so the iteration itself,
//! and not only its result, is deterministic: the same sweeps for any number
//! of threads.

use std::sync::atomic::{AtomicI8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::engine::position::Position;
use crate::engine::rules::{LastFour, Rules, MAX_HOLES};
use crate::engine::side::Side;
use crate::solver::chunk::{with_capacity, zeroed, Chunk, CHUNK};
use crate::solver::frontier::{self, ChildLists, ParentIndex};
use crate::solver::index::LayerIndex;
use crate::solver::memory::memory_budget;
use crate::solver::prefetch::prefetch;
use crate::solver::SolveError;

const NO_EXIT: i8 = i8::MIN;

/// How a layer was built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayerStats {
    /// Seeds on the board.
    pub seeds: u32,
    /// Positions (boards times sides to move).
    pub positions: u64,
    /// Inner (non-capturing) moves of the layer, both sides to move (North's
    /// mirror South's and are not simulated).
    pub inner_moves: u64,
    /// Sweeps over the South-to-move positions (see `PHASES`): until the
    /// fixed point (the last one changes nothing) where no rounds follow.
    pub sweeps: u32,
    /// Rounds over the parents of the positions that changed, after the
    /// sweeps, until the fixed point (the last one changes nothing); 0 where
    /// the sweeps went to the end (see `frontier`).
    pub rounds: u32,
    /// Time spent simulating the moves.
    pub generation: Duration,
    /// Time spent iterating to the fixed point.
    pub iteration: Duration,
}

/// The value for the mover of a capturing move, given the position and the
/// position it leads to (for tables: [`move_value`] over the smaller layers).
/// It must not depend on which side moves: the value of a move and of its
/// mirror image (rows swapped) are the same.
pub(crate) type ExitValue<'a> = dyn Fn(&Position, &Position) -> i8 + Sync + 'a;

/// When a layer's sweeps give way to rounds over the parents of what changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tail {
    /// Sweeps to the end: where the index of parents does not fit, and the
    /// tests' yardstick.
    Sweeps,
    /// Rounds once a sweep changes fewer than one position in `n`, where the
    /// memory for the index of parents is free.
    RoundsBelow(u64),
}

/// Where the sweeps give way to rounds: measured on II 2x6 layers 18 to 20
/// (one sweep reads every successor list, one round the parents of each
/// change and their successors, a few hundred times as much per position).
const ROUNDS_BELOW: u64 = 128;

/// Builds the layer of `seeds` seeds: one value per position, South-to-move
/// boards in rank order, then North-to-move. `rules` must give the last seeds
/// to the capturer, the only option under which both sides play alike.
pub(crate) fn build_layer(
    rules: &Rules,
    seeds: u32,
    exit: &ExitValue<'_>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Vec<i8>, LayerStats), SolveError> {
    build_layer_with(
        rules,
        seeds,
        exit,
        progress,
        Tail::RoundsBelow(ROUNDS_BELOW),
        &|| memory_budget(rayon::current_num_threads()).map(|b| b.bytes),
    )
}

/// [`build_layer`], its sweeps ending as `tail` says, with `memory` telling
/// the bytes free for the index of parents (`None`: nothing is known).
pub(crate) fn build_layer_with(
    rules: &Rules,
    seeds: u32,
    exit: &ExitValue<'_>,
    progress: &(dyn Fn(u64) + Sync),
    mut tail: Tail,
    memory: &dyn Fn() -> Option<u64>,
) -> Result<(Vec<i8>, LayerStats), SolveError> {
    assert_eq!(
        rules.last_four,
        LastFour::Capturer,
        "the solver relies on both sides playing alike"
    );
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
    let mut chunks = starts
        .par_iter()
        .map(|&start| {
            let len = CHUNK.min(count - start);
            let chunk = generate_chunk(rules, &index, start, len, exit);
            // Each South-to-move position settles its North-to-move mirror too.
            progress(2 * len as u64);
            chunk.map_err(out_of_memory)
        })
        .collect::<Result<Vec<Chunk>, SolveError>>()?;
    let inner_moves = 2 * chunks.iter().map(|c| c.children.len() as u64).sum::<u64>();

    let generation = clock.elapsed();
    let clock = Instant::now();
    let mut values = zeroed::<i8>(2 * count).map_err(out_of_memory)?;
    let words = count.div_ceil(64);
    let mut south_changed = zeroed::<u64>(words).map_err(out_of_memory)?;
    // The North-to-move flags of two sweeps, interleaved word by word: a part
    // must see every change made since it last ran, in this sweep or the last.
    let mut north_changed = zeroed::<u64>(2 * words).map_err(out_of_memory)?;
    let phases = PHASES.min(chunks.len());
    let mut sweeps = 0u32;
    let mut rounds = 0u32;
    loop {
        let all = sweeps == 0;
        let parity = (sweeps % 2) as usize;
        sweeps += 1;
        // The changes of two sweeps ago have been seen by every part.
        north_changed
            .par_chunks_mut(CHUNK)
            .for_each(|w| w.iter_mut().skip(parity).step_by(2).for_each(|w| *w = 0));
        let mut changes = 0;
        for phase in 0..phases {
            let part = chunks.len() * phase / phases..chunks.len() * (phase + 1) / phases;
            let positions = part.start * CHUNK..(part.end * CHUNK).min(count);
            let flags = part.start * CHUNK / 64..positions.end.div_ceil(64);
            let (south, north) = values.split_at_mut(count);
            let (south, south_changed) = (&mut south[positions], &mut south_changed[flags]);
            let chunks = &chunks[part];
            let phase_changes = sweep(chunks, south, south_changed, north, &north_changed, all);
            if phase_changes > 0 {
                mirror(
                    chunks,
                    south,
                    south_changed,
                    north,
                    &mut north_changed,
                    parity,
                );
            }
            changes += phase_changes;
        }
        if changes == 0 {
            break;
        }
        let Tail::RoundsBelow(below) = tail else {
            continue;
        };
        if changes.saturating_mul(below) >= count as u64 {
            continue;
        }
        let frontier = changed_in_sweep(&north_changed, parity);
        match rounds_to_the_end(&mut chunks, &index, &mut values, frontier, memory) {
            Some(done) => {
                rounds = done;
                break;
            }
            // No memory for the index of parents: it will not come later.
            None => tail = Tail::Sweeps,
        }
    }
    let stats = LayerStats {
        seeds,
        positions: 2 * count as u64,
        inner_moves,
        sweeps,
        rounds,
        generation,
        iteration: clock.elapsed(),
    };
    Ok((values, stats))
}

/// The North-to-move positions flagged in the `parity` words of
/// `north_changed`: the changes of this sweep, whose parents read a value
/// before it changed.
fn changed_in_sweep(north_changed: &[u64], parity: usize) -> Vec<u32> {
    let mut changed = Vec::new();
    for (w, &word) in north_changed.iter().skip(parity).step_by(2).enumerate() {
        let mut bits = word;
        while bits != 0 {
            changed.push((w * 64 + bits.trailing_zeros() as usize) as u32);
            bits &= bits - 1;
        }
    }
    changed
}

/// Updates the layer from `frontier`, the North-to-move positions that
/// changed last, by rounds over their parents until the fixed point, and
/// returns the rounds; or returns `None`, having changed nothing, where the
/// memory for the index of parents is not free (`memory` tells the bytes).
/// The mirror ranks are given up first (the index needs the memory), and
/// made again if the index cannot be built after all.
fn rounds_to_the_end(
    chunks: &mut [Chunk],
    index: &LayerIndex,
    values: &mut [i8],
    frontier: Vec<u32>,
    memory: &dyn Fn() -> Option<u64>,
) -> Option<u32> {
    let count = index.count() as usize;
    let edges = chunks.iter().map(|c| c.children.len() as u64).sum::<u64>();
    let needed = ParentIndex::bytes(count, edges) + ChildLists::bytes(chunks);
    let freed = 4 * count as u64;
    if let Some(free) = memory() {
        if needed.saturating_sub(freed) > free {
            return None;
        }
    }
    for chunk in chunks.iter_mut() {
        chunk.mirror = Vec::new();
    }
    give_back_freed_memory();
    let built =
        ChildLists::new(chunks).and_then(|lists| Ok((ParentIndex::build(chunks, count)?, lists)));
    let Ok((parents, lists)) = built else {
        restore_mirrors(chunks, index);
        return None;
    };
    let (south, north) = values.split_at_mut(count);
    Some(frontier::settle(
        &lists, &parents, index, south, north, frontier,
    ))
}

/// Returns the memory just freed to the system, so that the index of parents
/// takes its place rather than adding to it: the allocator keeps the freed
/// mirror ranks (small blocks, among the successor lists) otherwise.
fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of the allocator's own.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Makes the mirror ranks of every chunk again.
fn restore_mirrors(chunks: &mut [Chunk], index: &LayerIndex) {
    chunks.par_iter_mut().enumerate().for_each(|(k, chunk)| {
        let mut board = index.unrank((k * CHUNK) as u64);
        chunk.mirror = (0..chunk.degree.len())
            .map(|i| {
                if i > 0 {
                    index.advance(&mut board);
                }
                index.rotated_rank(&board) as u32
            })
            .collect();
    });
}

/// Simulates every move of the South-to-move positions `start..start + len`;
/// fails with the bytes it could not allocate.
fn generate_chunk(
    rules: &Rules,
    index: &LayerIndex,
    start: usize,
    len: usize,
    exit: &ExitValue<'_>,
) -> Result<Chunk, u64> {
    let mut chunk = Chunk {
        exit: with_capacity(len)?,
        degree: with_capacity(len)?,
        children: with_capacity(len * 4)?,
        mirror: with_capacity(len)?,
    };
    let mut board = index.unrank(start as u64);
    for k in 0..len {
        let pos = index.position(board, Side::South);
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
                debug_assert_eq!(child.side, Side::North, "inner moves switch sides");
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
        chunk.mirror.push(index.rotated_rank(&board) as u32);
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

/// One sweep of one part: updates its South-to-move values from the
/// North-to-move values and flags in `south_changed` the ones that changed;
/// returns how many changed. A position none of whose inner children is flagged
/// in `north_changed` (the changes of this sweep and the last, a superset of
/// those since this part last ran) keeps its value without looking at them,
/// unless `all` (the first sweep).
fn sweep(
    chunks: &[Chunk],
    south: &mut [i8],
    south_changed: &mut [u64],
    north: &[i8],
    north_changed: &[u64],
    all: bool,
) -> u64 {
    let flagged = |c: usize| {
        let w = 2 * (c / 64);
        (north_changed[w] | north_changed[w + 1]) >> (c % 64) & 1 != 0
    };
    south
        .par_chunks_mut(CHUNK)
        .zip(south_changed.par_chunks_mut(CHUNK / 64))
        .zip(chunks.par_iter())
        .map(|((values, changed_words), chunk)| {
            changed_words.fill(0);
            let mut changes = 0;
            let mut first = 0;
            for (i, value) in values.iter_mut().enumerate() {
                let degree = chunk.degree[i] as usize;
                let children = &chunk.children[first..first + degree];
                first += degree;
                prefetch(chunk.children.as_ptr().wrapping_add(first + PREFETCH_AHEAD));
                if !all && !children.iter().any(|&c| flagged(c as usize)) {
                    continue;
                }
                let mut best = chunk.exit[i];
                for &c in children {
                    best = best.max(-north[c as usize]);
                }
                debug_assert!(best != NO_EXIT, "every position has a move");
                debug_assert!(
                    *value == 0 || best.signum() == value.signum() && best.abs() >= value.abs(),
                    "values move away from zero monotonically"
                );
                if best != *value {
                    *value = best;
                    changed_words[i / 64] |= 1 << (i % 64);
                    changes += 1;
                }
            }
            changes
        })
        .sum()
}

/// Parts of the layer updated one after the other in a sweep, each from the
/// values the parts before it have just changed (Gauss-Seidel): changes
/// travel further per sweep, so fewer sweeps are needed. Measured on II 2x6
/// layer 18: 70 sweeps in one part, 47 in 4, 42 in 16, 40 in 64; 16 was the
/// fastest, as each part ends on a wait for the slowest thread.
const PHASES: usize = 16;

/// How many successors ahead a sweep asks for its successor lists: the
/// hardware prefetcher alone does not keep up with a loop that mispredicts a
/// branch at most positions.
const PREFETCH_AHEAD: usize = 512;

/// Copies the South-to-move values flagged in `south_changed` to their mirror
/// images among the North-to-move values, and flags exactly those in the
/// `parity` words of `north_changed` (this sweep's).
fn mirror(
    chunks: &[Chunk],
    south: &[i8],
    south_changed: &[u64],
    north: &mut [i8],
    north_changed: &mut [u64],
    parity: usize,
) {
    // The mirror images are a permutation: no two positions write the same
    // value or flag bit, and the flag words are combined with `fetch_or`.
    let north = atomic_i8(north);
    let north_changed = atomic_u64(north_changed);
    south
        .par_chunks(CHUNK)
        .zip(south_changed.par_chunks(CHUNK / 64))
        .zip(chunks.par_iter())
        .for_each(|((values, changed_words), chunk)| {
            for (w, &word) in changed_words.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let m = chunk.mirror[i] as usize;
                    north[m].store(values[i], Ordering::Relaxed);
                    north_changed[2 * (m / 64) + parity].fetch_or(1 << (m % 64), Ordering::Relaxed);
                }
            }
        });
}

/// `values` as atomics, so that threads may write distinct entries of it.
fn atomic_i8(values: &mut [i8]) -> &[AtomicI8] {
    // SAFETY: `AtomicI8` has the size, alignment and bit validity of `i8`, and
    // the exclusive borrow guarantees that no other access exists meanwhile.
    unsafe { &*(values as *mut [i8] as *const [AtomicI8]) }
}

/// `words` as atomics, so that threads may set bits of the same word.
fn atomic_u64(words: &mut [u64]) -> &[AtomicU64] {
    const { assert!(std::mem::align_of::<u64>() == std::mem::align_of::<AtomicU64>()) };
    // SAFETY: `AtomicU64` has the size and bit validity of `u64`, and the same
    // alignment (checked above); the exclusive borrow guarantees that no other
    // access exists meanwhile.
    unsafe { &*(words as *mut [u64] as *const [AtomicU64]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An allocation the solver cannot make is an error carrying its size,
    /// not an abort of the process.
    #[test]
    fn allocation_failure_is_an_error() {
        let len = usize::MAX / 4;
        assert_eq!(zeroed::<u64>(len), Err(u64::MAX));
        assert_eq!(
            with_capacity::<u32>(len).map(|v| v.len()),
            Err(len as u64 * 4)
        );
        // black_box: an optimiser may elide an unused allocation and assume it succeeded.
        let huge = std::hint::black_box(zeroed::<u8>(1 << 40 << 20));
        assert_eq!(huge.err(), Some(1 << 60));
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

    /// The plainest iteration of a layer, over both sides to move with no
    /// mirror images, no parts and no skipping: the oracle for `build_layer`.
    fn plain_layer(rules: &Rules, seeds: u32, exit: &ExitValue<'_>) -> Vec<i8> {
        let index = LayerIndex::new(rules.holes, seeds);
        let count = index.count() as usize;
        let mut exits = Vec::new();
        let mut children = Vec::new();
        for side in [Side::South, Side::North] {
            let mut board = index.unrank(0);
            for _ in 0..count {
                let pos = index.position(board, side);
                let (mut best, mut inner) = (NO_EXIT, Vec::new());
                pos.for_each_child(rules, |_, child, effect| {
                    if effect.captured == 0 {
                        inner.push(child.side.index() * count + index.rank(&child.board) as usize);
                    } else {
                        best = best.max(exit(&pos, &child));
                    }
                });
                exits.push(if pos.is_over() { 0 } else { best });
                children.push(inner);
                index.advance(&mut board);
            }
        }
        let mut values = vec![0i8; 2 * count];
        loop {
            let next: Vec<i8> = (0..2 * count)
                .map(|p| {
                    children[p]
                        .iter()
                        .fold(exits[p], |best, &c| best.max(-values[c]))
                })
                .collect();
            if next == values {
                return values;
            }
            values = next;
        }
    }

    /// Layers of several chunks, so several parts, built with one thread and
    /// with three, with sweeps to the end, with rounds from the first sweep
    /// on and with rounds from where the solver starts them: the same values
    /// as the plain iteration, and the same sweeps and rounds.
    #[test]
    fn layers_agree_with_the_plain_iteration_for_any_thread_count() {
        use crate::engine::rules::Variant;
        use crate::solver::tablebase::Tablebase;
        let seeds = 13;
        assert!(
            LayerIndex::new(4, seeds).count() > 2 * CHUNK as u64,
            "several parts"
        );
        for variant in Variant::ALL {
            let mut tables = Tablebase::new(variant, 4).expect("a valid board");
            tables
                .ensure(seeds - 4, None, &|_| {})
                .expect("small layers");
            let rules = *tables.rules();
            let lower = |p: &Position| tables.value(p).expect("a lower layer");
            let exit = |p: &Position, c: &Position| move_value(p, c, &lower);
            let build = |threads: usize, tail: Tail, free: Option<u64>| {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
                let pool = pool.expect("a thread pool");
                pool.install(|| build_layer_with(&rules, seeds, &exit, &|_| {}, tail, &|| free))
                    .expect("a small layer")
            };
            let plain = plain_layer(&rules, seeds, &exit);
            let differ = |a: &[i8], b: &[i8]| a.iter().zip(b).filter(|(x, y)| x != y).count();
            let mut sweeps_to_the_end = 0;
            for (tail, free) in [
                (Tail::Sweeps, None),
                (Tail::RoundsBelow(1), None),
                (Tail::RoundsBelow(ROUNDS_BELOW), None),
                // No memory for the index of parents: sweeps to the end.
                (Tail::RoundsBelow(1), Some(0)),
            ] {
                let case = format!("{variant} {tail:?}, {free:?} bytes free");
                let (one, stats_one) = build(1, tail, free);
                let (three, stats_three) = build(3, tail, free);
                assert_eq!(one.len(), plain.len(), "{case}");
                assert_eq!(
                    differ(&one, &plain),
                    0,
                    "{case}: values unlike the plain iteration"
                );
                assert_eq!(
                    differ(&one, &three),
                    0,
                    "{case}: values differ with three threads"
                );
                assert_eq!(stats_one.sweeps, stats_three.sweeps, "{case}");
                assert_eq!(stats_one.rounds, stats_three.rounds, "{case}");
                assert!(one.iter().filter(|&&v| v != 0).count() > one.len() / 10);
                match (tail, free) {
                    (Tail::Sweeps, _) => {
                        assert_eq!(stats_one.rounds, 0, "{case}");
                        sweeps_to_the_end = stats_one.sweeps;
                    }
                    (_, Some(0)) => {
                        assert_eq!(stats_one.rounds, 0, "{case}");
                        assert_eq!(stats_one.sweeps, sweeps_to_the_end, "{case}");
                    }
                    // Rounds as soon as the first sweep has run: they do
                    // nearly all the work.
                    (Tail::RoundsBelow(1), _) => {
                        assert_eq!(stats_one.sweeps, 1, "{case}");
                        assert!(stats_one.rounds > 10, "{case}: {stats_one:?}");
                    }
                    (Tail::RoundsBelow(_), _) => {}
                }
            }
        }
    }

    /// The mirror ranks made again after an index of parents could not be
    /// built are the ones the moves' generation made.
    #[test]
    fn mirror_ranks_are_made_again_as_generated() {
        use crate::solver::tablebase::Tablebase;
        let tables = Tablebase::new(crate::engine::rules::Variant::Ii, 4).expect("a valid board");
        let rules = *tables.rules();
        let index = LayerIndex::new(4, 13);
        let count = index.count() as usize;
        assert!(count > 2 * CHUNK, "several chunks");
        let exit = |_: &Position, _: &Position| 0;
        let mut chunks: Vec<Chunk> = (0..count)
            .step_by(CHUNK)
            .map(|start| {
                let len = CHUNK.min(count - start);
                generate_chunk(&rules, &index, start, len, &exit).expect("a small chunk")
            })
            .collect();
        let generated: Vec<Vec<u32>> = chunks.iter().map(|c| c.mirror.clone()).collect();
        for chunk in &mut chunks {
            chunk.mirror = Vec::new();
        }
        restore_mirrors(&mut chunks, &index);
        for (k, (chunk, mirror)) in chunks.iter().zip(&generated).enumerate() {
            assert_eq!(&chunk.mirror, mirror, "chunk {k}");
        }
    }
}
