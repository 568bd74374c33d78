//! The tablebase agent: perfect play once few enough seeds are left, and a
//! search that scores the positions it reaches inside the tables exactly before.
//!
//! Tables take seconds to minutes to build, and the harness builds a fresh agent
//! for every game, so the tables are built once per process and per variant,
//! board and size, and shared read-only by every agent and thread that needs them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use thiserror::Error;

use crate::engine::agent_trait::{Agent, AgentRng};
use crate::engine::game::Game;
use crate::engine::moves::Move;
use crate::engine::rules::{LastFour, Leftover, Rules, Variant};
use crate::solver::strategy::{perfect_move, search_move};
use crate::solver::tablebase::Tablebase;
use crate::solver::SolveError;

/// Plays perfectly while the board holds at most `max_seeds` seeds (the tables
/// hold the exact value of every such position); before that, a `fallback`
/// agent chooses if one is given, else a negamax search of `depth` plies whose
/// leaves inside the tables are scored exactly.
///
/// The tables hold for the default options of RULES.md (the capturer takes the
/// last seeds, leftovers of stalled games go to nobody); under other options the
/// agent plays as its fallback or search without tables. Only the layers a game
/// can reach are built: up to the smaller of `max_seeds` and the seeds of the
/// board (2x4 with one seed per hole needs layers 0 to 8, whatever `max_seeds`),
/// or of the position a game starts from when it holds more.
///
/// Building can fail (not enough memory): [`crate::agents::prepare_tables`] reports why, and
/// the harness calls it for every agent and board before the first game, so
/// that the agent fails to start instead of silently playing without tables.
pub struct TablebaseAgent {
    max_seeds: u32,
    depth: u32,
    fallback: Option<Box<dyn Agent>>,
    /// Where the tables' files are mapped from (and missing layers saved
    /// to); `None`: built in memory.
    dir: Option<PathBuf>,
    /// The tables in use: for these rules, up to this layer.
    tables: Option<(Rules, u32, Option<Arc<Tablebase>>)>,
}

/// Why a tablebase agent cannot start: its tables cannot be built.
#[derive(Debug, Clone, Error)]
#[error("tablebase agent: cannot build its tables up to {seeds} seeds for Hoyito {variant} on 2x{holes}")]
pub struct TablebaseAgentError {
    /// Which Hoyito.
    pub variant: Variant,
    /// Holes per row.
    pub holes: u8,
    /// The largest layer asked for.
    pub seeds: u32,
    /// Why.
    #[source]
    pub cause: Arc<SolveError>,
}

impl TablebaseAgent {
    /// An agent with tables up to `max_seeds` seeds and a search of `depth`
    /// plies, or the `fallback` agent, outside them.
    pub fn new(max_seeds: u32, depth: u32, fallback: Option<Box<dyn Agent>>) -> TablebaseAgent {
        TablebaseAgent {
            max_seeds,
            depth,
            fallback,
            dir: None,
            tables: None,
        }
    }

    /// The same agent with its tables mapped from the files in `dir` (and
    /// the layers missing there built and saved there), as `hoyito solve
    /// --tables DIR` and `[adjudication] tablebase` use them: every agent,
    /// adjudicator and process mapping the same files shares one copy of
    /// them in memory. `None` builds them in memory.
    pub fn with_tables_dir(mut self, dir: Option<PathBuf>) -> TablebaseAgent {
        self.dir = dir;
        self
    }

    /// The tables for `rules` covering a board of `seeds` seeds, built on first
    /// use in this process; `None` where they do not hold for its options.
    ///
    /// # Panics
    /// When they cannot be built and [`prepare_tables`] was not asked first
    /// (it returns the same failure as an error).
    fn tables(&mut self, rules: &Rules, seeds: u32) -> Option<Arc<Tablebase>> {
        let top = top_layer(rules, self.max_seeds, seeds);
        match &self.tables {
            Some((for_rules, have, tables)) if for_rules == rules && *have >= top => tables.clone(),
            _ => {
                let tables = tables_up_to(rules, top, self.dir.as_deref()).unwrap_or_else(|err| {
                    panic!(
                        "{err}: {} (prepare_tables reports this before play)",
                        err.cause
                    )
                });
                self.tables = Some((*rules, top, tables.clone()));
                tables
            }
        }
    }
}

