//! `hoyito.match` and `hoyito.run`: the library's session with Python
//! agents seated beside the roster's.
//!
//! The run is the CLI's own ([`hoyito::session`]): the same checks before a
//! byte is written, the same runner, directory, shards, settings diff,
//! warnings and report, so every file is the CLI's byte for byte. This
//! module only binds: it seats the callables ([`crate::callable_agent`])
//! and follows the run from Python (a [`Follow`] that checks Python's
//! signals and calls a progress callback between writes). Everything but
//! the callables runs with the GIL released. Ctrl-C (or a callable raising `KeyboardInterrupt`)
//! stops the run after the games being played: the rows written stay a
//! valid prefix that a later call resumes.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use hoyito::session::{Follow, RunPlan, Session, SessionError};
use hoyito::tournament::{Experiment, Shard, Stopped};
use hoyito::Roster;
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::callable_agent::{python_spec, PythonSeats};
use crate::rules::value_error;

/// Set by Ctrl-C (seen between writes) or by a callable that raised
/// `KeyboardInterrupt` or `SystemExit`: the run stops after the games in
/// hand. Process-wide, as a signal is; cleared when a run starts.
pub(crate) static STOP: AtomicBool = AtomicBool::new(false);

/// Follows a run from Python: its signals and its progress callback,
/// between writes.
struct PythonFollow {
    progress: Option<Py<PyAny>>,
    first: u64,
    total: u64,
    /// What stopped the run from Python: a signal handler's exception, or
    /// the progress callback's.
    error: Option<PyErr>,
}

impl PythonFollow {
    /// Python's signals, then the progress callback after `written` games
    /// (none while idle); the first error stops the run and is kept.
    fn check(&mut self, written: Option<u64>) {
        if self.error.is_some() {
            return;
        }
        let result = Python::with_gil(|py| {
            py.check_signals()?;
            match (&self.progress, written) {
                (Some(progress), Some(games)) => progress
                    .call1(py, (self.first + games, self.total))
                    .map(drop),
                _ => Ok(()),
            }
        });
        if let Err(err) = result {
            self.error = Some(err);
            STOP.store(true, Ordering::SeqCst);
        }
    }
}

impl Follow for PythonFollow {
    fn written(&mut self, games: u64) {
        self.check(Some(games));
    }

    /// Ctrl-C while no game is written (a callable that takes its time).
    fn idle(&mut self) {
        self.check(None);
    }

    fn interrupt(&self) -> Option<&'static AtomicBool> {
        Some(&STOP)
    }
}

/// A forfeit by a Python agent, for the summary: game, agent, reason, what
/// happened.
type ForfeitNote = (u64, String, &'static str, String);

/// What a run gives back: its directory, the path of `summary.json` (none
/// for a shard), the forfeits of Python agents and the warnings.
type RunResult = (PathBuf, Option<PathBuf>, Vec<ForfeitNote>, Vec<String>);

fn runtime_error(err: SessionError) -> PyErr {
    PyRuntimeError::new_err(err.full_message())
}

/// Runs the experiment (`text`, read as the file `label`), or one `shard`
/// of it (`"K/N"`), into `out` with `python` agents (name to callable) and
/// `aliases` (name to roster name); `progress(done, total)` is called after
/// each write.
#[pyfunction]
#[pyo3(signature = (text, label, python, aliases, out=None, force=false, agents_dir=None, threads=None, shard=None, progress=None, move_timeout_ms=10_000))]
#[allow(clippy::too_many_arguments)]
pub fn run_experiment(
    py: Python<'_>,
    text: &str,
    label: &str,
    python: HashMap<String, Py<PyAny>>,
    aliases: HashMap<String, String>,
    out: Option<PathBuf>,
    force: bool,
    agents_dir: Option<PathBuf>,
    threads: Option<usize>,
    shard: Option<&str>,
    progress: Option<Py<PyAny>>,
    move_timeout_ms: u64,
) -> PyResult<RunResult> {
    if move_timeout_ms == 0 {
        return Err(PyValueError::new_err(
            "move_timeout_ms = 0 is out of range: allowed at least 1",
        ));
    }
    let mut experiment = Experiment::parse(text, label).map_err(value_error)?;
    if let Some(t) = threads {
        experiment.threads = t;
        experiment.check(label).map_err(value_error)?;
    }
    let shard = shard
        .map(|s| s.parse::<Shard>())
        .transpose()
        .map_err(|e| PyValueError::new_err(format!("shard: {e}")))?;
    experiment.round_to_pairs();
    let playing = experiment.tournament.agents.clone();
    for name in python.keys().chain(aliases.keys()) {
        if !playing.contains(name) {
            return Err(PyValueError::new_err(format!(
                "agent {name:?} is given but does not play: the experiment's agents are {}",
                playing.join(", ")
            )));
        }
    }
    let roster = || Roster::load(&crate::agents::agents_dir(agents_dir.clone()));
    for (name, target) in &aliases {
        let loaded = roster().map_err(value_error)?;
        let spec = loaded.get(target).map_err(value_error)?.spec.clone();
        experiment.roster.insert(name.clone(), spec);
    }
    for (name, callable) in &python {
        experiment
            .roster
            .insert(name.clone(), python_spec(py, callable, move_timeout_ms));
    }
    experiment
        .resolve_agents(label, roster)
        .map_err(value_error)?;
    let timeout = std::time::Duration::from_millis(move_timeout_ms);
    let seats = PythonSeats::new(python, &playing, timeout);
    let callables = seats.indices();
    let mut plan = RunPlan::new(experiment, label, out, shard);
    plan.force = force;
    plan.seats = Some(Arc::new(seats));
    STOP.store(false, Ordering::SeqCst);
    let mut session = py
        .allow_threads(|| Session::prepare(plan))
        .map_err(runtime_error)?;
    let warnings = session.warnings().to_vec();
    let mut follow = PythonFollow {
        progress,
        first: session.first(),
        total: session.total(),
        error: None,
    };
    let played = py
        .allow_threads(|| session.play(&mut follow))
        .map_err(runtime_error)?;
    let out = session.out().to_owned();
    if played.stopped == Some(Stopped::Interrupted) {
        let recorded = format!(
            "{} of {} games recorded in {}; call again to resume",
            session.first() + played.games,
            session.total(),
            out.display()
        );
        return Err(match follow.error {
            Some(err) if !err.is_instance_of::<PyKeyboardInterrupt>(py) => err,
            _ => PyKeyboardInterrupt::new_err(format!("interrupted: {recorded}")),
        });
    }
    if let Some(err) = follow.error {
        return Err(err);
    }
    let forfeits = played
        .forfeits
        .into_iter()
        .filter(|f| callables.contains(&f.agent))
        .map(|f| {
            (
                f.game_id,
                session.lineup().name(f.agent).to_string(),
                f.forfeit.reason.name(),
                f.forfeit.detail,
            )
        })
        .collect();
    let report = py
        .allow_threads(|| session.finish())
        .map_err(runtime_error)?;
    Ok((out, report.map(|files| files.summary), forfeits, warnings))
}

/// The roster directory this package uses (see `hoyito.Agent`).
#[pyfunction]
#[pyo3(signature = (agents_dir=None))]
pub fn default_agents_dir(agents_dir: Option<PathBuf>) -> PathBuf {
    crate::agents::agents_dir(agents_dir)
}
