//! `hoyito report DIR`: redraws a run's statistics, `report.md` and charts from
//! `DIR/games.csv` alone, so a report can be remade after any change to the
//! report code without replaying a game. The directory's lock is taken
//! shared, so that a report is never drawn from a run still writing it.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use hoyito::report::write_report_from_csv;
use hoyito::tournament::{lock_shared, ShardManifest, SHARD_FILE};

/// Arguments of `hoyito report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The run's directory, holding `games.csv`.
    dir: PathBuf,
}

/// Reads `DIR/games.csv` and writes `summary.json`, `report.md` and `charts/`.
pub fn report(args: ReportArgs) -> Result<()> {
    let _lock = lock_shared(&args.dir)?;
    // A shard's rows are a slice with gaps by design: its report is the merge's.
    let manifest = ShardManifest::read(&args.dir)
        .with_context(|| format!("{}", args.dir.join(SHARD_FILE).display()))?;
    if let Some(m) = manifest {
        bail!(
            "{} holds shard {}/{} of a run, not a whole run: join the shards with \
             `hoyito merge OUT SHARD_DIR...`, which writes the report",
            args.dir.display(),
            m.shard,
            m.shards
        );
    }
    let files = write_report_from_csv(&args.dir, None)?;
    println!("{}", files.summary.display());
    println!("{}", files.report.display());
    for chart in &files.charts {
        println!("{}", chart.display());
    }
    Ok(())
}
