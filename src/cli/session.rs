//! One run of an experiment into a results directory, shared by `hoyito run`
//! and `hoyito match`: the checks before anything is written, resuming, the
//! games in parallel (shown by [`super::live`], stopped cleanly on Ctrl-C by
//! [`super::interrupt`]) with an SPRT that may stop them, and the report at
//! the end. Standard output carries one line for scripts, the path of
//! `games.csv`; all that a person reads goes to standard error.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use hoyito::openings::opening_warnings;
use hoyito::report::{
    read_games_csv, write_report_from_csv, write_report_from_tallies, RunTallies, CHARTS,
};
use hoyito::stats::Sprt;
use hoyito::tournament::Adjudicator;
use hoyito::tournament::{
    append_timings, open_slice_dir, run_games, Experiment, Lineup, RunTimes, Schedule, Shard,
    SprtTracker, Stopped, Work, GAMES_FILE, TIMINGS_FILE,
};
use hoyito::{check_human_input, prepare_tables, AgentSpec};

use super::agent_args::AgentsDirArg;
use super::interrupt::{catch_interrupts, Interrupted};
use super::live::{progress_bar, rate_line, sprt_line, Live};
use super::settings_diff::check_same_settings;

/// The flags of every command that runs an experiment (`run`, `match`):
/// where its results go and how it shows its progress.
#[derive(Debug, Args)]
pub struct RunOutputArgs {
    /// Results directory [default: runs/NAME, NAME from the experiment].
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Run into a directory that holds another experiment, deleting its results.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub agents: AgentsDirArg,
    /// Print the standings every N games (0 = only at the end) [default: about ten times a run].
    #[arg(long, value_name = "N")]
    pub report_every: Option<u64>,
}

impl RunOutputArgs {
    /// The session that runs `experiment` (read from `file`) as these flags say.
    pub fn session(&self, experiment: Experiment, file: String) -> Session {
        let out = self
            .out
            .clone()
            .unwrap_or_else(|| Path::new("runs").join(&experiment.name));
        Session {
            experiment,
            file,
            out,
            force: self.force,
            report_every: self.report_every,
            shard: None,
        }
    }
}

/// A run to carry out.
#[derive(Debug)]
pub struct Session {
    /// The experiment, checked, resolved and rounded to pairs.
    pub experiment: Experiment,
    /// What errors call its source (a file name or the built-in default).
    pub file: String,
    /// The results directory.
    pub out: PathBuf,
    /// Delete another experiment's results in `out`.
    pub force: bool,
    /// Standings every this many games; `None` = about ten times a run; 0 =
    /// only the final standings.
    pub report_every: Option<u64>,
    /// The slice played: `None` for the whole run, or one shard (0/1 too)
    /// whose directory has no report of its own (`hoyito merge` writes the
    /// whole run's).
    pub shard: Option<Shard>,
}

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
fn check_shardable(experiment: &Experiment, file: &str) -> Result<()> {
    if experiment.sprt.is_some() {
        anyhow::bail!(
            "{file}: --shard: an experiment with [sprt] stops at the game where its test \
             decides, in game order, so it cannot be split into shards; run it whole"
        );
    }
    if lineup_has_human(experiment) {
        anyhow::bail!("{file}: --shard: a human agent plays; run it whole");
    }
    Ok(())
}

