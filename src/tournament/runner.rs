//! Runs a range of scheduled games in parallel and writes their rows in id order.
//!
//! Work is cut into chunks of consecutive game ids. Workers (a rayon pool)
//! play a chunk and format its rows to CSV bytes (and, when moves are
//! recorded, its `moves.csv` rows); the calling thread keeps a small reorder
//! buffer and writes chunks strictly in order, as soon as each next one is
//! ready. At most a few chunks per thread are in flight, so memory
//! stays flat however many games a run has, and the bytes written do not depend
//! on the number of threads or on which finishes first.
//!
//! In a run in rounds (Hoyito III matches) chunks end at multiples of the
//! schedule's unit, a seat-swapped pair of matches: a match's rounds are
//! played in order by one worker, each after the one before
//! ([`MatchMemory`]). A range that starts inside a match (a resumed run)
//! replays that match's earlier rounds first, without writing them.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use thiserror::Error;

use super::adjudication::Adjudicator;
use super::lineup::Lineup;
use super::match_rounds::MatchMemory;
use super::play::{empty_row, fill_row_hashed, play_measured, GameFailure};
use super::round_row::RoundColumns;
use super::schedule::Schedule;
use super::shard::GameIds;
use crate::metrics::{push_metrics_row, GameMeasures, MeasureRecorder};
use crate::records::game_row::GameRow;
use crate::records::moves_file::push_moves_row;
use crate::records::moves_hash::MovesHasher;
use crate::solver::mapped_files::{self, TableChanged};

/// A run that stopped.
#[derive(Debug, Error)]
pub enum RunError {
    /// A game could not be played.
    #[error(transparent)]
    Play(#[from] GameFailure),
    /// The rows could not be written.
    #[error("cannot write the game records: {0}")]
    Write(io::Error),
    /// A table file the process maps changed in place: the games since the
    /// last check are not written.
    #[error(transparent)]
    TablesChanged(#[from] TableChanged),
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
    /// Its adjudication, when the experiment asks for one.
    pub adjudicator: Option<&'a Adjudicator>,
}

/// Where the rows of a run go, each flushed after every chunk.
pub struct RecordSinks<'a> {
    /// The rows of `games.csv`, without header.
    pub games: &'a mut dyn Write,
    /// The rows of `moves.csv`, without header; `None` records no moves.
    pub moves: Option<&'a mut dyn Write>,
    /// The rows of `metrics.csv`, without header; `None` counts no
    /// per-game measures.
    pub metrics: Option<&'a mut dyn Write>,
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
    /// The end of each game's row in `csv`.
    csv_ends: Vec<usize>,
    /// Its `moves.csv` rows; empty when moves are not recorded.
    moves: Vec<u8>,
    /// The end of each game's row in `moves`.
    moves_ends: Vec<usize>,
    /// Its `metrics.csv` rows; empty when measures are not recorded.
    metrics: Vec<u8>,
    /// The end of each game's row in `metrics`.
    metrics_ends: Vec<usize>,
    /// The rows themselves, when the watcher wants them.
    rows: Vec<GameRow>,
    /// Their measures, when the watcher wants the rows and the run counts
    /// measures.
    measures: Vec<GameMeasures>,
    /// False when the interrupt flag cut the chunk short.
    complete: bool,
    times: BlockTimes,
}

impl Chunk {
    /// Games played.
    fn games(&self) -> usize {
        self.csv_ends.len()
    }
}

/// Games per chunk: big for cheap random games (little overhead per chunk),
/// one for real agents. A real agent's games vary a hundredfold in length
/// (a 200-ply stalled game of the champion beside a 30-ply win), and a
/// chunk is played by one worker: with chunks of 8, the last chunks of a
/// run kept one core busy for minutes while the other had nothing left to
/// take (issue 37). With one game per chunk no core idles while a game is
/// still unstarted; the rows are still written in id order.
pub fn chunk_size(lineup: &Lineup) -> u64 {
    if lineup.all_random() {
        512
    } else {
        1
    }
}

/// Chunks played or queued ahead of the next one to write, per thread: the
/// reorder buffer's bound. Real agents' chunks are single games whose rows
/// take about a kilobyte, so 256 a thread lets the other cores run on far
/// past one slow game (a slow game must be 256 times as long as the others
/// before a core waits) for a few hundred kilobytes held; random chunks are
/// 512 games, and 16 a thread keep the buffer as small.
fn window_per_thread(chunk: u64) -> u64 {
    if chunk <= 2 {
        256
    } else {
        16
    }
}

/// What the caller follows of a run while it plays: the rows in id order as
/// they are written, the count written, and a flag that stops it early.
///
/// A closure `FnMut(u64)` is a watcher that only follows the count.
pub trait Watch {
    /// Whether [`Watch::game`] wants the rows (they cost a copy per game).
    fn wants_rows(&self) -> bool {
        false
    }

