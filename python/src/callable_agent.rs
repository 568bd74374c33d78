//! A Python callable `(Game) -> move` as an agent of the harness, and the
//! seats that put it where it plays.
//!
//! A Python agent is an agent outside the engine, like an external one, and
//! forfeits as one does: an exception is `forfeit-crash`, a return value that
//! is not a move `forfeit-protocol`, an illegal move `forfeit-illegal`
//! (`SystemExit` too is a crash; `KeyboardInterrupt` stops the run). It is
//! recorded in `experiment.toml` as an `external` spec whose command names the
//! callable (`python-agent:module.qualname`), never run. The callable is
//! called with the GIL held, from the worker threads.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use hoyito::tournament::{Seat, SeatMaker};
use hoyito::{Agent, AgentRng, AgentSpec, Forfeit, ForfeitReason, Game, Move};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;

use crate::game::PyGame;
use crate::harness::STOP;
use crate::rules::move_arg;

/// A Python callable `(Game) -> move` in a seat.
struct PythonAgent {
    name: String,
    callable: Arc<Py<PyAny>>,
}

impl Agent for PythonAgent {
    fn choose(&mut self, game: &Game, rng: &mut AgentRng) -> Move {
        self.try_choose(game, rng)
            .expect("the harness asks try_choose, which reports a forfeit")
    }

    fn try_choose(&mut self, game: &Game, _rng: &mut AgentRng) -> Result<Move, Forfeit> {
        Python::with_gil(|py| {
            let arg = Py::new(py, PyGame::wrap(game.clone()))
                .map_err(|e| Forfeit::new(ForfeitReason::Crash, e.to_string()))?;
            let value = match self.callable.call1(py, (arg,)) {
                Ok(value) => value,
                Err(err) => {
                    // Ctrl-C seen by the callable stops the run; anything
                    // else it raises (SystemExit included) is its crash.
                    if err.is_instance_of::<PyKeyboardInterrupt>(py) {
                        STOP.store(true, Ordering::SeqCst);
                    }
                    return Err(Forfeit::new(
                        ForfeitReason::Crash,
                        format!("{} raised {err}", self.name),
                    ));
                }
            };
            let value = value.bind(py);
            let mv = move_arg(value).map_err(|_| {
                let shown = value
                    .repr()
                    .map_or_else(|_| "?".to_string(), |r| r.to_string());
                Forfeit::new(
                    ForfeitReason::Protocol,
                    format!("{} returned {shown}, which is not a move", self.name),
                )
            })?;
            if !game.legal_moves().contains(&mv) {
                return Err(Forfeit::new(
                    ForfeitReason::Illegal,
                    format!("{} chose {mv}, not legal in {}", self.name, game.position()),
                ));
            }
            Ok(mv)
        })
    }
}

/// Seats the callables by their index in the lineup.
pub struct PythonSeats {
    /// Index to (name, callable).
    agents: HashMap<usize, (String, Arc<Py<PyAny>>)>,
}

impl PythonSeats {
    /// The callables `python` (name to callable), each at its name's index
    /// in `playing` (every name plays).
    pub fn new(python: HashMap<String, Py<PyAny>>, playing: &[String]) -> PythonSeats {
        let agents = python
            .into_iter()
            .map(|(name, callable)| {
                let index = playing
                    .iter()
                    .position(|n| *n == name)
                    .expect("every Python agent plays");
                (index, (name, Arc::new(callable)))
            })
            .collect();
        PythonSeats { agents }
    }

    /// The indices of the callables.
    pub fn indices(&self) -> Vec<usize> {
        self.agents.keys().copied().collect()
    }
}

impl SeatMaker for PythonSeats {
    fn seat(&self, index: usize) -> Option<Seat> {
        let (name, callable) = self.agents.get(&index)?;
        Some(Seat::Agent(Box::new(PythonAgent {
            name: name.clone(),
            callable: Arc::clone(callable),
        })))
    }
}

/// The spec saved for a Python agent: an external agent that names the
/// callable and is never started.
pub fn python_spec(py: Python<'_>, callable: &Py<PyAny>) -> AgentSpec {
    let obj = callable.bind(py);
    let text = |attr: &str| obj.getattr(attr).and_then(|v| v.extract::<String>()).ok();
    let module = text("__module__").unwrap_or_else(|| "?".to_string());
    let name = text("__qualname__")
        .or_else(|| text("__name__"))
        .unwrap_or_else(|| {
            obj.get_type()
                .name()
                .map_or("?".to_string(), |n| n.to_string())
        });
    AgentSpec::External {
        command: vec![format!("python-agent:{module}.{name}")],
        working_dir: None,
        move_timeout_ms: 10_000,
        startup_timeout_ms: 10_000,
    }
}
