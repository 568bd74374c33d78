//! Merging shards: the directories of `hoyito run --shard K/N`, K = 0..N,
//! joined into the directory the single run would have written.
//!
//! Every check comes first, before a byte is written: each directory is a
//! shard (its `shard.toml`), not being written (its lock, taken shared, see
//! [`super::run_lock`]), complete, of the same experiment and code as the
//! others (the fingerprint), and every slice `0..N` is there exactly once.
//! Then the rows are streamed: the schedule says which shard holds each pair
//! (see [`super::shard`]), so the k-way merge by game id takes each next row
//! from the shard that must hold it, checking its id, one line at a time;
//! memory does not grow with the games. Everything is written into a staging
//! directory beside the output and moved into place only at the end: a
//! failure leaves no half-written output.
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
use super::moves_file::{MOVES_FILE, MOVES_HEADER};
use super::round_row::games_header;
use super::run_dir::{remove_results, EXPERIMENT_FILE, GAMES_FILE};
use super::run_lock::{lock_exclusive, lock_shared, DirLock, LockError, LOCK_FILE};
use super::safe_file::{create_new, is_symlink, open_read_no_follow};
use super::schedule::Schedule;
use super::shard::Shard;
use super::shard_manifest::{Fingerprint, ShardManifest, CODE_VERSION, SHARD_FILE};
use crate::metrics::{metrics_header, METRICS_FILE};

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
    /// A row that is not where the schedule puts it.
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
/// directory (to write the report there) and moves everything into `out`.
/// `out` must be missing or empty, unless `force`, which replaces the
/// results in it (only the files a run writes).
pub fn merge_shards<E>(
    out: &Path,
    dirs: &[PathBuf],
    force: bool,
    finish: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<Merged, MergeError>
where
    E: std::error::Error + Send + Sync + 'static,
{
    let (parts, experiment, fingerprint) = check_shards(dirs)?;
    let count = parts[0].shard.count();
    let _out_lock = check_out(out, &parts, force)?;
    let schedule = Schedule::new(&experiment);
    let staging = staging_dir(out)?;
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
        place(&staging, out, force)?;
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

/// Checks that `out` may receive the merge: not a shard, missing or empty
/// (or `force`); locks it when it exists, so that no run writes it meanwhile.
fn check_out(out: &Path, parts: &[Part], force: bool) -> Result<Option<DirLock>, MergeError> {
    if is_symlink(out) {
        return Err(MergeError::OutExists {
            out: out.to_path_buf(),
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

/// A fresh staging directory beside `out`, on the same file system so that
/// its files are renamed into place.
fn staging_dir(out: &Path) -> Result<PathBuf, MergeError> {
    let name = out
        .file_name()
        .map_or_else(|| "merge".into(), |n| n.to_string_lossy().into_owned());
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&parent).map_err(io_error(&parent, "create the directory"))?;
    let staging = parent.join(format!(".{name}.merging"));
    if staging.exists() || is_symlink(&staging) {
        // Left by a killed merge: ours by name.
        fs::remove_dir_all(&staging).map_err(io_error(&staging, "delete it"))?;
    }
    fs::create_dir(&staging).map_err(io_error(&staging, "create it"))?;
    Ok(staging)
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

/// Moves the staged files into `out`: the whole directory when `out` is
/// missing or empty, else (`force`) file by file after deleting the old
/// results.
fn place(staging: &Path, out: &Path, force: bool) -> Result<(), MergeError> {
    let empty = !out.exists()
        || fs::read_dir(out)
            .map_err(io_error(out, "read it"))?
            .next()
            .is_none();
    if empty {
        return fs::rename(staging, out).map_err(io_error(out, "move the merged files into it"));
    }
    debug_assert!(force, "check_out refused a non-empty output");
    remove_results(out).map_err(|(path, cause)| io_error(&path, "delete it")(cause))?;
    let entries = fs::read_dir(staging).map_err(io_error(staging, "read it"))?;
    for entry in entries {
        let entry = entry.map_err(io_error(staging, "read it"))?;
        if entry.file_name() == LOCK_FILE {
            continue;
        }
        let target = out.join(entry.file_name());
        fs::rename(entry.path(), &target).map_err(io_error(&target, "move it into place"))?;
    }
    fs::remove_dir_all(staging).map_err(io_error(staging, "delete it"))
}
