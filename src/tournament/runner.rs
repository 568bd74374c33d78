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
use std::sync::{mpsc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use thiserror::Error;

use super::adjudication::Adjudicator;
use super::lineup::Lineup;
use super::play_scheduled::{empty_row, fill_row, fill_row_from, play_measured, GameFailure};
use super::rounds_memory::MatchMemory;
use super::rounds_row::RoundColumns;
use super::schedule::{Schedule, ScheduledGame};
use super::shard::GameIds;
use crate::engine::forfeit::Forfeit;
use crate::engine::game::Outcome;
use crate::engine::moves::Move;
use crate::engine::side::Side;
use crate::metrics::file::push_metrics_row;
use crate::metrics::measures::{GameMeasures, MeasureRecorder};
use crate::records::game_row::GameRow;
use crate::records::moves_file::push_moves_row;
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
    /// Block index to the games of it recorded from their pair's first game
    /// (twins: [`Lineup::twins`]) instead of played; counted in `blocks` too.
    pub reused: BTreeMap<usize, u64>,
}

impl BlockTimes {
    fn add(&mut self, block: usize, games: u64, time: Duration) {
        let entry = self.blocks.entry(block).or_default();
        entry.0 += games;
        entry.1 += time;
    }

    fn add_reused(&mut self, block: usize) {
        *self.reused.entry(block).or_default() += 1;
    }

    /// Adds another's times to these.
    pub fn merge(&mut self, other: &BlockTimes) {
        for (&block, &(games, time)) in &other.blocks {
            self.add(block, games, time);
        }
        for (&block, &games) in &other.reused {
            *self.reused.entry(block).or_default() += games;
        }
    }
}

/// One chunk's output.
struct Chunk {
    csv: Vec<u8>,
    /// The end of each game's row in `csv`.
    csv_ends: Vec<usize>,
    /// Each game's id.
    ids: Vec<u64>,
    /// Every game's moves one after the other: always outside rounds (the
    /// writer hashes them for the rows), in a run in rounds only when moves
    /// are recorded. The writer formats them (`moves.csv`), not the worker:
    /// with one worker the writer's core is otherwise idle.
    moves: Vec<Move>,
    /// The end of each game's moves in `moves`.
    moves_ends: Vec<usize>,
    /// Each game's measures, when the run counts measures (the writer
    /// formats `metrics.csv` from them, and the watcher gets them).
    measures: Vec<GameMeasures>,
    /// The rows themselves, when the watcher wants them.
    rows: Vec<GameRow>,
    /// The games whose rows the writer makes ([`Chunk::make_rows`]): all
    /// of them but in a run in rounds, whose rows need the match's memory
    /// and are made by the worker.
    played: Vec<Played>,
    /// The games that ended by a forfeit, in id order.
    forfeits: Vec<GameForfeit>,
    /// False when the interrupt flag cut the chunk short.
    complete: bool,
    times: BlockTimes,
}

/// What the row of a game needs besides its moves (kept in the chunk).
#[derive(Debug, Clone, Copy)]
struct Played {
    scheduled: ScheduledGame,
    outcome: Outcome,
    opening_plies: u32,
}

impl Chunk {
    /// Games played (every one has its id, rows made or not).
    fn games(&self) -> usize {
        self.ids.len()
    }

    /// No game, its buffers' room kept.
    fn clear(&mut self) {
        self.csv.clear();
        self.csv_ends.clear();
        self.ids.clear();
        self.moves.clear();
        self.moves_ends.clear();
        self.measures.clear();
        self.rows.clear();
        self.played.clear();
        self.forfeits.clear();
        self.complete = true;
        self.times = BlockTimes::default();
    }

    /// Records `scheduled` as the twin of the chunk's last game when it is
    /// one: the second game of the same pair, both seats one deterministic
    /// agent ([`Lineup::twins`]), the first game played to its end without a
    /// forfeit. Its moves, outcome and measures are the first game's, its
    /// row its own (id, seeds). Returns whether it did.
    fn record_twin(
        &mut self,
        scheduled: &ScheduledGame,
        lineup: &Lineup,
        record_metrics: bool,
    ) -> bool {
        let Some(first) = self.played.last() else {
            return false;
        };
        let partner = &first.scheduled;
        let twin = partner.pair_id == scheduled.pair_id
            && partner.game_id + 1 == scheduled.game_id
            && (partner.south, partner.north) == (scheduled.north, scheduled.south)
            && lineup.twins(scheduled.south, scheduled.north)
            && !matches!(self.forfeits.last(), Some(f) if f.game_id == partner.game_id);
        if !twin {
            return false;
        }
        let played = Played {
            scheduled: *scheduled,
            ..*first
        };
        let start = self
            .moves_ends
            .len()
            .checked_sub(2)
            .map_or(0, |k| self.moves_ends[k]);
        let end = self.moves.len();
        self.moves.extend_from_within(start..end);
        self.moves_ends.push(self.moves.len());
        if record_metrics {
            let measures = *self.measures.last().expect("the first game's measures");
            self.measures.push(measures);
        }
        self.played.push(played);
        self.ids.push(scheduled.game_id);
        self.times.add_reused(scheduled.block);
        true
    }

