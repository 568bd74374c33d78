//! The backward pass of a start solve: values from the smallest layer up.
//!
//! A layer's values follow from its own inner moves and the exact values of
//! the smaller layers, by the same least-fixed-point iteration as
//! [`crate::solver::retrograde`] (see its docs for why iterating negamax
//! from zero is exact): `v(p) <- max over moves (exit value, or -v(child))`.
//! Here the iteration is Jacobi (every sweep reads the last sweep's values),
//! which makes `v` after sweep `t` the value of the game in which at most `t`
//! inner plies are left before play stops at 0. The sweep at which a value
//! became final is kept, for the best play to make progress (`best_play`).
//! Out of core, the successor lists are kept in a scratch file, read in
//! order once a sweep, and each solved layer's values are written to its
//! values file and held mapped from it.

use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

use super::error::StartError;
use super::layer::{ReachableLayer, ValueStore};
use super::progress::{Progress, Ticker};
use super::solve::{StartOptions, StartSolve};
use super::state::{self, Kind, Scratch, ScratchDir, ScratchWriter, StateError};
use crate::engine::position::Position;
use crate::engine::side::Side;
use crate::solver::retrograde::move_value;

impl StartSolve {
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
                Some(dir) => state::map(dir, ident, Kind::Values, k as u32, 3)?,
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
                    let (values, settled, s) =
                        self.solve_layer(&layer, scratch.as_ref(), progress)?;
                    sweeps = s;
                    layer.values = match options.state {
                        Some(dir) => {
                            let mut file =
                                state::create(dir, ident, Kind::Values, k as u32, n as u64, 3)?;
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
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<(Vec<i8>, Vec<u16>, u32), StartError> {
        let k = layer.seeds as usize;
        let mut ticker = Ticker::new();
        let told = |done: usize, sweep: u32| Progress::Solving {
            seeds: k as u32,
            positions: layer.len() as u64,
            done: done as u64,
            sweep,
        };
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
        for (i, &key) in layer.keys().iter().enumerate() {
            if ticker.due_in_a_loop() {
                progress(told(i + 1, 0));
            }
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
        let (values, settled, sweeps) = iterate(&exit, &degree, children.get(), &mut |sweep| {
            if ticker.due() {
                progress(told(n, sweep));
            }
        });
        Ok((values, settled, sweeps))
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
                    out.write(state::le_u32s(buf))?;
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
                out.write(state::le_u32s(&buf))?;
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
/// `sweeping` is told each sweep as it starts.
fn iterate(
    exit: &[i8],
    degree: &[u8],
    children: &[u32],
    sweeping: &mut dyn FnMut(u32),
) -> (Vec<i8>, Vec<u16>, u32) {
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
        sweeping(sweep);
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
