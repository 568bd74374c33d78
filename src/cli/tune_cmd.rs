//! `hoyito tune`: learn an evaluation's weights from the self-play games of a
//! roster agent and write an agent file that carries them (see
//! [`hoyito::tune`]).

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Args;
use hoyito::tune::agent_file::{render, Provenance};
use hoyito::tune::{tune, TuneSettings, HOLD_OUT};
use hoyito::{check_board, Rules, Variant};

use super::agent_args::{agent, AgentsDirArg};
use super::agent_memory::check_agents_memory;

/// The most games one tuning plays.
const MAX_GAMES: u32 = 1_000_000;

/// Arguments of `hoyito tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The agent whose games against itself give the positions: a roster
    /// name, KIND:KEY=VALUE,..., NAME:KEY=VALUE,... or PATH.toml.
    #[arg(long, value_name = "AGENT")]
    agent: String,
    /// Which Hoyito: i, ii or iii (ii unless given, in every command).
    #[arg(long, default_value = "ii")]
    variant: Variant,
    /// Holes per row (2 to 16).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(2..=16))]
    holes: u32,
    /// Seeds per hole at the start.
    #[arg(long, default_value_t = 4)]
    seeds: u32,
    /// Self-play games (at least 5: one game in 5 is held out to measure the fit).
    #[arg(long, default_value_t = 200)]
    games: u32,
    /// Master seed of the games' random openings and agents.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads for the games, 0 = all cores (the result does not depend on it).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    #[command(flatten)]
    agents_dir: AgentsDirArg,
    /// The agent file to write.
    #[arg(long, value_name = "PATH")]
    out: PathBuf,
    /// Overwrite --out if it exists.
    #[arg(long)]
    force: bool,
}

/// The command line as the file's header records it (no `--out`, `--threads`
/// or `--force`: they do not change what is learned).
fn command_line(args: &TuneArgs) -> String {
    format!(
        "hoyito tune --agent {} --variant {} --holes {} --seeds {} --games {} --seed {}",
        args.agent, args.variant, args.holes, args.seeds, args.games, args.seed
    )
}

/// Writes `text` to `path` through a temporary file in the same directory and
/// a rename, so that `path` is never half written.
fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let name = path
        .file_name()
        .with_context(|| format!("--out {}: not a file name", path.display()))?;
    // A name of this process's own (two runs on one --out never share a
    // temporary file), created afresh with O_EXCL (a link planted there is
    // removed, never written through); the rename replaces a link at --out
    // instead of writing through it.
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = hoyito::tournament::write_atomic(&tmp, path, text.as_bytes());
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.with_context(|| format!("cannot write {}", path.display()))
}

/// Runs `hoyito tune`.
pub fn tune_cmd(args: TuneArgs) -> Result<()> {
    check_board(args.holes, args.seeds)?;
    if !(HOLD_OUT..=MAX_GAMES).contains(&args.games) {
        bail!(
            "--games {} is out of range: allowed {HOLD_OUT} to {MAX_GAMES} (one game in \
             {HOLD_OUT} is held out to measure the fit)",
            args.games
        );
    }
    if args.out.exists() && !args.force {
        bail!(
            "{} exists: choose another --out or pass --force to overwrite it",
            args.out.display()
        );
    }
    let roster = args.agents_dir.roster()?;
    let named = agent(&args.agent, &roster, "--agent")?;
    let base = named.spec.clone();
    if matches!(base.kind(), "human" | "external") || !base.reproducible() {
        bail!(
            "--agent {}: a {} agent cannot play reproducible self-play games here; choose \
             a random, greedy, alphabeta (depth or node budget), mcts or tablebase agent",
            args.agent,
            base.kind()
        );
    }
    let rules = Rules::new(args.variant).with_board(args.holes, args.seeds)?;
    let settings = TuneSettings {
        base: base.clone(),
        rules,
        games: args.games,
        seed: args.seed,
    };
    // Self-play: two instances of the agent per game, one game per thread.
    let threads = hoyito::tournament::worker_threads(args.threads);
    let what = format!("--agent {} against itself", args.agent);
    check_agents_memory(&what, &[(&base, 2)], rules.holes, threads)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    let tuned = pool.install(|| tune(&settings))?;
    let command = command_line(&args);
    let how = Provenance {
        command: &command,
        base_name: &named.name,
        rules: &rules,
        games: args.games,
    };
    write_atomically(&args.out, &render(&base, &tuned, &how))?;
    eprintln!(
        "{} positions ({} held out): held-out log-loss {:.4} (material) -> {:.4} (learned), \
         winner picked {:.1}% -> {:.1}%",
        tuned.train_positions + tuned.held_out_positions,
        tuned.held_out_positions,
        tuned.material.log_loss,
        tuned.learned.log_loss,
        100.0 * tuned.material.accuracy,
        100.0 * tuned.learned.accuracy,
    );
    println!("{}", args.out.display());
    Ok(())
}
