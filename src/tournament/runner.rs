//! Runs a range of scheduled games in parallel and writes their rows in id order.
//!
//! Work is cut into chunks of consecutive game ids. Workers (a rayon pool)
//! play a chunk and format its rows to CSV bytes (and, when moves are
//! recorded, its `moves.csv` rows); the calling thread keeps a small reorder
//! buffer and writes chunks strictly in order, as soon as each next one is
//! ready. At most a few chunks per thread are in flight, so memory
//! stays flat however many games a run has, and the bytes written do not depend
//! on the number of threads or on which finishes first.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::ops::Range;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use thiserror::Error;

use super::lineup::Lineup;
use super::moves_file::push_moves_row;
use super::play::{empty_row, fill_row, play_scheduled, GameFailure};
use super::schedule::Schedule;

/// A run that stopped.
#[derive(Debug, Error)]
pub enum RunError {
    /// A game could not be played.
    #[error(transparent)]
    Play(#[from] GameFailure),
    /// The rows could not be written.
    #[error("cannot write the game records: {0}")]
    Write(io::Error),
    /// The worker threads could not be started.
    #[error("cannot start {threads} worker threads: {cause}")]
    Threads {
        /// How many were asked for.
        threads: usize,
        /// Why not.
        cause: rayon::ThreadPoolBuildError,
    },
}

/// What the workers play: the schedule and the players.
#[derive(Debug, Clone, Copy)]
pub struct Work<'a> {
    /// The experiment's games.
    pub schedule: &'a Schedule,
    /// Its agents.
    pub lineup: &'a Lineup,
}

/// Where the rows of a run go, each flushed after every chunk.
pub struct RecordSinks<'a> {
    /// The rows of `games.csv`, without header.
    pub games: &'a mut dyn Write,
    /// The rows of `moves.csv`, without header; `None` records no moves.
    pub moves: Option<&'a mut dyn Write>,
}

/// Worker time spent per (variant, board, pairing) block.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BlockTimes {
    /// Block index to (games, summed worker time).
    pub blocks: BTreeMap<usize, (u64, Duration)>,
}

impl BlockTimes {
    fn add(&mut self, block: usize, games: u64, time: Duration) {
        let entry = self.blocks.entry(block).or_default();
        entry.0 += games;
        entry.1 += time;
    }
}

/// One chunk's output.
struct Chunk {
    csv: Vec<u8>,
    /// Its `moves.csv` rows; empty when moves are not recorded.
    moves: Vec<u8>,
    games: u64,
    times: BlockTimes,
}

/// Games per chunk: big for cheap random games (little overhead per chunk),
/// small for real agents (fine-grained progress and little lost on a kill).
pub fn chunk_size(lineup: &Lineup) -> u64 {
    if lineup.all_random() {
        512
    } else {
        8
    }
}

/// Plays games `ids` with `threads` workers (0 = all cores) and writes their
/// rows, without header, to `out` in id order (each chunk's games rows, then
/// its moves rows), flushing after every chunk. `progress` is told the number
/// of games written so far after each write.
pub fn run_games(
    work: Work<'_>,
    ids: Range<u64>,
    threads: usize,
    mut out: RecordSinks<'_>,
    mut progress: impl FnMut(u64),
) -> Result<BlockTimes, RunError> {
    let record_moves = out.moves.is_some();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|cause| RunError::Threads { threads, cause })?;
    let chunk = chunk_size(work.lineup);
    let chunks = (ids.end.saturating_sub(ids.start)).div_ceil(chunk);
    let chunk_ids = |k: u64| {
        let start = ids.start + k * chunk;
        start..(start + chunk).min(ids.end)
    };
    let window = 16 * pool.current_num_threads() as u64;
    let (tx, rx) = mpsc::channel::<(u64, Result<Chunk, GameFailure>)>();
    let mut times = BlockTimes::default();
    // The failure of the lowest chunk, so that the error does not depend on timing.
    let mut failure: Option<(u64, RunError)> = None;
    pool.in_place_scope(|scope| {
        let (mut submitted, mut received, mut next_write) = (0, 0, 0);
        let mut games_written = 0;
        let mut ready: BTreeMap<u64, Chunk> = BTreeMap::new();
        loop {
            while failure.is_none() && submitted < chunks && submitted < next_write + window {
                let tx = tx.clone();
                let range = chunk_ids(submitted);
                let k = submitted;
                scope.spawn(move |_| {
                    // The receiver outlives the scope; a send cannot fail.
                    let _ = tx.send((k, play_chunk(work, range, record_moves)));
                });
                submitted += 1;
            }
            if received == submitted {
                break;
            }
            let (k, result) = rx.recv().expect("a worker holds a sender until it sends");
            received += 1;
            match result {
                Ok(done) => {
                    ready.insert(k, done);
                }
                Err(err) => {
                    if failure.as_ref().map_or(true, |(first, _)| k < *first) {
                        failure = Some((k, err.into()));
                    }
                }
            }
            if failure.is_some() {
                // Stop: drain the chunks in flight, write nothing more.
                ready.clear();
                continue;
            }
            while let Some(done) = ready.remove(&next_write) {
                if let Err(err) = write_chunk(&mut out, &done) {
                    failure = Some((next_write, RunError::Write(err)));
                    break;
                }
                games_written += done.games;
                progress(games_written);
                for (block, (games, time)) in done.times.blocks {
                    times.add(block, games, time);
                }
                next_write += 1;
            }
        }
    });
    match failure {
        Some((_, err)) => Err(err),
        None => Ok(times),
    }
}

/// Writes and flushes a chunk's rows.
fn write_chunk(out: &mut RecordSinks<'_>, chunk: &Chunk) -> io::Result<()> {
    out.games.write_all(&chunk.csv)?;
    out.games.flush()?;
    if let Some(moves) = out.moves.as_mut() {
        moves.write_all(&chunk.moves)?;
        moves.flush()?;
    }
    Ok(())
}

/// Plays one chunk of consecutive games and formats their rows (and their
/// moves when `record_moves`).
fn play_chunk(work: Work<'_>, ids: Range<u64>, record_moves: bool) -> Result<Chunk, GameFailure> {
    let games = (ids.end - ids.start) as usize;
    let mut csv = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::with_capacity(112 * games));
    let mut moves = Vec::with_capacity(if record_moves { 160 * games } else { 0 });
    let mut row = empty_row();
    let mut times = BlockTimes::default();
    let mut block_start = (
        work.schedule.game(ids.start).block,
        ids.start,
        Instant::now(),
    );
    for id in ids.clone() {
        let scheduled = work.schedule.game(id);
        if scheduled.block != block_start.0 {
            times.add(block_start.0, id - block_start.1, block_start.2.elapsed());
            block_start = (scheduled.block, id, Instant::now());
        }
        let opening = work.schedule.opening(&scheduled);
        let game = play_scheduled(&scheduled, opening, work.lineup, |_, _| {})?;
        fill_row(&mut row, &scheduled, opening.plies(), work.lineup, &game);
        csv.serialize(&row).expect("a row serialises to memory");
        if record_moves {
            push_moves_row(&mut moves, id, game.moves());
        }
    }
    times.add(
        block_start.0,
        ids.end - block_start.1,
        block_start.2.elapsed(),
    );
    let csv = csv.into_inner().expect("flushing to memory cannot fail");
    Ok(Chunk {
        csv,
        moves,
        games: ids.end - ids.start,
        times,
    })
}

#[cfg(test)]
mod tests;
