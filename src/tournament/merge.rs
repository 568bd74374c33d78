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
//! Source: rename(2), Linux: "RENAME_EXCHANGE: Atomically exchange oldpath
//! and newpath. Both pathnames must exist but may be of different types";
//! "EINVAL: The filesystem does not support one of the flags in flags";
//! POSIX.1-2008 rename(): a directory may replace an empty directory.
//!
//! `experiment.toml` is shard 0's (its `threads`, which changes no result,
//! is the one shard 0 ran with). `timings.csv`, worker time per machine, is
//! not merged: it describes the shards' machines, not the games, and each
//! shard keeps its own.

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::config::{ConfigError, Experiment};
use super::round_row::games_header;
use super::run_dir::RESULTS;
use super::run_lock::{lock_exclusive, lock_shared, DirLock, LockError, LOCK_FILE};
use super::run_rows::{check_run_rows, RowFiles};
use super::schedule::Schedule;
use super::shard::Shard;
use super::shard_manifest::{Fingerprint, ShardManifest, CODE_VERSION, SHARD_FILE};
use crate::metrics::{metrics_header, METRICS_FILE};
use crate::records::moves_file::{MOVES_FILE, MOVES_HEADER};
use crate::records::record_lines::RecordFileError;
use crate::records::run_files::{EXPERIMENT_FILE, GAMES_FILE};
use crate::records::safe_file::{create_new, is_symlink, open_read_no_follow};

/// Why shards cannot be merged.
#[derive(Debug, Error)]
pub enum MergeError {
    /// No directory given.
    #[error("no shard directories given: hoyito merge OUT SHARD_DIR...")]
    NoShards,
    /// A shard is being written, or its lock cannot be taken.
    #[error(transparent)]
    Locked(#[from] LockError),
    /// A directory without `shard.toml`.
    #[error(
        "{}: not a shard directory (no {SHARD_FILE}): pass the directories that \
         `hoyito run --shard K/N` wrote",
        dir.display()
    )]
    NotShard {
        /// The directory.
        dir: PathBuf,
    },
    /// A `shard.toml` or `experiment.toml` that cannot be used.
    #[error("{}: {why}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// A shard of another experiment or build.
    #[error("{}: a foreign shard: {why} (in {})", dir.display(), first.display())]
    Foreign {
        /// The foreign shard.
        dir: PathBuf,
        /// The shard it was compared with.
        first: PathBuf,
        /// What differs.
        why: String,
    },
    /// Shards of different N.
    #[error(
        "{}: it is shard {shard}, but {} is shard {first_shard}: all shards must come from \
         one split",
        dir.display(), first.display()
    )]
    OtherSplit {
        /// The shard.
        dir: PathBuf,
        /// Its slice.
        shard: Shard,
        /// The shard it was compared with.
        first: PathBuf,
        /// That one's slice.
        first_shard: Shard,
    },
    /// The same slice twice.
    #[error("{}: shard {shard} is given twice (also {})", dir.display(), other.display())]
    Duplicate {
        /// The second directory.
        dir: PathBuf,
        /// The first.
        other: PathBuf,
        /// The slice.
        shard: Shard,
    },
    /// A slice not played to its end.
    #[error(
        "{}: shard {shard} is incomplete ({written} of {planned} games): resume it with the \
         same `hoyito run --shard {shard}` command, then merge",
        dir.display()
    )]
    Incomplete {
        /// The directory.
        dir: PathBuf,
        /// Its slice.
        shard: Shard,
        /// Games written.
        written: u64,
        /// Games planned.
        planned: u64,
    },
    /// A slice not given.
    #[error("shard {shard} is missing: pass its directory too (every shard 0 to {last} of {count})", last = shard.count() - 1, count = shard.count())]
    Missing {
        /// The slice.
        shard: Shard,
    },
    /// A row that is not where the schedule puts it, or that fails the
    /// validation of a run's rows.
    #[error("{}, line {line}: {message}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The 1-based line.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// The output directory holds something.
    #[error(
        "{}: exists and is not empty: choose another output directory, or pass --force to \
         replace the results in it",
        out.display()
    )]
    OutExists {
        /// The output directory.
        out: PathBuf,
    },
    /// The output is a symbolic link.
    #[error(
        "{}: is a symbolic link (to {}): a merge does not write through links, since its \
         merged directory would replace the link; give the directory itself, or another \
         output directory",
        out.display(), target.display()
    )]
    OutIsLink {
        /// The output directory given.
        out: PathBuf,
        /// Where the link points.
        target: PathBuf,
    },
    /// The output is one of the shards.
    #[error("{}: the output directory is one of the shards", out.display())]
    OutIsShard {
        /// The output directory.
        out: PathBuf,
    },
    /// A file operation failed.
    #[error("{}: cannot {action}: {cause}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What was being done.
        action: &'static str,
        /// Why.
        cause: io::Error,
    },
    /// The caller's last step on the merged files (the report) failed.
    #[error(transparent)]
    Finish(Box<dyn std::error::Error + Send + Sync>),
    /// The merged directory could not be moved into place, nor the old one
    /// back.
    #[error(
        "{}: cannot move the merged directory into its place ({cause}), nor the old results \
         back: they are whole in {}; the next merge into {} moves them back",
        out.display(), aside.display(), out.display()
    )]
    Swap {
        /// The output directory.
        out: PathBuf,
        /// Where its old results are.
        aside: PathBuf,
        /// Why the merged directory could not be moved.
        cause: io::Error,
    },
    /// The old results that a stopped merge set aside, with no directory to
    /// return to.
    #[error(
        "{}: the old results of {}, set aside by a merge that was stopped, but {} is not a \
         directory now: move them back or delete them, then merge again",
        aside.display(), out.display(), out.display()
    )]
    Aside {
        /// The output directory.
        out: PathBuf,
        /// Where its old results are.
        aside: PathBuf,
    },
}

