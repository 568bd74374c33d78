//! Exact value of a start position, over the positions reachable from it only.
//!
//! The full tables of [`crate::solver::Tablebase`] hold every board of a layer:
//! on 2x6 the layer of 48 seeds alone has 1.3 * 10^12 boards. From the standard
//! start far fewer are reachable (Hoyito I 2x6: 47 million in all), so this
//! module solves the start as Awari and Kalah solvers do when the full space
//! is out of reach: a forward closure of the positions reachable from the start,
//! layer by layer in the seeds on the board (a number that never grows), then
//! values backward, from the smallest layer up.
//!
//! - **Forward.** The start's layer is closed under the moves that capture
//!   nothing (they stay in the layer); a capture leads to a smaller layer,
//!   whose closure starts from every position that captures led to. Layers are
//!   closed from the top down, so a layer is complete when its turn comes.
//! - **Backward.** A layer's values follow from its own inner moves and the
//!   exact values of the smaller layers, by the same least-fixed-point iteration
//!   as [`crate::solver::retrograde`] (see its docs for why iterating negamax
//!   from zero is exact): `v(p) <- max over moves (exit value, or -v(child))`.
//!   Here the iteration is Jacobi (every sweep reads the last sweep's values),
//!   which makes `v` after sweep `t` the value of the game in which at most `t`
//!   inner plies are left before play stops at 0. The sweep at which a value
//!   became final is kept: a principal variation that only steps to children
//!   finalised in an earlier sweep makes progress, where a plain "any move of
//!   the same value" could cycle forever.
//!
//! As in the tables, a position with North to move is stored as its mirror
//! image (rows swapped) with South to move: the rules treat both sides alike.
//! A board is keyed by its rank in [`LayerIndex`] order, so a layer is a sorted
//! array of keys; a key's index in that array is the position's number.
//!
//! **Out of core.** Without a state directory every layer lives in memory
//! (12 bytes a position, plus the working set of the largest layer). With
//! one, the solve is out of core: each finished layer is held memory-mapped
//! from its state file (see [`crate::solver::start_state`]), so only a
//! lookup bucket (under a byte a position) and the working set of the layer
//! being closed or solved stay in memory, and the kernel pages the rest
//! from disk. The working set is bounded too: the keys waiting for a smaller
//! layer's closure, the keys a closure finds beyond those and its work
//! stack spill to sorted runs in unlinked scratch files once they exceed
//! their share of the memory budget (lookups then search the runs as well),
//! and the backward pass keeps its successor lists in a scratch file, read
//! in order once a sweep. The values are the same in and out of core: the
//! same closure (found in another order) and the same iteration.
//!
//! Values and conventions are those of the tables: the capture margin still to
//! come for the side to move under perfect play, endless play worth nothing more
//! (the `none` leftover policy), the capturer taking the last seeds.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::game::{Game, Outcome};
use crate::moves::Move;
use crate::position::{MoveEffect, Position};
use crate::rules::{Rules, Variant};
use crate::side::Side;
use crate::solver::index::LayerIndex;
use crate::solver::retrograde::move_value;
use crate::solver::start_state::{
    self, Ident, Kind, Mapped, Scratch, ScratchDir, ScratchWriter, StateError,
};

/// A fast hash for keys that are already well spread (ranks).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, key: u64) {
        let h = (self.0 ^ key).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 32);
    }
}

type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// First index per bucket of a sorted key array's top bits, for lookups:
/// one `u32` per 4 to 8 keys (the bucket count rounded down to a power of
/// two), so at most a byte a key, which is what an out-of-core solve keeps
/// in memory of a mapped layer.
#[derive(Debug, Clone, Default)]
struct Buckets {
    first: Vec<u32>,
    shift: u32,
}

