//! `hoyito.match` and `hoyito.run`: the experiment harness with Python
//! agents seated beside the roster's.
//!
//! A run here is the CLI's run in everything that shows: the experiment is
//! read and checked by the same parser, the games are the same schedule
//! (pairs, seats, seeds, openings), each row is filled by the same
//! `fill_row`, and the report (`summary.json`, `report.md`, `report.html`,
//! charts) is written by the same function into the same directory layout.
//! Every game is played by the library's own steps (`play_seated`, as
//! `play_measured`); the library's seats are built from specs
//! (`Lineup::seat`), which cannot hold a Python object, so this module
//! makes the seats, a [`PythonAgent`] in a Python agent's.
//!
//! A Python agent is an agent outside the engine, like an external one, and
//! forfeits as one does: an exception is `forfeit-crash`, a return value that
//! is not a move `forfeit-protocol`, an illegal move `forfeit-illegal`. It is
//! recorded in `experiment.toml` as an `external` spec whose command names the
//! callable (`python-agent:module.qualname`), never run. The callable is
//! called with the GIL held, from the worker threads; everything else runs
//! with the GIL released. Ctrl-C is checked between batches of games: the
//! batch in hand is dropped and the rows written so far stay a valid prefix
//! that a later call resumes.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hoyito::metrics::{push_metrics_row, MeasureRecorder};
use hoyito::report::{read_games_csv, write_report_from_csv};
use hoyito::stats::{Sprt, SprtDecision};
use hoyito::tournament::{
    append_timings, check_resources, empty_row, fill_row, open_run_dir, play_seated,
    push_moves_row, Adjudicator, BlockTimes, Experiment, GameRow, Lineup, RoundColumns, RunTimes,
    Schedule, ScheduledGame, Seat, SprtTracker, GAMES_FILE, TIMINGS_FILE,
};
use hoyito::{
    prepare_tables, Agent, AgentRng, AgentSpec, Forfeit, ForfeitReason, Game, Move, Outcome,
    Roster, Side,
};
use pyo3::exceptions::{PyException, PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::game::PyGame;
use crate::rules::{move_arg, value_error};

/// A Python callable `(Game) -> move` in a seat.
struct PythonAgent {
    name: String,
    callable: Arc<Py<PyAny>>,
    /// Set when the callable raised `KeyboardInterrupt` or `SystemExit`:
    /// the run stops.
    stop: Arc<AtomicBool>,
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
                    if !err.is_instance_of::<PyException>(py) {
                        self.stop.store(true, Ordering::SeqCst);
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

/// What the workers share.
struct Work<'a> {
    schedule: &'a Schedule,
    lineup: &'a Lineup,
    adjudicator: Option<&'a Adjudicator>,
    /// Python agents by their index in the lineup.
    python: &'a HashMap<usize, Arc<Py<PyAny>>>,
    stop: &'a Arc<AtomicBool>,
    moves: bool,
    metrics: bool,
}

/// A forfeit, for the summary: game, agent, reason, what happened.
type ForfeitNote = (u64, String, &'static str, String);

/// One game, recorded.
struct Played {
    row: GameRow,
    columns: Option<RoundColumns>,
    moves: Vec<u8>,
    metrics: Vec<u8>,
    forfeit: Option<ForfeitNote>,
    block: usize,
    time: Duration,
}

impl Work<'_> {
    fn seat(&self, index: usize) -> Seat {
        match self.python.get(&index) {
            Some(callable) => Seat::Agent(Box::new(PythonAgent {
                name: self.lineup.name(index).to_string(),
                callable: Arc::clone(callable),
                stop: Arc::clone(self.stop),
            })),
            None => self.lineup.seat(index),
        }
    }

    /// Plays one scheduled game by the library's steps, a Python agent in
    /// its seat where one sits.
    fn play(
        &self,
        scheduled: &ScheduledGame,
        measures: Option<&mut MeasureRecorder>,
    ) -> Result<(Game, Option<Forfeit>), String> {
        play_seated(
            scheduled,
            self.schedule.opening(scheduled),
            self.lineup,
            self.adjudicator,
            measures,
            |_, _| {},
            |index| self.seat(index),
        )
        .map_err(|failure| failure.to_string())
    }
}

/// Plays the games `ids` in order (one unit of the schedule, or part of
/// one), the rounds of a match each after the one before.
fn play_range(work: &Work<'_>, ids: Range<u64>) -> Result<Vec<Played>, String> {
    let mut memory: BTreeMap<u64, (u32, Outcome)> = BTreeMap::new();
    let mut recorder = MeasureRecorder::new();
    let mut out = Vec::new();
    for id in ids {
        if work.stop.load(Ordering::SeqCst) {
            break;
        }
        let scheduled = prepare(work, &mut memory, id)?;
        let begun = Instant::now();
        let measures = work.metrics.then_some(&mut recorder);
        let (game, forfeit) = work.play(&scheduled, measures)?;
        let outcome = game.outcome().expect("a played game is over");
        remember(work.schedule, &mut memory, &scheduled, outcome);
        let mut row = empty_row();
        let opening = work.schedule.opening(&scheduled);
        fill_row(&mut row, &scheduled, opening.plies(), work.lineup, &game);
        let columns =
            (work.schedule.match_rounds() > 1).then(|| RoundColumns::of(&scheduled, &game));
        let mut moves = Vec::new();
        if work.moves {
            push_moves_row(&mut moves, id, game.moves());
        }
        let mut metrics = Vec::new();
        if work.metrics {
            push_metrics_row(&mut metrics, id, &recorder.finish(outcome.winner));
        }
        let forfeit = forfeit.map(|f| {
            let loser = index_of(&scheduled, game.position().side_to_move());
            (
                id,
                work.lineup.name(loser).to_string(),
                f.reason.name(),
                f.detail,
            )
        });
        out.push(Played {
            row,
            columns,
            moves,
            metrics,
            forfeit,
            block: scheduled.block,
            time: begun.elapsed(),
        });
    }
    Ok(out)
}

fn index_of(scheduled: &ScheduledGame, side: Side) -> usize {
    match side {
        Side::South => scheduled.south,
        Side::North => scheduled.north,
    }
}

/// Game `id` as it is to be played: a later round of a match after the
/// round before it, replayed if this worker has not played it.
fn prepare(
    work: &Work<'_>,
    memory: &mut BTreeMap<u64, (u32, Outcome)>,
    id: u64,
) -> Result<ScheduledGame, String> {
    let scheduled = work.schedule.game(id);
    if scheduled.match_round == 1 {
        return Ok(scheduled);
    }
    let previous_round = scheduled.match_round - 1;
    let known = memory
        .get(&scheduled.match_id)
        .filter(|(round, _)| *round == previous_round)
        .map(|&(_, outcome)| outcome);
    let previous = match known {
        Some(outcome) => outcome,
        None => {
            let earlier = prepare(work, memory, id - 2)?;
            let (game, _) = work.play(&earlier, None)?;
            let outcome = game.outcome().expect("a played game is over");
            remember(work.schedule, memory, &earlier, outcome);
            outcome
        }
    };
    Ok(scheduled.after(Some(&previous)))
}

fn remember(
    schedule: &Schedule,
    memory: &mut BTreeMap<u64, (u32, Outcome)>,
    scheduled: &ScheduledGame,
    outcome: Outcome,
) {
    if scheduled.match_round >= schedule.match_rounds() {
        memory.remove(&scheduled.match_id);
    } else {
        memory.insert(scheduled.match_id, (scheduled.match_round, outcome));
    }
}

/// The spec saved for a Python agent: an external agent that names the
/// callable and is never started.
fn python_spec(py: Python<'_>, callable: &Py<PyAny>) -> AgentSpec {
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

/// Runs the experiment (`text`, read as the file `label`) into `out` with
/// `python` agents (name to callable) and `aliases` (name to roster name),
/// and returns the path of `summary.json` and the forfeits of Python agents.
#[pyfunction]
#[pyo3(signature = (text, label, python, aliases, out=None, force=false, agents_dir=None, threads=None))]
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
) -> PyResult<(PathBuf, Vec<ForfeitNote>)> {
    let mut experiment = Experiment::parse(text, label).map_err(value_error)?;
    if let Some(t) = threads {
        experiment.threads = t;
    }
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
            .insert(name.clone(), python_spec(py, callable));
    }
    experiment
        .resolve_agents(label, roster)
        .map_err(value_error)?;
    let out = out.unwrap_or_else(|| Path::new("runs").join(&experiment.name));
    let stop = Arc::new(AtomicBool::new(false));
    let python: HashMap<usize, Arc<Py<PyAny>>> = python
        .into_iter()
        .map(|(name, callable)| {
            let index = playing
                .iter()
                .position(|n| *n == name)
                .expect("checked above");
            (index, Arc::new(callable))
        })
        .collect();
    let forfeits = py.allow_threads(|| execute(&experiment, label, &out, force, &python, &stop));
    let forfeits = match forfeits {
        Ok(f) => f,
        Err(Failure::Interrupted) => {
            return Err(PyKeyboardInterrupt::new_err(format!(
                "interrupted: the games recorded in {} stay; call again to resume",
                out.display()
            )))
        }
        Err(Failure::Message(m)) => return Err(PyRuntimeError::new_err(m)),
    };
    Ok((out.join("summary.json"), forfeits))
}

/// Why a run stopped early.
enum Failure {
    Interrupted,
    Message(String),
}

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure::Message(e.to_string())
    }
}

