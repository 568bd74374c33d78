//! `solve`, `probe` and `captures`: build endgame tables, ask them about a
//! position, and count who can force the next capture.
//!
//! The three name their flags alike: the table directory is `--tables` for
//! both `solve` and `probe` (`--out` and `--dir`, the old spellings, still
//! work), `--holes` is required wherever the board is not given by a position,
//! and no flag has a one-letter form that could be taken for another
//! (`-v` is not `--variant`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use hoyito::solver::study::{capture_share, check_layer};
use hoyito::solver::{LayerSource, Tablebase};
use hoyito::{Position, Variant};

use super::progress::counting_bar;

/// Arguments of `hoyito solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Which Hoyito: i, ii or iii (ii unless given, in every command).
    #[arg(long, default_value = "ii")]
    variant: Variant,
    /// Holes per row (2 to 16).
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=16))]
    holes: u8,
    /// Build every layer from 0 up to this many seeds on the board (at most
    /// 120). Every layer's size and the memory for all of them are checked
    /// before anything is built. Required unless --start.
    #[arg(long, required_unless_present = "start", conflicts_with = "start")]
    max_seeds: Option<u32>,
    /// Solve the standard start exactly instead (every hole holding --seeds,
    /// South to move), over the positions reachable from it only: a forward
    /// closure layer by layer, then values backward. Prints the value, the
    /// best first moves and a principal variation. On stderr: the budget
    /// and what reports/first-player/exact.json already knows of the start
    /// at once, then a line every 2 s while a layer grows or is solved
    /// (positions, rate, memory) and one per layer done. II and III from 2x5
    /// up do not fit in memory: --prove proves their values.
    #[arg(long)]
    start: bool,
    /// Seeds per hole of the start solved by --start.
    #[arg(long, default_value_t = 4, requires = "start")]
    seeds: u32,
    /// With --start: keep each finished layer in DIR, so that a killed solve
    /// resumes where it stopped (a damaged file there is an error, never a
    /// result). The solve is then out of core: finished layers are held
    /// memory-mapped from DIR, not in memory, and only the layer being worked
    /// on counts against --memory (DIR needs about 11 bytes a position, plus
    /// scratch files while it runs).
    #[arg(long, value_name = "DIR", requires = "start")]
    state: Option<PathBuf>,
    /// With --start: the memory the solve may use, in MB. A start known or
    /// found to need more is refused, before its memory passes the budget,
    /// with an estimate of its memory, disk and time, the proof search that
    /// needs less, and, without --state, what it would need out of core,
    /// with --state (mapped layers count as disk) [default: what is free].
    #[arg(long, value_name = "MB", requires = "start")]
    memory: Option<u64>,
    /// With --start: prove bounds on the start's value by two depth-limited
    /// searches (horizon scored as every seed left lost, and as every seed
    /// won) with exact table values at positions of at most --exact-up-to
    /// seeds, instead of an exact solve; for starts whose reachable positions
    /// do not fit in memory.
    #[arg(long, requires = "start")]
    prove: bool,
    /// With --prove or --outcome: the largest layer of full tables used as
    /// exact values (built in --tables if missing; see `hoyito solve
    /// --max-seeds`).
    #[arg(long, value_name = "SEEDS")]
    exact_up_to: Option<u32>,
    /// With --start: prove who wins (W, D or L for South) instead of the
    /// margin, by proof-number search with the tables as leaves: "is
    /// South's margin at least 1?", then, if not, "at least 0?". Prints the
    /// outcome, or the root's proof and disproof numbers where the limits
    /// stop it first.
    #[arg(long, requires = "start", conflicts_with = "prove")]
    outcome: bool,
    /// With --outcome: ask only "is South's margin at least T?" (a proved
    /// bound on the value either way).
    #[arg(
        long,
        value_name = "T",
        requires = "outcome",
        allow_hyphen_values = true
    )]
    threshold: Option<i32>,
    /// With --outcome: search from the position these moves reach from the
    /// start (hole numbers of the mover's row, comma-separated, e.g.
    /// `--after 3,11`) instead of the start: one shard of a proof split by
    /// the root's subtrees; `hoyito verify-proof` joins the shards' certificates.
    #[arg(
        long,
        value_name = "MOVES",
        requires = "outcome",
        value_delimiter = ','
    )]
    after: Vec<hoyito::Move>,
    /// With --outcome: write each answer's certificate to DIR, checked
    /// before it is written (see `hoyito verify-proof`).
    #[arg(long, value_name = "DIR", requires = "outcome")]
    certificates: Option<PathBuf>,
    /// With --outcome: keep the search's table in FILE, saved every
    /// --checkpoint-every seconds and at the end; a search started again
    /// with the same FILE resumes from it (after a kill too).
    #[arg(long, value_name = "FILE", requires = "outcome")]
    checkpoint: Option<PathBuf>,
    /// With --checkpoint: seconds between saves.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 60.0,
        requires = "checkpoint"
    )]
    checkpoint_every: f64,
    /// With --outcome: stop after this many nodes (the state is kept with
    /// --checkpoint).
    #[arg(long, value_name = "N", requires = "outcome")]
    max_nodes: Option<u64>,
    /// With --outcome: stop after this many seconds.
    #[arg(long, value_name = "SECONDS", requires = "outcome")]
    max_seconds: Option<f64>,
    /// With --prove: the deepest iteration, in plies.
    #[arg(long, default_value_t = 40, requires = "prove")]
    max_depth: u32,
    /// With --prove: stop once the bounds are at most this many seeds apart.
    #[arg(long, default_value_t = 0, requires = "prove")]
    width: i32,
    /// With --prove: start no new iteration after this many nodes.
    #[arg(long, default_value_t = 4_000_000_000, requires = "prove")]
    node_budget: u64,
    /// With --prove: once the start is exact, write to FILE the opening book
    /// of every line of --book-plies plies in which each ply keeps the
    /// position's proved exact value (perfect play, diverse where several
    /// moves are perfect), for self-play from the standard start that no
    /// diversity weakens.
    #[arg(long, value_name = "FILE", requires_all = ["prove", "book_plies"])]
    book: Option<PathBuf>,
    /// With --book: plies of each perfect line (1 to 8).
    #[arg(long, value_name = "PLIES", requires = "book",
          value_parser = clap::value_parser!(u32).range(1..=8))]
    book_plies: Option<u32>,
    /// With --start: write the result as JSON to FILE (an entry of
    /// reports/first-player/exact.json).
    #[arg(long, value_name = "FILE", requires = "start")]
    json: Option<PathBuf>,
    /// Overwrite the files of --json and --book when they exist.
    #[arg(long)]
    force: bool,
    /// Build only the layers that the layer of --max-seeds needs (max, max-4, ...
    /// and 0) instead of every layer.
    #[arg(long)]
    only_needed: bool,
    /// Directory for the table files (created if missing); layers already there
    /// are loaded, not rebuilt, and a damaged one is an error. Without it
    /// nothing is saved.
    #[arg(long = "tables", value_name = "DIR", alias = "out")]
    tables: Option<PathBuf>,
}