    /// A game about to be written, in id order (only when
    /// [`Watch::wants_rows`]), with its measures when the run records them
    /// (`metrics.csv`). [`Flow::Stop`] writes this game and ends the run
    /// after it: nothing later is written.
    fn game(&mut self, _row: &GameRow, _measures: Option<&GameMeasures>) -> Flow {
        Flow::Continue
    }

    /// Games written so far by this call, after each write.
    fn written(&mut self, _games: u64) {}

    /// A flag that, once set (by Ctrl-C), ends the run as soon as the games
    /// being played are done: the rows written are a complete prefix. Static,
    /// as a signal is process-wide, so workers may read it while the watcher
    /// is borrowed to follow the rows.
    fn interrupt(&self) -> Option<&'static AtomicBool> {
        None
    }
}

impl<F: FnMut(u64)> Watch for F {
    fn written(&mut self, games: u64) {
        self(games)
    }
}

/// Whether a run goes on after a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Play on.
    Continue,
    /// Write this game and stop (an SPRT decision).
    Stop,
}

/// Why a run ended before its last game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// The watcher stopped it after a game ([`Flow::Stop`]).
    ByWatcher,
    /// The interrupt flag was set.
    Interrupted,
}

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunOutcome {
    /// Worker time per block.
    pub times: BlockTimes,
    /// Games written.
    pub written: u64,
    /// Set when the run ended before its last game.
    pub stopped: Option<Stopped>,
}

