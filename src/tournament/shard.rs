//! Shards: the K-th of N disjoint slices of an experiment's games, so that a
//! run larger than one machine is N ordinary runs (a Slurm array task, a
//! Kubernetes indexed pod each) and a merge.
//!
//! A shard is a slice of the schedule, nothing more: whole seat-swapped pairs
//! (a pair's games are never split, so pair-based statistics see both seats),
//! played with the same seeds as in a single run, so that merged rows are
//! byte for byte the single run's.
//!
//! Which shard plays a pair: lay the pairs out block by block (every round
//! of block 0, then every round of block 1, ...) and deal them to the shards
//! like cards, `shard = (block * rounds + round) mod N`. Each block's pairs
//! are consecutive in that order, so every block, cheap or expensive, is
//! spread over all shards within one pair of even, and so is the total; this
//! holds whatever the number of blocks (dealing by pair id instead would send
//! every pair of a block to one shard when the blocks are a multiple of N).
//!
//! Source: the cyclic ("card dealing") distribution, the block-cyclic layout
//! with blocks of one item (Blackford et al., ScaLAPACK Users' Guide, SIAM
//! 1997, on data distribution), applied to the pairs in block-major order.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use thiserror::Error;

use super::schedule::Schedule;

/// One slice of an experiment: shard `index` of `count` (`index < count`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u64,
    count: u64,
}

/// A `--shard` that names no slice.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShardError {
    /// Not `K/N` with two whole numbers.
    #[error("{0:?} is not K/N: expected two whole numbers such as 0/4 (shard K of N, 0 <= K < N)")]
    Syntax(String),
    /// No shards at all.
    #[error("{0}/0: the number of shards N must be at least 1")]
    NoShards(u64),
    /// `K >= N`.
    #[error(
        "{index}/{count}: shards are numbered from 0, so K must be below N \
         (0 to {last}), as Slurm's $SLURM_ARRAY_TASK_ID for --array=0-{last}",
        last = count - 1
    )]
    OutOfRange {
        /// K.
        index: u64,
        /// N.
        count: u64,
    },
    /// `N` beyond what `shard.toml` (TOML integers are 64-bit signed) can
    /// record.
    #[error("{index}/{count}: at most {MAX_SHARDS} shards (N is recorded in shard.toml)")]
    TooMany {
        /// K.
        index: u64,
        /// N.
        count: u64,
    },
}

/// The most shards a run can be cut into: the largest integer TOML holds.
pub const MAX_SHARDS: u64 = i64::MAX as u64;

impl Shard {
    /// The whole experiment: shard 0 of 1.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`.
    pub fn new(index: u64, count: u64) -> Result<Shard, ShardError> {
        if count == 0 {
            return Err(ShardError::NoShards(index));
        }
        if index >= count {
            return Err(ShardError::OutOfRange { index, count });
        }
        if count > MAX_SHARDS {
            return Err(ShardError::TooMany { index, count });
        }
        Ok(Shard { index, count })
    }

    /// K, from 0.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// N.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Whether this is the whole experiment (0/1).
    pub fn is_whole(&self) -> bool {
        self.count == 1
    }

    /// The shard, of `count`, that plays pair `pair_id` of `schedule`.
    pub fn of_pair(schedule: &Schedule, pair_id: u64, count: u64) -> u64 {
        let (block, round) = schedule.pair_place(pair_id);
        (block as u64 * schedule.rounds() + round) % count
    }

