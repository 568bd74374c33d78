//! The layers of one variant and board, held in memory, built or loaded on demand.
//!
//! A layer needs every smaller layer its captures lead to, so asking for one
//! layer brings in its dependencies first, from a table directory when a file is
//! there (a damaged file is an error, never silently rebuilt) and by retrograde
//! analysis otherwise. A layer read from a file is memory-mapped, not copied
//! ([`table::map`]): clones of a tablebase, and every process mapping the same
//! files, share one copy of its values.
//!
//! [`Tablebase::open`] only maps, never builds: for readers such as
//! adjudication that must not spend minutes building, and must fail clearly
//! when a table is missing.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::engine::position::Position;
use crate::engine::rules::{LastFour, Leftover, Rules, Variant};
use crate::solver::index::LayerIndex;
use crate::solver::memory::memory_budget;
use crate::solver::retrograde::{self, move_value, LayerStats};
use crate::solver::table::{self, MappedLayer, TableKey};
use crate::solver::{SolveError, MAX_TABLE_SEEDS};

/// Exact values of every position of the layers built so far.
#[derive(Debug, Clone)]
pub struct Tablebase {
    rules: Rules,
    indexes: Vec<LayerIndex>,
    layers: Vec<Option<Layer>>,
}

/// The values of one layer: built in this process, or mapped from its file.
#[derive(Debug, Clone)]
enum Layer {
    Built(Vec<i8>),
    Mapped(MappedLayer),
}

impl Layer {
    fn values(&self) -> &[i8] {
        match self {
            Layer::Built(values) => values,
            Layer::Mapped(mapped) => mapped.values(),
        }
    }
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

    /// Maps, without building anything, the tables of `rules`' board from
    /// `dir`: the layers a game from its start can reach (`S`, `S - 4`, ...
    /// and the empty board, where `S` is the seeds of the start), up to a top
    /// layer returned with the tables.
    ///
    /// With `max_seeds`, the top is the largest of those layers not above it
    /// (the empty board when `max_seeds` is below them all), and every layer
    /// up to it must be in `dir`. Without it, the top is the largest of those
    /// layers, the empty board aside, whose file and the files of every layer
    /// below it are all in `dir`.
    ///
    /// # Errors
    /// [`SolveError::UnsupportedRules`] for rules no table holds for;
    /// [`SolveError::TooManySeeds`] for a top beyond [`MAX_TABLE_SEEDS`];
    /// [`SolveError::MissingTable`], naming the first missing file and the
    /// command that builds it, before anything is mapped;
    /// [`SolveError::NoTables`] when `max_seeds` is `None` and no layer is
    /// complete; [`SolveError::Table`] for a file that is damaged or holds
    /// another table.
    pub fn open(
        rules: &Rules,
        dir: &Path,
        max_seeds: Option<u32>,
    ) -> Result<(Tablebase, u32), SolveError> {
        // The fields are public: check the board as a new game would.
        let rules = rules.with_board(rules.holes as u32, rules.seeds as u32)?;
        if rules.last_four != LastFour::Capturer || rules.stall.leftover != Leftover::None {
            return Err(SolveError::UnsupportedRules {
                last_four: rules.last_four,
                leftover: rules.stall.leftover,
            });
        }
        let mut tb = Tablebase {
            rules,
            indexes: Vec::new(),
            layers: Vec::new(),
        };
        let path = |k: u32| dir.join(tb.key(k).file_name());
        let present = |k: u32| path(k).exists();
        // Ascending: the empty board, then every layer a game can reach.
        let reachable = Tablebase::dependencies(rules.total_seeds());
        let top = match max_seeds {
            Some(max) => {
                let top = reachable
                    .iter()
                    .rev()
                    .copied()
                    .find(|&k| k <= max)
                    .unwrap_or(0);
                if top > MAX_TABLE_SEEDS {
                    return Err(SolveError::TooManySeeds { seeds: top });
                }
                let missing: Vec<u32> = Tablebase::dependencies(top)
                    .into_iter()
                    .filter(|&k| !present(k))
                    .collect();
                if let Some(&first) = missing.first() {
                    return Err(SolveError::MissingTable {
                        path: path(first),
                        variant: rules.variant,
                        holes: rules.holes,
                        top,
                        also_missing: missing.len() - 1,
                        rebuild: tb.key(top).rebuild_command(dir),
                    });
                }
                top
            }
            None => {
                let candidates: Vec<u32> = reachable
                    .iter()
                    .rev()
                    .copied()
                    .filter(|&k| k > 0 && k <= MAX_TABLE_SEEDS)
                    .collect();
                let found = candidates
                    .iter()
                    .copied()
                    .find(|&k| Tablebase::dependencies(k).into_iter().all(&present));
                match found {
                    Some(top) => {
                        // A layer a game can reach that sits above `top`, below a
                        // layer whose file is here, was built and is gone: the set
                        // has a hole, and taking the smaller top would quietly
                        // shrink what the tables decide.
                        let highest = (top + 1..=MAX_TABLE_SEEDS).rev().find(|&k| present(k));
                        let meant =
                            highest.and_then(|h| candidates.iter().copied().find(|&k| k <= h));
                        if let Some(meant) = meant.filter(|&k| k > top) {
                            let missing: Vec<u32> = Tablebase::dependencies(meant)
                                .into_iter()
                                .filter(|&k| !present(k))
                                .collect();
                            return Err(SolveError::MissingTable {
                                path: path(missing[0]),
                                variant: rules.variant,
                                holes: rules.holes,
                                top: meant,
                                also_missing: missing.len() - 1,
                                rebuild: tb.key(meant).rebuild_command(dir),
                            });
                        }
                        top
                    }
                    None => {
                        let largest = candidates.first().copied().unwrap_or(0);
                        let looked_for: Vec<String> =
                            candidates.iter().map(|&k| tb.key(k).file_name()).collect();
                        return Err(SolveError::NoTables {
                            variant: rules.variant,
                            holes: rules.holes,
                            seeds: rules.seeds,
                            dir: PathBuf::from(dir),
                            looked_for: looked_for.join(", "),
                            rebuild: tb.key(largest).rebuild_command(dir),
                        });
                    }
                }
            }
        };
        let mapped = Tablebase::dependencies(top)
            .into_iter()
            .map(|k| Ok((k, table::map(&path(k), tb.key(k))?)))
            .collect::<Result<Vec<_>, SolveError>>()?;
        tb.grow(top);
        for (k, layer) in mapped {
            tb.layers[k as usize] = Some(Layer::Mapped(layer));
        }
        Ok((tb, top))
    }

