//! `hoyito export DIR --pgn FILE`: a run's games in PGN, for rating tools
//! such as Ordo and BayesElo. The file is written beside its final name and
//! renamed at the end, so a failed export leaves no half-written PGN.

use std::fs;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use hoyito::tournament::export_pgn_file;

/// Arguments of `hoyito export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// A results directory written by `hoyito run`.
    dir: PathBuf,
    /// The PGN file to write: one game per row of games.csv, South as White.
    #[arg(long)]
    pgn: PathBuf,
}

/// Runs `hoyito export`.
pub fn export(args: ExportArgs) -> Result<()> {
    let name = args
        .pgn
        .file_name()
        .with_context(|| format!("{}: not a file name", args.pgn.display()))?;
    let mut tmp_name = name.to_os_string();
    tmp_name.push(".tmp");
    let tmp = args.pgn.with_file_name(tmp_name);
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