impl Buckets {
    /// The buckets of `keys`, sorted ranks below `count`.
    fn new(keys: &[u64], count: u64) -> Buckets {
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
    fn find(&self, keys: &[u64], key: u64) -> Option<usize> {
        let b = (key >> self.shift) as usize;
        let lo = *self.first.get(b)? as usize;
        let hi = *self.first.get(b + 1)? as usize;
        let slice = keys.get(lo..hi)?;
        slice.binary_search(&key).ok().map(|i| lo + i)
    }

    /// Memory held.
    fn bytes(&self) -> u64 {
        4 * self.first.capacity() as u64
    }
}

/// Where a finished layer's keys live.
#[derive(Debug, Clone)]
enum KeyStore {
    /// In memory (no state directory).
    Owned(Vec<u64>),
    /// Its keys file, mapped.
    Mapped(Arc<Mapped>),
}

impl KeyStore {
    fn get(&self) -> &[u64] {
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
enum ValueStore {
    /// Not solved yet.
    Unsolved,
    /// In memory (no state directory).
    Owned(Vec<u8>),
    /// Its values file, mapped.
    Mapped(Arc<Mapped>),
}

impl ValueStore {
    fn bytes(&self) -> Option<&[u8]> {
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
    keys: KeyStore,
    /// Values and settling sweeps; unsolved until the backward pass.
    values: ValueStore,
    /// For lookups.
    buckets: Buckets,
}

impl ReachableLayer {
    fn new(seeds: u32, keys: KeyStore, count: u64) -> ReachableLayer {
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

/// What the solve of one layer took.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerSolveStats {
    /// Seeds on the board.
    pub seeds: u32,
    /// Reachable positions.
    pub positions: u64,
    /// Inner moves (no capture) among them.
    pub inner_moves: u64,
    /// Jacobi sweeps to the fixed point (the last one changes nothing).
    pub sweeps: u32,
    /// Time of the forward closure.
    pub forward: Duration,
    /// Time of the backward pass (moves and iteration).
    pub backward: Duration,
    /// Whether the layer is held on disk, memory-mapped, rather than in memory.
    pub mapped: bool,
    /// Sorted runs written to scratch files while closing the layer (its own
    /// keys, its work stack, and keys waiting for smaller layers), because
    /// they exceeded their share of the memory budget.
    pub spills: u32,
}

/// Why a start cannot be solved.
#[derive(Debug, Error)]
pub enum StartError {
    /// A state file cannot be used.
    #[error(transparent)]
    State(#[from] StateError),
    /// The board's layers cannot be ranked in 64 bits.
    #[error(
        "a start with {seeds} seeds on 2x{holes} is beyond the start solver: \
         its layers cannot be numbered in 64 bits"
    )]
    TooLarge {
        /// Holes per row.
        holes: u8,
        /// Seeds on the board.
        seeds: u32,
    },
    /// The solve would need more memory than allowed.
    #[error(
        "the solve of this start {mode}needs about {needed_mb} MB of memory and the budget is \
         {budget_mb} MB{so_far}: it would need {positions} positions or more, \
         {disk_mb} MB or more of disk for its state and {hours:.1} hours or more on one core; \
         not solved ({advice})"
    )]
    NotEnoughMemory {
        /// Estimated memory.
        needed_mb: u64,
        /// The budget.
        budget_mb: u64,
        /// Estimated reachable positions.
        positions: u64,
        /// Estimated disk for the state files (and, out of core, scratch).
        disk_mb: u64,
        /// Estimated time.
        hours: f64,
        /// Where the estimate comes from.
        so_far: String,
        /// `"out of core "` or nothing.
        mode: &'static str,
        /// What would solve it: more memory, or out of core with how much.
        advice: String,
    },
}

/// What a solve reports as it goes.
#[derive(Debug, Clone, Copy)]
pub enum Progress<'a> {
    /// A layer was closed (or loaded from the state directory).
    Closed(&'a LayerSolveStats, bool),
    /// A layer was solved (or loaded from the state directory).
    Solved(&'a LayerSolveStats, bool),
}

/// Bytes a solved position holds in memory: key, value, settling sweep,
/// lookup bucket.
pub const BYTES_PER_POSITION: u64 = 12;
/// Bytes per position of the layer being closed (hash set at its largest,
/// work stack) or solved (successor lists, exits, values), on top.
pub const BYTES_PER_WORKING_POSITION: u64 = 40;
/// Out of core (with a state directory), the bytes a position keeps in
/// memory: its share of the lookup buckets; key, value and settling sweep
/// are mapped from disk.
pub const BYTES_PER_MAPPED_POSITION: u64 = 1;
/// Out of core, bytes per position of the largest layer in memory: the
/// backward pass's arrays (exit value, successor count, two value buffers,
/// settling sweep, two change bitmaps: 6.25 bytes; the successor lists are in
/// a scratch file), with room for the forward closure, whose lists spill to
/// scratch files beyond the share of the budget they are given.
pub const BYTES_PER_MAPPED_WORKING_POSITION: u64 = 12;
/// Bytes of state files per position: key 8, value 1, settling sweep 2.
pub const DISK_BYTES_PER_POSITION: u64 = 11;
/// Out of core, scratch disk per position of the largest layer at the most:
/// runs of the keys waiting for smaller layers, the layer's own runs and its
/// successor lists. The tighter the budget, the more runs, and the more
/// repeated keys among them: I 2x6 peaked at 20 bytes under a 300 MB
/// budget and at 23 under 210 MB, near its least (measured 2026-12-03).
pub const SCRATCH_BYTES_PER_WORKING_POSITION: u64 = 32;
/// Positions the forward closure and the backward pass handle per second on
/// one core (I 2x6: 46.8 million positions in 186 s, measured 2026-12-03).
pub const POSITIONS_PER_SECOND: f64 = 250_000.0;
/// Memory an out-of-core closure may use for its lists where no budget is
/// given.
const DEFAULT_WORKING_BYTES: u64 = 1 << 30;
/// How often (new positions) a closure checks its growth against the budget.
const CHECK_EVERY: usize = 1 << 22;

/// Reachable positions (mirror images merged) of standard starts, measured
/// by this solver: the memory check refuses a start known to be too large
/// before anything is done.
pub const KNOWN_STARTS: &[(Variant, u8, u64, u64)] = &[
    // variant, holes, positions in all, positions of the largest layer
    (Variant::I, 3, 358, 251),
    (Variant::Ii, 3, 97_573, 40_201),
    (Variant::Iii, 3, 99_887, 41_608),
    (Variant::I, 4, 4_400, 2_903),
    (Variant::Ii, 4, 16_939_897, 7_168_081),
    (Variant::Iii, 4, 17_117_190, 7_168_081),
    (Variant::I, 5, 1_361_935, 423_853),
    (Variant::I, 6, 46_794_258, 13_516_838),
];

/// The memory a solve in memory of `positions` positions, `largest` in one
/// layer, needs.
pub fn memory_needed(positions: u64, largest: u64) -> u64 {
    positions
        .saturating_mul(BYTES_PER_POSITION)
        .saturating_add(largest.saturating_mul(BYTES_PER_WORKING_POSITION))
}

/// The memory an out-of-core solve (with a state directory) of `positions`
/// positions, `largest` in one layer, needs: mapped layers count as disk.
pub fn memory_needed_mapped(positions: u64, largest: u64) -> u64 {
    positions
        .saturating_mul(BYTES_PER_MAPPED_POSITION)
        .saturating_add(largest.saturating_mul(BYTES_PER_MAPPED_WORKING_POSITION))
}

/// The disk an out-of-core solve of `positions` positions, `largest` in one
/// layer, needs: its state files and, at the most, its scratch files.
pub fn disk_needed_mapped(positions: u64, largest: u64) -> u64 {
    positions
        .saturating_mul(DISK_BYTES_PER_POSITION)
        .saturating_add(largest.saturating_mul(SCRATCH_BYTES_PER_WORKING_POSITION))
}

/// The positions reachable from a start, layer by layer, solved.
#[derive(Debug, Clone)]
pub struct StartSolve {
    rules: Rules,
    start: Position,
    /// By seeds on the board; `None` for a layer nothing reaches.
    layers: Vec<Option<ReachableLayer>>,
    indexes: Vec<LayerIndex>,
    stats: Vec<LayerSolveStats>,
    /// The most scratch disk alive at once (out of core).
    scratch_peak: u64,
}

/// The key of `pos` (captures ignored) in the index of its layer.
#[inline]
fn canonical(pos: &Position, index: &LayerIndex) -> u64 {
    match pos.side {
        Side::South => index.rank(&pos.board),
        Side::North => index.rotated_rank(&pos.board),
    }
}

/// Queues the position a capture led to for the closure of its (smaller)
/// layer, unless the capture ended the game.
fn pend_capture(child: &Position, indexes: &[LayerIndex], pending: &mut Pending) {
    if child.is_over() {
        return;
    }
    let s = child.seeds_on_board() as usize;
    pending.push(s, canonical(child, &indexes[s]));
}

/// Keeps a growing list of keys small: sorted and without repeats once it
/// has doubled since the last time.
fn compact(keys: &mut Vec<u64>, after: &mut usize) {
    if keys.len() > (*after * 2).max(1 << 20) {
        keys.sort_unstable();
        keys.dedup();
        *after = keys.len();
    }
}

/// Calls `out` with every key of the sorted `lists` in order: each key once
/// where `dedup`, else every occurrence (for lists known to be disjoint).
fn merge_sorted(
    lists: &[&[u64]],
    dedup: bool,
    mut out: impl FnMut(u64) -> Result<(), StateError>,
) -> Result<(), StateError> {
    let mut at = vec![0usize; lists.len()];
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = lists
        .iter()
        .enumerate()
        .filter_map(|(i, l)| l.first().map(|&k| Reverse((k, i))))
        .collect();
    let mut last = None;
    while let Some(Reverse((key, i))) = heap.pop() {
        if !dedup || last != Some(key) {
            out(key)?;
            last = Some(key);
        }
        at[i] += 1;
        if let Some(&next) = lists[i].get(at[i]) {
            heap.push(Reverse((next, i)));
        }
    }
    Ok(())
}

/// A scratch file written a key at a time, through a small buffer.
struct KeySink {
    out: ScratchWriter,
    buf: Vec<u64>,
}

impl KeySink {
    fn new(out: ScratchWriter) -> KeySink {
        KeySink {
            out,
            buf: Vec::with_capacity(1 << 13),
        }
    }

    fn push(&mut self, key: u64) -> Result<(), StateError> {
        self.buf.push(key);
        if self.buf.len() == self.buf.capacity() {
            self.out.write(start_state::le_words(&self.buf))?;
            self.buf.clear();
        }
        Ok(())
    }

    fn finish(mut self) -> Result<Scratch, StateError> {
        self.out.write(start_state::le_words(&self.buf))?;
        self.out.finish()
    }
}

/// A sorted run of keys in a scratch file, with its lookup buckets.
struct KeyRun {
    data: Scratch,
    buckets: Buckets,
}

impl KeyRun {
    fn new(data: Scratch, count: u64) -> KeyRun {
        let buckets = Buckets::new(data.words(), count);
        KeyRun { data, buckets }
    }

    fn keys(&self) -> &[u64] {
        self.data.words()
    }

    #[inline]
    fn contains(&self, key: u64) -> bool {
        self.buckets.find(self.data.words(), key).is_some()
    }
}

/// The keys captures led to, per smaller layer, waiting for its closure. In
/// memory they are kept sorted and without repeats now and then; out of
/// core, once they hold more than their share of the budget, the largest
/// list is sorted into a run in a scratch file.
struct Pending {
    keys: Vec<Vec<u64>>,
    compacted: Vec<usize>,
    runs: Vec<Vec<Scratch>>,
    /// Out of core: the scratch directory and the most keys held in memory.
    spill: Option<(Rc<ScratchDir>, usize)>,
    /// Keys of room held in memory (capacities) in all lists.
    held: usize,
}

impl Pending {
    fn new(layers: usize, scratch: Option<Rc<ScratchDir>>) -> Pending {
        Pending {
            keys: vec![Vec::new(); layers],
            compacted: vec![0; layers],
            runs: (0..layers).map(|_| Vec::new()).collect(),
            spill: scratch.map(|s| (s, usize::MAX)),
            held: 0,
        }
    }

    /// Out of core: the most keys to hold in memory from now on.
    fn set_limit(&mut self, keys: usize) {
        if let Some((_, limit)) = &mut self.spill {
            *limit = keys;
        }
    }

    #[inline]
    fn push(&mut self, s: usize, key: u64) {
        let list = &mut self.keys[s];
        let before = list.capacity();
        list.push(key);
        if self.spill.is_none() {
            compact(list, &mut self.compacted[s]);
        }
        self.held += list.capacity() - before;
    }

    fn is_empty(&self, s: usize) -> bool {
        self.keys[s].is_empty() && self.runs[s].is_empty()
    }

    /// Memory held.
    fn bytes(&self) -> u64 {
        8 * self.held as u64
    }

    /// Out of core: spills the largest lists until the rest fits; the runs
    /// written.
    fn settle(&mut self) -> Result<u32, StateError> {
        let Some((scratch, limit)) = &self.spill else {
            return Ok(0);
        };
        let mut spills = 0;
        while self.held > *limit {
            let Some(s) = (0..self.keys.len()).max_by_key(|&s| self.keys[s].capacity()) else {
                break;
            };
            let mut list = std::mem::take(&mut self.keys[s]);
            self.held -= list.capacity();
            if list.is_empty() {
                break;
            }
            list.sort_unstable();
            list.dedup();
            self.runs[s].push(scratch.words(&list)?);
            spills += 1;
        }
        Ok(spills)
    }

    /// Forgets the keys of layer `s` (closed in an earlier run).
    fn discard(&mut self, s: usize) {
        let list = std::mem::take(&mut self.keys[s]);
        self.held -= list.capacity();
        self.runs[s].clear();
    }

    /// The keys of layer `s`, sorted, without repeats (in memory).
    fn take_sorted(&mut self, s: usize) -> Vec<u64> {
        let mut list = std::mem::take(&mut self.keys[s]);
        self.held -= list.capacity();
        list.sort_unstable();
        list.dedup();
        list
    }

    /// The keys of layer `s`, sorted, without repeats, as one run in a
    /// scratch file (out of core).
    fn take_run(
        &mut self,
        s: usize,
        scratch: &Rc<ScratchDir>,
        count: u64,
    ) -> Result<KeyRun, StateError> {
        let list = self.take_sorted(s);
        let runs = std::mem::take(&mut self.runs[s]);
        if runs.is_empty() {
            return Ok(KeyRun::new(scratch.words(&list)?, count));
        }
        let mut lists: Vec<&[u64]> = runs.iter().map(|r| r.words()).collect();
        lists.push(&list);
        let mut sink = KeySink::new(scratch.writer()?);
        merge_sorted(&lists, true, |key| sink.push(key))?;
        Ok(KeyRun::new(sink.finish()?, count))
    }
}

/// The work stack of an out-of-core closure: beyond `cap` keys in memory,
/// they go to a scratch file, read back when the stack has emptied.
struct SpillStack {
    ram: Vec<u64>,
    cap: usize,
    spilled: Vec<Scratch>,
    scratch: Rc<ScratchDir>,
}

impl SpillStack {
    #[inline]
    fn push(&mut self, key: u64) {
        self.ram.push(key);
    }

    fn pop(&mut self) -> Option<u64> {
        if let Some(key) = self.ram.pop() {
            return Some(key);
        }
        let chunk = self.spilled.pop()?;
        self.ram.extend_from_slice(chunk.words());
        self.ram.pop()
    }

    /// Spills the keys in memory when they reach the cap; the runs written.
    fn settle(&mut self) -> Result<u32, StateError> {
        if self.ram.len() < self.cap {
            return Ok(0);
        }
        self.spilled.push(self.scratch.words(&self.ram)?);
        self.ram.clear();
        Ok(1)
    }
}

/// What an out-of-core closure may keep in memory before it spills: keys
/// waiting for smaller layers, its work stack, and the keys it found beyond
/// those its closure started from (a hash set: about 21 bytes a key, 31
/// while it grows, plus 8 to sort it).
#[derive(Debug, Clone, Copy)]
struct Allowance {
    pending_keys: usize,
    stack_keys: usize,
    fresh_keys: usize,
}

impl Allowance {
    /// Shares of `bytes`: a quarter for pending keys (and a Vec's doubling
    /// past it), a sixteenth for the stack (doubling to an eighth), half for
    /// the found keys.
    fn new(bytes: u64) -> Allowance {
        let floor = 1 << 12;
        let keys = |b: u64| (b as usize).max(floor);
        Allowance {
            pending_keys: keys(bytes / 4 / 8),
            stack_keys: keys(bytes / 16 / 8),
            fresh_keys: keys(bytes / 2 / 32),
        }
    }
}

/// What the forward pass has found so far, to check against the budget.
struct Growth {
    budget: Option<u64>,
    /// Positions of the closed layers.
    found: u64,
    /// Positions of the largest closed layer.
    largest: u64,
    clock: Instant,
}

impl Growth {
    /// Refuses an out-of-core solve that has grown beyond the budget, the
    /// layer of `k` seeds having `layer` positions so far.
    fn check_mapped(&self, k: usize, layer: u64, growing: bool) -> Result<(), StartError> {
        let Some(budget) = self.budget else {
            return Ok(());
        };
        let positions = self.found + layer;
        let largest = self.largest.max(layer);
        let needed = memory_needed_mapped(positions, largest);
        if needed <= budget {
            return Ok(());
        }
        let secs = self.clock.elapsed().as_secs_f64();
        let so_far = if growing {
            format!(
                " (at least: {positions} positions found in {secs:.0} s, \
                 the layer of {k} seeds still growing)"
            )
        } else {
            format!(" (at least: {positions} positions found in {secs:.0} s)")
        };
        Err(not_enough(needed, budget, positions, largest, so_far, true))
    }
}

/// How a solve runs.
#[derive(Debug, Clone, Default)]
pub struct StartOptions<'a> {
    /// Where the state is kept, so that a killed solve resumes; with it the
    /// solve is out of core, its finished layers memory-mapped from there.
    pub state: Option<&'a Path>,
    /// Memory the solve may use, in bytes.
    pub memory: Option<u64>,
}

impl StartSolve {
    /// The identity of the state files of this start.
    fn ident(rules: &Rules, start: &Position) -> Ident {
        Ident {
            variant: rules.variant as u8 + 1,
            holes: rules.holes,
            start: start_state::start_hash(&start.to_string()),
        }
    }