/// Tables built (or refused) in this process, by variant, holes, largest
/// layer and the directory they are mapped from (`None`: built in memory).
type Cache = Mutex<
    HashMap<(Variant, u8, u32, Option<PathBuf>), Result<Arc<Tablebase>, TablebaseAgentError>>,
>;

/// The process's tables ([`Cache`]).
fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Cache::default)
}

/// The largest layer the tables need for games under `rules` on a board now
/// holding `seeds` seeds: captures only remove seeds, so no game holds more
/// than it starts with, the board's seeds unless it starts from a position.
fn top_layer(rules: &Rules, max_seeds: u32, seeds: u32) -> u32 {
    max_seeds.min(rules.total_seeds().max(seeds))
}

/// The tables a tablebase agent with `max_seeds` uses for games under `rules`
/// from their start, built on first use in this process and shared: the layers
/// up to the smaller of `max_seeds` and the seeds of the board, or `Ok(None)`
/// when tables do not hold for the options of `rules`.
pub fn shared_tables(
    rules: &Rules,
    max_seeds: u32,
) -> Result<Option<Arc<Tablebase>>, TablebaseAgentError> {
    tables_up_to(rules, top_layer(rules, max_seeds, 0), None)
}

/// [`shared_tables`] for positions of up to `seeds` seeds (more than the
/// board's when a game starts from a given position), mapped from the files
/// in `dir` where they are there and saved there when built. Each directory
/// (as written) and `None` have tables of their own: an agent asked to map
/// a directory's files maps them, whoever asked first.
pub fn shared_tables_in(
    rules: &Rules,
    max_seeds: u32,
    seeds: u32,
    dir: Option<&Path>,
) -> Result<Option<Arc<Tablebase>>, TablebaseAgentError> {
    tables_up_to(rules, top_layer(rules, max_seeds, seeds), dir)
}

/// The tables for `rules` with every layer from 0 to `top`, shared.
fn tables_up_to(
    rules: &Rules,
    top: u32,
    dir: Option<&Path>,
) -> Result<Option<Arc<Tablebase>>, TablebaseAgentError> {
    if rules.last_four != LastFour::Capturer || rules.stall.leftover != Leftover::None {
        return Ok(None);
    }
    let mut cache = cache()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    cache
        .entry((rules.variant, rules.holes, top, dir.map(Path::to_path_buf)))
        .or_insert_with(|| {
            build_tables(rules, top, dir).map_err(|cause| TablebaseAgentError {
                variant: rules.variant,
                holes: rules.holes,
                seeds: top,
                cause: Arc::new(cause),
            })
        })
        .clone()
        .map(Some)
}

/// Every layer from 0 to `top`, checked against the limits before any is
/// built, loaded from and saved to `dir` when given.
///
/// Built on a thread pool of its own, driven from a plain thread of its own.
/// The caller holds the cache's lock, and agents ask for their tables from
/// inside rayon's global pool (a study choosing moves in parallel):
/// - a build on the global pool would wait for workers that all wait for the
///   lock (two tests, zero CPU, forever);
/// - a global worker that waits in `install` on another pool steals global
///   jobs meanwhile, and a stolen job asking for tables locks the cache its
///   own thread already holds (the same freeze, seen once in CI).
///
/// A plain thread's `join` waits without taking work, so neither can happen.
fn build_tables(rules: &Rules, top: u32, dir: Option<&Path>) -> Result<Arc<Tablebase>, SolveError> {
    let threads = rayon::current_num_threads();
    let on_own_pool = || match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| build_tables_here(rules, top, dir)),
        // No pool could be made: build on the global pool (deadlock-free as
        // long as no other caller waits on the lock from the global pool).
        Err(_) => build_tables_here(rules, top, dir),
    };
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .name("hoyito-tables".into())
            .spawn_scoped(scope, on_own_pool)
        {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread could be made: build here (deadlock-free as long as
            // no other caller waits on the lock from the global pool).
            Err(_) => build_tables_here(rules, top, dir),
        }
    })
}