/// Arguments of `hoyito probe`.
#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// Which Hoyito: i, ii or iii (ii unless given, in every command).
    #[arg(long, default_value = "ii")]
    variant: Variant,
    /// Position in the notation of RULES.md, e.g. "2,0,1/1,0,4 S 0-0".
    #[arg(long, short = 'p')]
    position: String,
    /// Directory of table files: layers found there are loaded, missing ones are
    /// built and saved there [default: the cache, $XDG_CACHE_HOME/hoyito/tables,
    /// else ~/.cache/hoyito/tables; the directory used is printed].
    #[arg(long = "tables", value_name = "DIR", alias = "dir")]
    tables: Option<PathBuf>,
}

/// The tables' cache directory: `$XDG_CACHE_HOME/hoyito/tables`, else
/// `$HOME/.cache/hoyito/tables` (the XDG base directory rule), so that
/// `probe` never litters the working directory.
fn cache_tables() -> Result<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let base = var("XDG_CACHE_HOME")
        .filter(|p| p.is_absolute())
        .or_else(|| var("HOME").map(|home| home.join(".cache")))
        .context("no cache directory: neither XDG_CACHE_HOME nor HOME is set; pass --tables DIR")?;
    Ok(base.join("hoyito").join("tables"))
}

/// Arguments of `hoyito captures`.
#[derive(Debug, Args)]
pub struct CapturesArgs {
    /// Which Hoyito: i, ii or iii (ii unless given, in every command).
    #[arg(long, default_value = "ii")]
    variant: Variant,
    /// Holes per row (2 to 16).
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=16))]
    holes: u8,
    /// The layer counted: seeds on the board.
    #[arg(long, value_name = "SEEDS", default_value_t = 8)]
    layer: u32,
    /// The old spelling of `--layer`, refused as a usage error that names it:
    /// `--seeds` is the seeds per hole of a start in every other command.
    #[arg(
        long,
        hide = true,
        num_args = 0..=1,
        default_missing_value = "",
        value_parser = refuse_seeds
    )]
    seeds: Option<u32>,
}