    /// Makes the rows of the games in [`Chunk::played`] (their moves hash,
    /// their `games.csv` text, the rows the watcher wants), on the writer's
    /// thread: with one worker the writer's core is otherwise idle, and the
    /// worker plays on. The same bytes as when a worker made them.
    fn make_rows(&mut self, lineup: &Lineup, keep_rows: bool) {
        if self.played.is_empty() {
            return;
        }
        let mut row = empty_row();
        let mut start = 0;
        for (played, &end) in self.played.iter().zip(&self.moves_ends) {
            let moves = &self.moves[start..end];
            start = end;
            fill_row_from(
                &mut row,
                &played.scheduled,
                played.opening_plies,
                lineup,
                moves,
                &played.outcome,
            );
            row.push_csv(&mut self.csv);
            self.csv_ends.push(self.csv.len());
            if keep_rows {
                self.rows.push(row.clone());
            }
        }
        self.played.clear();
    }
}

/// Games per chunk: big for cheap random games (little overhead per chunk),
/// one for real agents. A real agent's games vary a hundredfold in length (a
/// 200-ply stalled game of the champion beside a 30-ply win), and a chunk is
/// played by one worker: with chunks of 8, the last chunks of a run kept one
/// core busy for minutes while the other had nothing left to take. With one
/// game per chunk no core idles while a game is still unstarted; the rows are
/// still written in id order.
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

/// How long the writer waits for a chunk before it tells the watcher it
/// is idle ([`Watch::idle`]).
pub const IDLE_TICK: Duration = Duration::from_millis(100);

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

    /// Called about every tenth of a second (`IDLE_TICK`) while the writer
    /// waits for a chunk (a long game, an agent that takes its time).
    fn idle(&mut self) {}

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

/// A game written that an agent forfeited, and why: the row says how the
/// game ended (`forfeit-crash`…); this says what the agent did.
#[derive(Debug, Clone, PartialEq)]
pub struct GameForfeit {
    /// The game.
    pub game_id: u64,
    /// The agent that forfeited, by its index in the lineup.
    pub agent: usize,
    /// What happened.
    pub forfeit: Forfeit,
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
    /// The games written that ended by a forfeit, in id order.
    pub forfeits: Vec<GameForfeit>,
}