    /// The pairs of this slice, in id order.
    pub fn pairs<'a>(&self, schedule: &'a Schedule) -> impl Iterator<Item = u64> + 'a {
        let Shard { index, count } = *self;
        let blocks = schedule.blocks() as u64;
        let step = schedule.rounds() % count;
        // The dealt position of (block 0, round r) is r; each next block
        // adds `rounds`: the residue is carried, never divided per pair.
        (0..schedule.rounds()).flat_map(move |round| {
            let mut residue = round % count;
            (0..blocks).filter_map(move |block| {
                let mine = residue == index;
                residue = (residue + step) % count;
                mine.then_some(round * blocks + block)
            })
        })
    }

    /// How many pairs this slice holds: the dealt positions `q < pairs` with
    /// `q mod N = K`.
    pub fn pair_count(&self, schedule: &Schedule) -> u64 {
        let pairs = schedule.pairs();
        if self.index >= pairs {
            0
        } else {
            (pairs - self.index - 1) / self.count + 1
        }
    }

    /// How many games this slice holds.
    pub fn games(&self, schedule: &Schedule) -> u64 {
        if self.is_whole() {
            return schedule.len();
        }
        self.pairs(schedule)
            .map(|pair| {
                let ids = schedule.pair_games(pair);
                ids.end - ids.start
            })
            .sum()
    }

    /// This slice's game ids in order, from its `skip`-th game on.
    pub fn ids<'a>(&self, schedule: &'a Schedule, skip: u64) -> GameIds<'a> {
        if self.is_whole() {
            return GameIds::from(skip.min(schedule.len())..schedule.len());
        }
        let len = self.games(schedule).saturating_sub(skip);
        let runs = coalesce(self.pairs(schedule).map(|pair| schedule.pair_games(pair)));
        let mut ids = GameIds {
            runs: Box::new(runs),
            pending: None,
            len,
        };
        ids.skip(skip);
        ids.len = len;
        ids
    }

    /// Every game id of this slice, one by one, in order.
    pub fn each_id<'a>(&self, schedule: &'a Schedule) -> impl Iterator<Item = u64> + 'a {
        let mut ids = self.ids(schedule, 0);
        std::iter::from_fn(move || ids.next_run(u64::MAX)).flatten()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(syntax)?;
        let number = |s: &str| {
            let plain = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            plain.then(|| s.parse::<u64>().ok()).flatten()
        };
        let (Some(index), Some(count)) = (number(k), number(n)) else {
            return Err(syntax());
        };
        Shard::new(index, count)
    }
}

/// Joins runs of ids that follow each other into one.
fn coalesce(runs: impl Iterator<Item = Range<u64>>) -> impl Iterator<Item = Range<u64>> {
    let mut runs = runs.peekable();
    std::iter::from_fn(move || {
        let mut run = runs.next()?;
        while let Some(next) = runs.next_if(|next| next.start == run.end) {
            run.end = next.end;
        }
        Some(run)
    })
}

/// The game ids a run plays, in increasing order, as runs of consecutive
/// ids: a range for a whole run, a shard's pairs for a slice.
pub struct GameIds<'a> {
    runs: Box<dyn Iterator<Item = Range<u64>> + 'a>,
    /// The part of a run not handed out yet.
    pending: Option<Range<u64>>,
    len: u64,
}

impl fmt::Debug for GameIds<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameIds")
            .field("pending", &self.pending)
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

impl From<Range<u64>> for GameIds<'static> {
    fn from(ids: Range<u64>) -> GameIds<'static> {
        let len = ids.end.saturating_sub(ids.start);
        GameIds {
            runs: Box::new((len > 0).then_some(ids).into_iter()),
            pending: None,
            len,
        }
    }
}

impl GameIds<'_> {
    /// How many games in all (those handed out included).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether there is no game at all.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The next id to be handed out, if any.
    pub fn peek(&mut self) -> Option<u64> {
        if self.pending.is_none() {
            self.pending = self.runs.next();
        }
        self.pending.as_ref().map(|run| run.start)
    }

    /// The next run of consecutive ids, at most `most` long (at least 1).
    pub fn next_run(&mut self, most: u64) -> Option<Range<u64>> {
        let run = self.pending.take().or_else(|| self.runs.next())?;
        let most = most.max(1);
        if run.end - run.start > most {
            let cut = run.start + most;
            self.pending = Some(cut..run.end);
            Some(run.start..cut)
        } else {
            Some(run)
        }
    }

    /// The next `size` games (fewer at the end) as runs of consecutive ids;
    /// `None` when every game has been handed out.
    pub fn next_chunk(&mut self, size: u64) -> Option<Vec<Range<u64>>> {
        let mut chunk = Vec::new();
        let mut left = size.max(1);
        while left > 0 {
            let Some(run) = self.next_run(left) else {
                break;
            };
            left -= run.end - run.start;
            chunk.push(run);
        }
        (!chunk.is_empty()).then_some(chunk)
    }

    /// Drops the first `games` games.
    fn skip(&mut self, mut games: u64) {
        while games > 0 {
            match self.next_run(games) {
                Some(run) => games -= run.end - run.start,
                None => break,
            }
        }
    }
}

#[cfg(test)]
mod tests;
