//! `hoyito run`: an experiment from a TOML file (or the built-in default) into
//! a results directory, resumable, with live standings as it plays.
//!
//! Everything that can be wrong with the input is checked before the directory
//! is touched, so that a bad config leaves nothing behind. Running a finished
//! run again with a larger `--games` extends it: the games played are kept and
//! the new ones follow them.
//!
//! With `--shard K/N` it plays one slice of the experiment (see
//! [`hoyito::tournament::Shard`]) into a shard directory that `hoyito merge`
//! joins with the others.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use hoyito::tournament::{Experiment, Shard, DEFAULT_CONFIG_NAME};
use hoyito::Roster;

use super::session::{execute, RunOutputArgs};

/// Arguments of `hoyito run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Experiment file (TOML, see configs/); without it, the built-in default experiment.
    config: Option<PathBuf>,
    /// Worker threads, 0 = all cores [default: the experiment's `threads`].
    #[arg(long)]
    threads: Option<usize>,
    /// Games per pairing, per variant, per board (overrides `games`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Master seed (overrides `seed`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=i64::MAX as u64))]
    seed: Option<u64>,
    /// Play only shard K of N (0 <= K < N): disjoint slices of whole pairs,
    /// joined by `hoyito merge` (then --out is runs/NAME.shard-K-of-N unless
    /// given).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    #[command(flatten)]
    output: RunOutputArgs,
}

/// Loads the experiment named by the arguments, with their overrides applied.
fn experiment(args: &RunArgs) -> Result<(Experiment, String)> {
    let (mut experiment, file) = match &args.config {
        // Every unknown key, value and agent of the file at once.
        Some(path) => (
            Experiment::load_naming_agents(path, || {
                Roster::with_builtin(args.output.agents.agents_dir.as_deref())
            })?,
            path.display().to_string(),
        ),
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
    // The overrides are checked as if written in the file (`--games` against
    // the largest total, `--threads` against the most threads).
    experiment.check(&file)?;
    experiment.round_to_pairs();
    let dir = args.output.agents.agents_dir.as_deref();
    experiment.resolve_agents(&file, || Roster::with_builtin(dir))?;
    Ok((experiment, file))
}

/// Runs `hoyito run`.
pub fn run(args: RunArgs) -> Result<()> {
    let (experiment, file) = experiment(&args)?;
    let plan = args.output.plan(experiment, file, args.shard);
    execute(plan, args.output.report_every)
}
