//! `hoyito.Tables` (exact values from the endgame tables) and `hoyito.Agent`
//! (a roster agent choosing moves for Python). Searches and table builds run
//! with the GIL released.
//!
//! An agent pickles as its spec and its random generator where it stands,
//! so that an environment holding one (`hoyito.gymnasium`) can be copied to
//! a worker process and go on drawing the same numbers; loading needs no
//! roster.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use hoyito::solver::Tablebase;
use hoyito::{prepare_tables, shared_tables, Agent, AgentRng, AgentSpec, Roster, Rules};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyType};
use rand::SeedableRng;

use crate::game::PyGame;
use crate::rules::{move_number, rules, value_error};

/// The roster directory: `agents_dir` if given, else `$HOYITO_AGENTS`, else
/// the `agents/` folder of the checkout this package was built from, else
/// `./agents`.
pub fn agents_dir(given: Option<PathBuf>) -> PathBuf {
    if let Some(dir) = given {
        return dir;
    }
    if let Some(dir) = std::env::var_os("HOYITO_AGENTS") {
        return PathBuf::from(dir);
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("../agents");
    if built.is_dir() {
        return built;
    }
    PathBuf::from("agents")
}

/// The roster of `dir` (see [`agents_dir`]).
pub fn load_roster(dir: Option<PathBuf>) -> PyResult<Roster> {
    Roster::load(&agents_dir(dir)).map_err(value_error)
}

/// The names of the roster's agents.
#[pyfunction]
#[pyo3(signature = (agents_dir=None))]
pub fn roster(agents_dir: Option<PathBuf>) -> PyResult<Vec<String>> {
    Ok(load_roster(agents_dir)?
        .agents()
        .iter()
        .map(|a| a.name.clone())
        .collect())
}

/// Exact values of positions from the endgame tables.
#[pyclass(module = "hoyito._hoyito", name = "Tables", frozen)]
pub struct PyTables {
    tables: Arc<Tablebase>,
    max_seeds: u32,
}

#[pymethods]
impl PyTables {
    /// Maps the tables of `variant` on `2 x holes` (`seeds` per hole at the
    /// start) from `path`, a directory written by `hoyito solve`, up to
    /// `max_seeds` seeds on the board (default: every complete layer).
    #[new]
    #[pyo3(signature = (path, variant="ii", holes=6, seeds=4, max_seeds=None))]
    fn new(
        py: Python<'_>,
        path: PathBuf,
        variant: &str,
        holes: u32,
        seeds: u32,
        max_seeds: Option<u32>,
    ) -> PyResult<PyTables> {
        let rules = rules(variant, holes, seeds, 200, 3, "none")?;
        let (tables, top) = py
            .allow_threads(|| Tablebase::open(&rules, &path, max_seeds))
            .map_err(value_error)?;
        Ok(PyTables {
            tables: Arc::new(tables),
            max_seeds: top,
        })
    }

    /// Builds the tables in memory, layers up to `max_seeds` seeds (2x6 up
    /// to 16 seeds takes about a minute), shared with the agents of this
    /// process.
    #[staticmethod]
    #[pyo3(signature = (variant="ii", holes=6, seeds=4, max_seeds=8))]
    fn build(
        py: Python<'_>,
        variant: &str,
        holes: u32,
        seeds: u32,
        max_seeds: u32,
    ) -> PyResult<PyTables> {
        let rules = rules(variant, holes, seeds, 200, 3, "none")?;
        let tables = py
            .allow_threads(|| shared_tables(&rules, max_seeds))
            .map_err(|err| {
                // The library's error speaks of an agent; none is involved here.
                PyValueError::new_err(format!(
                    "cannot build the tables of Hoyito {} on 2x{} up to {} seeds: {}",
                    err.variant.to_string().to_uppercase(),
                    err.holes,
                    err.seeds,
                    err.cause
                ))
            })?
            .ok_or_else(|| PyValueError::new_err("no table holds for these rules"))?;
        Ok(PyTables {
            tables,
            max_seeds: max_seeds.min(rules.total_seeds()),
        })
    }

    /// The largest layer (seeds on the board) the tables hold.
    #[getter]
    fn max_seeds(&self) -> u32 {
        self.max_seeds
    }

    /// The exact value of `game`'s position for the side to move: the margin
    /// of seeds still to come under perfect play (the captures so far
    /// aside), or `None` when it has more seeds on the board than the tables.
    /// Raises `ValueError` for a game of another variant or board.
    fn value(&self, game: &PyGame) -> PyResult<Option<i8>> {
        let mine = self.tables.rules();
        let theirs = game.game.rules();
        if mine.variant != theirs.variant || mine.holes != theirs.holes {
            return Err(PyValueError::new_err(format!(
                "these tables are for Hoyito {} on 2x{}, the game is Hoyito {} on 2x{}",
                mine.variant, mine.holes, theirs.variant, theirs.holes
            )));
        }
        let pos = game.game.position();
        if pos.seeds_on_board() > self.max_seeds {
            return Ok(None);
        }
        Ok(self.tables.value(pos))
    }
}

/// The agent and what it last played in.
struct Seat {
    agent: Box<dyn Agent>,
    rng: AgentRng,
    /// The rules and start of the game it is in, and plies it has seen.
    game: Option<(Rules, String, u32)>,
    /// The rules whose tables are ready.
    prepared: Vec<Rules>,
}

impl Seat {
    /// A seat for a new agent of `spec` whose generator is `rng`.
    fn new(spec: &AgentSpec, rng: AgentRng) -> Seat {
        Seat {
            agent: spec.build(),
            rng,
            game: None,
            prepared: Vec::new(),
        }
    }
}

/// A roster agent (`agents/NAME.toml`) that chooses moves.
#[pyclass(module = "hoyito._hoyito", name = "Agent", frozen)]
pub struct PyAgent {
    name: String,
    spec: AgentSpec,
    seat: Mutex<Seat>,
}

/// The version of a pickled agent's layout; a state of another version is
/// refused rather than misread.
const AGENT_STATE_FORMAT: u32 = 1;

/// A `ValueError` for a pickled state that is not an agent.
fn corrupt(why: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!(
        "cannot restore a hoyito.Agent from this state: {why}"
    ))
}