/// Plays games `ids` (a range, or a shard's [`GameIds`]) with `threads`
/// workers (0 = all cores) and writes their rows, without header, to `out` in id order (each chunk's games rows, then
/// its moves rows, then its metrics rows), flushing after every chunk. `watch` sees every row before
/// it is written and may stop the run after it; it is told the number of
/// games written after each write.
///
/// Running an experiment from code, as `hoyito run` does: read it, give its
/// agents their specs (here the shipped ones), open its results directory
/// and play every game of its schedule, on one thread:
///
/// ```
/// use hoyito::report::read_games_csv;
/// use hoyito::tournament::{open_run_dir, run_games, Experiment, Lineup, Schedule};
/// use hoyito::tournament::{Winner, Work, GAMES_FILE};
/// use hoyito::Roster;
///
/// let text = r#"
///     name = "doc"
///     seed = 7
///     games = 4
///     [rules]
///     variants = ["ii"]
///     holes = [6]
///     [tournament]
///     format = "round-robin"
///     agents = ["random", "greedy"]
/// "#;
/// let mut experiment = Experiment::parse(text, "doc.toml")?;
/// experiment.round_to_pairs();
/// experiment.resolve_agents("doc.toml", || Ok(Roster::builtin()))?;
/// let (schedule, lineup) = (Schedule::new(&experiment), Lineup::new(experiment.agent_specs()));
///
/// let dir = std::env::temp_dir().join(format!("hoyito-doc-run-{}", std::process::id()));
/// let mut run_dir = open_run_dir(&dir, &experiment, schedule.len(), false)?;
/// let work = Work { schedule: &schedule, lineup: &lineup, adjudicator: None };
/// let outcome = run_games(work, 0..schedule.len(), 1, run_dir.sinks(), &mut |_| {})?;
/// assert_eq!((schedule.len(), outcome.written, outcome.stopped), (4, 4, None));
///
/// let mut greedy_wins = 0;
/// let rows = read_games_csv(&dir.join(GAMES_FILE), |row| match row.winner {
///     Winner::S if row.south == "greedy" => greedy_wins += 1,
///     Winner::N if row.north == "greedy" => greedy_wins += 1,
///     _ => {}
/// })?;
/// assert_eq!((rows, greedy_wins), (4, 4));
/// drop(run_dir); // unlocks the directory
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
    let twins = work.schedule.match_rounds() == 1 && work.lineup.has_twins();
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
    // Written chunks, emptied, for the workers to fill again: their buffers
    // keep their room, so a run of random games does not allocate (and
    // fault in) fresh pages for every chunk.
    let spares = &Mutex::new(Vec::<Chunk>::new());
    pool.in_place_scope(|scope| {
        let (mut submitted, mut received, mut next_write) = (0, 0, 0);
        let mut ready: BTreeMap<u64, Chunk> = BTreeMap::new();
        let mut scratch = Vec::new();
        loop {
            let stopping = failure.is_some() || outcome.stopped.is_some() || interrupted(interrupt);
            while !stopping && !exhausted && submitted < next_write + window {
                // Chunks end at a unit's end, so that a pair (and a match)
                // is played by one worker: a pair's twin is recorded from
                // its first game when both are in one chunk.
                let size = match ids.peek() {
                    None => chunk,
                    Some(next) => chunk - next % unit,
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
                    twins,
                    keep_rows,
                    interrupt,
                };
                scope.spawn(move |_| {
                    // The receiver outlives the scope; a send cannot fail.
                    let _ = tx.send((k, play_chunk(work, &runs, options, spares)));
                });
                submitted += 1;
            }
            if received == submitted {
                break;
            }
            // Woken every tenth of a second while no chunk comes back, so
            // that the watcher can look at what the run cannot (Python's
            // signals) however long a game takes.
            let (k, result) = match rx.recv_timeout(IDLE_TICK) {
                Ok(received) => received,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    watch.idle();
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    unreachable!("a worker holds a sender until it sends")
                }
            };
            received += 1;
            match result {
                Ok(mut done) => {
                    done.make_rows(work.lineup, keep_rows);
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
            while let Some(mut done) = ready.remove(&next_write) {
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
                if let Err(err) = write_chunk(&mut out, &done, games, &mut scratch) {
                    failure = Some((next_write, RunError::Write(err)));
                    break;
                }
                outcome.written += games as u64;
                let last_written = done.ids.get(games.wrapping_sub(1)).copied();
                outcome.forfeits.extend(
                    done.forfeits
                        .drain(..)
                        .filter(|f| last_written.is_some_and(|last| f.game_id <= last)),
                );
                watch.written(outcome.written);
                outcome.times.merge(&done.times);
                done.clear();
                spares
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(done);
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
/// moves rows, then its metrics rows, the last two formatted here into
/// `scratch`.
fn write_chunk(
    out: &mut RecordSinks<'_>,
    chunk: &Chunk,
    games: usize,
    scratch: &mut Vec<u8>,
) -> io::Result<()> {
    let csv_end = chunk
        .csv_ends
        .get(games.wrapping_sub(1))
        .copied()
        .unwrap_or(0);
    out.games.write_all(&chunk.csv[..csv_end])?;
    out.games.flush()?;
    if let Some(moves) = out.moves.as_mut() {
        scratch.clear();
        let mut start = 0;
        for (&id, &end) in chunk.ids.iter().zip(&chunk.moves_ends).take(games) {
            push_moves_row(scratch, id, &chunk.moves[start..end]);
            start = end;
        }
        moves.write_all(scratch)?;
        moves.flush()?;
    }
    if let Some(metrics) = out.metrics.as_mut() {
        scratch.clear();
        for (&id, measures) in chunk.ids.iter().zip(&chunk.measures).take(games) {
            push_metrics_row(scratch, id, measures);
        }
        metrics.write_all(scratch)?;
        metrics.flush()?;
    }
    Ok(())
}

/// What a worker keeps of the games it plays.
#[derive(Debug, Clone, Copy)]
struct ChunkOptions {
    record_moves: bool,
    record_metrics: bool,
    /// Whether any pairing can have twins ([`Lineup::has_twins`], never in
    /// rounds): otherwise no game is checked for one.
    twins: bool,
    keep_rows: bool,
    interrupt: Option<&'static AtomicBool>,
}

/// Plays one chunk of games (runs of consecutive ids) and keeps what their
/// rows need: the writer makes them ([`Chunk::make_rows`]), but in a run in
/// rounds, whose rows the match's memory makes here. When the interrupt flag
/// is set it stops between games and returns the games played so far,
/// marked incomplete.
fn play_chunk(
    work: Work<'_>,
    runs: &[Range<u64>],
    options: ChunkOptions,
    spares: &Mutex<Vec<Chunk>>,
) -> Result<Chunk, GameFailure> {
    let games = runs.iter().map(|r| r.end - r.start).sum::<u64>() as usize;
    let spare = spares.lock().unwrap_or_else(PoisonError::into_inner).pop();
    let mut chunk = spare.unwrap_or_else(|| Chunk {
        csv: Vec::with_capacity(112 * games),
        csv_ends: Vec::with_capacity(games),
        ids: Vec::with_capacity(games),
        moves: Vec::with_capacity(110 * games),
        moves_ends: Vec::with_capacity(games),
        measures: Vec::with_capacity(if options.record_metrics { games } else { 0 }),
        rows: Vec::new(),
        played: Vec::with_capacity(games),
        forfeits: Vec::new(),
        complete: true,
        times: BlockTimes::default(),
    });
    let mut recorder = MeasureRecorder::new();
    let mut row = empty_row();
    let in_rounds = work.schedule.match_rounds() > 1;
    // Rows with the round columns go through serde; plain rows are written
    // by hand (`GameRow::push_csv`, the same bytes).
    let mut round_writer = in_rounds.then(|| {
        csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new())
    });
    // Bytes of `round_writer` already copied to the chunk's `csv`.
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
        if options.twins && chunk.record_twin(&scheduled, work.lineup, options.record_metrics) {
            continue;
        }
        let opening = work.schedule.opening(&scheduled);
        let measures = options.record_metrics.then_some(&mut recorder);
        let (game, forfeit) = play_measured(
            &scheduled,
            opening,
            work.lineup,
            work.adjudicator,
            measures,
            |_, _| {},
        )?;
        if let Some(forfeit) = forfeit {
            if interrupted(options.interrupt) {
                // A forfeit while the run stops may be the stop's doing (an
                // agent process that got the same Ctrl-C, a Python callable
                // interrupted): the game is not recorded, and a resumed run
                // plays it again.
                block_start.1 -= 1;
                chunk.complete = false;
                break;
            }
            let agent = match game.position().side_to_move() {
                Side::South => scheduled.south,
                Side::North => scheduled.north,
            };
            chunk.forfeits.push(GameForfeit {
                game_id: id,
                agent,
                forfeit,
            });
        }
        chunk.ids.push(id);
        let outcome = game.outcome().expect("a played game is over");
        if let Some(writer) = round_writer.as_mut() {
            fill_row(&mut row, &scheduled, opening.plies(), work.lineup, &game);
            matches.record(work.schedule, &scheduled, outcome);
            let columns = RoundColumns::of(&scheduled, &game);
            writer
                .serialize((&row, columns))
                .expect("a row serialises to memory");
            writer.flush().expect("flushing to memory cannot fail");
            chunk
                .csv
                .extend_from_slice(&writer.get_ref()[round_bytes..]);
            round_bytes = writer.get_ref().len();
            chunk.csv_ends.push(chunk.csv.len());
            if options.keep_rows {
                chunk.rows.push(row.clone());
            }
            if options.record_moves {
                chunk.moves.extend_from_slice(game.moves());
            }
        } else {
            // The writer makes the row; it needs the moves for the hash.
            chunk.played.push(Played {
                scheduled,
                outcome,
                opening_plies: opening.plies(),
            });
            chunk.moves.extend_from_slice(game.moves());
        }
        chunk.moves_ends.push(chunk.moves.len());
        if options.record_metrics {
            chunk.measures.push(recorder.finish(outcome.winner));
        }
    }
    chunk
        .times
        .add(block_start.0, block_start.1, block_start.2.elapsed());
    Ok(chunk)
}

#[cfg(test)]
mod tests;