fn io_error(path: &Path, action: &'static str) -> impl FnOnce(io::Error) -> MergeError {
    let path = path.to_path_buf();
    move |cause| MergeError::Io {
        path,
        action,
        cause,
    }
}

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

/// One checked shard.
struct Part {
    dir: PathBuf,
    shard: Shard,
    _lock: Option<DirLock>,
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

/// Checks every directory and returns them in slice order, with the
/// experiment they play and its fingerprint.
fn check_shards(dirs: &[PathBuf]) -> Result<(Vec<Part>, Experiment, Fingerprint), MergeError> {
    if dirs.is_empty() {
        return Err(MergeError::NoShards);
    }
    let mut parts: Vec<Part> = Vec::new();
    let mut first: Option<(PathBuf, ShardManifest)> = None;
    for dir in dirs {
        if !dir.is_dir() {
            return Err(MergeError::NotShard { dir: dir.clone() });
        }
        let lock = lock_shared(dir)?;
        let unreadable = |path: PathBuf, why: String| MergeError::Unreadable { path, why };
        let manifest = match ShardManifest::read(dir) {
            Ok(Some(manifest)) => manifest,
            Ok(None) => return Err(MergeError::NotShard { dir: dir.clone() }),
            Err(err) => return Err(unreadable(dir.join(SHARD_FILE), err.to_string())),
        };
        let shard = manifest.slice().ok_or_else(|| {
            let why = format!(
                "shard {} of {} names no slice",
                manifest.shard, manifest.shards
            );
            unreadable(dir.join(SHARD_FILE), why)
        })?;
        // The saved experiment must be the one the manifest fingerprints.
        let path = dir.join(EXPERIMENT_FILE);
        let experiment = Experiment::load(&path).map_err(|err: ConfigError| {
            unreadable(
                path.clone(),
                format!("cannot read the shard's experiment: {err}"),
            )
        })?;
        let mut own = Fingerprint::of(&experiment);
        own.code.clone_from(&manifest.fingerprint.code);
        if let Some(why) = manifest.fingerprint.difference(&own) {
            let why = format!("it does not match its {SHARD_FILE}: {why}");
            return Err(unreadable(path, why));
        }
        if let Some((first_dir, first)) = &first {
            if let Some(why) = first.fingerprint.difference(&manifest.fingerprint) {
                return Err(MergeError::Foreign {
                    dir: dir.clone(),
                    first: first_dir.clone(),
                    why,
                });
            }
            let first_shard = first.slice().expect("checked when it was read");
            if first_shard.count() != shard.count() {
                return Err(MergeError::OtherSplit {
                    dir: dir.clone(),
                    shard,
                    first: first_dir.clone(),
                    first_shard,
                });
            }
        }
        if let Some(other) = parts.iter().find(|p| p.shard == shard) {
            return Err(MergeError::Duplicate {
                dir: dir.clone(),
                other: other.dir.clone(),
                shard,
            });
        }
        let planned = shard.games(&Schedule::new(&experiment));
        if !manifest.complete
            || manifest.written_games != planned
            || manifest.planned_games != planned
        {
            return Err(MergeError::Incomplete {
                dir: dir.clone(),
                shard,
                written: manifest.written_games,
                planned,
            });
        }
        if first.is_none() {
            first = Some((dir.clone(), manifest));
        }
        parts.push(Part {
            dir: dir.clone(),
            shard,
            _lock: lock,
        });
    }
    let count = parts[0].shard.count();
    parts.sort_by_key(|p| p.shard.index());
    for index in 0..count {
        if parts.get(index as usize).map(|p| p.shard.index()) != Some(index) {
            let shard = Shard::new(index, count).expect("index < count");
            return Err(MergeError::Missing { shard });
        }
    }
    let path = parts[0].dir.join(EXPERIMENT_FILE);
    let experiment = Experiment::load(&path).map_err(|err| MergeError::Unreadable {
        path: path.clone(),
        why: err.to_string(),
    })?;
    let (_, manifest) = first.expect("at least one shard");
    Ok((parts, experiment, manifest.fingerprint))
}

/// Checks every row of every shard, as every reader of a run checks them
/// ([`check_run_rows`]), with the files the merge joins: each shard's rows
/// must be its slice's games, in order.
fn check_rows(
    parts: &[Part],
    experiment: &Experiment,
    schedule: &Schedule,
) -> Result<(), MergeError> {
    let files = RowFiles {
        moves: experiment.record.moves,
        metrics: experiment.record.metrics,
    };
    for part in parts {
        let ids = part.shard.each_id(schedule);
        check_run_rows(&part.dir, experiment, ids, None, files).map_err(|err| match err {
            RecordFileError::Read { path, cause } => MergeError::Io {
                path,
                action: "read it",
                cause,
            },
            RecordFileError::Parse {
                path,
                line,
                message,
            } => MergeError::Corrupt {
                path,
                line,
                message,
            },
        })?;
    }
    Ok(())
}

/// Checks that `out` may receive the merge: not a shard, missing or empty
/// (or `force`); locks it when it exists, so that no run writes it meanwhile.
fn check_out(out: &Path, parts: &[Part], force: bool) -> Result<Option<DirLock>, MergeError> {
    if is_symlink(out) {
        let target = fs::read_link(out).map_err(io_error(out, "read the link"))?;
        return Err(MergeError::OutIsLink {
            out: out.to_path_buf(),
            target,
        });
    }
    if !out.exists() {
        return Ok(None);
    }
    let canonical = fs::canonicalize(out).map_err(io_error(out, "resolve it"))?;
    for part in parts {
        if fs::canonicalize(&part.dir).ok().as_ref() == Some(&canonical) {
            return Err(MergeError::OutIsShard {
                out: out.to_path_buf(),
            });
        }
    }
    let mut entries = fs::read_dir(out).map_err(io_error(out, "read it"))?;
    if entries.next().is_none() {
        return Ok(None);
    }
    if !force {
        return Err(MergeError::OutExists {
            out: out.to_path_buf(),
        });
    }
    Ok(Some(lock_exclusive(out)?))
}

/// `out` with a last component to name the directories beside it by: a
/// path ending in `.` or `..` is resolved.
fn named(out: &Path) -> Result<PathBuf, MergeError> {
    match out.file_name() {
        Some(_) => Ok(out.to_path_buf()),
        None => fs::canonicalize(out).map_err(io_error(out, "resolve it")),
    }
}

/// The directory that holds `out`.
fn parent_of(out: &Path) -> PathBuf {
    match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The hidden name `.NAME.suffix` beside `out`, where a merge into `out`
/// builds the new directory (`merging`) or sets the old one aside
/// (`replaced`): on the same file system, so that renames move them.
fn beside(out: &Path, suffix: &str) -> PathBuf {
    let name = out
        .file_name()
        .map_or_else(|| "merge".into(), |n| n.to_string_lossy().into_owned());
    parent_of(out).join(format!(".{name}.{suffix}"))
}

/// Where a merge into `out` builds the merged directory.
fn staging_path(out: &Path) -> PathBuf {
    beside(out, "merging")
}

/// Where a merge into `out` sets the old directory aside, on a file system
/// that cannot exchange two names.
fn aside_path(out: &Path) -> PathBuf {
    beside(out, "replaced")
}

/// Clears what a merge into `out` that was stopped (killed, or its machine
/// lost) left beside it, telling `note` what it did: the staging directory
/// (a partial merge, or the old results it was swapped with) is deleted,
/// unless a live merge holds its lock, which refuses this one; the old
/// results set aside are moved back to `out` when `out` is missing, else
/// deleted (`out` holds the merged results that replaced them).
fn clear_stopped_merge(out: &Path, note: &mut dyn FnMut(String)) -> Result<(), MergeError> {
    let staging = staging_path(out);
    if let Ok(meta) = fs::symlink_metadata(&staging) {
        if meta.is_dir() {
            // A merge still writing it holds its lock; a killed one holds
            // nothing any more (the kernel released it).
            match lock_exclusive(&staging) {
                Err(err @ LockError::Held { .. }) => return Err(err.into()),
                Ok(_) | Err(LockError::Io { .. }) => {}
            }
            fs::remove_dir_all(&staging).map_err(io_error(&staging, "delete it"))?;
        } else {
            // A link or a file at a name that is ours: removed, not followed.
            fs::remove_file(&staging).map_err(io_error(&staging, "delete it"))?;
        }
        note(format!(
            "deleted {}, left by a merge into {} that was stopped (not results: {} itself \
             was left whole)",
            staging.display(),
            out.display(),
            out.display()
        ));
    }
    let aside = aside_path(out);
    if let Ok(meta) = fs::symlink_metadata(&aside) {
        let out_meta = fs::symlink_metadata(out);
        if !meta.is_dir() {
            fs::remove_file(&aside).map_err(io_error(&aside, "delete it"))?;
        } else if matches!(&out_meta, Err(err) if err.kind() == io::ErrorKind::NotFound) {
            fs::rename(&aside, out).map_err(io_error(out, "move the old results back"))?;
            note(format!(
                "{} restored: a merge stopped while replacing it had set its old results \
                 aside in {}",
                out.display(),
                aside.display()
            ));
            return Ok(());
        } else if out_meta.is_ok_and(|m| m.is_dir()) {
            fs::remove_dir_all(&aside).map_err(io_error(&aside, "delete it"))?;
        } else {
            return Err(MergeError::Aside {
                out: out.to_path_buf(),
                aside,
            });
        }
        note(format!(
            "deleted {}: the old results of {}, which a merge that was stopped had already \
             replaced",
            aside.display(),
            out.display()
        ));
    }
    Ok(())
}

/// A fresh staging directory beside `out` (what a stopped merge left there
/// is gone, see [`clear_stopped_merge`]), locked, so that another merge into
/// `out` does not take it for a stopped one's.
fn staging_dir(out: &Path) -> Result<(PathBuf, DirLock), MergeError> {
    let parent = parent_of(out);
    fs::create_dir_all(&parent).map_err(io_error(&parent, "create the directory"))?;
    let staging = staging_path(out);
    fs::create_dir(&staging).map_err(io_error(&staging, "create it"))?;
    match lock_exclusive(&staging) {
        Ok(lock) => Ok((staging, lock)),
        Err(err) => {
            let _ = fs::remove_dir_all(&staging);
            Err(err.into())
        }
    }
}

/// Streams `name` of every shard into `staging/name` in game-id order.
fn merge_file(
    staging: &Path,
    parts: &[Part],
    schedule: &Schedule,
    name: &str,
    header: &[u8],
    rows: &mut u64,
) -> Result<(), MergeError> {
    let target = staging.join(name);
    let file = create_new(&target).map_err(io_error(&target, "create it"))?;
    let mut writer = BufWriter::with_capacity(1 << 16, file);
    let write_error = io_error(&target, "write it");
    let mut readers = parts
        .iter()
        .map(|part| RowReader::open(&part.dir.join(name), header))
        .collect::<Result<Vec<_>, _>>()?;
    let count = parts.len() as u64;
    let mut line = Vec::with_capacity(256);
    let result = (|| {
        writer.write_all(header)?;
        for pair in 0..schedule.pairs() {
            let reader = &mut readers[Shard::of_pair(schedule, pair, count) as usize];
            for id in schedule.pair_games(pair) {
                reader.next_row(id, &mut line)?;
                writer.write_all(&line)?;
                *rows += 1;
            }
        }
        writer.flush()?;
        writer.get_ref().sync_all()?;
        Ok::<(), ReadOrWrite>(())
    })();
    match result {
        Ok(()) => {}
        Err(ReadOrWrite::Read(err)) => return Err(err),
        Err(ReadOrWrite::Write(err)) => return Err(write_error(err)),
    }
    for reader in &mut readers {
        reader.expect_end(&mut line)?;
    }
    Ok(())
}

/// A failed read (already a [`MergeError`]) or write.
enum ReadOrWrite {
    Read(MergeError),
    Write(io::Error),
}

impl From<io::Error> for ReadOrWrite {
    fn from(err: io::Error) -> Self {
        ReadOrWrite::Write(err)
    }
}

impl From<MergeError> for ReadOrWrite {
    fn from(err: MergeError) -> Self {
        ReadOrWrite::Read(err)
    }
}

/// One shard's record file, read a line at a time.
struct RowReader {
    path: PathBuf,
    reader: BufReader<File>,
    line: u64,
}

impl RowReader {
    fn open(path: &Path, header: &[u8]) -> Result<RowReader, MergeError> {
        let file = open_read_no_follow(path).map_err(io_error(path, "read it"))?;
        let mut reader = RowReader {
            path: path.to_path_buf(),
            reader: BufReader::with_capacity(1 << 16, file),
            line: 0,
        };
        let mut first = Vec::new();
        reader.read_line(&mut first)?;
        if first != header {
            return Err(reader.corrupt("not the header of this harness".into()));
        }
        Ok(reader)
    }

    fn corrupt(&self, message: String) -> MergeError {
        MergeError::Corrupt {
            path: self.path.clone(),
            line: self.line,
            message,
        }
    }

    /// Reads the next whole line into `line` (empty at the end of the file).
    fn read_line(&mut self, line: &mut Vec<u8>) -> Result<(), MergeError> {
        line.clear();
        self.line += 1;
        let read_error = io_error(&self.path, "read it");
        self.reader.read_until(b'\n', line).map_err(read_error)?;
        if !line.is_empty() && line.last() != Some(&b'\n') {
            return Err(self.corrupt("a partial last line".into()));
        }
        Ok(())
    }

    /// Reads the row of game `id`, which must be next.
    fn next_row(&mut self, id: u64, line: &mut Vec<u8>) -> Result<(), MergeError> {
        self.read_line(line)?;
        if line.is_empty() {
            return Err(self.corrupt(format!("the file ends before the row of game {id}")));
        }
        let field = line.split(|&b| b == b',').next().unwrap_or_default();
        let found = std::str::from_utf8(field)
            .ok()
            .and_then(|s| s.parse::<u64>().ok());
        if found != Some(id) {
            return Err(self.corrupt(format!("expected the row of game {id}")));
        }
        Ok(())
    }

    /// Checks that no row is left.
    fn expect_end(&mut self, line: &mut Vec<u8>) -> Result<(), MergeError> {
        self.read_line(line)?;
        match line.is_empty() {
            true => Ok(()),
            false => Err(self.corrupt("a row after the last game of the shard".into())),
        }
    }
}

/// Moves the complete staging directory into place as `out`: renamed over a
/// missing or empty `out`; swapped with a used one (`force`), after what it
/// holds besides the results is linked into the staging directory.
fn place(
    staging: &Path,
    out: &Path,
    force: bool,
    note: &mut dyn FnMut(String),
) -> Result<(), MergeError> {
    let meta = match fs::symlink_metadata(out) {
        Ok(meta) => meta,
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            fs::rename(staging, out).map_err(io_error(out, "move the merged files into it"))?;
            sync_dir(&parent_of(out));
            return Ok(());
        }
        Err(err) => return Err(io_error(out, "read it")(err)),
    };
    let empty = fs::read_dir(out)
        .map_err(io_error(out, "read it"))?
        .next()
        .is_none();
    if !empty {
        if !force {
            return Err(MergeError::OutExists {
                out: out.to_path_buf(),
            });
        }
        carry_over(out, staging)?;
    }
    // The output keeps its permissions (a shared folder stays shared).
    fs::set_permissions(staging, meta.permissions())
        .map_err(io_error(staging, "set its permissions"))?;
    if empty {
        // rename(2) replaces an empty directory whole.
        fs::rename(staging, out).map_err(io_error(out, "move the merged files into it"))?;
    } else {
        replace(staging, out, Swap::Exchange, &mut || false, note)?;
    }
    sync_dir(&parent_of(out));
    Ok(())
}

/// Flushes a directory's entries (the renames in it) to the disk; a failure
/// only loses durability, and the results are in place: not reported.
fn sync_dir(dir: &Path) {
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
}

/// Puts into `staging` what the used output `out` holds besides the results
/// a run writes (and its lock): notes, files of one's own, so that replacing
/// the directory replaces only the results, as `--force` promises. Files
/// are hard-linked (copied where a link is refused), folders made anew.
fn carry_over(out: &Path, staging: &Path) -> Result<(), MergeError> {
    for entry in fs::read_dir(out).map_err(io_error(out, "read it"))? {
        let entry = entry.map_err(io_error(out, "read it"))?;
        let name = entry.file_name();
        if name == LOCK_FILE || RESULTS.iter().any(|r| name == *r) {
            continue;
        }
        link_tree(&entry.path(), &staging.join(name))?;
    }
    Ok(())
}

/// Recreates `from` at `to`: a folder with its contents, anything else as a
/// hard link to the same file (a link itself, not what it points to).
fn link_tree(from: &Path, to: &Path) -> Result<(), MergeError> {
    let meta = fs::symlink_metadata(from).map_err(io_error(from, "read it"))?;
    if meta.is_dir() {
        fs::create_dir(to).map_err(io_error(to, "create it"))?;
        for entry in fs::read_dir(from).map_err(io_error(from, "read it"))? {
            let entry = entry.map_err(io_error(from, "read it"))?;
            link_tree(&entry.path(), &to.join(entry.file_name()))?;
        }
        // After it is filled: a read-only folder is filled too.
        return fs::set_permissions(to, meta.permissions())
            .map_err(io_error(to, "set its permissions"));
    }
    match fs::hard_link(from, to) {
        Ok(()) => Ok(()),
        // Another user's file (protected_hardlinks), or another file system.
        Err(_) if meta.is_file() => fs::copy(from, to)
            .map(|_| ())
            .map_err(io_error(from, "copy it into the merged directory")),
        Err(cause) => Err(io_error(from, "keep it in the merged directory")(cause)),
    }
}

/// How [`replace`] swaps the two directories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Swap {
    /// One `renameat2(RENAME_EXCHANGE)`, or the two renames where the file
    /// system cannot.
    Exchange,
    /// The two renames, through the aside name (tests of that path).
    #[cfg_attr(not(test), allow(dead_code))]
    Aside,
}