    /// Refuses, before anything is done, a standard start known to need more
    /// memory than `budget`, in memory or `out_of_core` (with a state
    /// directory).
    pub fn check_known(
        rules: &Rules,
        start: &Position,
        budget: u64,
        out_of_core: bool,
    ) -> Result<(), StartError> {
        let standard = *start == Position::start(rules) && rules.seeds == 4;
        let known = KNOWN_STARTS
            .iter()
            .find(|(v, h, _, _)| *v == rules.variant && *h == rules.holes);
        if let (true, Some(&(_, _, positions, largest))) = (standard, known) {
            let needed = if out_of_core {
                memory_needed_mapped(positions, largest)
            } else {
                memory_needed(positions, largest)
            };
            if needed > budget {
                return Err(not_enough(
                    needed,
                    budget,
                    positions,
                    largest,
                    " (measured earlier)".into(),
                    out_of_core,
                ));
            }
        }
        Ok(())
    }

    /// Closes and solves every layer reachable from `start`, resuming from
    /// the state directory where it holds finished layers.
    pub fn run(
        rules: Rules,
        start: Position,
        options: &StartOptions<'_>,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<StartSolve, StartError> {
        if let Some(budget) = options.memory {
            StartSolve::check_known(&rules, &start, budget, options.state.is_some())?;
        }
        let mut solve = StartSolve::reach(rules, start, options, progress)?;
        solve.solve(options, progress)?;
        Ok(solve)
    }

