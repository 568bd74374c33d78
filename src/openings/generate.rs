//! Making a balanced book: random openings kept only where a strong agent (or
//! the tables) says neither side is ahead by more than a few seeds.
//!
//! Random plies alone make some openings lost for one side, and a seat-swapped
//! pair then measures the opening more than the agents; keeping only openings
//! near equality follows the balanced opening books that chess engine testers
//! play their seat-swapped pairs from (e.g. Fishtest's `8moves` books: short
//! openings kept when an engine search scores them close to equal).
//!
//! Sampling is sequential from one ChaCha generator, so the candidates and their
//! order depend on the seed alone. Candidates are evaluated in batches on all
//! cores, each by a fresh searcher (no table carried over between positions),
//! and accepted in sample order, so the book is the same byte for byte on any
//! machine and thread count.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::agents::build::prepare_tables;
use crate::agents::eval_margin::Score;
use crate::agents::spec::AgentSpec;
use crate::engine::game::Game;
use crate::engine::position::Position;
use crate::engine::rules::{Rules, Variant};
use crate::engine::seeding::rng_from_seed;
use crate::solver::tablebase::Tablebase;
use crate::tournament::config::book::{Book, BookEntry, BookError};

/// The most plies an opening may have.
pub const MAX_BOOK_PLIES: u32 = 200;
/// Samples drawn per position asked for before giving up (at least
/// [`MIN_SAMPLES`] in all).
pub const SAMPLES_PER_ENTRY: u64 = 100;
/// The smallest sample budget.
pub const MIN_SAMPLES: u64 = 1000;
/// Candidates evaluated together.
const BATCH: usize = 32;

/// What book to make.
#[derive(Debug, Clone)]
pub struct BookRequest {
    /// Which Hoyito.
    pub variant: Variant,
    /// Holes per row.
    pub holes: u8,
    /// Seeds per hole at the start.
    pub seeds: u8,
    /// Uniformly random plies from the start position.
    pub plies: u32,
    /// Positions wanted.
    pub count: usize,
    /// The roster name of the evaluating agent.
    pub agent: String,
    /// Its spec.
    pub spec: AgentSpec,
    /// Largest absolute evaluation kept, in seeds.
    pub max_eval: u32,
    /// The seed of the sampling generator.
    pub seed: u64,
    /// A directory of table files: exact values where its layers reach.
    pub tables: Option<PathBuf>,
    /// The command line written in the header.
    pub command: String,
}

/// Checks that the agent gives a reproducible evaluation in seeds (an
/// alpha-beta agent without a wall-clock budget) and builds the endgame tables
/// its options ask for, once per process, before any search needs them.
fn check_evaluator(name: &str, spec: &AgentSpec, rules: &Rules) -> Result<(), BookError> {
    let refuse = |why: &str| BookError::NoEvaluation {
        name: name.to_string(),
        spec: spec.to_string(),
        why: why.to_string(),
    };
    match *spec {
        AgentSpec::Alphabeta {
            time_ms: Some(_), ..
        } => Err(refuse(
            "its budget is wall-clock time, so the book would differ from run to run; \
             give the agent a depth or a node budget",
        )),
        AgentSpec::Alphabeta { .. } => prepare_tables(spec, rules)
            .map_err(|err| refuse(&format!("its endgame tables cannot be built: {err}"))),
        _ => Err(refuse(&format!(
            "a {} agent gives no evaluation in seeds; use an alphabeta agent",
            spec.kind()
        ))),
    }
}

/// Exact values from table files, loaded the first time a layer is needed.
struct Tables {
    dir: PathBuf,
    tb: Tablebase,
    /// Layers whose files (and their dependencies') are absent.
    missing: HashSet<u32>,
}

impl Tables {
    fn new(dir: &Path, rules: &Rules) -> Result<Tables, BookError> {
        if !dir.is_dir() {
            return Err(BookError::Tables {
                dir: dir.display().to_string(),
                message: "not a directory".to_string(),
            });
        }
        let tb = Tablebase::new(rules.variant, rules.holes).map_err(|e| BookError::Tables {
            dir: dir.display().to_string(),
            message: e.to_string(),
        })?;
        Ok(Tables {
            dir: dir.to_path_buf(),
            tb,
            missing: HashSet::new(),
        })
    }

    /// The final margin of `pos` for the side to move under perfect play, if
    /// the directory holds its layer and the layers it depends on.
    fn value(&mut self, pos: &Position) -> Result<Option<Score>, BookError> {
        let seeds = pos.seeds_on_board();
        if self.missing.contains(&seeds) {
            return Ok(None);
        }
        if !self.tb.has_layer(seeds) {
            let present = Tablebase::dependencies(seeds)
                .iter()
                .all(|&k| self.dir.join(self.tb.key(k).file_name()).is_file());
            if !present {
                self.missing.insert(seeds);
                return Ok(None);
            }
            self.tb
                .ensure(seeds, Some(&self.dir), &|_| {})
                .map_err(|e| BookError::Tables {
                    dir: self.dir.display().to_string(),
                    message: e.to_string(),
                })?;
        }
        let me = pos.side_to_move();
        let captured = pos.captures()[me] as Score - pos.captures()[me.opponent()] as Score;
        Ok(self.tb.value(pos).map(|v| captured + v as Score))
    }
}

