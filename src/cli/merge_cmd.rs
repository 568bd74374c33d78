//! `hoyito merge OUT DIR...`: the shards of `hoyito run --shard K/N` joined
//! into the directory the single run writes, byte for byte: `games.csv`,
//! `moves.csv` when recorded, `experiment.toml`, and the report, drawn by
//! the same function as a run's. Every shard's rows pass the one validation
//! of a run's rows before a byte is written (see `hoyito::tournament`'s
//! `merge_shards`), so the report of the joined files does not replay them
//! again.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use hoyito::report::write_report_from_csv;
use hoyito::tournament::{merge_shards, CODE_VERSION, GAMES_FILE};

/// Arguments of `hoyito merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The output directory: missing or empty (or see --force).
    out: PathBuf,
    /// The shard directories, every K of 0..N once, in any order (a shell glob will do).
    #[arg(required = true, value_name = "SHARD_DIR")]
    dirs: Vec<PathBuf>,
    /// Replace the results in a non-empty output directory (the directory is
    /// swapped whole for the merged one; files of your own in it are kept).
    #[arg(long)]
    force: bool,
}

/// Runs `hoyito merge`.
pub fn merge(args: MergeArgs) -> Result<()> {
    let mut note = |line: String| eprintln!("note: {line}");
    let merged = merge_shards(&args.out, &args.dirs, args.force, &mut note, |staging| {
        write_report_from_csv(staging, None).map(|_| ())
    })?;
    if let Some(code) = &merged.other_code {
        eprintln!(
            "warning: the shards were played by code version {code}, this is {CODE_VERSION}: \
             the rows are theirs, the report this version's"
        );
    }
    let moves = if merged.moves { " and moves.csv" } else { "" };
    eprintln!(
        "merged {} shards: {} games{moves} into {}, report included",
        merged.shards,
        merged.games,
        args.out.display()
    );
    println!("{}", args.out.join(GAMES_FILE).display());
    Ok(())
}
