//! `hoyito accuracy`: how often each agent plays a best move, and how many
//! seeds it gives away, against the exact values of the endgame tables.
//!
//! The flags are turned into a position set (drawn from the tables, or a
//! small board's opening tree), the tables are built or loaded, then each
//! agent is asked for its move in every position and scored
//! (`hoyito::strength`). The table is printed; `--out` also writes it with a
//! CSV, a JSON and a per-position CSV. Times go to standard error, so that
//! standard output and the files are the same for the same flags.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{ArgGroup, Args};
use hoyito::solver::Tablebase;
use hoyito::strength::{
    agent_moves, sample_positions, score_moves, tree_positions, write_outputs, AccuracyReport,
    Judged, PositionSet, SampleSpec,
};
use hoyito::{split_agent_list, NamedAgent, Rules, Variant};

use super::agent_args::{agent, AgentsDirArg};
use super::progress::counting_bar;

/// Seeds per hole of the games started from the positions (the standard game).
const SEEDS_PER_HOLE: u32 = 4;

/// Arguments of `hoyito accuracy`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("set").required(true).args(["max_seeds", "tree_plies"])))]
pub struct AccuracyArgs {
    /// Which Hoyito: i, ii or iii (ii unless given, in every command).
    #[arg(long, default_value = "ii")]
    variant: Variant,
    /// Holes per row (2 to 16).
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=16))]
    holes: u32,
    /// Draw positions uniformly from the tables' positions with 2 to this many
    /// seeds on the board (every layer up to it is built: 2x6 up to 16 takes
    /// about a minute and 60 MB).
    #[arg(long, conflicts_with = "tree_plies")]
    max_seeds: Option<u32>,
    /// Positions to draw (with --max-seeds).
    #[arg(long, default_value_t = 2000, conflicts_with = "tree_plies")]
    positions: usize,
    /// Instead of drawing, take every distinct position reachable from the
    /// start within this many plies (the whole game must fit in the tables:
    /// 2x4 at most, 4 seeds per hole).
    #[arg(long)]
    tree_plies: Option<u32>,
    /// Comma-separated agents, e.g. random,greedy,alphabeta-d8 or
    /// greedy,mcts:iterations=5000,exploration=1 (each a roster name,
    /// KIND:KEY=VALUE,..., NAME:KEY=VALUE,..., cmd=COMMAND or PATH.toml; a
    /// part that reads KEY=VALUE belongs to the agent before it); repeatable.
    #[arg(long, value_name = "AGENTS", required = true)]
    agents: Vec<String>,
    /// Seeds the draw and the agents' generators.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Directory of table files: layers found there are loaded, missing ones
    /// built and saved there. Without it the tables are built in memory.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// Also write the table, a CSV, a JSON and a per-position CSV in this directory.
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
    #[command(flatten)]
    agents_dir: AgentsDirArg,
    /// Worker threads, 0 = all cores (the figures do not depend on it).
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

/// `hoyito accuracy`.
pub fn accuracy(args: AccuracyArgs) -> Result<()> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .context("cannot start the worker threads")?;
    pool.install(|| run(args))
}

fn run(args: AccuracyArgs) -> Result<()> {
    let rules = Rules::new(args.variant).with_board(args.holes, SEEDS_PER_HOLE)?;
    let roster = args.agents_dir.roster()?;
    let agents: Vec<NamedAgent> = args
        .agents
        .iter()
        .flat_map(|list| split_agent_list(list))
        .map(|text| agent(&text, &roster, "--agents"))
        .collect::<Result<_>>()?;
    let mut tables = Tablebase::new(args.variant, rules.holes)?;
    let dir = args.tables.as_deref();
    let board = format!("2x{}", rules.holes);
    let (positions, layers, title, stem) = match (args.max_seeds, args.tree_plies) {
        (Some(max_seeds), _) => {
            let spec = SampleSpec {
                min_seeds: 2,
                max_seeds,
                count: args.positions,
                seed: args.seed,
            };
            // The layers are checked before positions are drawn: a layer
            // beyond the tables is refused at once.
            let layers: Vec<u32> = (0..=max_seeds).collect();
            tables.check_plan(&[max_seeds], dir)?;
            let positions = sample_positions(&rules, spec)?;
            let title = format!(
                "Hoyito {} {board}: {} positions drawn uniformly (with replacement, seed {}) \
                 from the tables' positions with 2 to {max_seeds} seeds on the board, \
                 captures 0-0, where the side to move has at least two legal moves.",
                args.variant.name().to_uppercase(),
                positions.len(),
                args.seed
            );
            let stem = format!("accuracy-{}-{board}-s{max_seeds}", args.variant);
            (positions, layers, title, stem)
        }
        (None, Some(plies)) => {
            let tree = tree_positions(&rules, plies);
            let layers = vec![rules.total_seeds()];
            let title = format!(
                "Hoyito {} {board}, {SEEDS_PER_HOLE} seeds per hole: the {} distinct positions \
                 with at least two legal moves among the {} unfinished positions reachable \
                 from the start within {plies} plies (agents' seed {}).",
                args.variant.name().to_uppercase(),
                tree.positions.len(),
                tree.reached,
                args.seed
            );
            let stem = format!("accuracy-{}-{board}-tree{plies}", args.variant);
            (tree.positions, layers, title, stem)
        }
        (None, None) => unreachable!("clap requires --max-seeds or --tree-plies"),
    };
    build_tables(&mut tables, &layers, dir)?;
    let judged = Judged::all(&tables, &positions)?;
    drop(tables);
    let set = PositionSet {
        rules,
        positions,
        seed: args.seed,
    };
    let mut scored = Vec::new();
    for agent in &agents {
        let bar = counting_bar(
            set.positions.len() as u64,
            &format!("positions, {}", agent.name),
        );
        let start = Instant::now();
        let moves = agent_moves(&set, agent, &|n| bar.inc(n))?;
        bar.finish_and_clear();
        eprintln!(
            "{}: {} positions in {:.1} s",
            agent.name,
            set.positions.len(),
            start.elapsed().as_secs_f64()
        );
        scored.push(score_moves(&agent.name, &judged, &moves)?);
    }
    let report = AccuracyReport {
        title,
        stem,
        judged,
        agents: scored,
    };
    print!("{}", report.markdown());
    if let Some(out) = &args.out {
        for path in write_outputs(out, &report)? {
            eprintln!("wrote {}", path.display());
        }
    }
    Ok(())
}

/// Makes `layers` and their dependencies available, from `dir` where saved.
fn build_tables(
    tables: &mut Tablebase,
    layers: &[u32],
    dir: Option<&std::path::Path>,
) -> Result<()> {
    tables.check_plan(layers, dir)?;
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create table directory {}", dir.display()))?;
    }
    let total = layers
        .iter()
        .flat_map(|&k| Tablebase::dependencies(k))
        .collect::<std::collections::BTreeSet<u32>>()
        .iter()
        .fold(0u64, |sum, &k| sum.saturating_add(tables.key(k).entries()));
    let bar = counting_bar(total, "table positions");
    let start = Instant::now();
    for &k in layers {
        tables
            .ensure(k, dir, &|n| bar.inc(n))
            .with_context(|| format!("tables: layer of {k} seeds"))?;
    }
    bar.finish_and_clear();
    eprintln!("tables ready in {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}
