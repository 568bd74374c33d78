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
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use hoyito::tournament::{Seat, SeatMaker};
use hoyito::{Agent, AgentRng, AgentSpec, Forfeit, ForfeitReason, Game, Move};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;

use crate::game::PyGame;
use crate::harness::STOP;
use crate::rules::move_arg;

/// How often a wait for a callable's move looks at the stop flag.
const STOP_CHECK: Duration = Duration::from_millis(50);

/// A Python callable `(Game) -> move` in a seat. It is called on a thread
/// of its own (one a game), so that a callable that never returns forfeits
/// on time (`forfeit-timeout`, as an external agent does) and Ctrl-C ends
/// the run; the thread of a callable that never returns is left to it.
struct PythonAgent {
    name: String,
    callable: Arc<Py<PyAny>>,
    move_timeout: Duration,
    caller: Option<Caller>,
}

/// The thread that calls the callable: a game in, a move (or forfeit) out.
struct Caller {
    jobs: mpsc::Sender<Game>,
    moves: mpsc::Receiver<Result<Move, Forfeit>>,
}

impl Caller {
    fn start(name: String, callable: Arc<Py<PyAny>>) -> Caller {
        let (jobs, inbox) = mpsc::channel::<Game>();
        let (outbox, moves) = mpsc::channel();
        std::thread::spawn(move || {
            // Ends when the agent is dropped (its sender with it).
            while let Ok(game) = inbox.recv() {
                if outbox.send(call(&name, &callable, &game)).is_err() {
                    break;
                }
            }
        });
        Caller { jobs, moves }
    }
}

/// Asks `callable` for its move in `game`.
fn call(name: &str, callable: &Py<PyAny>, game: &Game) -> Result<Move, Forfeit> {
    Python::with_gil(|py| {
        let arg = Py::new(py, PyGame::wrap(game.clone()))
            .map_err(|e| Forfeit::new(ForfeitReason::Crash, e.to_string()))?;
        let value = match callable.call1(py, (arg,)) {
            Ok(value) => value,
            Err(err) => {
                // Ctrl-C seen by the callable stops the run; anything
                // else it raises (SystemExit included) is its crash.
                if err.is_instance_of::<PyKeyboardInterrupt>(py) {
                    STOP.store(true, Ordering::SeqCst);
                }
                return Err(Forfeit::new(
                    ForfeitReason::Crash,
                    format!("{name} raised {err}"),
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
                format!("{name} returned {shown}, which is not a move"),
            )
        })?;
        if !game.legal_moves().contains(&mv) {
            return Err(Forfeit::new(
                ForfeitReason::Illegal,
                format!("{name} chose {mv}, not legal in {}", game.position()),
            ));
        }
        Ok(mv)
    })
}

impl Agent for PythonAgent {
    fn choose(&mut self, game: &Game, rng: &mut AgentRng) -> Move {
        self.try_choose(game, rng)
            .expect("the harness asks try_choose, which reports a forfeit")
    }

    fn try_choose(&mut self, game: &Game, _rng: &mut AgentRng) -> Result<Move, Forfeit> {
        let caller = self
            .caller
            .get_or_insert_with(|| Caller::start(self.name.clone(), Arc::clone(&self.callable)));
        let lost = |reason, detail: String| Err(Forfeit::new(reason, detail));
        if caller.jobs.send(game.clone()).is_err() {
            self.caller = None;
            return lost(
                ForfeitReason::Crash,
                format!("{}: its caller ended", self.name),
            );
        }
        let deadline = Instant::now() + self.move_timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let result = match caller.moves.recv_timeout(left.min(STOP_CHECK)) {
                Ok(result) => return result,
                Err(mpsc::RecvTimeoutError::Disconnected) => lost(
                    ForfeitReason::Crash,
                    format!("{}: its caller ended", self.name),
                ),
                Err(mpsc::RecvTimeoutError::Timeout) if left <= STOP_CHECK => lost(
                    ForfeitReason::Timeout,
                    format!(
                        "{} returned no move within {} ms",
                        self.name,
                        self.move_timeout.as_millis()
                    ),
                ),
                // The run stops (Ctrl-C): the game is left for the resume.
                Err(mpsc::RecvTimeoutError::Timeout) if STOP.load(Ordering::SeqCst) => lost(
                    ForfeitReason::Crash,
                    format!("{} had not returned a move when the run stopped", self.name),
                ),
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
            };
            // The caller may still be inside the callable: left to it.
            self.caller = None;
            return result;
        }
    }
}

/// Seats the callables by their index in the lineup.
pub struct PythonSeats {
    /// Index to (name, callable).
    agents: HashMap<usize, (String, Arc<Py<PyAny>>)>,
    /// How long a callable may take for a move.
    move_timeout: Duration,
}

impl PythonSeats {
    /// The callables `python` (name to callable), each at its name's index
    /// in `playing` (every name plays).
    pub fn new(
        python: HashMap<String, Py<PyAny>>,
        playing: &[String],
        move_timeout: Duration,
    ) -> PythonSeats {
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
        PythonSeats {
            agents,
            move_timeout,
        }
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
            move_timeout: self.move_timeout,
            caller: None,
        })))
    }

    fn seats_agent(&self, index: usize) -> bool {
        self.agents.contains_key(&index)
    }
}

/// The spec saved for a Python agent: an external agent that names the
/// callable and is never started.
pub fn python_spec(py: Python<'_>, callable: &Py<PyAny>, move_timeout_ms: u64) -> AgentSpec {
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
        move_timeout_ms,
        startup_timeout_ms: 10_000,
    }
}