    /// The forward closure from `start` (captures ignored: only the rest of
    /// the game is solved).
    pub fn reach(
        rules: Rules,
        start: Position,
        options: &StartOptions<'_>,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<StartSolve, StartError> {
        let top = start.seeds_on_board();
        if LayerIndex::new(rules.holes, top).count() == u64::MAX {
            return Err(StartError::TooLarge {
                holes: rules.holes,
                seeds: top,
            });
        }
        let ident = StartSolve::ident(&rules, &start);
        let indexes: Vec<LayerIndex> = (0..=top).map(|k| LayerIndex::new(rules.holes, k)).collect();
        let scratch = options.state.map(ScratchDir::new).transpose()?;
        let mut pending = Pending::new(top as usize + 1, scratch.clone());
        let mut layers: Vec<Option<ReachableLayer>> = vec![None; top as usize + 1];
        let mut stats = Vec::new();
        if !start.is_over() {
            pending.push(top as usize, canonical(&start, &indexes[top as usize]));
        }
        let mut growth = Growth {
            budget: options.memory,
            found: 0,
            largest: 0,
            clock: Instant::now(),
        };
        // Memory held by the closed layers (their buckets, out of core).
        let mut held = 0u64;
        for k in (1..=top as usize).rev() {
            if pending.is_empty(k) {
                continue;
            }
            let clock = Instant::now();
            let index = &indexes[k];
            let loaded = match options.state {
                Some(dir) => start_state::map(dir, ident, Kind::Keys, k as u32, 8)?,
                None => None,
            };
            let mut spills = 0;
            let (keys, inner_moves, from_file) = if let Some(file) = loaded {
                // A closed layer from an earlier run: only its captures are
                // followed again, to seed the layers below.
                pending.discard(k);
                pending.set_limit(Allowance::new(working_bytes(options.memory, held)).pending_keys);
                let mut inner_moves = 0u64;
                for (i, &key) in file.words().iter().enumerate() {
                    let pos = index.position(index.unrank(key), Side::South);
                    pos.for_each_child(&rules, |_, child, effect| {
                        if effect.captured == 0 {
                            inner_moves += 1;
                        } else {
                            pend_capture(&child, &indexes, &mut pending);
                        }
                    });
                    if i % 1024 == 0 {
                        spills += pending.settle()?;
                    }
                }
                spills += pending.settle()?;
                (KeyStore::Mapped(Arc::new(file)), inner_moves, true)
            } else if let (Some(dir), Some(scratch)) = (options.state, &scratch) {
                let initial = pending.take_run(k, scratch, index.count())?;
                growth.check_mapped(k, initial.keys().len() as u64, true)?;
                let memory = held + initial.buckets.bytes();
                let allowance = Allowance::new(working_bytes(options.memory, memory));
                pending.set_limit(allowance.pending_keys);
                let closure = Closure {
                    rules: &rules,
                    indexes: &indexes,
                    k,
                    scratch,
                    allowance,
                    growth: &growth,
                };
                let (file, inner_moves, s) = closure.run(initial, &mut pending, dir, ident)?;
                spills += s;
                (KeyStore::Mapped(Arc::new(file)), inner_moves, false)
            } else {
                let (keys, inner_moves) =
                    close_in_memory(&rules, &indexes, k, &mut pending, &growth)?;
                (KeyStore::Owned(keys), inner_moves, false)
            };
            let layer = ReachableLayer::new(k as u32, keys, index.count());
            let n = layer.len() as u64;
            held += layer.buckets.bytes();
            if options.state.is_some() {
                growth.check_mapped(k, n, false)?;
            }
            growth.found += n;
            growth.largest = growth.largest.max(n);
            let s = LayerSolveStats {
                seeds: k as u32,
                positions: n,
                inner_moves,
                sweeps: 0,
                forward: clock.elapsed(),
                backward: Duration::ZERO,
                mapped: layer.is_mapped(),
                spills,
            };
            progress(Progress::Closed(&s, from_file));
            stats.push(s);
            layers[k] = Some(layer);
        }
        stats.reverse();
        Ok(StartSolve {
            rules,
            start,
            layers,
            indexes,
            stats,
            scratch_peak: scratch.map_or(0, |s| s.peak()),
        })
    }

