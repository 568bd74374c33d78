//! `hoyito run`: an experiment from a TOML file (or the built-in default) into
//! a results directory, resumable, with a progress bar on a terminal.
//!
//! Everything that can be wrong with the input is checked before the directory
//! is touched, so that a bad config leaves nothing behind.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use hoyito::openings::opening_warnings;
use hoyito::report::{significant, write_report_from_csv};
use hoyito::tournament::{
    append_timings, open_run_dir, run_games, Experiment, Lineup, RunTimes, Schedule, Work,
    DEFAULT_CONFIG_NAME, TIMINGS_FILE,
};
use hoyito::{prepare_tables, Roster};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// Arguments of `hoyito run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Experiment file (TOML, see configs/); without it, the built-in default experiment.
    config: Option<PathBuf>,
    /// Results directory [default: runs/NAME, NAME from the experiment].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads, 0 = all cores [default: the experiment's `threads`].
    #[arg(long)]
    threads: Option<usize>,
    /// Games per pairing, per variant, per board (overrides `games`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Master seed (overrides `seed`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=i64::MAX as u64))]
    seed: Option<u64>,
    /// Run into a directory that holds another experiment, deleting its results.
    #[arg(long)]
    force: bool,
    /// The roster: one TOML file per agent (agents not given in the experiment's `[roster]`).
    #[arg(long, default_value = "agents")]
    agents_dir: PathBuf,
}

/// Loads the experiment named by the arguments, with their overrides applied.
fn experiment(args: &RunArgs) -> Result<(Experiment, String)> {
    let (mut experiment, file) = match &args.config {
        Some(path) => (Experiment::load(path)?, path.display().to_string()),
        None => (
            Experiment::default_experiment(),
            DEFAULT_CONFIG_NAME.to_string(),
        ),
    };
    if let Some(games) = args.games {
        experiment.games = games;
    }
    if let Some(seed) = args.seed {
        experiment.seed = seed;
    }
    if let Some(threads) = args.threads {
        experiment.threads = threads;
    }
    experiment.round_to_pairs();
    experiment.resolve_agents(&file, || Roster::load(&args.agents_dir))?;
    Ok((experiment, file))
}

/// Runs `hoyito run`.
pub fn run(args: RunArgs) -> Result<()> {
    let (experiment, file) = experiment(&args)?;
    let lineup = Lineup::new(experiment.agent_specs());
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
    let schedule = Schedule::new(&experiment);
    let total = schedule.len();
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("runs").join(&experiment.name));
    let mut run_dir = open_run_dir(&out, &experiment, total, args.force)?;
    let first = run_dir.done;
    let threads = match experiment.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    eprintln!(
        "{}: {total} games ({} done), {threads} threads, into {}",
        experiment.name,
        first,
        out.display()
    );
    let bar = progress_bar(total, first);
    let work = Work {
        schedule: &schedule,
        lineup: &lineup,
    };
    let start = Instant::now();
    let blocks = run_games(work, first..total, threads, run_dir.sinks(), |written| {
        if let Some(bar) = &bar {
            bar.set_position(first + written);
        }
    })
    .with_context(|| format!("running into {}", out.display()))?;
    let wall = start.elapsed();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let timings = out.join(TIMINGS_FILE);
    if first < total {
        let run = RunTimes {
            first_game: first,
            threads,
            wall,
            blocks: &blocks,
        };
        append_timings(&timings, run, &schedule, &lineup)
            .with_context(|| format!("{}: cannot write it", timings.display()))?;
    }
    eprintln!("{}", rate_line(total - first, wall));
    write_report(&out, &experiment.tournament.agents)?;
    println!("{}", out.join(hoyito::tournament::GAMES_FILE).display());
    Ok(())
}

/// Statistics and charts after every run: `hoyito report DIR`'s work, agents
/// in the experiment's order.
fn write_report(dir: &Path, agent_order: &[String]) -> Result<()> {
    let files = write_report_from_csv(dir, Some(agent_order))?;
    eprintln!(
        "report: {} and {} charts in {}",
        files.report.display(),
        files.charts.len(),
        dir.join("charts").display()
    );
    Ok(())
}

/// `N games in S s (R games/s)`, the rate to three significant figures so that
/// a slow run does not print "0 games/s".
fn rate_line(games: u64, wall: Duration) -> String {
    let secs = wall.as_secs_f64();
    if games == 0 {
        return "nothing left to play: the run is complete".to_string();
    }
    format!(
        "{games} games in {secs:.2} s ({} games/s)",
        significant(games as f64 / secs.max(1e-9), 3)
    )
}

/// A progress bar on standard error, only when it is a terminal.
fn progress_bar(total: u64, done: u64) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(total).with_position(done);
    let style = ProgressStyle::with_template(
        "{bar:40} {pos}/{len} games  {rate}  ETA {eta}  elapsed {elapsed}",
    )
    .expect("the template is valid")
    .with_key(
        "rate",
        |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.0} games/s", state.per_sec());
        },
    );
    bar.set_style(style);
    bar.reset_eta();
    Some(bar)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_line_keeps_three_significant_figures() {
        let line = |games, millis| rate_line(games, Duration::from_millis(millis));
        assert_eq!(line(4, 100_000), "4 games in 100.00 s (0.0400 games/s)");
        assert_eq!(line(2, 3_000), "2 games in 3.00 s (0.667 games/s)");
        assert_eq!(line(1_000, 4_000), "1000 games in 4.00 s (250 games/s)");
        assert_eq!(
            line(123_456, 10_000),
            "123456 games in 10.00 s (12346 games/s)"
        );
        assert_eq!(line(0, 10), "nothing left to play: the run is complete");
    }
}