/// Replaces the used directory `out` by the complete directory `staging`
/// beside it, so that `out` is at every instant the whole old or the whole
/// new one, then deletes the old one (an old one that cannot be deleted is
/// told to `note`, and cleared by the next merge). `stop` is asked before
/// and after each step whether to stop there as a killed process would, with
/// no clean-up: tests check what is left at each point; a merge passes a
/// closure that never stops.
fn replace(
    staging: &Path,
    out: &Path,
    swap: Swap,
    stop: &mut dyn FnMut() -> bool,
    note: &mut dyn FnMut(String),
) -> Result<(), MergeError> {
    if stop() {
        return Ok(());
    }
    let exchanged = swap == Swap::Exchange
        && match exchange(staging, out) {
            Ok(()) => true,
            Err(err) if exchange_unsupported(&err) => false,
            Err(cause) => return Err(io_error(out, "swap the merged directory in")(cause)),
        };
    let old = if exchanged {
        staging.to_path_buf()
    } else {
        let aside = aside_path(out);
        fs::rename(out, &aside).map_err(io_error(out, "move it aside"))?;
        if stop() {
            return Ok(());
        }
        if let Err(cause) = fs::rename(staging, out) {
            return Err(match fs::rename(&aside, out) {
                Ok(()) => io_error(out, "move the merged directory into its place")(cause),
                Err(_) => MergeError::Swap {
                    out: out.to_path_buf(),
                    aside,
                    cause,
                },
            });
        }
        aside
    };
    if stop() {
        return Ok(());
    }
    if let Err(cause) = fs::remove_dir_all(&old) {
        note(format!(
            "the merged results are in {}, but its old results could not be deleted from {} \
             ({cause}): delete that directory (the next merge into {} does)",
            out.display(),
            old.display(),
            out.display()
        ));
    }
    Ok(())
}

