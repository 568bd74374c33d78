//! The checks of a merge, all made before a byte is written: each directory
//! is a shard (its `shard.toml`), not being written (its lock, taken shared),
//! complete, of the same experiment and code as the others (the
//! fingerprint), and every slice `0..N` is there exactly once; every row of
//! every shard passes the one validation of a run's rows
//! ([`crate::tournament::run_rows`]); and the output may receive the merge.

use std::fs;
use std::path::{Path, PathBuf};

use super::error::{io_error, MergeError};
use crate::records::record_lines::RecordFileError;
use crate::records::run_files::EXPERIMENT_FILE;
use crate::records::safe_file::is_symlink;
use crate::tournament::config::error::ConfigError;
use crate::tournament::config::experiment::Experiment;
use crate::tournament::run_lock::{lock_exclusive, lock_shared, DirLock};
use crate::tournament::run_rows::{check_run_rows, RowFiles};
use crate::tournament::schedule::Schedule;
use crate::tournament::shard::Shard;
use crate::tournament::shard_manifest::{Fingerprint, ShardManifest, SHARD_FILE};

/// One checked shard.
pub(super) struct Part {
    pub(super) dir: PathBuf,
    pub(super) shard: Shard,
    _lock: Option<DirLock>,
}

/// Checks every directory and returns them in slice order, with the
/// experiment they play and its fingerprint.
pub(super) fn check_shards(
    dirs: &[PathBuf],
) -> Result<(Vec<Part>, Experiment, Fingerprint), MergeError> {
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
pub(super) fn check_rows(
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
pub(super) fn check_out(
    out: &Path,
    parts: &[Part],
    force: bool,
) -> Result<Option<DirLock>, MergeError> {
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
