//! `hoyito book`: an opening book of balanced positions reached by random plies.
//!
//! The flags are turned into a [`BookRequest`]; the file's header records the
//! command (without `--out`, so that a book rebuilt elsewhere can be compared
//! byte for byte), and the same command and seed write the same bytes.
//!
//! The book is written as `tune` writes its agent file: an existing `--out`
//! is refused unless `--force`, a symbolic link is never written through,
//! and the bytes go to a temporary file beside it (`.NAME.tmp`), are synced,
//! and renamed over it, so that a full disk or a kill leaves the old book
//! whole, never a truncated one.

use std::ffi::OsString;
use std::fs::{self, File};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Args;
use hoyito::openings::{generate_book, BookRequest};
use hoyito::tournament::{is_symlink, write_atomic};
use hoyito::{check_board, Variant};

use super::agent_args::{agent, AgentsDirArg};
use super::agent_memory::check_agents_memory;
use super::progress::counting_bar;

/// The most positions a book may hold: sampling tries up to 100 times as many
/// positions (`SAMPLES_PER_ENTRY`), which must stay a count that fits.
const MAX_COUNT: u32 = 10_000_000;

/// Arguments of `hoyito book`.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// Which Hoyito: i, ii or iii (ii unless given, in every command).
    #[arg(long, default_value = "ii")]
    variant: Variant,
    /// Holes per row (2 to 16).
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=16))]
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
    /// The agent whose search evaluates the positions (an alphabeta agent):
    /// a roster name, KIND:KEY=VALUE,..., NAME:KEY=VALUE,... or PATH.toml.
    #[arg(long, value_name = "AGENT")]
    agent: String,
    /// Keep positions whose evaluation for the side to move is within ±MAX_EVAL seeds.
    #[arg(long)]
    max_eval: u32,
    /// Seed of the random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    agents_dir: AgentsDirArg,
    /// Directory of table files (from `hoyito solve --tables`): positions whose
    /// layer it holds are evaluated exactly.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// The book file to write.
    #[arg(long, value_name = "PATH")]
    out: PathBuf,
    /// Overwrite --out if it exists.
    #[arg(long)]
    force: bool,
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

/// Refuses an `--out` that must not be written: a symbolic link (even with
/// `--force`: the rename would replace the link, not write its target, which
/// is not what was asked), a directory, or an existing file without `--force`.
fn check_out(out: &Path, force: bool) -> Result<()> {
    if is_symlink(out) {
        bail!(
            "{} is a symbolic link: book does not write through links; remove it or choose \
             another --out",
            out.display()
        );
    }
    if out.is_dir() {
        bail!(
            "--out {}: is a directory: name the book file",
            out.display()
        );
    }
    if out.exists() && !force {
        bail!(
            "{} exists: choose another --out or pass --force to overwrite it",
            out.display()
        );
    }
    Ok(())
}

/// Writes `text` to `out` through `.NAME.tmp` beside it and a rename (see the
/// module's notes); a failure removes the temporary file and leaves `out` as
/// it was.
fn write_book(out: &Path, text: &str) -> Result<()> {
    let name = out
        .file_name()
        .with_context(|| format!("--out {}: not a file name", out.display()))?;
    let mut tmp_name = OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(".tmp");
    let tmp = out.with_file_name(tmp_name);
    if let Err(err) = write_atomic(&tmp, out, text.as_bytes()) {
        if !tmp.is_dir() {
            let _ = fs::remove_file(&tmp);
        }
        return Err(err).with_context(|| {
            format!(
                "cannot write {} (through {}); it is left as it was",
                out.display(),
                tmp.display()
            )
        });
    }
    // The rename reaches the disk with its directory; the book is in place
    // either way, so a failure here is not reported.
    let dir = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// Runs `hoyito book`.
pub fn book(args: BookArgs) -> Result<()> {
    check_board(args.holes, args.seeds)?;
    // Before the minutes of search, and again before the write.
    check_out(&args.out, args.force)?;
    let roster = args.agents_dir.roster()?;
    let named = agent(&args.agent, &roster, "--agent")?;
    let spec = named.spec.clone();
    // One search per worker thread of the global pool at a time.
    let what = format!("--agent {}", named.name);
    check_agents_memory(
        &what,
        &[(&spec, 1)],
        args.holes as u8,
        rayon::current_num_threads(),
    )?;
    let request = BookRequest {
        variant: args.variant,
        holes: args.holes as u8,
        seeds: args.seeds as u8,
        plies: args.plies,
        count: args.count as usize,
        agent: named.name.clone(),
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
    check_out(&args.out, args.force)?;
    write_book(&args.out, &book.to_text())?;
    eprintln!(
        "{} positions after {} random plies within ±{} seeds by {}",
        book.entries.len(),
        args.plies,
        args.max_eval,
        named.name
    );
    println!("{}", args.out.display());
    Ok(())
}