/// Carries out a run: every check first, then the games, then the report.
pub fn execute(session: Session) -> Result<()> {
    let Session {
        experiment,
        file,
        out,
        force,
        report_every,
        shard,
    } = session;
    if shard.is_some() {
        check_shardable(&experiment, &file)?;
    }
    let lineup = Lineup::new(experiment.agent_specs()).with_log_dir(out.join("agents"));
    // Tablebase agents build their tables now, so that one that cannot fails
    // to start with its reason, before the results directory is touched.
    for &variant in &experiment.rules.variants {
        for &holes in &experiment.rules.holes {
            let rules = experiment.rules_for(variant, holes as u8);
            for (name, spec) in experiment.agent_specs() {
                prepare_tables(&spec, &rules).with_context(|| format!("{file}: agent {name}"))?;
            }
        }
    }
    // Adjudication tables are opened (mapped and checked) now: a missing,
    // partial or mismatched table stops the run before the first game.
    let adjudicator = Adjudicator::new(&experiment.adjudication, &experiment.boards())
        .with_context(|| format!("{file}: [adjudication]"))?;
    // A person at the board: their input must be readable, and one game at a
    // time with no progress bar over the prompt.
    let human = lineup_has_human(&experiment);
    if human {
        check_human_input().with_context(|| format!("{file}: a human agent plays"))?;
    }
    let clocked = lineup.unreproducible();
    if !clocked.is_empty() {
        eprintln!(
            "warning: {file}: {} play(s) by the clock: results will differ from run to run, \
             and a resumed run will not equal an uninterrupted one",
            clocked.join(", ")
        );
    }
    for warning in opening_warnings(&experiment) {
        eprintln!("warning: {file}: {warning}");
    }
    if let Some(config) = experiment.sprt {
        Sprt::new(config).context("the experiment's [sprt]")?;
    }
    let schedule = Schedule::new(&experiment);
    let total = shard.unwrap_or(Shard::WHOLE).games(&schedule);
    // Threads, memory and disk, before the directory is touched.
    for warning in hoyito::tournament::check_resources(&experiment, &out, total)? {
        eprintln!("warning: {file}: {warning}");
    }
    if !force && shard.is_none() {
        check_same_settings(&out, &experiment)?;
    }
    let mut run_dir = open_slice_dir(&out, &experiment, &schedule, shard, force)?;
    let first = run_dir.done;
    if let Some(games) = run_dir.extended_from {
        eprintln!(
            "extending {}: from {games} to {} games per pairing, per variant, per board; \
             the {first} games recorded are kept",
            out.display(),
            experiment.games
        );
    }
    let threads = match experiment.threads {
        _ if human => 1,
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let order = &experiment.tournament.agents;
    let every = match report_every {
        Some(n) => n,
        None => total.div_ceil(10).max(100).div_ceil(2) * 2,
    };
    let mut live = Live {
        tallies: RunTallies::new(Some(&experiment), &[])?,
        order,
        total,
        every,
        next_report: 0,
        bar: None,
        start: Instant::now(),
        first,
        reported: 0,
    };
    if first > 0 {
        // Standings and the SPRT carry on from the games already recorded.
        let games = out.join(GAMES_FILE);
        read_games_csv(&games, |row| live.tallies.add_recorded(row))
            .with_context(|| format!("resuming from {}", games.display()))?;
    }
    live.next_report = (first / every.max(1) + 1) * every;
    let slice = match shard {
        None => String::new(),
        Some(shard) => format!(" shard {shard}:"),
    };
    eprintln!(
        "{}:{slice} {total} games ({first} done), {threads} threads, into {}",
        experiment.name,
        out.display()
    );
    let decided_before = live.tallies.sprt().is_some_and(SprtTracker::is_decided);
    let mut played = 0;
    let mut wall = Duration::ZERO;
    if first < total && !decided_before {
        catch_interrupts();
        live.bar = if human {
            None
        } else {
            progress_bar(total, first)
        };
        let work = Work {
            schedule: &schedule,
            lineup: &lineup,
            adjudicator: adjudicator.as_ref(),
        };
        let start = Instant::now();
        let ids = shard.unwrap_or(Shard::WHOLE).ids(&schedule, first);
        let outcome = run_games(work, ids, threads, run_dir.sinks(), &mut live)
            .with_context(|| format!("running into {}", out.display()))?;
        wall = start.elapsed();
        played = outcome.written;
        run_dir.record_written(first + played)?;
        if let Some(bar) = live.bar.take() {
            bar.finish_and_clear();
        }
        let timings = out.join(TIMINGS_FILE);
        let run = RunTimes {
            first_game: first,
            threads,
            wall,
            blocks: &outcome.times,
        };
        append_timings(&timings, run, &schedule, &lineup)
            .with_context(|| format!("{}: cannot write it", timings.display()))?;
        if outcome.stopped == Some(Stopped::Interrupted) {
            live.print_standings();
            return Err(Interrupted {
                done: first + played,
                total,
                out,
            }
            .into());
        }
    }
    eprintln!("{}", rate_line(played, wall, decided_before));
    // The final standings, unless the last periodic ones were of every game.
    if played > 0 && live.reported != live.tallies.tally().games() {
        live.print_standings();
    }
    if let Some(tracker) = live.tallies.sprt() {
        eprintln!("{}", sprt_line(tracker, total));
    }
    let tallies = live.tallies;
    if let Some(shard) = shard {
        eprintln!(
            "shard {shard} complete: no report of its own; once every shard is, join them \
             with: hoyito merge OUT SHARD_DIR..."
        );
    } else {
        write_report(&out, tallies)?;
    }
    println!("{}", out.join(GAMES_FILE).display());
    Ok(())
}

/// Statistics and charts after every run: `hoyito report DIR`'s work, drawn
/// from the counts the run kept as it wrote each row when it wrote them all
/// (reading 200,000 rows back costs a fifth of a run of random games), else
/// (a resumed run) from the files.
fn write_report(dir: &Path, tallies: RunTallies) -> Result<()> {
    let files = match tallies.from_memory() {
        true => write_report_from_tallies(dir, tallies)?,
        false => write_report_from_csv(dir, None)?,
    };
    eprintln!(
        "report: {} (and {}), {} charts in {}",
        files.html.display(),
        files.report.display(),
        files.charts.len(),
        dir.join(CHARTS).display()
    );
    Ok(())
}
