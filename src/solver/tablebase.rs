//! The layers of one variant and board, held in memory, built or loaded on demand.
//!
//! A layer needs every smaller layer its captures lead to, so asking for one
//! layer brings in its dependencies first, from a table directory when a file is
//! there (a damaged file is an error, never silently rebuilt) and by retrograde
//! analysis otherwise.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::position::Position;
use crate::rules::{Rules, Variant};
use crate::solver::index::LayerIndex;
use crate::solver::memory::memory_budget;
use crate::solver::retrograde::{self, move_value, LayerStats};
use crate::solver::table::{self, TableKey};
use crate::solver::{SolveError, MAX_TABLE_SEEDS};

/// Exact values of every position of the layers built so far.
#[derive(Debug, Clone)]
pub struct Tablebase {
    rules: Rules,
    indexes: Vec<LayerIndex>,
    layers: Vec<Option<Vec<i8>>>,
}

/// Where a layer came from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LayerSource {
    /// Built now, in this time.
    Built(LayerStats, Duration),
    /// Read from a table file.
    Loaded,
}

/// One layer made available by [`Tablebase::ensure`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerReport {
    /// Seeds on the board.
    pub seeds: u32,
    /// Positions (boards times sides to move).
    pub positions: u64,
    /// Built or loaded.
    pub source: LayerSource,
}

impl Tablebase {
    /// An empty tablebase for `variant` on a board of `holes` holes per row, with
    /// the default rules options (the capturer takes the last seeds).
    pub fn new(variant: Variant, holes: u8) -> Result<Tablebase, SolveError> {
        let rules = Rules::new(variant).with_board(holes as u32, 1)?;
        Ok(Tablebase {
            rules,
            indexes: Vec::new(),
            layers: Vec::new(),
        })
    }

    /// The rules the values hold for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whether the layer of `seeds` seeds is available.
    pub fn has_layer(&self, seeds: u32) -> bool {
        matches!(self.layers.get(seeds as usize), Some(Some(_)))
    }

    /// The values of a layer, South to move in rank order then North.
    pub fn layer(&self, seeds: u32) -> Option<&[i8]> {
        self.layers.get(seeds as usize)?.as_deref()
    }

    /// The layers that the layer of `seeds` depends on, smallest first, itself last.
    pub fn dependencies(seeds: u32) -> Vec<u32> {
        let mut deps: Vec<u32> = (0..=seeds).rev().step_by(4).collect();
        if deps.last() != Some(&0) {
            deps.push(0);
        }
        deps.reverse();
        deps
    }

    /// The exact value of `pos` for the side to move (the margin still to come),
    /// or `None` when its layer is not available.
    pub fn value(&self, pos: &Position) -> Option<i8> {
        if pos.holes() != self.rules.holes {
            return None;
        }
        let seeds = pos.seeds_on_board() as usize;
        let values = self.layers.get(seeds)?.as_deref()?;
        let index = &self.indexes[seeds];
        let rank = index.rank(&pos.board) as usize;
        Some(values[pos.side.index() * index.count() as usize + rank])
    }

