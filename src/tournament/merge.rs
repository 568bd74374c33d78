//! Merging shards: the directories of `hoyito run --shard K/N`, K = 0..N,
//! joined into the directory the single run would have written.
//!
//! Every check comes first, before a byte is written: each directory is a
//! shard (its `shard.toml`), not being written (its lock, taken shared, see
//! [`super::run_lock`]), complete, of the same experiment and code as the
//! others (the fingerprint), and every slice `0..N` is there exactly once;
//! the output is missing or an empty directory (a symbolic link is refused
//! as such: the merged directory would replace the link, not fill its
//! target); and every row of every shard passes the one validation of a
//! run's rows ([`super::run_rows`]: the schedule, the moves replayed, the
//! measures counted again), each problem named by the shard's own file and
//! line. The report drawn from the merged files then trusts them.
//! Then the rows are streamed: the schedule says which shard holds each pair
//! (see [`super::shard`]), so the k-way merge by game id takes each next row
//! from the shard that must hold it, checking its id, one line at a time;
//! memory does not grow with the games. Everything is written into a staging
//! directory beside the output, `.OUT.merging`, and moved into place only at
//! the end, whole: a failure leaves no half-written output.
//!
//! `--force` over a used output swaps the directories, so that at every
//! instant `OUT` is the whole old directory or the whole new one, never a mix
//! (a merge killed halfway through replacing the results file by file left
//! `OUT` with the old report and no `games.csv`). What `OUT` holds besides the
//! results (notes of one's own) is linked into the staging directory first.
//! Then, on Linux, one `renameat2(RENAME_EXCHANGE)` swaps `OUT` and the
//! staging directory, which now holds the old results and is deleted. Where
//! the file system cannot exchange, `OUT` is renamed aside to
//! `.OUT.replaced`, the staging directory renamed to `OUT`, and the old one
//! deleted: a merge stopped between the two renames leaves no `OUT`, but the
//! whole old one aside. The next merge into `OUT` clears what a stopped merge
//! left, and says so: the staging directory is deleted (unless a live merge
//! holds its lock: then it is refused), and the aside one is renamed back to
//! `OUT` when `OUT` is missing, else deleted. Neither is ever taken for
//! results.
//!
//! `experiment.toml` is shard 0's (its `threads`, which changes no result,
//! is the one shard 0 ran with). `timings.csv`, worker time per machine, is
//! not merged: it describes the shards' machines, not the games, and each
//! shard keeps its own.
//!
//! The folder, top-down: this file runs the merge; `check` makes every check
//! first, `stream` joins the record files, `place` clears, makes and moves
//! the output directory, `swap` swaps it for a used one, and `names` (the
//! names beside `OUT`) and `error` are shared at the bottom.

mod check;
mod error;
mod names;
mod place;
mod stream;
mod swap;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::rounds_row::games_header;
use super::schedule::Schedule;
use super::shard_manifest::CODE_VERSION;
use crate::metrics::file::{metrics_header, METRICS_FILE};
use crate::records::moves_file::{MOVES_FILE, MOVES_HEADER};
use crate::records::run_files::{EXPERIMENT_FILE, GAMES_FILE};
use crate::records::safe_file::create_new;
use check::{check_out, check_rows, check_shards};
use error::io_error;
pub use error::MergeError;
use names::named;
use place::{clear_stopped_merge, place, staging_dir};
use stream::merge_file;

/// What a merge did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    /// N.
    pub shards: u64,
    /// Games written.
    pub games: u64,
    /// Whether `moves.csv` was merged too.
    pub moves: bool,
    /// The code version of the shards, when it is not this binary's (the
    /// rows are theirs, the report this binary's).
    pub other_code: Option<String>,
}

/// Merges the shard directories `dirs` into `out`: checks them all, streams
/// their `games.csv` (and `moves.csv`, `metrics.csv`) into one file each in game-id order,
/// copies shard 0's `experiment.toml`, then calls `finish` on the staging
/// directory (to write the report there) and moves the whole directory into
/// place. `out` must be missing or empty, unless `force`, which replaces the
/// results in it (only the files a run writes; the rest is kept) by swapping
/// the directories (see the module's notes). What a stopped merge into `out`
/// left beside it is cleared first, and each thing done about it, or an old
/// directory that could not be deleted, is told to `note`, one line each.
pub fn merge_shards<E>(
    out: &Path,
    dirs: &[PathBuf],
    force: bool,
    note: &mut dyn FnMut(String),
    finish: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<Merged, MergeError>
where
    E: std::error::Error + Send + Sync + 'static,
{
    let (parts, experiment, fingerprint) = check_shards(dirs)?;
    let count = parts[0].shard.count();
    let out = &named(out)?;
    clear_stopped_merge(out, note)?;
    let _out_lock = check_out(out, &parts, force)?;
    let schedule = Schedule::new(&experiment);
    check_rows(&parts, &experiment, &schedule)?;
    let (staging, _staging_lock) = staging_dir(out)?;
    let result = (|| {
        let mut games = 0;
        merge_file(
            &staging,
            &parts,
            &schedule,
            GAMES_FILE,
            &games_header(experiment.rules.rounds),
            &mut games,
        )?;
        let moves = experiment.record.moves;
        if moves {
            let mut rows = 0;
            merge_file(
                &staging,
                &parts,
                &schedule,
                MOVES_FILE,
                MOVES_HEADER.as_bytes(),
                &mut rows,
            )?;
        }
        if experiment.record.metrics {
            let mut rows = 0;
            merge_file(
                &staging,
                &parts,
                &schedule,
                METRICS_FILE,
                metrics_header().as_bytes(),
                &mut rows,
            )?;
        }
        let source = parts[0].dir.join(EXPERIMENT_FILE);
        let target = staging.join(EXPERIMENT_FILE);
        let bytes = fs::read(&source).map_err(io_error(&source, "read it"))?;
        let mut file = create_new(&target).map_err(io_error(&target, "create it"))?;
        file.write_all(&bytes)
            .and_then(|()| file.sync_all())
            .map_err(io_error(&target, "write it"))?;
        finish(&staging).map_err(|err| MergeError::Finish(Box::new(err)))?;
        place(&staging, out, force, note)?;
        Ok(Merged {
            shards: count,
            games,
            moves,
            other_code: (fingerprint.code != CODE_VERSION).then(|| fingerprint.code.clone()),
        })
    })();
    if result.is_err() {
        // The error being reported matters more than a failed clean-up.
        let _ = fs::remove_dir_all(&staging);
    }
    result
}