/// The parser of the hidden `captures --seeds`: always a usage error (exit 2)
/// naming `--layer`.
fn refuse_seeds(_: &str) -> Result<u32, String> {
    Err(
        "`captures --seeds` is now `--layer` (seeds on the board, e.g. \
         `hoyito captures --holes 6 --layer 8`): `--seeds` means seeds per hole at the \
         start in every other command"
            .to_string(),
    )
}

/// Refuses to replace an existing file of `flag` without --force, before
/// any work is done (as `book`, `export` and `tune` refuse).
fn check_output(flag: &str, path: Option<&Path>, force: bool) -> Result<()> {
    match path {
        Some(path) if !force && path.symlink_metadata().is_ok() => anyhow::bail!(
            "{flag} {}: exists: choose another file or pass --force to overwrite it",
            path.display()
        ),
        _ => Ok(()),
    }
}

/// `hoyito solve`.
pub fn solve(args: SolveArgs) -> Result<()> {
    check_output("--json", args.json.as_deref(), args.force)?;
    check_output("--book", args.book.as_deref(), args.force)?;
    if args.exact_up_to.is_some() && !(args.prove || args.outcome) {
        anyhow::bail!("--exact-up-to is used only with --prove or --outcome");
    }
    if args.outcome {
        if args.state.is_some() {
            anyhow::bail!(
                "--state is for the exact solve; --outcome keeps its state with --checkpoint FILE"
            );
        }
        return super::outcome_cmd::solve_outcome(super::outcome_cmd::OutcomeRequest {
            variant: args.variant,
            holes: args.holes,
            seeds: args.seeds,
            tables: args.tables.as_deref(),
            exact_up_to: args.exact_up_to.unwrap_or(0),
            memory_mb: args.memory,
            threshold: args.threshold,
            after: &args.after,
            certificates: args.certificates.as_deref(),
            checkpoint: args.checkpoint.as_deref(),
            checkpoint_every: args.checkpoint_every,
            max_nodes: args.max_nodes,
            max_seconds: args.max_seconds,
            json: args.json.as_deref(),
        });
    }
    if args.prove {
        return super::solve_start::prove_start(
            args.variant,
            args.holes,
            args.seeds,
            args.tables.as_deref(),
            args.exact_up_to.unwrap_or(0),
            hoyito::solver::bounds::BoundsBudget {
                max_depth: args.max_depth,
                width: args.width,
                nodes: args.node_budget,
                table_entries: 40_000_000,
            },
            args.json.as_deref(),
            args.book.as_deref().zip(args.book_plies),
        );
    }
    if args.start {
        return super::solve_start::solve_start(
            args.variant,
            args.holes,
            args.seeds,
            args.state.as_deref(),
            args.memory,
            args.json.as_deref(),
        );
    }
    let mut tb = Tablebase::new(args.variant, args.holes)?;
    let dir = args.tables.as_deref();
    let top = args
        .max_seeds
        .context("--max-seeds is required unless --start")?;
    // Every layer and the memory for all of them are checked before anything
    // is built or any directory made (only the top layer can be out of range,
    // so the list below is short whenever it gets built).
    tb.check_plan(&[top], dir)?;
    let layers: Vec<u32> = if args.only_needed {
        Tablebase::dependencies(top)
    } else {
        (0..=top).collect()
    };
    tb.check_plan(&layers, dir)?;
    super::table_dir::table_dir(dir)?;
    let total = layers
        .iter()
        .fold(0u64, |sum, &k| sum.saturating_add(tb.key(k).entries()));
    let bar = counting_bar(total, "positions");
    let start = Instant::now();
    let mut built = 0u64;
    for k in layers {
        let reports = tb
            .ensure(k, dir, &|n| bar.inc(n))
            .with_context(|| format!("layer of {k} seeds"))?;
        for r in reports {
            let line = match r.source {
                LayerSource::Built(stats, time) => {
                    built += r.positions;
                    format!(
                        "layer {:>3}: {:>12} positions built in {:>8.2} s (moves {:.2} s, \
                         iteration {:.2} s; {} inner moves, {} sweeps, {} rounds)",
                        r.seeds,
                        r.positions,
                        time.as_secs_f64(),
                        stats.generation.as_secs_f64(),
                        stats.iteration.as_secs_f64(),
                        stats.inner_moves,
                        stats.sweeps,
                        stats.rounds
                    )
                }
                LayerSource::Loaded => {
                    bar.inc(r.positions);
                    format!("layer {:>3}: {:>12} positions loaded", r.seeds, r.positions)
                }
            };
            bar.suspend(|| println!("{line}"));
        }
    }
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "built {built} positions in {secs:.2} s: {:.0} positions/s",
        built as f64 / secs.max(1e-9)
    );
    Ok(())
}

