//! Exact value of a start position, over the positions reachable from it only.
//!
//! The full tables of [`crate::solver::Tablebase`] hold every board of a layer:
//! on 2x6 the layer of 48 seeds alone has 1.3 * 10^12 boards. From the standard
//! start far fewer are reachable (Hoyito I 2x6: 77 million in all), so this
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
//! Values and conventions are those of the tables: the capture margin still to
//! come for the side to move under perfect play, endless play worth nothing more
//! (the `none` leftover policy), the capturer taking the last seeds.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::Path;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::game::{Game, Outcome};
use crate::moves::Move;
use crate::position::{MoveEffect, Position};
use crate::rules::{Rules, Variant};
use crate::side::Side;
use crate::solver::index::LayerIndex;
use crate::solver::retrograde::move_value;
use crate::solver::start_state::{self, Ident, Kind, StateError};

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

/// The positions of one layer that are reachable from the start, with their
/// values once the backward pass has reached the layer.
#[derive(Debug, Clone)]
pub struct ReachableLayer {
    /// Seeds on the board.
    pub seeds: u32,
    /// Sorted ranks of the South-to-move boards (North to move stored mirrored).
    pub keys: Vec<u64>,
    /// Value per key, for the side to move; empty until solved.
    pub values: Vec<i8>,
    /// Per key, the Jacobi sweep at which its value became final (0: never
    /// changed from 0); empty until solved.
    pub settled: Vec<u16>,
    /// First index per bucket of the key's top bits, for lookups.
    buckets: Vec<u32>,
    shift: u32,
}

impl ReachableLayer {
    fn new(seeds: u32, keys: Vec<u64>, index: &LayerIndex) -> ReachableLayer {
        let mut layer = ReachableLayer {
            seeds,
            keys,
            values: Vec::new(),
            settled: Vec::new(),
            buckets: Vec::new(),
            shift: 0,
        };
        layer.index_buckets(index.count());
        layer
    }

    fn index_buckets(&mut self, count: u64) {
        // About four keys per bucket.
        let want = (self.keys.len() / 4).max(1).next_power_of_two() as u64;
        let bits = 64 - count.max(1).leading_zeros();
        let want_bits = want.trailing_zeros().min(bits);
        self.shift = bits - want_bits;
        let buckets = 1usize << want_bits;
        let mut first = vec![0u32; buckets + 1];
        let mut k = 0usize;
        for (b, slot) in first.iter_mut().enumerate() {
            while k < self.keys.len() && ((self.keys[k] >> self.shift) as usize) < b {
                k += 1;
            }
            *slot = k as u32;
        }
        self.buckets = first;
    }

    /// The number of the position with rank `key`, if it is in the layer.
    #[inline]
    pub fn find(&self, key: u64) -> Option<usize> {
        let b = (key >> self.shift) as usize;
        let lo = *self.buckets.get(b)? as usize;
        let hi = self.buckets[b + 1] as usize;
        let slice = &self.keys[lo..hi];
        slice.binary_search(&key).ok().map(|i| lo + i)
    }

