//! `hoyito book`: an opening book of balanced positions reached by random plies.
//!
//! The flags are turned into a [`BookRequest`]; the file's header records the
//! command (without `--out`, so that a book rebuilt elsewhere can be compared
//! byte for byte), and the same command and seed write the same bytes.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use hoyito::openings::{generate_book, BookRequest};
use hoyito::{check_board, Roster, Variant};

use super::progress::counting_bar;

/// The most positions a book may hold: sampling tries up to 100 times as many
/// positions (`SAMPLES_PER_ENTRY`), which must stay a count that fits.
const MAX_COUNT: u32 = 10_000_000;

/// Arguments of `hoyito book`.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// Which Hoyito: i, ii or iii.
    #[arg(long)]
    variant: Variant,
    /// Holes per row.
    #[arg(long)]
    holes: u32,
    /// Seeds per hole at the start.
    #[arg(long, default_value_t = 4)]
    seeds: u32,
    /// Uniformly random plies from the start position.
    #[arg(long)]
    plies: u32,
    /// Positions to write (all distinct), 1 to 10000000.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_COUNT as i64))]
    count: u32,
    /// The roster agent whose search evaluates the positions (an alphabeta agent).
    #[arg(long)]
    agent: String,
    /// Keep positions whose evaluation for the side to move is within ±E seeds.
    #[arg(long)]
    max_eval: u32,
    /// Seed of the random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The roster: one TOML file per agent.
    #[arg(long, value_name = "DIR", default_value = "agents")]
    agents_dir: PathBuf,
    /// Directory of table files (from `hoyito solve --out`): positions whose
    /// layer it holds are evaluated exactly.
    #[arg(long)]
    tables: Option<PathBuf>,
    /// The book file to write.
    #[arg(long)]
    out: PathBuf,
}

/// The command line as the header records it.
fn command_line(args: &BookArgs) -> String {
    let mut line = format!(
        "hoyito book --variant {} --holes {} --seeds {} --plies {} --count {} --agent {} \
         --max-eval {} --seed {}",
        args.variant,
        args.holes,
        args.seeds,
        args.plies,
        args.count,
        args.agent,
        args.max_eval,
        args.seed
    );
    if let Some(dir) = &args.tables {
        line += &format!(" --tables {}", dir.display());
    }
    line
}

/// Runs `hoyito book`.
pub fn book(args: BookArgs) -> Result<()> {
    check_board(args.holes, args.seeds)?;
    let roster = Roster::load(&args.agents_dir)?;
    let spec = roster.get(&args.agent)?.spec.clone();
    let request = BookRequest {
        variant: args.variant,
        holes: args.holes as u8,
        seeds: args.seeds as u8,
        plies: args.plies,
        count: args.count as usize,
        agent: args.agent.clone(),
        spec,
        max_eval: args.max_eval,
        seed: args.seed,
        tables: args.tables.clone(),
        command: command_line(&args),
    };
    // Books judged by a deep search take minutes: show how far it got.
    let bar = counting_bar(u64::from(args.count), "positions");
    let book = generate_book(&request, &|accepted, evaluated| {
        bar.set_position(accepted as u64);
        bar.set_message(format!("kept of {evaluated} evaluated"));
    });
    bar.finish_and_clear();
    let book = book?;
    std::fs::write(&args.out, book.to_text())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!(
        "{} positions after {} random plies within ±{} seeds by {}",
        book.entries.len(),
        args.plies,
        args.max_eval,
        args.agent
    );
    println!("{}", args.out.display());
    Ok(())
}