    /// The value of `pos` (captures ignored) from the solved layers; `None`
    /// where its layer is not solved or the position was not reached.
    pub fn value(&self, pos: &Position) -> Option<i8> {
        self.lookup(pos).map(|(v, _)| v)
    }

    fn lookup(&self, pos: &Position) -> Option<(i8, u16)> {
        if pos.is_over() {
            return Some((0, 0));
        }
        let k = pos.seeds_on_board() as usize;
        let layer = self.layers.get(k)?.as_ref()?;
        let i = layer.find(canonical(pos, &self.indexes[k]))?;
        Some((layer.value(i)?, layer.settled(i)?))
    }

    /// Solves every reachable layer, smallest first, loading those the state
    /// directory holds. Out of core each solved layer's values are written
    /// to its values file and held mapped from it.
    pub fn solve(
        &mut self,
        options: &StartOptions<'_>,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<(), StartError> {
        let ident = StartSolve::ident(&self.rules, &self.start);
        let scratch = options.state.map(ScratchDir::new).transpose()?;
        for k in 1..self.layers.len() {
            let Some(mut layer) = self.layers[k].take() else {
                continue;
            };
            let clock = Instant::now();
            let loaded = match options.state {
                Some(dir) => start_state::map(dir, ident, Kind::Values, k as u32, 3)?,
                None => None,
            };
            let mut sweeps = 0;
            let n = layer.len();
            let from_file = match loaded {
                Some(file) if file.entries() == n as u64 => {
                    layer.values = ValueStore::Mapped(Arc::new(file));
                    true
                }
                Some(file) => {
                    return Err(StateError::Damaged {
                        path: file.path().to_path_buf(),
                        why: "it holds another number of positions than the layer",
                    }
                    .into())
                }
                None => {
                    let (values, settled, s) = self.solve_layer(&layer, scratch.as_ref())?;
                    sweeps = s;
                    layer.values = match options.state {
                        Some(dir) => {
                            let mut file = start_state::create(
                                dir,
                                ident,
                                Kind::Values,
                                k as u32,
                                n as u64,
                                3,
                            )?;
                            let data = file.data_mut();
                            let (head, tail) = data.split_at_mut(n);
                            for (b, &v) in head.iter_mut().zip(&values) {
                                *b = v as u8;
                            }
                            for (b, &w) in tail.chunks_exact_mut(2).zip(&settled) {
                                b.copy_from_slice(&w.to_le_bytes());
                            }
                            drop((values, settled));
                            ValueStore::Mapped(Arc::new(file.finish()?))
                        }
                        None => {
                            let mut bytes = Vec::with_capacity(3 * n);
                            bytes.extend(values.iter().map(|&v| v as u8));
                            bytes.extend(settled.iter().flat_map(|w| w.to_le_bytes()));
                            ValueStore::Owned(bytes)
                        }
                    };
                    false
                }
            };
            self.layers[k] = Some(layer);
            if let Some(s) = self.stats.iter_mut().find(|s| s.seeds == k as u32) {
                s.backward = clock.elapsed();
                s.sweeps = sweeps;
                progress(Progress::Solved(s, from_file));
            }
        }
        if let Some(s) = scratch {
            self.scratch_peak = self.scratch_peak.max(s.peak());
        }
        Ok(())
    }

