//! The tables directory of `solve` and its start solver: made when missing,
//! and cleared of what a killed solve left half-written (each named).

use std::path::Path;

use anyhow::{Context, Result};

/// Makes `dir` (when given) ready for tables.
pub(super) fn table_dir(dir: Option<&Path>) -> Result<()> {
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create table directory {}", dir.display()))?;
        // What a killed solve left half-written is cleared, and named.
        clear_stale(dir, "a table")?;
    }
    Ok(())
}

/// Removes from `dir` the temporary files of processes that no longer run
/// (a solve killed, or stopped by `ulimit -f`, while it wrote one), naming
/// each as `what`.
pub(super) fn clear_stale(dir: &Path, what: &str) -> Result<()> {
    let stale = hoyito::solver::table::clear_stale_temps(dir)
        .with_context(|| format!("cannot clear directory {}", dir.display()))?;
    for (path, pid) in stale {
        eprintln!(
            "removed {}: {what} left half-written by process {pid}, which no longer runs",
            path.display()
        );
    }
    Ok(())
}