    /// Makes room for the layers up to `seeds`, their indexes included.
    fn grow(&mut self, seeds: u32) {
        while self.indexes.len() <= seeds as usize {
            let k = self.indexes.len() as u32;
            self.indexes.push(LayerIndex::new(self.rules.holes, k));
            self.layers.push(None);
        }
    }

    /// The rules the values hold for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whether the layer of `seeds` seeds is available.
    pub fn has_layer(&self, seeds: u32) -> bool {
        matches!(self.layers.get(seeds as usize), Some(Some(_)))
    }

    /// The file a layer is mapped from; `None` when it was built in this
    /// process or is not available.
    pub fn mapped_from(&self, seeds: u32) -> Option<&Path> {
        match self.layers.get(seeds as usize)? {
            Some(Layer::Mapped(mapped)) => Some(mapped.path()),
            _ => None,
        }
    }

    /// The values of a layer, South to move in rank order then North.
    pub fn layer(&self, seeds: u32) -> Option<&[i8]> {
        Some(self.layers.get(seeds as usize)?.as_ref()?.values())
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
        let values = self.layers.get(seeds)?.as_ref()?.values();
        let index = &self.indexes[seeds];
        let rank = index.rank(&pos.board) as usize;
        Some(values[pos.side.index() * index.count() as usize + rank])
    }

