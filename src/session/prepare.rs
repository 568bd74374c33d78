//! Every check of a run before a byte of it is written: the shard, the
//! agents' tables, the adjudication tables, a person's input, the SPRT, the
//! threads, memory and disk, the settings of a directory resumed. What
//! passes becomes a [`Session`] ready to play, with its warnings as values
//! for the caller to show.

use std::path::Path;

use crate::agents::build::prepare_tables;
use crate::agents::human::check_human_input;
use crate::agents::spec::AgentSpec;
use crate::engine::forfeit::ForfeitReason;
use crate::openings::warnings::opening_warnings;
use crate::records::run_files::{COVERAGE_FILE, GAMES_FILE};
use crate::records::safe_file::{is_symlink, read_regular_to_string, write_atomic};
use crate::report::games_csv::read_games_csv;
use crate::report::run_tallies::RunTallies;
use crate::stats::sprt::Sprt;
use crate::tournament::adjudication::Adjudicator;
use crate::tournament::config::experiment::Experiment;
use crate::tournament::lineup::{Lineup, Seat};
use crate::tournament::resources::check_resources;
use crate::tournament::run_dir::open_slice_dir;
use crate::tournament::schedule::Schedule;
use crate::tournament::shard::Shard;

use super::error::SessionError;
use super::plan::RunPlan;
use super::settings_diff::check_same_settings;
use super::Session;

/// Whether a person takes a seat.
fn lineup_has_human(experiment: &Experiment) -> bool {
    experiment
        .agent_specs()
        .iter()
        .any(|(_, spec)| *spec == AgentSpec::Human)
}

/// Refuses to shard what cannot be split: an SPRT stops at the first game
/// where its test decides, in id order, which a slice cannot know; a person
/// cannot sit at several machines.
fn check_shardable(experiment: &Experiment, source: &str) -> Result<(), SessionError> {
    if experiment.sprt.is_some() {
        return Err(SessionError::Refused(format!(
            "{source}: --shard: an experiment with [sprt] stops at the game where its test \
             decides, in game order, so it cannot be split into shards; run it whole"
        )));
    }
    if lineup_has_human(experiment) {
        return Err(SessionError::Refused(format!(
            "{source}: --shard: a human agent plays; run it whole"
        )));
    }
    Ok(())
}

/// Refuses a link at `DIR/agents` or at an external agent's
/// `DIR/agents/NAME.stderr.log`: the log is never written through a link,
/// and a run that went on would lose the reasons of the agents' forfeits
/// without a word.
fn check_agent_logs(out: &Path, experiment: &Experiment) -> Result<(), SessionError> {
    let dir = out.join("agents");
    let external = experiment
        .agent_specs()
        .into_iter()
        .filter(|(_, spec)| matches!(spec, AgentSpec::External { .. }));
    let logs = external.map(|(name, _)| dir.join(format!("{name}.stderr.log")));
    for path in std::iter::once(dir.clone()).chain(logs) {
        if is_symlink(&path) {
            return Err(SessionError::Refused(format!(
                "{}: is a symbolic link: an agent's standard error log is never written \
                 through one, and its forfeits' reasons would be lost; remove the link",
                path.display()
            )));
        }
    }
    Ok(())
}

/// Starts every external agent once and shakes hands with it, before the
/// results directory is opened: an agent that cannot start or does not
/// answer `hoyito 1` with `ready NAME` stops the run before its first game,
/// naming the program, what went wrong and its standard error log, as
/// fastchess and cutechess do, rather than losing every game by forfeit.
/// Forfeits once the games have begun stay forfeits. The agents are seated
/// as a game seats them, so that those the lineup's seat maker seats (the
/// Python package's callables) are not mistaken for programs.
fn check_agents_start(lineup: &Lineup, experiment: &Experiment) -> Result<(), SessionError> {
    for (index, (name, spec)) in experiment.agent_specs().iter().enumerate() {
        let AgentSpec::External { command, .. } = spec else {
            continue;
        };
        let Seat::External(key, mut agent) = lineup.seat(index) else {
            continue;
        };
        if let Err(forfeit) = agent.start() {
            let failed = match forfeit.reason {
                ForfeitReason::Crash if agent.ready_name().is_none() => "did not start",
                _ => "did not answer the handshake (\"hoyito 1\", then \"ready NAME\")",
            };
            let log = key
                .log()
                .map_or("discarded".to_string(), |p| p.display().to_string());
            return Err(SessionError::Refused(format!(
                "agent {name} {failed}: {}; its command: {command:?}; its standard error: \
                 {log}; no game was played",
                forfeit.detail,
            )));
        }
    }
    Ok(())
}

