//! [`StartSolve`]: the positions reachable from a start, layer by layer,
//! solved, and what is read from them: the value of a position, of the
//! start, the layers' statistics.
//!
//! [`StartSolve::run`] is the whole solve: the memory check, the forward
//! closure ([`StartSolve::reach`], in `forward`) and the backward pass
//! ([`StartSolve::solve`], in `backward`); the best play read from the
//! solved layers is in `best_play`.

use std::path::Path;

use super::budget::{memory_needed, memory_needed_mapped, not_enough, KNOWN_STARTS};
use super::error::StartError;
use super::layer::{canonical, ReachableLayer};
use super::progress::{LayerSolveStats, Progress};
use super::state::{self, Ident};
use crate::engine::position::Position;
use crate::engine::rules::Rules;
use crate::engine::side::Side;
use crate::solver::index::LayerIndex;

/// The positions reachable from a start, layer by layer, solved.
#[derive(Debug, Clone)]
pub struct StartSolve {
    pub(super) rules: Rules,
    pub(super) start: Position,
    /// By seeds on the board; `None` for a layer nothing reaches.
    pub(super) layers: Vec<Option<ReachableLayer>>,
    pub(super) indexes: Vec<LayerIndex>,
    pub(super) stats: Vec<LayerSolveStats>,
    /// The most scratch disk alive at once (out of core).
    pub(super) scratch_peak: u64,
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
    pub(super) fn ident(rules: &Rules, start: &Position) -> Ident {
        Ident {
            variant: rules.variant as u8 + 1,
            holes: rules.holes,
            start: state::start_hash(&start.to_string()),
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

    /// The value of `pos` (captures ignored) from the solved layers; `None`
    /// where its layer is not solved or the position was not reached.
    pub fn value(&self, pos: &Position) -> Option<i8> {
        self.lookup(pos).map(|(v, _)| v)
    }

    pub(super) fn lookup(&self, pos: &Position) -> Option<(i8, u16)> {
        if pos.is_over() {
            return Some((0, 0));
        }
        let k = pos.seeds_on_board() as usize;
        let layer = self.layers.get(k)?.as_ref()?;
        let i = layer.find(canonical(pos, &self.indexes[k]))?;
        Some((layer.value(i)?, layer.settled(i)?))
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
