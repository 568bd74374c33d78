//! The forward closure of a start: the positions reachable from it, layer
//! by layer in the seeds on the board, from the top down.
//!
//! A layer is closed under the moves that capture nothing (they stay in the
//! layer); a capture leads to a smaller layer, whose closure starts from every
//! position that captures led to, so a layer is complete when its turn comes.
//! In memory the closure is a hash set and a stack ([`close_in_memory`]);
//! out of core ([`Closure`]) its keys beyond the initial ones spill to
//! sorted runs in scratch files and the layer's keys file is their merge.
//! A layer an earlier run closed is loaded from the state directory and only
//! its captures followed again.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::budget::{
    memory_needed, not_enough, working_bytes, Allowance, Growth, BYTES_PER_POSITION,
    BYTES_PER_WORKING_POSITION, CHECK_EVERY,
};
use super::error::StartError;
use super::layer::{canonical, KeyStore, ReachableLayer};
use super::progress::{LayerSolveStats, Progress, Ticker};
use super::solve::{StartOptions, StartSolve};
use super::spill::{merge_sorted, KeyRun, Pending, SpillStack};
use super::state::{self, Ident, Kind, Mapped, ScratchDir};
use crate::engine::position::Position;
use crate::engine::rules::Rules;
use crate::engine::side::Side;
use crate::solver::index::LayerIndex;
use crate::solver::memory::resident_bytes;

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

impl StartSolve {
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
                Some(dir) => state::map(dir, ident, Kind::Keys, k as u32, 8)?,
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
                let (file, inner_moves, s) =
                    closure.run(initial, &mut pending, dir, ident, progress)?;
                spills += s;
                (KeyStore::Mapped(Arc::new(file)), inner_moves, false)
            } else {
                let (keys, inner_moves) =
                    close_in_memory(&rules, &indexes, k, &mut pending, &growth, progress)?;
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

/// Closes the layer of `k` seeds in memory, from the keys captures led to:
/// its sorted keys and its inner moves. Every [`Ticker`] period it reports
/// the positions found and checks the memory: the estimate of what it will
/// hold [`CHECK_EVERY`] positions on, or what the process holds now where
/// that is more, so that it is refused before it passes the budget.
fn close_in_memory(
    rules: &Rules,
    indexes: &[LayerIndex],
    k: usize,
    pending: &mut Pending,
    growth: &Growth,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<(Vec<u64>, u64), StartError> {
    let index = &indexes[k];
    let mut seen = KeySet::default();
    let mut stack = pending.take_sorted(k);
    seen.extend(stack.iter().copied());
    let mut inner_moves = 0u64;
    let mut checked = seen.len();
    let mut ticker = Ticker::new();
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
        let tick = ticker.due_in_a_loop();
        if tick {
            progress(Progress::Closing {
                seeds: k as u32,
                positions: seen.len() as u64,
            });
        }
        if tick || seen.len() >= checked + CHECK_EVERY {
            checked = seen.len();
            if let Some(budget) = growth.budget {
                let ahead = (seen.len() + CHECK_EVERY) as u64;
                let estimate = growth.found * BYTES_PER_POSITION
                    + pending.bytes()
                    + ahead * BYTES_PER_WORKING_POSITION;
                let now = estimate.max(resident_bytes().unwrap_or(0));
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
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<(Mapped, u64, u32), StartError> {
        let index = &self.indexes[self.k];
        let mut ticker = Ticker::new();
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
            if ticker.due_in_a_loop() {
                progress(Progress::Closing {
                    seeds: self.k as u32,
                    positions: found as u64,
                });
            }
            if found >= next_check {
                next_check = found + CHECK_EVERY;
                self.growth.check_mapped(self.k, found as u64, true)?;
            }
        }
        drop(stack);
        let mut tail: Vec<u64> = fresh.into_iter().collect();
        tail.sort_unstable();
        let total = initial.keys().len() + in_runs + tail.len();
        let mut file = state::create(dir, ident, Kind::Keys, self.k as u32, total as u64, 8)?;
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