/// The item `key` of a pickled agent's `dict`.
fn field<'py>(dict: &Bound<'py, PyDict>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    dict.get_item(key)?
        .ok_or_else(|| corrupt(format!("it has no {key:?}")))
}

/// The agent that `state` (what `Agent.__reduce__` gives) describes: its
/// spec checked as the roster checks one, its generator set where it stood.
fn agent_from_state(state: &Bound<'_, PyAny>) -> PyResult<PyAgent> {
    let state = state
        .downcast::<PyDict>()
        .map_err(|_| corrupt("expected a dict"))?;
    let format: u32 = field(state, "format")?
        .extract()
        .map_err(|_| corrupt("\"format\" is not a version number"))?;
    if format != AGENT_STATE_FORMAT {
        return Err(corrupt(format!(
            "it is of format {format}, this version reads format {AGENT_STATE_FORMAT}"
        )));
    }
    let name: String = field(state, "name")?
        .extract()
        .map_err(|_| corrupt("\"name\" is not a str"))?;
    let spec_json: String = field(state, "spec")?
        .extract()
        .map_err(|_| corrupt("\"spec\" is not a str"))?;
    let spec: AgentSpec = serde_json::from_str(&spec_json)
        .map_err(|err| corrupt(format!("its spec {spec_json:?}: {err}")))?;
    spec.validate()
        .map_err(|err| corrupt(format!("its spec {spec}: {err}")))?;
    let rng = field(state, "rng")?;
    let rng = rng
        .downcast::<PyDict>()
        .map_err(|_| corrupt("\"rng\" is not a dict"))?;
    let seed: [u8; 32] = field(rng, "seed")?
        .extract::<Vec<u8>>()
        .ok()
        .and_then(|seed| seed.try_into().ok())
        .ok_or_else(|| corrupt("its generator's seed is not 32 bytes"))?;
    let stream: u64 = field(rng, "stream")?
        .extract()
        .map_err(|_| corrupt("its generator's stream is not a 64-bit number"))?;
    let word_pos: u128 = field(rng, "word_pos")?
        .extract()
        .map_err(|_| corrupt("its generator's position is not a 128-bit number"))?;
    let mut rng = AgentRng::from_seed(seed);
    rng.set_stream(stream);
    rng.set_word_pos(word_pos);
    Ok(PyAgent {
        name,
        seat: Mutex::new(Seat::new(&spec, rng)),
        spec,
    })
}