fn build_tables_here(
    rules: &Rules,
    top: u32,
    dir: Option<&Path>,
) -> Result<Arc<Tablebase>, SolveError> {
    let mut tb = Tablebase::new(rules.variant, rules.holes)?;
    let layers: Vec<u32> = (0..=top).collect();
    tb.check_plan(&layers, dir)?;
    if let Some(dir) = dir {
        // A directory that cannot be made fails below, where the first table
        // file cannot be saved, and that error names the file.
        std::fs::create_dir_all(dir).ok();
    }
    for &k in &layers {
        tb.ensure(k, dir, &|_| {})?;
    }
    Ok(Arc::new(tb))
}

impl Agent for TablebaseAgent {
    fn choose(&mut self, game: &Game, rng: &mut AgentRng) -> Move {
        let pos = game.position();
        let tables = self.tables(game.rules(), pos.seeds_on_board());
        if let Some(mv) = tables.as_deref().and_then(|tb| perfect_move(tb, pos)) {
            return mv;
        }
        if let Some(fallback) = &mut self.fallback {
            return fallback.choose(game, rng);
        }
        let empty;
        let tb = match tables.as_deref() {
            Some(tb) => tb,
            None => {
                empty = Tablebase::new(game.rules().variant, pos.holes())
                    .expect("the game's board is valid");
                &empty
            }
        };
        search_move(tb, pos, self.depth).expect("the game is not over")
    }

    fn new_game(&mut self, rules: &Rules) {
        self.tables(rules, 0);
        if let Some(fallback) = &mut self.fallback {
            fallback.new_game(rules);
        }
    }

    fn observe(&mut self, game: &Game, mv: Move) {
        if let Some(fallback) = &mut self.fallback {
            fallback.observe(game, mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::agent_text::parse_agent_text;
    use crate::agents::build::prepare_tables;
    use crate::agents::roster::Roster;

    /// A board no other test asks the process-wide cache for: Hoyito III on
    /// 2x3, layers up to 7.
    fn rules() -> Rules {
        Rules::new(Variant::Iii)
            .with_board(3, 4)
            .expect("a valid board")
    }

    /// The tables the process holds for `rules` up to `top` from `dir`,
    /// without making any.
    fn held(rules: &Rules, top: u32, dir: Option<&Path>) -> Option<Arc<Tablebase>> {
        let cache = cache().lock().unwrap_or_else(|p| p.into_inner());
        let key = (rules.variant, rules.holes, top, dir.map(Path::to_path_buf));
        cache.get(&key).and_then(|held| held.clone().ok())
    }

    #[test]
    fn a_tablebase_agent_with_a_tables_dir_maps_the_files_there() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let mut built = Tablebase::new(Variant::Iii, 3).expect("a valid board");
        for k in 0..=7 {
            built
                .ensure(k, Some(dir.path()), &|_| {})
                .expect("built and saved");
        }
        // Tables of the same board in memory first: the agent's directory
        // still gets its own, mapped from the files.
        let in_memory = shared_tables_in(&rules(), 7, 0, None)
            .expect("built")
            .expect("tables hold under the default options");
        assert!(in_memory.mapped_from(4).is_none());
        let text = format!("tablebase:max_seeds=7,tables={}", dir.path().display());
        let named = parse_agent_text(&text, &Roster::default()).expect("a valid agent");
        assert!(named.spec.to_string().contains("tables="), "{}", named.spec);
        assert!(held(&rules(), 7, Some(dir.path())).is_none());
        // The agent itself opens them (no `prepare_tables` first).
        let mut agent = named.spec.build();
        agent.new_game(&rules());
        let mapped = held(&rules(), 7, Some(dir.path())).expect("the agent's tables");
        for k in (0..=7).filter(|&k| mapped.has_layer(k)) {
            let path = mapped.mapped_from(k).expect("mapped, not built");
            assert!(path.starts_with(dir.path()), "{}", path.display());
            assert_eq!(mapped.layer(k), built.layer(k));
        }
        assert!(mapped.mapped_from(4).is_some());
        prepare_tables(&named.spec, &rules()).expect("the same tables");
    }
}