/// Plays games `ids` (a range, or a shard's [`GameIds`]) with `threads`
/// workers (0 = all cores) and writes their rows, without header, to `out` in id order (each chunk's games rows, then
/// its moves rows, then its metrics rows), flushing after every chunk. `watch` sees every row before
/// it is written and may stop the run after it; it is told the number of
/// games written after each write.
pub fn run_games<'a>(
    work: Work<'_>,
    ids: impl Into<GameIds<'a>>,
    threads: usize,
    mut out: RecordSinks<'_>,
    watch: &mut impl Watch,
) -> Result<RunOutcome, RunError> {
    let record_moves = out.moves.is_some();
    let record_metrics = out.metrics.is_some();
    let keep_rows = watch.wants_rows();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|cause| RunError::Threads { threads, cause })?;
    let unit = work.schedule.unit();
    // In a run in rounds chunks are whole match pairs (the first may be
    // shorter, to end at one where a resume starts inside a match).
    let chunk = chunk_size(work.lineup).div_ceil(unit) * unit;
    let mut ids: GameIds<'a> = ids.into();
    let total = ids.len();
    let mut exhausted = false;
    let window = window_per_thread(chunk) * pool.current_num_threads() as u64;
    let (tx, rx) = mpsc::channel::<(u64, Result<Chunk, GameFailure>)>();
    let mut outcome = RunOutcome::default();
    // The failure of the lowest chunk, so that the error does not depend on timing.
    let mut failure: Option<(u64, RunError)> = None;
    let interrupt = watch.interrupt();
    pool.in_place_scope(|scope| {
        let (mut submitted, mut received, mut next_write) = (0, 0, 0);
        let mut ready: BTreeMap<u64, Chunk> = BTreeMap::new();
        loop {
            let stopping = failure.is_some() || outcome.stopped.is_some() || interrupted(interrupt);
            while !stopping && !exhausted && submitted < next_write + window {
                let size = match (unit, ids.peek()) {
                    (2, _) | (_, None) => chunk,
                    (_, Some(next)) => chunk - next % unit,
                };
                let Some(runs) = ids.next_chunk(size) else {
                    exhausted = true;
                    break;
                };
                let tx = tx.clone();
                let k = submitted;
                let options = ChunkOptions {
                    record_moves,
                    record_metrics,
                    keep_rows,
                    interrupt,
                };
                scope.spawn(move |_| {
                    // The receiver outlives the scope; a send cannot fail.
                    let _ = tx.send((k, play_chunk(work, &runs, options)));
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
            if failure.is_some() || outcome.stopped.is_some() {
                // Stop: drain the chunks in flight, write nothing more.
                ready.clear();
                continue;
            }
            while let Some(done) = ready.remove(&next_write) {
                // Every row written was finished before a check that found
                // every mapped table as verified (the games of this chunk
                // all were).
                if let Err(changed) = mapped_files::check_unchanged() {
                    failure = Some((next_write, changed.into()));
                    break;
                }
                let (games, end) = match watch_chunk(watch, &done) {
                    Some(last) => (last + 1, Some(Stopped::ByWatcher)),
                    None if done.complete => (done.games(), None),
                    None => (done.games(), Some(Stopped::Interrupted)),
                };
                if let Err(err) = write_chunk(&mut out, &done, games) {
                    failure = Some((next_write, RunError::Write(err)));
                    break;
                }
                outcome.written += games as u64;
                watch.written(outcome.written);
                for (block, (games, time)) in done.times.blocks {
                    outcome.times.add(block, games, time);
                }
                next_write += 1;
                if end.is_some() {
                    outcome.stopped = end;
                    ready.clear();
                    break;
                }
            }
        }
    });
    if outcome.stopped.is_none() && outcome.written < total {
        outcome.stopped = Some(Stopped::Interrupted);
    }
    match failure {
        Some((_, err)) => Err(err),
        None => Ok(outcome),
    }
}

/// The watcher's verdict on a chunk: the index of the game after which it
/// stops, if it does.
fn watch_chunk(watch: &mut impl Watch, chunk: &Chunk) -> Option<usize> {
    chunk
        .rows
        .iter()
        .enumerate()
        .position(|(k, row)| watch.game(row, chunk.measures.get(k)) == Flow::Stop)
}

/// Whether the interrupt flag is set.
fn interrupted(flag: Option<&AtomicBool>) -> bool {
    flag.is_some_and(|flag| flag.load(Ordering::Relaxed))
}

/// Writes the first `games` games of a chunk: its games rows, then its
/// moves rows, then its metrics rows.
fn write_chunk(out: &mut RecordSinks<'_>, chunk: &Chunk, games: usize) -> io::Result<()> {
    let csv_end = chunk
        .csv_ends
        .get(games.wrapping_sub(1))
        .copied()
        .unwrap_or(0);
    out.games.write_all(&chunk.csv[..csv_end])?;
    out.games.flush()?;
    if let Some(moves) = out.moves.as_mut() {
        let moves_end = chunk
            .moves_ends
            .get(games.wrapping_sub(1))
            .copied()
            .unwrap_or(0);
        moves.write_all(&chunk.moves[..moves_end])?;
        moves.flush()?;
    }
    if let Some(metrics) = out.metrics.as_mut() {
        let metrics_end = chunk
            .metrics_ends
            .get(games.wrapping_sub(1))
            .copied()
            .unwrap_or(0);
        metrics.write_all(&chunk.metrics[..metrics_end])?;
        metrics.flush()?;
    }
    Ok(())
}

/// What a worker keeps of the games it plays.
#[derive(Debug, Clone, Copy)]
struct ChunkOptions {
    record_moves: bool,
    record_metrics: bool,
    keep_rows: bool,
    interrupt: Option<&'static AtomicBool>,
}

/// Plays one chunk of games (runs of consecutive ids) and formats their rows (and their
/// moves rows when `record_moves`). When the interrupt flag is set it stops
/// between games and returns the games played so far, marked incomplete.
fn play_chunk(
    work: Work<'_>,
    runs: &[Range<u64>],
    options: ChunkOptions,
) -> Result<Chunk, GameFailure> {
    let games = runs.iter().map(|r| r.end - r.start).sum::<u64>() as usize;
    let mut csv = Vec::with_capacity(112 * games);
    let mut moves = Vec::with_capacity(if options.record_moves { 160 * games } else { 0 });
    let mut metrics = Vec::with_capacity(if options.record_metrics {
        48 * games
    } else {
        0
    });
    let mut recorder = MeasureRecorder::new();
    let mut chunk = Chunk {
        csv: Vec::new(),
        csv_ends: Vec::with_capacity(games),
        moves: Vec::new(),
        moves_ends: Vec::with_capacity(games),
        metrics: Vec::new(),
        metrics_ends: Vec::with_capacity(games),
        rows: Vec::new(),
        measures: Vec::new(),
        complete: true,
        times: BlockTimes::default(),
    };
    let mut row = empty_row();
    let in_rounds = work.schedule.match_rounds() > 1;
    // Rows with the round columns go through serde; plain rows are written
    // by hand (`GameRow::push_csv`, the same bytes).
    let mut round_writer = in_rounds.then(|| {
        csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new())
    });
    // Bytes of `round_writer` already copied to `csv`.
    let mut round_bytes = 0;
    let mut matches = MatchMemory::new();
    let first = runs.first().map_or(0, |r| r.start);
    // (block, games played in it so far, since when).
    let mut block_start = (work.schedule.game(first).block, 0u64, Instant::now());
    for id in runs.iter().cloned().flatten() {
        if interrupted(options.interrupt) {
            chunk.complete = false;
            break;
        }
        let scheduled = matches.prepare(work.schedule, work.lineup, id)?;
        if scheduled.block != block_start.0 {
            chunk
                .times
                .add(block_start.0, block_start.1, block_start.2.elapsed());
            block_start = (scheduled.block, 0, Instant::now());
        }
        block_start.1 += 1;
        let opening = work.schedule.opening(&scheduled);
        let measures = options.record_metrics.then_some(&mut recorder);
        let mut hasher = MovesHasher::new();
        let game = play_measured(
            &scheduled,
            opening,
            work.lineup,
            work.adjudicator,
            measures,
            |_, mv| hasher.push(mv),
        )?;
        let hash = hasher.finish();
        fill_row_hashed(
            &mut row,
            &scheduled,
            opening.plies(),
            work.lineup,
            &game,
            hash,
        );
        if let Some(writer) = round_writer.as_mut() {
            let outcome = game.outcome().expect("a played game is over");
            matches.record(work.schedule, &scheduled, outcome);
            let columns = RoundColumns::of(&scheduled, &game);
            writer
                .serialize((&row, columns))
                .expect("a row serialises to memory");
            writer.flush().expect("flushing to memory cannot fail");
            csv.extend_from_slice(&writer.get_ref()[round_bytes..]);
            round_bytes = writer.get_ref().len();
        } else {
            row.push_csv(&mut csv);
        }
        chunk.csv_ends.push(csv.len());
        if options.record_moves {
            push_moves_row(&mut moves, id, game.moves());
        }
        chunk.moves_ends.push(moves.len());
        if options.record_metrics {
            let winner = game.outcome().and_then(|o| o.winner);
            let measures = recorder.finish(winner);
            push_metrics_row(&mut metrics, id, &measures);
            if options.keep_rows {
                chunk.measures.push(measures);
            }
        }
        chunk.metrics_ends.push(metrics.len());
        if options.keep_rows {
            chunk.rows.push(row.clone());
        }
    }
    chunk
        .times
        .add(block_start.0, block_start.1, block_start.2.elapsed());
    chunk.csv = csv;
    chunk.moves = moves;
    chunk.metrics = metrics;
    Ok(chunk)
}

#[cfg(test)]
mod tests;