/// Refuses to resume games adjudicated with tables of another coverage
/// (a layer gone from the directory, or tables added): the rows recorded
/// and the rows to come would be decided by two different sets of tables.
fn check_same_coverage(out: &Path, coverage: Option<&str>) -> Result<(), SessionError> {
    let path = out.join(COVERAGE_FILE);
    let Ok(saved) = read_regular_to_string(&path) else {
        return Ok(());
    };
    if Some(saved.as_str()) == coverage {
        return Ok(());
    }
    let layers = |text: &str| {
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with('"')).collect();
        lines.join(", ").replace('"', "")
    };
    let now = coverage.map_or("no tables".to_string(), layers);
    Err(SessionError::Refused(format!(
        "{}: the games recorded were adjudicated by tables of {}, the tables now give {now}: \
         restore the tables, or pass --force to delete the results and start again",
        path.display(),
        layers(&saved)
    )))
}

impl Session {
    /// Checks `plan` and opens its results directory (created, resumed or
    /// extended), reading back the games it already holds.
    pub fn prepare(plan: RunPlan) -> Result<Session, SessionError> {
        let RunPlan {
            experiment,
            source,
            out,
            force,
            shard,
            seats,
            twin_shortcut,
        } = plan;
        if shard.is_some() {
            check_shardable(&experiment, &source)?;
        }
        let mut lineup = Lineup::new(experiment.agent_specs())
            .with_log_dir(out.join("agents"))
            .with_twin_shortcut(twin_shortcut);
        if let Some(seats) = seats {
            lineup = lineup.with_seats(seats);
        }
        // Tablebase agents build their tables now, so that one that cannot
        // fails to start with its reason, before the results directory is
        // touched.
        for rules in experiment.boards() {
            for (name, spec) in experiment.agent_specs() {
                prepare_tables(&spec, &rules)
                    .map_err(|e| SessionError::step(format!("{source}: agent {name}"), e))?;
            }
        }
        // Adjudication tables are opened (mapped and checked) now: a
        // missing, partial or mismatched table stops the run before the
        // first game.
        let adjudicator = Adjudicator::new(&experiment.adjudication, &experiment.boards())
            .map_err(|e| SessionError::step(format!("{source}: [adjudication]"), e))?;
        // A person at the board: their input must be readable, and one game
        // at a time.
        let human = lineup_has_human(&experiment);
        if human {
            check_human_input()
                .map_err(|e| SessionError::step(format!("{source}: a human agent plays"), e))?;
        }
        let mut warnings = Vec::new();
        let clocked = lineup.unreproducible();
        if !clocked.is_empty() {
            warnings.push(format!(
                "{source}: {} play(s) by the clock: results will differ from run to run, \
                 and a resumed run will not equal an uninterrupted one",
                clocked.join(", ")
            ));
        }
        for warning in opening_warnings(&experiment) {
            warnings.push(format!("{source}: {warning}"));
        }
        if let Some(config) = experiment.sprt {
            Sprt::new(config).map_err(|e| SessionError::step("the experiment's [sprt]", e))?;
        }
        let schedule = Schedule::new(&experiment);
        let total = shard.unwrap_or(Shard::WHOLE).games(&schedule);
        // Threads, memory and disk, before the directory is touched.
        for warning in check_resources(&experiment, &out, total)? {
            warnings.push(format!("{source}: {warning}"));
        }
        if !force && shard.is_none() {
            check_same_settings(&out, &experiment)?;
        }
        check_agent_logs(&out, &experiment)?;
        check_agents_start(&lineup, &experiment)?;
        let coverage = adjudicator.as_ref().and_then(Adjudicator::coverage);
        if !force {
            check_same_coverage(&out, coverage.as_deref())?;
        }
        let run_dir = open_slice_dir(&out, &experiment, &schedule, shard, force)?;
        if let Some(text) = &coverage {
            let path = out.join(COVERAGE_FILE);
            let tmp = out.join(format!(".{COVERAGE_FILE}.tmp"));
            write_atomic(&tmp, &path, text.as_bytes()).map_err(|e| {
                SessionError::step(format!("{}: cannot write it", path.display()), e)
            })?;
        }
        let first = run_dir.done;
        let threads = match experiment.threads {
            _ if human => 1,
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let mut tallies = RunTallies::new(Some(&experiment), &[])?;
        if first > 0 {
            // Standings and the SPRT carry on from the games already recorded.
            let games = out.join(GAMES_FILE);
            read_games_csv(&games, |row| tallies.add_recorded(row))
                .map_err(|e| SessionError::step(format!("resuming from {}", games.display()), e))?;
        }
        Ok(Session {
            experiment,
            source,
            out,
            shard,
            lineup,
            adjudicator,
            schedule,
            run_dir,
            total,
            threads,
            human,
            warnings,
            tallies,
        })
    }
}