    /// Solves one closed layer, the smaller ones solved: its values, settling
    /// sweeps and the sweeps it took. Out of core its successor lists go to
    /// a scratch file.
    fn solve_layer(
        &self,
        layer: &ReachableLayer,
        scratch: Option<&Rc<ScratchDir>>,
    ) -> Result<(Vec<i8>, Vec<u16>, u32), StartError> {
        let k = layer.seeds as usize;
        let index = &self.indexes[k];
        let n = layer.len();
        let mut exit = Vec::with_capacity(n);
        let mut degree = Vec::with_capacity(n);
        let mut children = Successors::new(scratch)?;
        let mut here: Vec<u32> = Vec::new();
        let lower = |c: &Position| {
            self.value(c)
                .expect("a capture leads to a solved, reachable position")
        };
        for &key in layer.keys() {
            let pos = index.position(index.unrank(key), Side::South);
            let mut best = i8::MIN;
            here.clear();
            pos.for_each_child(&self.rules, |_, child, effect| {
                if effect.captured == 0 {
                    let c = layer
                        .find(index.rotated_rank(&child.board))
                        .expect("an inner move stays in the closed layer");
                    here.push(c as u32);
                } else {
                    best = best.max(move_value(&pos, &child, &lower));
                }
            });
            children.extend(&here)?;
            exit.push(best);
            degree.push(here.len() as u8);
        }
        let children = children.finish()?;
        let (values, settled, sweeps) = iterate(&exit, &degree, children.get());
        Ok((values, settled, sweeps))
    }

    /// The value for the mover of the move from `pos` to `child`: a capture's
    /// seeds plus (or minus) the value of where it leads, or minus the
    /// child's value for an inner move; `i8::MIN` where the child is unknown.
    fn move_value_of(&self, pos: &Position, child: &Position, effect: MoveEffect) -> i8 {
        if effect.captured > 0 {
            move_value(pos, child, &|c: &Position| self.value(c).unwrap_or(i8::MIN))
        } else {
            self.value(child).map(|v| -v).unwrap_or(i8::MIN)
        }
    }

    /// The value of the start for the side to move, once solved.
    pub fn start_value(&self) -> Option<i8> {
        self.value(&self.start)
    }

    /// Per layer, largest first: positions, moves, sweeps and times.
    pub fn stats(&self) -> &[LayerSolveStats] {
        &self.stats
    }

    /// Calls `f` with every solved position (South to move; North-to-move
    /// positions are their mirror images) and its value.
    pub fn for_each_value(&self, mut f: impl FnMut(&Position, i8)) {
        for layer in self.layers.iter().flatten() {
            let index = &self.indexes[layer.seeds as usize];
            for (i, &key) in layer.keys().iter().enumerate() {
                if let Some(v) = layer.value(i) {
                    f(&index.position(index.unrank(key), Side::South), v);
                }
            }
        }
    }

    /// Reachable positions in all.
    pub fn positions(&self) -> u64 {
        self.stats.iter().map(|s| s.positions).sum()
    }

    /// A game from the start under perfect play by both sides that realises
    /// the start's value, played by the rules' [`Game`] (its stall rules
    /// included), with its outcome. Each side plays a move of the position's
    /// value; where that value is not 0 and no capture realises it, a move to
    /// a position whose value was final in an earlier sweep, so that play
    /// makes progress where "any move of the same value" could cycle. A
    /// value of 0 with no capture of value 0 is held by inner moves of value
    /// 0, and the game then ends stalled. The game's margin for the side that
    /// moved first equals the start's value (tests replay it).
    pub fn principal_variation(&self) -> (Vec<Move>, Option<Outcome>) {
        let mut game = Game::from_position(self.rules, self.start);
        while !game.is_over() {
            let pos = *game.position();
            let Some((value, when)) = self.lookup(&pos) else {
                break;
            };
            let mut exit_choice = None;
            let mut inner_choice = None;
            pos.for_each_child(&self.rules, |mv, child, effect| {
                if effect.captured > 0 {
                    let here = self.move_value_of(&pos, &child, effect);
                    if here == value && exit_choice.is_none() {
                        exit_choice = Some(mv);
                    }
                } else if let Some((cv, cwhen)) = self.lookup(&child) {
                    if -cv == value && (value == 0 || cwhen < when) && inner_choice.is_none() {
                        inner_choice = Some(mv);
                    }
                }
            });
            let Some(mv) = exit_choice.or(inner_choice) else {
                break;
            };
            if game.play(mv).is_err() {
                break;
            }
        }
        (game.moves().to_vec(), game.outcome())
    }