/// `hoyito probe`.
pub fn probe(args: ProbeArgs) -> Result<()> {
    let pos: Position = args
        .position
        .parse()
        .with_context(|| format!("bad position {:?}", args.position))?;
    let mut tb = Tablebase::new(args.variant, pos.holes())?;
    let cached = args.tables.is_none();
    let dir = match args.tables {
        Some(dir) => dir,
        None => cache_tables()?,
    };
    let dir = dir.as_path();
    let seeds = pos.seeds_on_board();
    let context = || format!("tables for {seeds} seeds in {}", dir.display());
    tb.check_plan(&[seeds], Some(dir)).with_context(context)?;
    if cached {
        // Only the cache, which the user did not name, is said where it is.
        eprintln!("tables: {}", dir.display());
    }
    super::table_dir::table_dir(Some(dir))?;
    let total = Tablebase::dependencies(seeds)
        .iter()
        .fold(0u64, |sum, &k| sum.saturating_add(tb.key(k).entries()));
    let bar = counting_bar(total, "positions");
    tb.ensure(seeds, Some(dir), &|n| bar.inc(n))
        .with_context(context)?;
    bar.finish_and_clear();
    let Some(probe) = tb.probe(&pos) else {
        println!("value 0");
        println!("best");
        return Ok(());
    };
    println!("value {}", probe.value);
    let best: Vec<String> = probe.best_moves().iter().map(|m| m.to_string()).collect();
    println!("best {}", best.join(" "));
    Ok(())
}

/// `hoyito captures`.
pub fn captures(args: CapturesArgs) -> Result<()> {
    debug_assert!(args.seeds.is_none(), "refused by its parser");
    let positions = check_layer(args.variant, args.holes, args.layer)?;
    let bar = counting_bar(positions, "positions");
    let share = capture_share(args.variant, args.holes, args.layer, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    let pct = |n: u64| 100.0 * n as f64 / share.positions as f64;
    println!("positions {}", share.positions);
    println!(
        "mover forces the next capture {} ({:.2}%)",
        share.mover,
        pct(share.mover)
    );
    println!(
        "opponent forces the next capture {} ({:.2}%)",
        share.opponent,
        pct(share.opponent)
    );
    println!(
        "either side forces the next capture {} ({:.2}%)",
        share.either(),
        pct(share.either())
    );
    Ok(())
}
