//! `hoyito report DIR`: redraws a run's statistics, `report.md` and charts from
//! `DIR/games.csv` alone, so a report can be remade after any change to the
//! report code without replaying a game. The directory's lock is taken
//! shared, so that a report is never drawn from a run still writing it.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use hoyito::report::write_report_from_csv;
use hoyito::tournament::lock_shared;

/// Arguments of `hoyito report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The run's directory, holding `games.csv`.
    dir: PathBuf,
}

/// Reads `DIR/games.csv` and writes `summary.json`, `report.md` and `charts/`.
pub fn report(args: ReportArgs) -> Result<()> {
    let _lock = lock_shared(&args.dir)?;
    let files = write_report_from_csv(&args.dir, None)?;
    println!("{}", files.summary.display());
    println!("{}", files.report.display());
    for chart in &files.charts {
        println!("{}", chart.display());
    }
    Ok(())
}
