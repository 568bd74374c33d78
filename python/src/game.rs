//! `hoyito.Game`: the engine's [`Game`] wrapped, not copied. Every rule
//! decision is the engine's; this file only converts to and from Python and
//! turns the engine's errors into `ValueError` with the engine's message.
//!
//! A game pickles as what defines it: its rules, its first position and its
//! moves. Loading replays the moves, so the history that undo and the stall
//! rules read (the positions since the last capture, the plies without one)
//! is rebuilt by the engine itself rather than trusted from the bytes.

use hoyito::{
    check_board, describe_step, diagram, hole_name, CaptureKind, Game, Outcome, Position, Rules,
    Step, Trace,
};
use numpy::{PyArray1, ToPyArray};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple, PyType};

use crate::observe::{observation_len, side_number, write_mask, write_observation_from};
use crate::rules::{move_arg, move_number, move_of_number, rules, value_error};

/// The version of a pickled game's layout; a state of another version is
/// refused rather than misread.
const STATE_FORMAT: u32 = 1;

/// A game of Hoyito in progress or finished.
#[pyclass(module = "hoyito._hoyito", name = "Game")]
#[derive(Clone)]
pub struct PyGame {
    pub game: Game,
}

impl PyGame {
    /// Wraps a game.
    pub fn wrap(game: Game) -> PyGame {
        PyGame { game }
    }
}

/// The result of a finished game as a dict.
pub fn outcome_dict<'py>(py: Python<'py>, outcome: &Outcome) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("scores", (outcome.scores.south, outcome.scores.north))?;
    d.set_item("winner", outcome.winner.map(side_number))?;
    d.set_item("ending", outcome.ending.name())?;
    d.set_item("plies", outcome.plies)?;
    Ok(d)
}

fn step_dict<'py>(py: Python<'py>, step: &Step, holes: u8) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let hole = |d: &Bound<'py, PyDict>, index: u8| -> PyResult<()> {
        d.set_item("hole", index)?;
        d.set_item("name", hole_name(index, holes))
    };
    match *step {
        Step::Lap { from, seeds } => {
            d.set_item("step", "lap")?;
            hole(&d, from)?;
            d.set_item("seeds", seeds)?;
        }
        Step::LapEnd { hole: h, count } => {
            d.set_item("step", "lap_end")?;
            hole(&d, h)?;
            d.set_item("count", count)?;
        }
        Step::Capture { hole: h, kind } => {
            d.set_item("step", "capture")?;
            hole(&d, h)?;
            let kind = match kind {
                CaptureKind::EnPassant => "en-passant",
                CaptureKind::Casa => "casa",
                CaptureKind::Chain => "chain",
            };
            d.set_item("kind", kind)?;
        }
        Step::ExtraMove(side) => {
            d.set_item("step", "extra_move")?;
            d.set_item("side", side_number(side))?;
        }
        Step::LastSeeds { side, seeds } => {
            d.set_item("step", "last_seeds")?;
            d.set_item("side", side_number(side))?;
            d.set_item("seeds", seeds)?;
        }
        Step::Pass => d.set_item("step", "pass")?,
    }
    d.set_item("text", describe_step(step, holes))?;
    Ok(d)
}

impl PyGame {
    /// Plays `mv` on `self.game` with its trace, as a dict.
    fn play_traced<'py>(
        &mut self,
        py: Python<'py>,
        mv: hoyito::Move,
    ) -> PyResult<Bound<'py, PyDict>> {
        let side = self.game.position().side_to_move();
        let holes = self.game.position().holes();
        let mut trace = Trace::new();
        let effect = self.game.play_traced(mv, &mut trace).map_err(value_error)?;
        let d = PyDict::new(py);
        d.set_item("move", move_number(mv))?;
        d.set_item("side", side_number(side))?;
        d.set_item("captured", effect.captured)?;
        d.set_item("laps", effect.laps)?;
        d.set_item("extra_move", effect.extra_move)?;
        d.set_item("game_over", effect.game_over)?;
        let steps = PyList::empty(py);
        for step in &trace {
            steps.append(step_dict(py, step, holes)?)?;
        }
        d.set_item("steps", steps)?;
        Ok(d)
    }
}

/// A `ValueError` for a pickled state that is not a game.
fn corrupt(why: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!(
        "cannot restore a hoyito.Game from this state: {why}"
    ))
}