fn execute(
    experiment: &Experiment,
    label: &str,
    out: &Path,
    force: bool,
    python: &HashMap<usize, Arc<Py<PyAny>>>,
    stop: &Arc<AtomicBool>,
) -> Result<Vec<ForfeitNote>, Failure> {
    let lineup = Lineup::new(experiment.agent_specs()).with_log_dir(out.join("agents"));
    for rules in experiment.boards() {
        for (index, (name, spec)) in experiment.agent_specs().iter().enumerate() {
            if !python.contains_key(&index) {
                prepare_tables(spec, &rules)
                    .map_err(|e| Failure::Message(format!("{label}: agent {name}: {e}")))?;
            }
        }
    }
    let adjudicator = Adjudicator::new(&experiment.adjudication, &experiment.boards())?;
    let mut sprt = experiment
        .sprt
        .map(|config| {
            Sprt::new(config).map(|s| SprtTracker::new(s, &experiment.tournament.agents[0]))
        })
        .transpose()?;
    let schedule = Schedule::new(experiment);
    let total = schedule.len();
    for warning in check_resources(experiment, out, total)? {
        eprintln!("warning: {label}: {warning}");
    }
    let mut run_dir = open_run_dir(out, experiment, total, force)?;
    let first = run_dir.done;
    if first > 0 {
        if let Some(tracker) = sprt.as_mut() {
            read_games_csv(&out.join(GAMES_FILE), |row| {
                tracker.add(row);
            })?;
        }
    }
    let threads = match experiment.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let work = Work {
        schedule: &schedule,
        lineup: &lineup,
        adjudicator: adjudicator.as_ref(),
        python,
        stop,
        moves: run_dir.moves.is_some(),
        metrics: run_dir.metrics.is_some(),
    };
    let unit = schedule.unit();
    let mut ranges = Vec::new();
    let mut id = first;
    while id < total {
        let end = ((id / unit + 1) * unit).min(total);
        ranges.push(id..end);
        id = end;
    }
    let mut forfeits = Vec::new();
    let mut times = BlockTimes::default();
    let mut done = first;
    let begun = Instant::now();
    let decided_before = sprt.as_ref().is_some_and(SprtTracker::is_decided);
    let batch = (threads * 4).max(1);
    'batches: for ranges in ranges.chunks(batch) {
        if decided_before {
            break;
        }
        let played: Result<Vec<Vec<Played>>, String> = pool.install(|| {
            ranges
                .par_iter()
                .map(|r| play_range(&work, r.clone()))
                .collect()
        });
        if stop.load(Ordering::SeqCst) || Python::with_gil(|py| py.check_signals()).is_err() {
            stop.store(true, Ordering::SeqCst);
            break;
        }
        let played = played?;
        // Every row written was finished before a check that found every
        // mapped table as verified (as the runner checks).
        hoyito::solver::mapped_files::check_unchanged()?;
        for game in played.into_iter().flatten() {
            let (mut games, mut moves, mut metrics) = (Vec::new(), Vec::new(), Vec::new());
            match game.columns {
                Some(columns) => {
                    // Rows with round columns go through serde, as the runner writes them.
                    let mut writer = csv::WriterBuilder::new()
                        .has_headers(false)
                        .from_writer(Vec::new());
                    writer.serialize((&game.row, columns))?;
                    games = writer.into_inner().map_err(|e| e.to_string())?;
                }
                None => game.row.push_csv(&mut games),
            }
            moves.extend_from_slice(&game.moves);
            metrics.extend_from_slice(&game.metrics);
            use std::io::Write;
            run_dir.games.write_all(&games)?;
            if let Some(file) = run_dir.moves.as_mut() {
                file.write_all(&moves)?;
            }
            if let Some(file) = run_dir.metrics.as_mut() {
                file.write_all(&metrics)?;
            }
            done += 1;
            let entry = times.blocks.entry(game.block).or_default();
            entry.0 += 1;
            entry.1 += game.time;
            forfeits.extend(game.forfeit);
            let decision = sprt.as_mut().map(|tracker| tracker.add(&game.row));
            if matches!(decision, Some(SprtDecision::H0 | SprtDecision::H1)) {
                run_dir.record_written(done)?;
                break 'batches;
            }
        }
        run_dir.record_written(done)?;
    }
    let run = RunTimes {
        first_game: first,
        threads,
        wall: begun.elapsed(),
        blocks: &times,
    };
    if done > first {
        append_timings(&out.join(TIMINGS_FILE), run, &schedule, &lineup)?;
    }
    if stop.load(Ordering::SeqCst) {
        return Err(Failure::Interrupted);
    }
    write_report_from_csv(out, None)?;
    Ok(forfeits)
}

/// The roster directory this package uses (see `hoyito.Agent`).
#[pyfunction]
#[pyo3(signature = (agents_dir=None))]
pub fn default_agents_dir(agents_dir: Option<PathBuf>) -> PathBuf {
    crate::agents::agents_dir(agents_dir)
}