    /// Makes the layer of `seeds` and its dependencies available: maps them from
    /// `dir` where a file exists, builds (and saves to `dir`) the others.
    /// `progress` receives the number of positions done as the building goes.
    pub fn ensure(
        &mut self,
        seeds: u32,
        dir: Option<&Path>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<LayerReport>, SolveError> {
        self.check_plan(&[seeds], dir)?;
        self.grow(seeds);
        let mut reports = Vec::new();
        for k in Tablebase::dependencies(seeds) {
            if self.has_layer(k) {
                continue;
            }
            let key = self.key(k);
            let path = dir.map(|d| d.join(key.file_name()));
            let (layer, source) = match &path {
                Some(path) if path.exists() => {
                    (Layer::Mapped(table::map(path, key)?), LayerSource::Loaded)
                }
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
                    (
                        Layer::Built(values),
                        LayerSource::Built(stats, start.elapsed()),
                    )
                }
            };
            reports.push(LayerReport {
                seeds: k,
                positions: layer.values().len() as u64,
                source,
            });
            self.layers[k as usize] = Some(layer);
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

#[cfg(test)]
mod open_tests {
    use super::*;
    use crate::engine::side::Side;

    /// Hoyito II on 2x4 with `seeds` seeds per hole.
    fn rules(seeds: u32) -> Rules {
        Rules::new(Variant::Ii)
            .with_board(4, seeds)
            .expect("a valid board")
    }

    /// The layers of 2x4 up to `top`, built and saved in `dir`.
    fn built(dir: &Path, top: u32) -> Tablebase {
        let mut tb = Tablebase::new(Variant::Ii, 4).expect("a valid board");
        tb.ensure(top, Some(dir), &|_| {}).expect("built and saved");
        tb
    }

    fn file(dir: &Path, seeds: u32) -> PathBuf {
        let tb = Tablebase::new(Variant::Ii, 4).expect("a valid board");
        dir.join(tb.key(seeds).file_name())
    }

    #[test]
    fn tablebases_are_shared_between_threads_and_cloned() {
        fn shared<T: Send + Sync + Clone>() {}
        shared::<Tablebase>();
    }

    #[test]
    fn ensure_maps_the_files_it_finds() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let tb = built(dir.path(), 8);
        let mut again = Tablebase::new(Variant::Ii, 4).expect("a valid board");
        let reports = again
            .ensure(8, Some(dir.path()), &|_| panic!("nothing to build"))
            .expect("mapped");
        assert_eq!(reports.len(), 3);
        assert!(reports.iter().all(|r| r.source == LayerSource::Loaded));
        assert!(matches!(again.layers[8], Some(Layer::Mapped(_))));
        for k in [0, 4, 8] {
            assert_eq!(again.layer(k), tb.layer(k));
        }
        let start = Position::start(&rules(1));
        assert_eq!(again.value(&start), tb.value(&start));
        assert!(again.value(&start).is_some());
        let clone = again.clone();
        assert_eq!(
            clone.layer(8).map(<[i8]>::as_ptr),
            again.layer(8).map(<[i8]>::as_ptr)
        );
    }

    #[test]
    fn open_finds_the_largest_complete_layer() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let tb = built(dir.path(), 8);
        // 2x4 with 2 seeds per hole starts with 16: layers 16, 12, 8, 4, 0.
        let (open, top) = Tablebase::open(&rules(2), dir.path(), None).expect("opened");
        assert_eq!(top, 8);
        for k in [0, 4, 8] {
            assert_eq!(open.layer(k), tb.layer(k));
            assert!(open.has_layer(k));
        }
        assert!(!open.has_layer(12));
        let start = Position::start(&rules(1));
        assert_eq!(open.value(&start), tb.value(&start));
        // Rounded down to a layer a game reaches.
        for (max, top) in [(8, 8), (11, 8), (7, 4), (3, 0), (0, 0)] {
            let (open, found) = Tablebase::open(&rules(2), dir.path(), Some(max)).expect("opened");
            assert_eq!(found, top, "max {max}");
            assert!(open.has_layer(top));
        }
        // 2x4 with 1 seed per hole starts with 8: all of it.
        let (_, top) = Tablebase::open(&rules(1), dir.path(), None).expect("opened");
        assert_eq!(top, 8);
        let (_, top) = Tablebase::open(&rules(1), dir.path(), Some(100)).expect("opened");
        assert_eq!(top, 8);
    }

    #[test]
    fn open_refuses_a_missing_layer_naming_it_and_its_command() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        built(dir.path(), 8);
        let rebuild_12 = format!(
            "hoyito solve --variant ii --holes 4 --max-seeds 12 --only-needed --tables {}",
            dir.path().display()
        );
        let err = Tablebase::open(&rules(2), dir.path(), Some(12)).expect_err("12 missing");
        assert!(
            matches!(&err, SolveError::MissingTable { path, top: 12, also_missing: 0, .. }
                if *path == file(dir.path(), 12)),
            "{err}"
        );
        let message = err.to_string();
        assert!(message.contains("hoyito-ii-2x4-012.tb"), "{message}");
        assert!(message.contains(&rebuild_12), "{message}");

        std::fs::remove_file(file(dir.path(), 4)).expect("removed");
        let err = Tablebase::open(&rules(2), dir.path(), Some(8)).expect_err("4 missing");
        let message = err.to_string();
        assert!(message.contains("hoyito-ii-2x4-004.tb"), "{message}");
        assert!(
            message.contains(
                &Tablebase::new(Variant::Ii, 4)
                    .expect("a valid board")
                    .key(8)
                    .rebuild_command(dir.path())
            ),
            "{message}"
        );
        // Without a size: 8 is there, but not complete, so nothing is.
        let err = Tablebase::open(&rules(2), dir.path(), None).expect_err("none complete");
        assert!(matches!(err, SolveError::NoTables { .. }), "{err}");
    }

