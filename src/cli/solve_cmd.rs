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
    /// Which Hoyito: i, ii or iii.
    #[arg(long)]
    variant: Variant,
    /// Holes per row, 2 to 16 (required).
    #[arg(long)]
    holes: u8,
    /// Build every layer from 0 up to this many seeds on the board (at most
    /// 120). Every layer's size and the memory for all of them are checked
    /// before anything is built.
    #[arg(long)]
    max_seeds: u32,
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
    /// Which Hoyito: i, ii or iii.
    #[arg(long)]
    variant: Variant,
    /// Position in the notation of RULES.md, e.g. "2,0,1/1,0,4 S 0-0".
    #[arg(long, short = 'p')]
    position: String,
    /// Directory of table files: layers found there are loaded, missing ones are
    /// built and saved there.
    #[arg(
        long = "tables",
        value_name = "DIR",
        alias = "dir",
        default_value = "tables"
    )]
    tables: PathBuf,
}

/// Arguments of `hoyito captures`.
#[derive(Debug, Args)]
pub struct CapturesArgs {
    /// Which Hoyito: i, ii or iii.
    #[arg(long)]
    variant: Variant,
    /// Holes per row, 2 to 16 (required).
    #[arg(long)]
    holes: u8,
    /// Seeds on the board.
    #[arg(long, default_value_t = 8)]
    seeds: u32,
}

fn table_dir(dir: Option<&Path>) -> Result<()> {
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create table directory {}", dir.display()))?;
    }
    Ok(())
}

/// `hoyito solve`.
pub fn solve(args: SolveArgs) -> Result<()> {
    let mut tb = Tablebase::new(args.variant, args.holes)?;
    let dir = args.tables.as_deref();
    let top = args.max_seeds;
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
    table_dir(dir)?;
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
    let dir = args.tables.as_path();
    let seeds = pos.seeds_on_board();
    let context = || format!("tables for {seeds} seeds in {}", dir.display());
    tb.check_plan(&[seeds], Some(dir)).with_context(context)?;
    table_dir(Some(dir))?;
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
    let positions = check_layer(args.variant, args.holes, args.seeds)?;
    let bar = counting_bar(positions, "positions");
    let share = capture_share(args.variant, args.holes, args.seeds, &|n| bar.inc(n))?;
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