/// The game that `state` (what `__getstate__` returns) describes: its rules
/// and first position checked as the constructors check them, then its moves
/// replayed by the engine, each one checked.
fn game_from_state(state: &Bound<'_, PyAny>) -> PyResult<Game> {
    let state = state.downcast::<PyDict>().map_err(|_| {
        let kind = state.get_type().name().map(|n| n.to_string());
        corrupt(format!("expected a dict, got {}", kind.unwrap_or_default()))
    })?;
    let field = |key: &str| {
        state
            .get_item(key)?
            .ok_or_else(|| corrupt(format!("it has no {key:?}")))
    };
    let format: u32 = field("format")?
        .extract()
        .map_err(|_| corrupt("\"format\" is not a version number"))?;
    if format != STATE_FORMAT {
        return Err(corrupt(format!(
            "it is of format {format}, this version reads format {STATE_FORMAT}"
        )));
    }
    let rules_json: String = field("rules")?
        .extract()
        .map_err(|_| corrupt("\"rules\" is not a str"))?;
    let rules: Rules = serde_json::from_str(&rules_json)
        .map_err(|err| corrupt(format!("its rules {rules_json:?}: {err}")))?;
    check_board(rules.holes.into(), rules.seeds.into()).map_err(corrupt)?;
    rules.stall.check_ends().map_err(corrupt)?;
    let start: String = field("start")?
        .extract()
        .map_err(|_| corrupt("\"start\" is not a str"))?;
    let start: Position = start
        .parse()
        .map_err(|err| corrupt(format!("its start {start:?}: {err}")))?;
    if start.holes() != rules.holes {
        return Err(corrupt(format!(
            "its start has {} holes a row, its rules {}",
            start.holes(),
            rules.holes
        )));
    }
    let moves: Vec<u8> = field("moves")?
        .extract()
        .map_err(|_| corrupt("\"moves\" is not a list of move numbers 0..16"))?;
    let mut game = Game::from_position(rules, start);
    for number in moves {
        let mv = move_of_number(number).ok_or_else(|| {
            corrupt(format!(
                "move {number} at ply {}: a move is a hole number 1..16, or 0 for a pass",
                game.plies()
            ))
        })?;
        game.play(mv).map_err(corrupt)?;
    }
    Ok(game)
}

#[pymethods]
impl PyGame {
    /// A new game from the start position.
    #[new]
    #[pyo3(signature = (variant="ii", holes=6, seeds=4, *, no_capture_limit=200, repetitions=3, leftover="none"))]
    fn new(
        variant: &str,
        holes: u32,
        seeds: u32,
        no_capture_limit: u32,
        repetitions: u32,
        leftover: &str,
    ) -> PyResult<PyGame> {
        let rules = rules(
            variant,
            holes,
            seeds,
            no_capture_limit,
            repetitions,
            leftover,
        )?;
        Ok(PyGame::wrap(Game::new(rules)))
    }

    /// A game from a position in the notation of RULES.md, e.g.
    /// `"4,4,4,4,4,4/4,4,4,4,4,4 S 0-0"`; the board size comes from it.
    #[staticmethod]
    #[pyo3(signature = (notation, variant="ii", *, seeds=4, no_capture_limit=200, repetitions=3, leftover="none"))]
    fn from_notation(
        notation: &str,
        variant: &str,
        seeds: u32,
        no_capture_limit: u32,
        repetitions: u32,
        leftover: &str,
    ) -> PyResult<PyGame> {
        let pos: Position = notation.trim().parse().map_err(value_error)?;
        let holes = u32::from(pos.holes());
        let rules = rules(
            variant,
            holes,
            seeds,
            no_capture_limit,
            repetitions,
            leftover,
        )?;
        Ok(PyGame::wrap(Game::from_position(rules, pos)))
    }