/// The search score of `game`'s position by a fresh searcher of the agent
/// `spec` (no table carried over; its evaluation, enhancements and endgame
/// tables as in play): the final capture margin it expects for the side to
/// move; the game's history counts for the stall rules.
fn search_score(game: &Game, spec: &AgentSpec) -> Score {
    let mut searcher = spec
        .alphabeta()
        .expect("check_evaluator let only alphabeta agents through");
    searcher.search(game).score
}

/// Evaluates `game`'s position as a book does: the tables' exact final margin
/// for the side to move where `tables` (a directory of table files) holds its
/// layer, else the named agent's search score. Used by the tests to check books.
pub fn evaluate_opening(
    game: &Game,
    name: &str,
    spec: &AgentSpec,
    tables: Option<&Path>,
) -> Result<Score, BookError> {
    check_evaluator(name, spec, game.rules())?;
    if let Some(dir) = tables {
        if let Some(v) = Tables::new(dir, game.rules())?.value(game.position())? {
            return Ok(v);
        }
    }
    Ok(search_score(game, spec))
}

/// Makes the book `request` asks for: `count` distinct positions reached by
/// `plies` uniformly random plies (the generator seeded with `seed`) whose
/// evaluation lies within `max_eval` seeds of 0. Samples where the game ended,
/// or fewer plies could be played, are skipped; after
/// `max(SAMPLES_PER_ENTRY * count, MIN_SAMPLES)` samples the request is refused.
/// `progress` is told, after each batch, how many positions are accepted and
/// how many candidates were evaluated so far.
pub fn generate_book(
    request: &BookRequest,
    progress: &dyn Fn(usize, usize),
) -> Result<Book, BookError> {
    if request.plies > MAX_BOOK_PLIES {
        return Err(BookError::Request(format!(
            "--plies {} is too many: at most {MAX_BOOK_PLIES}",
            request.plies
        )));
    }
    if request.count == 0 {
        return Err(BookError::Request(
            "--count 0: ask for at least 1 position".to_string(),
        ));
    }
    let rules = Rules::new(request.variant)
        .with_board(request.holes as u32, request.seeds as u32)
        .map_err(|e| BookError::Request(e.to_string()))?;
    check_evaluator(&request.agent, &request.spec, &rules)?;
    let mut tables = match &request.tables {
        Some(dir) => Some(Tables::new(dir, &rules)?),
        None => None,
    };
    let max_samples = (SAMPLES_PER_ENTRY * request.count as u64).max(MIN_SAMPLES);
    let mut rng = rng_from_seed(request.seed);
    let mut seen: HashSet<Position> = HashSet::new();
    let mut entries: Vec<BookEntry> = Vec::new();
    let (mut samples, mut evaluated) = (0u64, 0usize);
    while entries.len() < request.count && samples < max_samples {
        // The next batch of distinct candidates, in sample order.
        let mut batch: Vec<Game> = Vec::with_capacity(BATCH);
        while batch.len() < BATCH && samples < max_samples {
            samples += 1;
            let mut game = Game::new(rules);
            for _ in 0..request.plies {
                if game.is_over() {
                    break;
                }
                game.play_random(&mut rng);
            }
            if game.is_over() || game.plies() < request.plies {
                continue;
            }
            if seen.insert(*game.position()) {
                batch.push(game);
            }
        }
        let mut scores: Vec<Option<Score>> = Vec::with_capacity(batch.len());
        for game in &batch {
            scores.push(match &mut tables {
                Some(t) => t.value(game.position())?,
                None => None,
            });
        }
        let scores: Vec<Score> = batch
            .par_iter()
            .zip(scores)
            .map(|(game, exact)| exact.unwrap_or_else(|| search_score(game, &request.spec)))
            .collect();
        for (game, score) in batch.iter().zip(scores) {
            if entries.len() == request.count {
                break;
            }
            evaluated += 1;
            if score.unsigned_abs() <= request.max_eval {
                entries.push(BookEntry {
                    position: *game.position(),
                    plies: game.moves().to_vec(),
                });
            }
        }
        progress(entries.len(), evaluated);
    }
    if entries.len() < request.count {
        return Err(BookError::Unreachable {
            found: entries.len(),
            count: request.count,
            samples,
            distinct: seen.len(),
            evaluated,
        });
    }
    Ok(Book {
        variant: request.variant,
        holes: request.holes,
        seeds: request.seeds,
        header: header(request),
        entries,
    })
}

/// The header lines of a generated book: everything that made it, no date.
fn header(r: &BookRequest) -> Vec<String> {
    let source = match &r.tables {
        Some(dir) => format!(
            "the exact value from the tables in {} where they hold the position's layer, \
             else {}'s search score",
            dir.display(),
            r.agent
        ),
        None => format!("{}'s search score", r.agent),
    };
    vec![
        "hoyito opening book".to_string(),
        format!("command: {}", r.command),
        format!("variant: {}", r.variant),
        format!("holes: {}", r.holes),
        format!("seeds: {}", r.seeds),
        format!("plies: {}", r.plies),
        format!("agent: {} ({})", r.agent, r.spec),
        format!("max-eval: {}", r.max_eval),
        format!("seed: {}", r.seed),
        format!("count: {}", r.count),
        format!(
            "kept: distinct positions after {} uniformly random plies (ChaCha8 seeded with {}) \
             whose final capture margin for the side to move, by {source}, is within {} seeds",
            r.plies, r.seed, r.max_eval
        ),
        "lines: <position in the notation of RULES.md> | <plies from the start position>"
            .to_string(),
    ]
}