    /// The moves from the start that keep its value (best play).
    pub fn best_moves(&self) -> Vec<Move> {
        let value = self.start_value();
        self.first_moves()
            .into_iter()
            .filter(|&(_, v)| Some(v) == value)
            .map(|(mv, _)| mv)
            .collect()
    }

    /// The value of each first move from the start, for its mover.
    pub fn first_moves(&self) -> Vec<(Move, i8)> {
        let mut out = Vec::new();
        let pos = self.start;
        pos.for_each_child(&self.rules, |mv, child, effect| {
            out.push((mv, self.move_value_of(&pos, &child, effect)));
        });
        out
    }

    /// Whether the layers are held memory-mapped from the state directory.
    pub fn is_mapped(&self) -> bool {
        self.layers.iter().flatten().any(|l| l.is_mapped())
    }

    /// The most scratch disk an out-of-core solve had alive at once, in
    /// bytes (0 in memory).
    pub fn scratch_peak(&self) -> u64 {
        self.scratch_peak
    }

    /// The rules solved under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

/// The memory an out-of-core closure may give its lists: what the budget
/// leaves beside `held`, the memory already held.
fn working_bytes(budget: Option<u64>, held: u64) -> u64 {
    budget.map_or(DEFAULT_WORKING_BYTES, |b| b.saturating_sub(held))
}

/// Closes the layer of `k` seeds in memory, from the keys captures led to:
/// its sorted keys and its inner moves.
fn close_in_memory(
    rules: &Rules,
    indexes: &[LayerIndex],
    k: usize,
    pending: &mut Pending,
    growth: &Growth,
) -> Result<(Vec<u64>, u64), StartError> {
    let index = &indexes[k];
    let mut seen = KeySet::default();
    let mut stack = pending.take_sorted(k);
    seen.extend(stack.iter().copied());
    let mut inner_moves = 0u64;
    let mut checked = seen.len();
    while let Some(key) = stack.pop() {
        let pos = index.position(index.unrank(key), Side::South);
        pos.for_each_child(rules, |_, child, effect| {
            if effect.captured == 0 {
                inner_moves += 1;
                let c = index.rotated_rank(&child.board);
                if seen.insert(c) {
                    stack.push(c);
                }
            } else {
                pend_capture(&child, indexes, pending);
            }
        });
        if seen.len() >= checked + CHECK_EVERY {
            checked = seen.len();
            if let Some(budget) = growth.budget {
                let now = growth.found * BYTES_PER_POSITION
                    + pending.bytes()
                    + seen.len() as u64 * BYTES_PER_WORKING_POSITION;
                if now > budget {
                    let so_far = growth.found + seen.len() as u64;
                    let largest = growth.largest.max(seen.len() as u64);
                    return Err(not_enough(
                        now.max(memory_needed(so_far, largest)),
                        budget,
                        so_far,
                        largest,
                        format!(
                            " (at least: {so_far} positions found in {:.0} s, \
                             the layer of {k} seeds still growing)",
                            growth.clock.elapsed().as_secs_f64()
                        ),
                        false,
                    ));
                }
            }
        }
    }
    let mut keys: Vec<u64> = seen.into_iter().collect();
    keys.sort_unstable();
    Ok((keys, inner_moves))
}

/// The closure of one layer out of core.
struct Closure<'a> {
    rules: &'a Rules,
    indexes: &'a [LayerIndex],
    k: usize,
    scratch: &'a Rc<ScratchDir>,
    allowance: Allowance,
    growth: &'a Growth,
}

impl Closure<'_> {
    /// Closes the layer from `initial`, the keys captures led to (sorted,
    /// in a scratch file), and writes its keys file: the file, mapped, the
    /// layer's inner moves and the runs spilled. A key is known when it is
    /// in `initial`, in a run of keys found earlier, or in the set of those
    /// found since; the initial keys are expanded in order, then the stack
    /// of found ones. The keys file is the merge of those disjoint lists.
    fn run(
        &self,
        initial: KeyRun,
        pending: &mut Pending,
        dir: &Path,
        ident: Ident,
    ) -> Result<(Mapped, u64, u32), StartError> {
        let index = &self.indexes[self.k];
        let mut fresh = KeySet::default();
        let mut runs: Vec<KeyRun> = Vec::new();
        let mut in_runs = 0usize;
        let mut stack = SpillStack {
            ram: Vec::new(),
            cap: self.allowance.stack_keys,
            spilled: Vec::new(),
            scratch: Rc::clone(self.scratch),
        };
        let mut inner_moves = 0u64;
        let mut spills = 0u32;
        let mut next_check = initial.keys().len() + CHECK_EVERY;
        let mut next = 0usize;
        loop {
            let key = if let Some(&key) = initial.keys().get(next) {
                next += 1;
                key
            } else if let Some(key) = stack.pop() {
                key
            } else {
                break;
            };
            let pos = index.position(index.unrank(key), Side::South);
            pos.for_each_child(self.rules, |_, child, effect| {
                if effect.captured == 0 {
                    inner_moves += 1;
                    let c = index.rotated_rank(&child.board);
                    if !fresh.contains(&c)
                        && !initial.contains(c)
                        && !runs.iter().any(|r| r.contains(c))
                    {
                        fresh.insert(c);
                        stack.push(c);
                    }
                } else {
                    pend_capture(&child, self.indexes, pending);
                }
            });
            spills += stack.settle()?;
            spills += pending.settle()?;
            if fresh.len() >= self.allowance.fresh_keys {
                let mut keys: Vec<u64> = std::mem::take(&mut fresh).into_iter().collect();
                keys.sort_unstable();
                in_runs += keys.len();
                let run = self.scratch.words(&keys)?;
                drop(keys);
                runs.push(KeyRun::new(run, index.count()));
                spills += 1;
            }
            let found = initial.keys().len() + in_runs + fresh.len();
            if found >= next_check {
                next_check = found + CHECK_EVERY;
                self.growth.check_mapped(self.k, found as u64, true)?;
            }
        }
        drop(stack);
        let mut tail: Vec<u64> = fresh.into_iter().collect();
        tail.sort_unstable();
        let total = initial.keys().len() + in_runs + tail.len();
        let mut file = start_state::create(dir, ident, Kind::Keys, self.k as u32, total as u64, 8)?;
        let out = file.words_mut()?;
        let mut lists: Vec<&[u64]> = vec![initial.keys(), &tail];
        lists.extend(runs.iter().map(|r| r.keys()));
        let mut at = 0usize;
        // The lists are disjoint: exactly `total` keys, in order.
        merge_sorted(&lists, false, |key| {
            if let Some(slot) = out.get_mut(at) {
                *slot = key;
            }
            at += 1;
            Ok(())
        })?;
        debug_assert_eq!(at, total);
        debug_assert!(out.windows(2).all(|w| w[0] < w[1]));
        drop(lists);
        drop((runs, tail, initial));
        Ok((file.finish()?, inner_moves, spills))
    }
}

/// The successor lists of the layer being solved: in memory, or out of
/// core in a scratch file, written in order and read in order once a sweep.
enum Successors {
    Owned(Vec<u32>),
    File(ScratchWriter, Vec<u32>),
}

/// The successor lists, finished.
enum SuccessorList {
    Owned(Vec<u32>),
    File(Scratch),
}

impl Successors {
    fn new(scratch: Option<&Rc<ScratchDir>>) -> Result<Successors, StateError> {
        Ok(match scratch {
            Some(dir) => Successors::File(dir.writer()?, Vec::with_capacity(1 << 14)),
            None => Successors::Owned(Vec::new()),
        })
    }