    /// Positions in the layer.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the layer has no position.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
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
        "the solve of this start needs about {needed_mb} MB of memory and the budget is \
         {budget_mb} MB{so_far}: it would need {positions} positions or more, \
         {disk_mb} MB or more of disk for its state and {hours:.1} hours or more on one core; \
         not solved (raise --memory, or solve a smaller board)"
    )]
    NotEnoughMemory {
        /// Estimated memory.
        needed_mb: u64,
        /// The budget.
        budget_mb: u64,
        /// Estimated reachable positions.
        positions: u64,
        /// Estimated disk for the state files.
        disk_mb: u64,
        /// Estimated time.
        hours: f64,
        /// Where the estimate comes from.
        so_far: String,
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

/// Bytes a solved position holds: key, value, settling sweep, lookup bucket.
pub const BYTES_PER_POSITION: u64 = 12;
/// Bytes per position of the layer being closed (hash set at its largest,
/// work stack) or solved (successor lists, exits, updates), on top.
pub const BYTES_PER_WORKING_POSITION: u64 = 40;
/// Positions the forward closure and the backward pass handle per second on
/// one core (I 2x6: 46.8 million positions in 186 s, measured 2026-12-03).
pub const POSITIONS_PER_SECOND: f64 = 250_000.0;

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

/// The memory a solve of `positions` positions, `largest` in one layer, needs.
pub fn memory_needed(positions: u64, largest: u64) -> u64 {
    positions
        .saturating_mul(BYTES_PER_POSITION)
        .saturating_add(largest.saturating_mul(BYTES_PER_WORKING_POSITION))
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
fn pend_capture(
    child: &Position,
    indexes: &[LayerIndex],
    pending: &mut [Vec<u64>],
    compacted: &mut [usize],
) {
    if child.is_over() {
        return;
    }
    let s = child.seeds_on_board() as usize;
    pending[s].push(canonical(child, &indexes[s]));
    compact(&mut pending[s], &mut compacted[s]);
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

/// A keys file's bytes: room for its header, then the keys.
fn keys_file(keys: &[u64]) -> Vec<u8> {
    let mut file = vec![0u8; start_state::HEADER_BYTES];
    file.extend(keys.iter().flat_map(|k| k.to_le_bytes()));
    file
}

fn bytes_to_keys(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

/// How a solve runs.
#[derive(Debug, Clone, Default)]
pub struct StartOptions<'a> {
    /// Where the state is kept, so that a killed solve resumes.
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
    /// memory than `budget`.
    pub fn check_known(rules: &Rules, start: &Position, budget: u64) -> Result<(), StartError> {
        let standard = *start == Position::start(rules) && rules.seeds == 4;
        let known = KNOWN_STARTS
            .iter()
            .find(|(v, h, _, _)| *v == rules.variant && *h == rules.holes);
        if let (true, Some(&(_, _, positions, largest))) = (standard, known) {
            let needed = memory_needed(positions, largest);
            if needed > budget {
                return Err(not_enough(
                    needed,
                    budget,
                    positions,
                    "measured earlier".into(),
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
            StartSolve::check_known(&rules, &start, budget)?;
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
        let mut pending: Vec<Vec<u64>> = vec![Vec::new(); top as usize + 1];
        let mut compacted = vec![0usize; top as usize + 1];
        let mut layers: Vec<Option<ReachableLayer>> = vec![None; top as usize + 1];
        let mut stats = Vec::new();
        if !start.is_over() {
            pending[top as usize].push(canonical(&start, &indexes[top as usize]));
        }
        let clock_all = Instant::now();
        let mut held = 0u64;
        for k in (1..=top as usize).rev() {
            if pending[k].is_empty() {
                continue;
            }
            let clock = Instant::now();
            let index = &indexes[k];
            let (lower, rest) = pending.split_at_mut(k);
            let here = &mut rest[0];
            let loaded = match options.state {
                Some(dir) => start_state::load(dir, ident, Kind::Keys, k as u32, 8)?,
                None => None,
            };
            let (keys, inner_moves, from_file) = if let Some((_, bytes)) = loaded {
                // A closed layer from an earlier run: only its captures are
                // followed again, to seed the layers below.
                drop(std::mem::take(here));
                let keys = bytes_to_keys(&bytes);
                let mut inner_moves = 0u64;
                for &key in &keys {
                    let pos = index.position(index.unrank(key), Side::South);
                    pos.for_each_child(&rules, |_, child, effect| {
                        if effect.captured == 0 {
                            inner_moves += 1;
                        } else {
                            pend_capture(&child, &indexes, lower, &mut compacted);
                        }
                    });
                }
                (keys, inner_moves, true)
            } else {
                let mut seen = KeySet::default();
                let mut stack = std::mem::take(here);
                stack.sort_unstable();
                stack.dedup();
                seen.extend(stack.iter().copied());
                let mut inner_moves = 0u64;
                let mut checked = seen.len();
                while let Some(key) = stack.pop() {
                    let pos = index.position(index.unrank(key), Side::South);
                    pos.for_each_child(&rules, |_, child, effect| {
                        if effect.captured == 0 {
                            inner_moves += 1;
                            let c = index.rotated_rank(&child.board);
                            if seen.insert(c) {
                                stack.push(c);
                            }
                        } else {
                            pend_capture(&child, &indexes, lower, &mut compacted);
                        }
                    });
                    if seen.len() >= checked + (1 << 22) {
                        checked = seen.len();
                        if let Some(budget) = options.memory {
                            let pending_bytes: u64 =
                                lower.iter().map(|p| 8 * p.capacity() as u64).sum();
                            let now = held
                                + pending_bytes
                                + seen.len() as u64 * BYTES_PER_WORKING_POSITION;
                            if now > budget {
                                let so_far = held / BYTES_PER_POSITION + seen.len() as u64;
                                return Err(not_enough(
                                    now.max(memory_needed(so_far, seen.len() as u64)),
                                    budget,
                                    so_far,
                                    format!(
                                        " (at least: {so_far} positions found in {:.0} s, \
                                         the layer of {k} seeds still growing)",
                                        clock_all.elapsed().as_secs_f64()
                                    ),
                                ));
                            }
                        }
                    }
                }
                let mut keys: Vec<u64> = seen.into_iter().collect();
                keys.sort_unstable();
                if let Some(dir) = options.state {
                    start_state::save(
                        dir,
                        ident,
                        Kind::Keys,
                        k as u32,
                        keys.len() as u64,
                        keys_file(&keys),
                    )?;
                }
                (keys, inner_moves, false)
            };
            let layer = ReachableLayer::new(k as u32, keys, index);
            held += layer.len() as u64 * BYTES_PER_POSITION;
            let s = LayerSolveStats {
                seeds: k as u32,
                positions: layer.len() as u64,
                inner_moves,
                sweeps: 0,
                forward: clock.elapsed(),
                backward: Duration::ZERO,
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
        Some((*layer.values.get(i)?, *layer.settled.get(i)?))
    }

    /// Solves every reachable layer, smallest first, loading those the state
    /// directory holds.
    pub fn solve(
        &mut self,
        options: &StartOptions<'_>,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<(), StartError> {
        let ident = StartSolve::ident(&self.rules, &self.start);
        for k in 1..self.layers.len() {
            let Some(mut layer) = self.layers[k].take() else {
                continue;
            };
            let clock = Instant::now();
            let loaded = match options.state {
                Some(dir) => start_state::load(dir, ident, Kind::Values, k as u32, 3)?,
                None => None,
            };
            let mut sweeps = 0;
            let from_file = match loaded {
                Some((n, bytes)) if n == layer.len() as u64 => {
                    let n = n as usize;
                    layer.values = bytes[..n].iter().map(|&b| b as i8).collect();
                    layer.settled = bytes[n..]
                        .chunks_exact(2)
                        .map(|c| u16::from_le_bytes([c[0], c[1]]))
                        .collect();
                    true
                }
                Some(_) => {
                    return Err(StateError::Damaged {
                        path: start_state::path(
                            options.state.expect("loaded from it"),
                            Kind::Values,
                            k as u32,
                        ),
                        why: "it holds another number of positions than the layer",
                    }
                    .into())
                }
                None => {
                    let (solved, s) = self.solve_layer(layer);
                    layer = solved;
                    sweeps = s;
                    if let Some(dir) = options.state {
                        let mut file = vec![0u8; start_state::HEADER_BYTES];
                        file.extend(layer.values.iter().map(|&v| v as u8));
                        file.extend(layer.settled.iter().flat_map(|w| w.to_le_bytes()));
                        start_state::save(
                            dir,
                            ident,
                            Kind::Values,
                            k as u32,
                            layer.len() as u64,
                            file,
                        )?;
                    }
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
        Ok(())
    }

    /// Solves one closed layer, the smaller ones solved: the layer with its
    /// values and settling sweeps, and the sweeps it took.
    fn solve_layer(&self, mut layer: ReachableLayer) -> (ReachableLayer, u32) {
        let k = layer.seeds as usize;
        let index = &self.indexes[k];
        let n = layer.len();
        let mut exit = Vec::with_capacity(n);
        let mut degree = Vec::with_capacity(n);
        let mut children: Vec<u32> = Vec::new();
        let lower = |c: &Position| {
            self.value(c)
                .expect("a capture leads to a solved, reachable position")
        };
        for &key in &layer.keys {
            let pos = index.position(index.unrank(key), Side::South);
            let mut best = i8::MIN;
            let mut d = 0u8;
            pos.for_each_child(&self.rules, |_, child, effect| {
                if effect.captured == 0 {
                    let c = layer
                        .find(index.rotated_rank(&child.board))
                        .expect("an inner move stays in the closed layer");
                    children.push(c as u32);
                    d += 1;
                } else {
                    best = best.max(move_value(&pos, &child, &lower));
                }
            });
            exit.push(best);
            degree.push(d);
        }
        let mut values = vec![0i8; n];
        let mut settled = vec![0u16; n];
        let words = n.div_ceil(64);
        let mut changed = vec![u64::MAX; words];
        let mut updates: Vec<(u32, i8)> = Vec::new();
        let mut sweep = 0u32;
        loop {
            sweep += 1;
            updates.clear();
            let mut first = 0usize;
            for i in 0..n {
                let list = &children[first..first + degree[i] as usize];
                first += list.len();
                let any = sweep == 1
                    || list
                        .iter()
                        .any(|&c| changed[c as usize / 64] >> (c % 64) & 1 != 0);
                if !any {
                    continue;
                }
                let mut best = exit[i];
                for &c in list {
                    best = best.max(-values[c as usize]);
                }
                if best != values[i] {
                    updates.push((i as u32, best));
                }
            }
            if updates.is_empty() {
                break;
            }
            changed.fill(0);
            let stamp = sweep.min(u16::MAX as u32) as u16;
            for &(i, v) in &updates {
                values[i as usize] = v;
                settled[i as usize] = stamp;
                changed[i as usize / 64] |= 1 << (i % 64);
            }
        }
        layer.values = values;
        layer.settled = settled;
        (layer, sweep)
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
            for (&key, &v) in layer.keys.iter().zip(&layer.values) {
                f(&index.position(index.unrank(key), Side::South), v);
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

    /// The rules solved under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

fn not_enough(needed: u64, budget: u64, positions: u64, so_far: String) -> StartError {
    StartError::NotEnoughMemory {
        needed_mb: needed.div_ceil(1 << 20),
        budget_mb: budget >> 20,
        positions,
        disk_mb: (positions * 11).div_ceil(1 << 20),
        hours: positions as f64 / POSITIONS_PER_SECOND / 3600.0,
        so_far,
    }
}