#[pymethods]
impl PyAgent {
    /// The roster agent `name` from `agents_dir` (default: `$HOYITO_AGENTS`,
    /// else this checkout's `agents/`), its random choices seeded by `seed`.
    #[new]
    #[pyo3(signature = (name, agents_dir=None, seed=0))]
    fn new(name: &str, agents_dir: Option<PathBuf>, seed: u64) -> PyResult<PyAgent> {
        let roster = load_roster(agents_dir)?;
        let spec = roster.get(name).map_err(value_error)?.spec.clone();
        Ok(PyAgent {
            name: name.to_string(),
            seat: Mutex::new(Seat::new(&spec, AgentRng::seed_from_u64(seed))),
            spec,
        })
    }

    /// The roster name.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The spec, as one line (kind and parameters).
    #[getter]
    fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// The agent's move in `game` (a hole number, 0 for a pass), chosen with
    /// the GIL released. A game it has not seen (another start, or fewer
    /// plies than it last saw) starts a new game for the agent.
    fn choose(&self, py: Python<'_>, game: &PyGame) -> PyResult<u8> {
        let game = game.game.clone();
        if game.is_over() {
            return Err(PyValueError::new_err(
                "the game is over: there is no move to choose",
            ));
        }
        let spec = &self.spec;
        let seat = &self.seat;
        py.allow_threads(|| {
            let mut seat = seat.lock().unwrap_or_else(|p| p.into_inner());
            let rules = *game.rules();
            if !seat.prepared.contains(&rules) {
                prepare_tables(spec, &rules).map_err(|e| e.to_string())?;
                seat.prepared.push(rules);
            }
            let start = game.start().to_string();
            let same = seat
                .game
                .as_ref()
                .is_some_and(|(r, s, plies)| *r == rules && *s == start && *plies <= game.plies());
            if !same {
                seat.agent.new_game(&rules);
            }
            seat.game = Some((rules, start, game.plies()));
            let Seat { agent, rng, .. } = &mut *seat;
            agent.try_choose(&game, rng).map_err(|f| f.to_string())
        })
        .map(move_number)
        .map_err(PyValueError::new_err)
    }

    fn __repr__(&self) -> String {
        format!("Agent({:?})  # {}", self.name, self.spec)
    }

    /// Pickles (and copies) as `Agent._from_state(state)`, `state` being
    /// `{"format": 1, "name", "spec": the spec as JSON, "rng": {"seed",
    /// "stream", "word_pos"}}`: the copy draws the same random numbers as
    /// the original from here on. What a searching agent remembers of the
    /// game it is in (alpha-beta's table, the MCTS tree) is not kept: the
    /// copy's next move starts that memory afresh, as a new game does.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        let py = slf.py();
        let agent = slf.get();
        let rng = PyDict::new(py);
        {
            let seat = agent.seat.lock().unwrap_or_else(|p| p.into_inner());
            rng.set_item("seed", PyBytes::new(py, &seat.rng.get_seed()))?;
            rng.set_item("stream", seat.rng.get_stream())?;
            rng.set_item("word_pos", seat.rng.get_word_pos())?;
        }
        let state = PyDict::new(py);
        state.set_item("format", AGENT_STATE_FORMAT)?;
        state.set_item("name", &agent.name)?;
        let spec = serde_json::to_string(&agent.spec)
            .expect("a spec is plain data, always written as JSON");
        state.set_item("spec", spec)?;
        state.set_item("rng", rng)?;
        Ok((slf.get_type().getattr("_from_state")?, (state,)))
    }

    /// The agent of a pickled state (see `__reduce__`). Raises `ValueError`
    /// for a state that is not an agent's.
    #[classmethod]
    fn _from_state(_cls: &Bound<'_, PyType>, state: &Bound<'_, PyAny>) -> PyResult<PyAgent> {
        agent_from_state(state)
    }
}