/// Swaps the names `a` and `b` (both must exist) in one step.
#[cfg(all(target_os = "linux", any(target_env = "gnu", target_env = "musl")))]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let a = CString::new(a.as_os_str().as_bytes())?;
    let b = CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: two NUL-terminated paths that live across the call, the
    // current-directory descriptor, and a flag; nothing else is touched.
    let rc = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    match rc {
        0 => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

/// Swapping two names in one step is Linux's: elsewhere the two renames.
#[cfg(not(all(target_os = "linux", any(target_env = "gnu", target_env = "musl"))))]
fn exchange(_: &Path, _: &Path) -> io::Result<()> {
    Err(io::ErrorKind::Unsupported.into())
}

/// Whether `exchange` failed because the system or the file system cannot
/// exchange (then the two renames do it).
fn exchange_unsupported(err: &io::Error) -> bool {
    err.kind() == io::ErrorKind::Unsupported
        || matches!(
            err.raw_os_error(),
            Some(libc::EINVAL | libc::ENOSYS | libc::EOPNOTSUPP)
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// What a directory holds: each file and folder under it, relative, with
    /// the file's bytes (a folder: `None`); its lock left out.
    type Tree = BTreeMap<PathBuf, Option<Vec<u8>>>;

    fn tree(dir: &Path) -> Tree {
        fn walk(root: &Path, dir: &Path, into: &mut Tree) {
            for entry in fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                let rel = path.strip_prefix(root).unwrap().to_path_buf();
                if rel == Path::new(LOCK_FILE) {
                    continue;
                }
                if path.is_dir() {
                    into.insert(rel, None);
                    walk(root, &path, into);
                } else {
                    into.insert(rel, Some(fs::read(&path).unwrap()));
                }
            }
        }
        let mut into = Tree::new();
        walk(dir, dir, &mut into);
        into
    }

    fn fill(dir: &Path, files: &[(&str, &str)]) {
        for (name, text) in files {
            let path = dir.join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
    }

    /// What is in `parent` besides `out`: leftovers of a merge.
    fn others(parent: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(parent)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != "out")
            .collect();
        names.sort();
        names
    }

    /// Issue 39, item 5: `merge --force` killed while replacing the results
    /// left `OUT` with `summary.json` and the reports but no `games.csv`. Now
    /// the replacement is stopped, as a kill stops it, before and after each
    /// of its steps, on both paths (the exchange, and the two renames through
    /// the aside name): `OUT` is always the whole old directory or the whole
    /// new one, or (between the two renames) missing with the whole old one
    /// aside; and the next merge's clean-up leaves `OUT` whole, with nothing
    /// beside it, and says what it removed or restored.
    #[test]
    fn a_replaced_output_is_whole_old_or_whole_new_wherever_the_merge_stops() {
        let old_files = [
            ("games.csv", "old games\n"),
            ("summary.json", "{\"games\": 2}"),
            ("report.md", "old report"),
            ("charts/elo.svg", "old chart"),
            ("notes.txt", "mine"),
            ("keep/deep.txt", "mine too"),
        ];
        let new_files = [
            ("games.csv", "new games\nmore\n"),
            ("summary.json", "{\"games\": 3}"),
            ("report.md", "new report"),
            ("charts/wins.svg", "new chart"),
        ];
        for swap in [Swap::Exchange, Swap::Aside] {
            let mut seen_old = false;
            let mut seen_new = false;
            for stop_at in 0.. {
                let tmp = tempfile::tempdir().unwrap();
                let out = tmp.path().join("out");
                let staging = staging_path(&out);
                fs::create_dir(&out).unwrap();
                fill(&out, &old_files);
                fs::create_dir(&staging).unwrap();
                fill(&staging, &new_files);
                carry_over(&out, &staging).unwrap();
                let old = tree(&out);
                let new = tree(&staging);
                assert_eq!(new[Path::new("notes.txt")].as_deref(), Some(&b"mine"[..]));
                assert!(new.contains_key(Path::new("keep/deep.txt")));
                assert!(!new.contains_key(Path::new("charts/elo.svg")));
                let mut calls = 0;
                let mut notes = Vec::new();
                replace(
                    &staging,
                    &out,
                    swap,
                    &mut || {
                        calls += 1;
                        calls > stop_at
                    },
                    &mut |n| notes.push(n),
                )
                .unwrap();
                assert!(notes.is_empty(), "{notes:?}");
                let stopped = calls > stop_at;
                let at = format!("{swap:?}, stopped at step {stop_at}");
                if out.exists() {
                    let now = tree(&out);
                    assert!(now == old || now == new, "{at}: a mixed output {now:?}");
                    seen_old |= now == old;
                    seen_new |= now == new;
                } else {
                    assert_eq!(swap, Swap::Aside, "{at}: no output");
                    assert_eq!(tree(&aside_path(&out)), old, "{at}");
                }
                let left = others(tmp.path());
                let mut notes = Vec::new();
                clear_stopped_merge(&out, &mut |n| notes.push(n)).unwrap();
                let now = tree(&out);
                assert!(now == old || now == new, "{at}: cleared into {now:?}");
                assert!(
                    others(tmp.path()).is_empty(),
                    "{at}: {:?}",
                    others(tmp.path())
                );
                assert_eq!(notes.len(), left.len(), "{at}: {notes:?} for {left:?}");
                for (name, note) in left.iter().zip(&notes) {
                    assert!(note.contains(name.as_str()), "{at}: {note}");
                }
                if !stopped {
                    assert_eq!(now, new, "{at}");
                    break;
                }
            }
            assert!(seen_old && seen_new, "{swap:?}");
        }
    }

    #[test]
    fn the_staging_directory_of_a_live_merge_is_not_taken_for_a_stopped_ones() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let (staging, lock) = staging_dir(&out).unwrap();
        fill(&staging, &[("games.csv", "being written\n")]);
        let mut notes = Vec::new();
        let err = clear_stopped_merge(&out, &mut |n| notes.push(n)).unwrap_err();
        assert!(matches!(err, MergeError::Locked(_)), "{err}");
        assert!(staging.join("games.csv").exists() && notes.is_empty());
        drop(lock);
        clear_stopped_merge(&out, &mut |n| notes.push(n)).unwrap();
        assert!(!staging.exists());
        assert!(notes[0].contains(".out.merging"), "{notes:?}");
    }

    #[test]
    fn old_results_set_aside_wait_for_a_directory_that_is_not_one() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let aside = aside_path(&out);
        fs::create_dir(&aside).unwrap();
        fill(&aside, &[("games.csv", "old\n")]);
        fs::write(&out, "a file").unwrap();
        let err = clear_stopped_merge(&out, &mut |_| {}).unwrap_err();
        assert!(matches!(err, MergeError::Aside { .. }), "{err}");
        assert!(err.to_string().contains(".out.replaced"), "{err}");
        assert!(aside.join("games.csv").exists());
    }
}
