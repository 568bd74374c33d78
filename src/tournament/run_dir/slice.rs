//! Which games a run directory holds: the whole schedule, or one shard's
//! slice (with its `shard.toml`), and how a directory of another slice is
//! told apart before it is resumed.

use std::path::Path;

use super::error::{io_error, RunDirError};
use crate::records::run_files::GAMES_FILE;
use crate::tournament::schedule::Schedule;
use crate::tournament::shard::Shard;
use crate::tournament::shard_manifest::{ShardManifest, SHARD_FILE};

/// The games a directory holds: a slice of a schedule (`None`: a whole
/// run, without `shard.toml`).
#[derive(Clone, Copy)]
pub(super) struct Slice<'a> {
    pub(super) schedule: &'a Schedule,
    pub(super) shard: Option<Shard>,
    /// Its games.
    pub(super) total: u64,
}

impl Slice<'_> {
    pub(super) fn part(&self) -> Shard {
        self.shard.unwrap_or(Shard::WHOLE)
    }

    pub(super) fn games(&self) -> u64 {
        self.total
    }

    pub(super) fn ids(&self) -> Box<dyn Iterator<Item = u64> + '_> {
        match self.shard {
            None => Box::new(0..self.total),
            Some(shard) => Box::new(shard.each_id(self.schedule)),
        }
    }
}

/// Why `dir` does not hold `shard`, if it holds another slice (or, with a
/// `shard.toml`, a shard where a whole run is asked, or the reverse).
pub(super) fn slice_difference(
    dir: &Path,
    shard: Option<Shard>,
) -> Result<Option<String>, RunDirError> {
    let path = dir.join(SHARD_FILE);
    let saved = match ShardManifest::read(dir).map_err(io_error(&path, "read it"))? {
        Some(manifest) => match manifest.slice() {
            Some(saved) => Some(saved),
            None => return Ok(Some(format!("its {SHARD_FILE} names no slice"))),
        },
        None if dir.join(GAMES_FILE).exists() => None,
        None => return Ok(None),
    };
    Ok(match (saved, shard) {
        (saved, asked) if saved == asked => None,
        (None, Some(asked)) => Some(format!("it holds the whole run, not shard {asked}")),
        (Some(saved), None) => Some(format!("it holds shard {saved}, not the whole run")),
        (Some(saved), Some(asked)) => Some(format!("it holds shard {saved}, not {asked}")),
        (None, None) => None,
    })
}