    fn extend(&mut self, list: &[u32]) -> Result<(), StateError> {
        match self {
            Successors::Owned(all) => all.extend_from_slice(list),
            Successors::File(out, buf) => {
                buf.extend_from_slice(list);
                if buf.len() >= 1 << 14 {
                    out.write(start_state::le_u32s(buf))?;
                    buf.clear();
                }
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<SuccessorList, StateError> {
        Ok(match self {
            Successors::Owned(all) => SuccessorList::Owned(all),
            Successors::File(mut out, buf) => {
                out.write(start_state::le_u32s(&buf))?;
                SuccessorList::File(out.finish()?)
            }
        })
    }
}

impl SuccessorList {
    fn get(&self) -> &[u32] {
        match self {
            SuccessorList::Owned(all) => all,
            SuccessorList::File(file) => file.u32s(),
        }
    }
}

/// The Jacobi iteration of one layer from the exit values (best capture,
/// `i8::MIN` for none), the successor counts and the successor lists, in
/// order: values, settling sweeps and sweeps. Two value buffers (every
/// sweep reads the last one's values), and a bitmap of the values a sweep
/// changed, so that the next one looks again only at their predecessors.
fn iterate(exit: &[i8], degree: &[u8], children: &[u32]) -> (Vec<i8>, Vec<u16>, u32) {
    let n = exit.len();
    let mut values = vec![0i8; n];
    let mut next = vec![0i8; n];
    let mut settled = vec![0u16; n];
    let words = n.div_ceil(64);
    let mut changed = vec![u64::MAX; words];
    let mut now_changed = vec![0u64; words];
    let mut sweep = 0u32;
    loop {
        sweep += 1;
        let stamp = sweep.min(u16::MAX as u32) as u16;
        let mut any_change = false;
        let mut first = 0usize;
        for i in 0..n {
            let list = &children[first..first + degree[i] as usize];
            first += list.len();
            let any = sweep == 1
                || list
                    .iter()
                    .any(|&c| changed[c as usize / 64] >> (c % 64) & 1 != 0);
            let old = values[i];
            if !any {
                next[i] = old;
                continue;
            }
            let mut best = exit[i];
            for &c in list {
                best = best.max(-values[c as usize]);
            }
            next[i] = best;
            if best != old {
                settled[i] = stamp;
                now_changed[i / 64] |= 1 << (i % 64);
                any_change = true;
            }
        }
        if !any_change {
            break;
        }
        std::mem::swap(&mut values, &mut next);
        std::mem::swap(&mut changed, &mut now_changed);
        now_changed.fill(0);
    }
    (values, settled, sweep)
}

/// The refusal of a solve that needs `needed` bytes of memory with `budget`
/// given, with its estimates and, in memory, what out of core would need.
fn not_enough(
    needed: u64,
    budget: u64,
    positions: u64,
    largest: u64,
    so_far: String,
    out_of_core: bool,
) -> StartError {
    let mb = |bytes: u64| bytes.div_ceil(1 << 20);
    let (disk, advice, mode) = if out_of_core {
        (
            disk_needed_mapped(positions, largest),
            "raise --memory, or solve a smaller board".to_string(),
            "out of core ",
        )
    } else {
        (
            positions.saturating_mul(DISK_BYTES_PER_POSITION),
            format!(
                "raise --memory, or solve it out of core: --state DIR solves it with its \
                 layers memory-mapped from DIR, with about {} MB of memory and {} MB of disk",
                mb(memory_needed_mapped(positions, largest)),
                mb(disk_needed_mapped(positions, largest))
            ),
            "",
        )
    };
    StartError::NotEnoughMemory {
        needed_mb: mb(needed),
        budget_mb: budget >> 20,
        positions,
        disk_mb: mb(disk),
        hours: positions as f64 / POSITIONS_PER_SECOND / 3600.0,
        so_far,
        mode,
        advice,
    }
}