    /// A layer removed from under a larger one quietly shrank what the
    /// tables decided (a run adjudicated with 8 instead of 12, and a resume
    /// mixed the two): a set with a hole below its top is refused, naming
    /// the hole.
    #[test]
    fn open_refuses_a_hole_below_the_largest_layer_there() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        built(dir.path(), 12);
        std::fs::remove_file(file(dir.path(), 8)).expect("removed");
        let err = Tablebase::open(&rules(2), dir.path(), None).expect_err("a hole at 8");
        assert!(
            matches!(&err, SolveError::MissingTable { path, top: 12, also_missing: 0, .. }
                if *path == file(dir.path(), 8)),
            "{err}"
        );
        // Only the layers up to 4 left: a complete set, opened as such.
        std::fs::remove_file(file(dir.path(), 12)).expect("removed");
        let (_, top) = Tablebase::open(&rules(2), dir.path(), None).expect("opened");
        assert_eq!(top, 4);
    }

    #[test]
    fn open_refuses_an_empty_directory_saying_what_it_looked_for() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let err = Tablebase::open(&rules(2), dir.path(), None).expect_err("nothing there");
        let message = err.to_string();
        for name in [
            "hoyito-ii-2x4-016.tb",
            "hoyito-ii-2x4-012.tb",
            "hoyito-ii-2x4-008.tb",
            "hoyito-ii-2x4-004.tb",
        ] {
            assert!(message.contains(name), "{message}");
        }
        let rebuild = format!(
            "hoyito solve --variant ii --holes 4 --max-seeds 16 --only-needed --tables {}",
            dir.path().display()
        );
        assert!(message.contains(&rebuild), "{message}");
        let missing = dir.path().join("not-there");
        let err = Tablebase::open(&rules(2), &missing, None).expect_err("no directory");
        assert!(matches!(err, SolveError::NoTables { .. }), "{err}");
    }

    #[test]
    fn open_refuses_damaged_files_and_rules_without_tables() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        built(dir.path(), 8);
        let path = file(dir.path(), 4);
        let mut bytes = std::fs::read(&path).expect("readable");
        bytes[50] ^= 1;
        std::fs::write(&path, bytes).expect("writable");
        let err = Tablebase::open(&rules(2), dir.path(), Some(8)).expect_err("damaged");
        assert!(
            matches!(&err, SolveError::Table(e) if e.damage() == Some(&table::Damage::Checksum)),
            "{err}"
        );
        assert!(err.to_string().contains("hoyito-ii-2x4-004.tb"), "{err}");

        let mut south = rules(1);
        south.last_four = LastFour::Player(Side::South);
        let err = Tablebase::open(&south, dir.path(), None).expect_err("unsupported");
        assert!(matches!(err, SolveError::UnsupportedRules { .. }), "{err}");
        assert!(
            err.to_string().contains("South taking the last seeds"),
            "{err}"
        );
        let mut split = rules(1);
        split.stall.leftover = Leftover::Split;
        let err = Tablebase::open(&split, dir.path(), None).expect_err("unsupported");
        assert!(err.to_string().contains("split"), "{err}");
        let mut bad = rules(1);
        bad.holes = 40;
        let err = Tablebase::open(&bad, dir.path(), None).expect_err("no such board");
        assert!(matches!(err, SolveError::Board(_)), "{err}");
    }

    #[test]
    fn open_refuses_layers_beyond_the_table_format() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        // 2x16 with 7 seeds per hole starts with 224 seeds.
        let big = Rules::new(Variant::Ii)
            .with_board(16, 7)
            .expect("a valid board");
        let err = Tablebase::open(&big, dir.path(), Some(200)).expect_err("too many");
        assert!(
            matches!(err, SolveError::TooManySeeds { seeds: 200 }),
            "{err}"
        );
    }
}