    /// The variant: `"i"`, `"ii"` or `"iii"`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.rules().variant.name()
    }

    /// Holes per row.
    #[getter]
    fn holes(&self) -> u8 {
        self.game.rules().holes
    }

    /// Seeds per hole at the start.
    #[getter]
    fn seeds(&self) -> u8 {
        self.game.rules().seeds
    }

    /// The current position in the notation of RULES.md.
    #[getter]
    fn notation(&self) -> String {
        self.game.position().to_string()
    }

    /// The first position, in notation.
    #[getter]
    fn start(&self) -> String {
        self.game.start().to_string()
    }

    /// Seeds per hole in sowing order: South's holes 1..n, then North's.
    #[getter]
    fn board(&self) -> Vec<u32> {
        // Lists of `u8` would become `bytes`: numbers are widened.
        self.game
            .position()
            .board()
            .iter()
            .map(|&s| u32::from(s))
            .collect()
    }

    /// Seeds captured: `(south, north)`.
    #[getter]
    fn captures(&self) -> (u8, u8) {
        let c = self.game.position().captures();
        (c.south, c.north)
    }

    /// The side to move: 0 for South, 1 for North.
    #[getter]
    fn to_move(&self) -> u8 {
        side_number(self.game.position().side_to_move())
    }

    /// The moves played, passes (0) included.
    #[getter]
    fn moves(&self) -> Vec<u32> {
        self.game
            .moves()
            .iter()
            .map(|&mv| u32::from(move_number(mv)))
            .collect()
    }

    /// Plies played.
    #[getter]
    fn plies(&self) -> u32 {
        self.game.plies()
    }

    /// The legal moves: hole numbers `1..n`, or `[0]` for a forced pass;
    /// empty once the game is over.
    fn legal_moves(&self) -> Vec<u32> {
        self.game
            .legal_moves()
            .iter()
            .map(|&mv| u32::from(move_number(mv)))
            .collect()
    }

    /// The legal moves as an int8 mask of length `holes + 1` (index 0:
    /// pass; 1 legal, 0 not).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut mask = vec![0; self.game.rules().holes as usize + 1];
        write_mask(&self.game.legal_moves(), &mut mask);
        mask.to_pyarray(py)
    }

    /// The position from the mover's side (or from `side`, 0 South or 1
    /// North): its row, the other row, its captures, the other's (float32,
    /// length `2 * holes + 2`).
    #[pyo3(signature = (side=None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        side: Option<u8>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let pos = self.game.position();
        let mut obs = vec![0.0; observation_len(pos.holes() as usize)];
        let me = match side {
            None => pos.side_to_move(),
            Some(0) => hoyito::Side::South,
            Some(1) => hoyito::Side::North,
            Some(side) => {
                return Err(PyValueError::new_err(format!(
                    "side {side}: expected 0 (South) or 1 (North)"
                )))
            }
        };
        write_observation_from(pos, me, &mut obs);
        Ok(obs.to_pyarray(py))
    }

    /// Plays `move` (hole number, 0 or `"pass"` for a pass). With
    /// `trace=True`, returns what it did, step by step, as `trace` does.
    /// Raises `ValueError` (the engine's message) if the move is illegal.
    #[pyo3(signature = (mv, trace=false))]
    fn play<'py>(
        &mut self,
        py: Python<'py>,
        mv: &Bound<'py, PyAny>,
        trace: bool,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let mv = move_arg(mv)?;
        if trace {
            return self.play_traced(py, mv).map(Some);
        }
        self.game.play(mv).map_err(value_error)?;
        Ok(None)
    }

    /// What `move` would do, without playing it: the side, seeds captured,
    /// laps sown, extra move and game over, and every step (laps, lap ends,
    /// captures, extra move, last seeds) with board index, hole name and text.
    fn trace<'py>(&self, py: Python<'py>, mv: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        let mv = move_arg(mv)?;
        self.clone().play_traced(py, mv)
    }

    /// Takes back the last move and returns it (the game is replayed from its
    /// start, so this costs one replay). Raises `ValueError` before any move.
    fn undo(&mut self) -> PyResult<u8> {
        let moves = self.game.moves();
        let Some((&last, earlier)) = moves.split_last() else {
            return Err(PyValueError::new_err(
                "no move to undo: the game is at its start",
            ));
        };
        let mut game = Game::from_position(*self.game.rules(), *self.game.start());
        for &mv in earlier {
            game.play(mv)
                .expect("the moves of a game replay from its start");
        }
        self.game = game;
        Ok(move_number(last))
    }

    /// An independent copy.
    fn clone(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        Clone::clone(self)
    }

    /// What pickle keeps of the game: `{"format": 1, "rules": the engine's
    /// rules as JSON, "start": the first position in notation, "moves": the
    /// move numbers played}`.
    fn __getstate__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let state = PyDict::new(py);
        state.set_item("format", STATE_FORMAT)?;
        let rules = serde_json::to_string(self.game.rules())
            .expect("rules are plain data, always written as JSON");
        state.set_item("rules", rules)?;
        state.set_item("start", self.game.start().to_string())?;
        state.set_item("moves", self.moves())?;
        Ok(state)
    }

    /// Becomes the game of `state` (from `__getstate__`), its moves replayed
    /// from its start. Raises `ValueError` for a state that is not a game
    /// (another format, rules or a start the engine refuses, an illegal
    /// move), and is then left as it was.
    fn __setstate__(&mut self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        self.game = game_from_state(state)?;
        Ok(())
    }

    /// Pickles as `Game()` given the state of `__getstate__`, for every
    /// pickle protocol.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyType>, Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let py = slf.py();
        let state = slf.borrow().__getstate__(py)?;
        Ok((py.get_type::<PyGame>(), PyTuple::empty(py), state))
    }

    /// Whether the game is over (finished, stalled).
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The result once over: `{"scores": (south, north), "winner": 0, 1 or
    /// None, "ending": "normal" | "repetition" | "no-capture-limit" | ...,
    /// "plies": n}`; `None` while the game goes on.
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.game
            .outcome()
            .map(|outcome| outcome_dict(py, &outcome))
            .transpose()
    }

    /// `(south, north)` returns: +1 win, -1 loss, 0 draw or game not over.
    fn returns(&self) -> (f64, f64) {
        match self.game.outcome().and_then(|o| o.winner) {
            Some(hoyito::Side::South) => (1.0, -1.0),
            Some(hoyito::Side::North) => (-1.0, 1.0),
            None => (0.0, 0.0),
        }
    }

    /// The board drawn for a person (North's row on top).
    fn diagram(&self) -> String {
        diagram(self.game.position())
    }

    fn __str__(&self) -> String {
        self.game.position().to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game.from_notation({:?}, variant={:?})",
            self.game.position().to_string(),
            self.game.rules().variant.name()
        )
    }
}
