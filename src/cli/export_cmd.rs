//! `hoyito export DIR --pgn FILE`: a run's games in PGN, for rating tools
//! such as Ordo and BayesElo. Every row is first checked by the one
//! validation of a run's rows (`hoyito::tournament::check_run_rows`: the
//! schedule, the moves replayed, the measures counted again), so that no
//! PGN says `[Result "0-1"]` of a game South won. The file is written
//! beside its final name and renamed at the end, so a failed export leaves
//! no half-written PGN.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use hoyito::tournament::{
    check_run_rows, export_pgn_file, Experiment, RowFiles, Schedule, ShardManifest,
    EXPERIMENT_FILE, SHARD_FILE,
};

/// Arguments of `hoyito export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// A results directory written by `hoyito run`.
    dir: PathBuf,
    /// The PGN file to write: one game per row of games.csv, South as White.
    #[arg(long, value_name = "FILE")]
    pgn: PathBuf,
    /// Replace an existing PGN file (as `book`, `tune` and `run` ask).
    #[arg(long)]
    force: bool,
}

/// Runs `hoyito export`.
pub fn export(args: ExportArgs) -> Result<()> {
    let name = args
        .pgn
        .file_name()
        .with_context(|| format!("{}: not a file name", args.pgn.display()))?;
    // One overwrite rule for every command that writes a file the user names.
    if args.pgn.exists() && !args.force {
        anyhow::bail!(
            "{} exists: choose another --pgn or pass --force to overwrite it",
            args.pgn.display()
        );
    }
    let mut tmp_name = name.to_os_string();
    tmp_name.push(".tmp");
    let tmp = args.pgn.with_file_name(tmp_name);
    check_rows(&args.dir).with_context(|| format!("exporting {}", args.dir.display()))?;
    let written = export_pgn_file(&args.dir, &tmp)
        .and_then(|summary| Ok((summary, fs::rename(&tmp, &args.pgn)?)));
    let (summary, ()) = match written {
        Ok(done) => done,
        Err(err) => {
            let _ = fs::remove_file(&tmp);
            return Err(err).with_context(|| format!("exporting {}", args.dir.display()));
        }
    };
    if !summary.with_moves {
        eprintln!(
            "note: {} has no moves.csv: the games are written without their moves",
            args.dir.display()
        );
    }
    eprintln!("{} games", summary.games);
    println!("{}", args.pgn.display());
    Ok(())
}

/// Checks every row of `dir` (a whole run, or a shard's slice with its
/// `shard.toml`) with the files that are there.
fn check_rows(dir: &Path) -> Result<()> {
    let experiment = Experiment::load(&dir.join(EXPERIMENT_FILE))?;
    let schedule = Schedule::new(&experiment);
    let manifest =
        ShardManifest::read(dir).with_context(|| dir.join(SHARD_FILE).display().to_string())?;
    let files = RowFiles::present(dir);
    match manifest {
        Some(manifest) => {
            let shard = manifest
                .slice()
                .with_context(|| format!("{}: names no slice", dir.join(SHARD_FILE).display()))?;
            check_run_rows(dir, &experiment, shard.each_id(&schedule), None, files)
        }
        None => check_run_rows(dir, &experiment, 0..schedule.len(), None, files),
    }?;
    Ok(())
}