    /// Makes the layer of `seeds` and its dependencies available: loads them from
    /// `dir` where a file exists, builds (and saves to `dir`) the others.
    /// `progress` receives the number of positions done as the building goes.
    pub fn ensure(
        &mut self,
        seeds: u32,
        dir: Option<&Path>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<LayerReport>, SolveError> {
        self.check_plan(&[seeds], dir)?;
        while self.indexes.len() <= seeds as usize {
            let k = self.indexes.len() as u32;
            self.indexes.push(LayerIndex::new(self.rules.holes, k));
            self.layers.push(None);
        }
        let mut reports = Vec::new();
        for k in Tablebase::dependencies(seeds) {
            if self.has_layer(k) {
                continue;
            }
            let key = self.key(k);
            let path = dir.map(|d| d.join(key.file_name()));
            let (values, source) = match &path {
                Some(path) if path.exists() => (table::load(path, key)?, LayerSource::Loaded),
                _ => {
                    let start = Instant::now();
                    let lower = |p: &Position| {
                        self.value(p)
                            .expect("dependencies are built before the layers using them")
                    };
                    let exit = |p: &Position, c: &Position| move_value(p, c, &lower);
                    let (values, stats) = retrograde::build_layer(&self.rules, k, &exit, progress)?;
                    if let Some(path) = &path {
                        table::save(path, key, &values)?;
                    }
                    (values, LayerSource::Built(stats, start.elapsed()))
                }
            };
            reports.push(LayerReport {
                seeds: k,
                positions: values.len() as u64,
                source,
            });
            self.layers[k as usize] = Some(values);
        }
        Ok(reports)
    }

    /// Checks, before anything is built or loaded, that the layers `layers` and
    /// their dependencies can all be made available and kept together: no layer
    /// beyond [`MAX_TABLE_SEEDS`], none too large to index, and their values
    /// plus the successor lists of the largest layer to build within the memory
    /// the process may use ([`memory_budget`]). Without this, asking for the
    /// 2x6 start position would run the machine out of memory, and
    /// `solve --max-seeds 121` would fail only on reaching layer 121.
    pub fn check_plan(&self, layers: &[u32], dir: Option<&Path>) -> Result<(), SolveError> {
        let Some(&top) = layers.iter().max() else {
            return Ok(());
        };
        if top > MAX_TABLE_SEEDS {
            return Err(SolveError::TooManySeeds { seeds: top });
        }
        let mut missing: Vec<u32> = layers
            .iter()
            .flat_map(|&k| Tablebase::dependencies(k))
            .filter(|&k| !self.has_layer(k))
            .collect();
        missing.sort_unstable();
        missing.dedup();
        for &k in &missing {
            let boards = LayerIndex::new(self.rules.holes, k).count();
            if boards > u32::MAX as u64 {
                return Err(SolveError::LayerTooLarge {
                    holes: self.rules.holes,
                    seeds: k,
                    boards,
                });
            }
        }
        let Some(budget) = memory_budget(rayon::current_num_threads()) else {
            return Ok(());
        };
        let kept = missing
            .iter()
            .fold(0u64, |sum, &k| sum.saturating_add(self.key(k).entries()));
        let on_disk = |k: u32| dir.is_some_and(|d| d.join(self.key(k).file_name()).exists());
        let build = missing
            .iter()
            .filter(|&&k| !on_disk(k))
            .map(|&k| {
                self.key(k)
                    .entries()
                    .saturating_mul(BUILD_BYTES_PER_POSITION)
            })
            .max()
            .unwrap_or(0);
        let needed = kept.saturating_add(build);
        if needed > budget.bytes {
            return Err(SolveError::NotEnoughMemory {
                holes: self.rules.holes,
                seeds: top,
                needed_mb: needed >> 20,
                available_mb: budget.bytes >> 20,
                limit: budget.source,
            });
        }
        Ok(())
    }

    /// The key of the layer of `seeds` seeds, for its file.
    pub fn key(&self, seeds: u32) -> TableKey {
        TableKey {
            variant: self.rules.variant,
            holes: self.rules.holes,
            seeds,
            last_four: self.rules.last_four,
            leftover: self.rules.stall.leftover,
        }
    }
}

/// Bytes a layer's build needs per position besides its values: the successor
/// lists of the South-to-move half and bookkeeping (measured from the peak
/// resident memory: about 9 on II 2x6 layer 20, 10 on II 2x12 layer 8), with
/// a margin.
const BUILD_BYTES_PER_POSITION: u64 = 12;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependencies_step_by_casas_and_end_at_the_empty_board() {
        assert_eq!(Tablebase::dependencies(0), vec![0]);
        assert_eq!(Tablebase::dependencies(3), vec![0, 3]);
        assert_eq!(Tablebase::dependencies(8), vec![0, 4, 8]);
        assert_eq!(Tablebase::dependencies(10), vec![0, 2, 6, 10]);
    }
}
