//! The one validation of a run's rows, shared by every reader of a run
//! directory: resume, merge, `report`, `export` and `replay`.
//!
//! A row of `games.csv` can be edited by hand, copied from another run or
//! half-restored from a backup, and every number a report prints comes from
//! such rows; so no reader trusts one it did not check the same way the
//! others do (otherwise `merge`, `report` and `export` would take rows with
//! swapped results, an extra ply, a changed ending or a zeroed `moves_hash`
//! that resume refuses). Each row is checked against the rules
//! and the experiment's schedule ([`super::row_check`]); its row of
//! `moves.csv`, read in step, is hashed and replayed through the engine and
//! must end the game as the row says; and its row of `metrics.csv`, read in
//! step too, must be the measures counted again over the replayed moves
//! ([`check_replay`]). Adjudicated and forfeited games pass as they end.
//!
//! Replaying is most of the cost (about 14 microseconds of CPU a game on
//! random 2x6 games, parsing 3), so rows are replayed in batches on the rayon
//! pool while the next batch is read; the first problem in file order is
//! the one reported, whatever the thread count. Without `moves.csv` (a run made with
//! `[record] moves = false`, or the file deleted) the result columns and
//! `metrics.csv` can only be checked against the rules and the schedule.

use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use csv::{ErrorKind, StringRecord};
use rayon::prelude::*;

use super::config::experiment::Experiment;
use super::row_check::{check_replay, check_rules, RowProblem, ScheduleCheck};
use crate::engine::game::Game;
use crate::engine::moves::Move;
use crate::metrics::file::{MetricsReader, METRICS_COLUMNS, METRICS_FILE};
use crate::metrics::measures::GameMeasures;
use crate::records::game_row::GameRow;
use crate::records::moves_file::{MovesReader, MovesRow, MOVES_FILE};
use crate::records::record_lines::RecordFileError;
use crate::records::run_files::GAMES_FILE;
use crate::records::safe_file::open_regular;

/// Rows replayed together on the rayon pool.
const BATCH: usize = 4096;

/// Which files beside `games.csv` a check reads in step with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowFiles {
    /// `moves.csv`: replay each game.
    pub moves: bool,
    /// `metrics.csv`: each game's measures (recomputed when moves are read).
    pub metrics: bool,
}

impl RowFiles {
    /// The files that are in `dir` (a reader of a finished run takes what
    /// is there: `moves.csv` may have been deleted to save space).
    pub fn present(dir: &Path) -> RowFiles {
        RowFiles {
            moves: dir.join(MOVES_FILE).exists(),
            metrics: dir.join(METRICS_FILE).exists(),
        }
    }
}

/// A game waiting in a batch to be replayed.
struct Pending {
    row: GameRow,
    games_line: u64,
    moves_line: u64,
    metrics_line: u64,
    start: Game,
    moves: Vec<Move>,
    measures: Option<GameMeasures>,
}

/// The check of a run directory's rows, one row of `games.csv` at a time in
/// file order, reading `moves.csv` and `metrics.csv` beside it (opened at the
/// first row). A problem found at once is returned by
/// [`RunRows::check`]; one found by a replay may come from a later call or
/// from [`RunRows::finish`], which must be called after the last row.
pub struct RunRows {
    dir: PathBuf,
    schedule: Option<ScheduleCheck>,
    files: RowFiles,
    opened: bool,
    moves: Option<MovesReader>,
    metrics: Option<MetricsReader>,
    moves_row: MovesRow,
    batch: Vec<Pending>,
    /// The batch being replayed on the pool: its first problem, when done.
    running: Option<mpsc::Receiver<Option<Failure>>>,
}

impl RunRows {
    /// A check of the rows of `dir`, against `experiment` when the
    /// directory has one (without it only the rules and the order of
    /// `metrics.csv` are checked: the stall rules a replay needs are the
    /// experiment's).
    pub fn new(dir: &Path, experiment: Option<&Experiment>, files: RowFiles) -> RunRows {
        RunRows {
            dir: dir.to_path_buf(),
            schedule: experiment.map(ScheduleCheck::new),
            files: RowFiles {
                moves: files.moves && experiment.is_some(),
                metrics: files.metrics,
            },
            opened: false,
            moves: None,
            metrics: None,
            moves_row: MovesRow::default(),
            batch: Vec::new(),
            running: None,
        }
    }

    /// Checks the next row of `games.csv`, `row` at line `line`, which
    /// [`check_rules`] accepted: the columns the schedule fixes, then reads
    /// the rows of `moves.csv` and `metrics.csv` beside it (same game id)
    /// and queues the replay. Returns the game's measures from
    /// `metrics.csv`, when it is read.
    pub fn check(
        &mut self,
        row: &GameRow,
        line: u64,
    ) -> Result<Option<GameMeasures>, RecordFileError> {
        if !self.opened {
            self.open()?;
        }
        let games = self.dir.join(GAMES_FILE);
        if let Some(schedule) = self.schedule.as_mut() {
            schedule
                .check(row)
                .map_err(|problem| parse_error(&games, line, problem.to_string()))?;
        }
        let in_step = |found: u64| {
            format!(
                "game {found}, but {GAMES_FILE} has game {} here (line {line}): the files \
                 must hold the same games in the same order",
                row.game_id
            )
        };
        let ended = || {
            format!(
                "ends before game {} of {GAMES_FILE} (line {line}); if the run was killed while \
                 writing, the same `hoyito run` resumes it and cuts the files to the games \
                 they share",
                row.game_id
            )
        };
        let mut moves_line = 0;
        if let Some(moves) = self.moves.as_mut() {
            if !moves.next_row(&mut self.moves_row)? {
                return Err(moves.error(ended()));
            }
            if self.moves_row.game_id != row.game_id {
                return Err(moves.error(in_step(self.moves_row.game_id)));
            }
            moves_line = moves.line();
        }
        let mut measures = None;
        let mut metrics_line = 0;
        if let Some(metrics) = self.metrics.as_mut() {
            let (id, m) = metrics.next_row()?.ok_or_else(|| metrics.error(ended()))?;
            if id != row.game_id {
                return Err(metrics.error(in_step(id)));
            }
            measures = Some(m);
            metrics_line = metrics.line();
        }
        if let (Some(schedule), true) = (self.schedule.as_ref(), self.moves.is_some()) {
            self.batch.push(Pending {
                row: row.clone(),
                games_line: line,
                moves_line,
                metrics_line,
                start: schedule.start(row),
                moves: std::mem::take(&mut self.moves_row.moves),
                measures,
            });
            if self.batch.len() >= BATCH {
                self.replay_batch()?;
            }
        }
        Ok(measures)
    }

    /// Replays what is still queued and waits for the batch under way: the
    /// last problems a check can find.
    pub fn finish(mut self) -> Result<(), RecordFileError> {
        self.replay_batch()?;
        self.wait()
    }

    fn open(&mut self) -> Result<(), RecordFileError> {
        self.opened = true;
        if self.files.moves {
            self.moves = Some(MovesReader::open(&self.dir.join(MOVES_FILE))?);
        }
        if self.files.metrics {
            self.metrics = Some(MetricsReader::open(&self.dir.join(METRICS_FILE))?);
        }
        Ok(())
    }

    /// Hands the queued games to the rayon pool, to be replayed while the
    /// next batch is read, after the batch before them is done (so the
    /// first problem in file order is the one returned).
    fn replay_batch(&mut self) -> Result<(), RecordFileError> {
        self.wait()?;
        let batch = std::mem::take(&mut self.batch);
        if batch.is_empty() {
            return Ok(());
        }
        let (send, receive) = mpsc::channel();
        let replay = move || {
            let failed = batch.into_par_iter().find_map_first(|pending| {
                check_replay(
                    &pending.row,
                    pending.start,
                    &pending.moves,
                    pending.measures.as_ref(),
                )
                .err()
                .map(|problem| Failure {
                    problem,
                    games_line: pending.games_line,
                    moves_line: pending.moves_line,
                    metrics_line: pending.metrics_line,
                })
            });
            // A check that stopped at an earlier problem no longer listens.
            let _ = send.send(failed);
        };
        match rayon::current_thread_index() {
            // Inside the pool, waiting for a job of the pool could wait for
            // ever (a pool of one thread): replayed here.
            Some(_) => replay(),
            None => rayon::spawn(replay),
        }
        self.running = Some(receive);
        Ok(())
    }

    /// Waits for the batch under way, if any: its first problem names the
    /// file and line at fault.
    fn wait(&mut self) -> Result<(), RecordFileError> {
        let Some(receive) = self.running.take() else {
            return Ok(());
        };
        let failed = receive
            .recv()
            .expect("a replay batch sends its result before it ends");
        let Some(failure) = failed else {
            return Ok(());
        };
        let Failure {
            problem,
            games_line,
            moves_line,
            metrics_line,
        } = failure;
        Err(match METRICS_COLUMNS.contains(&problem.column) {
            true => parse_error(
                &self.dir.join(METRICS_FILE),
                metrics_line,
                format!("{problem} ({MOVES_FILE} line {moves_line})"),
            ),
            false => parse_error(
                &self.dir.join(GAMES_FILE),
                games_line,
                format!("{problem} ({MOVES_FILE} line {moves_line})"),
            ),
        })
    }
}

/// The first problem a replay batch found, with the lines of its game.
struct Failure {
    problem: RowProblem,
    games_line: u64,
    moves_line: u64,
    metrics_line: u64,
}

fn parse_error(path: &Path, line: u64, message: String) -> RecordFileError {
    RecordFileError::Parse {
        path: path.to_path_buf(),
        line,
        message,
    }
}

/// Checks the rows of `dir/games.csv` as [`RunRows`] does, with the files
/// `files` beside it: they must be the games `ids`, in order. With `limit`,
/// exactly the first `limit` rows are read (a resumed run's kept rows; what
/// follows is cut); without, every row of the file, and each must be the
/// next of `ids`. Returns the rows checked.
pub fn check_run_rows(
    dir: &Path,
    experiment: &Experiment,
    ids: impl Iterator<Item = u64>,
    limit: Option<u64>,
    files: RowFiles,
) -> Result<u64, RecordFileError> {
    let games = dir.join(GAMES_FILE);
    let file = open_regular(&games).map_err(|cause| RecordFileError::Read {
        path: games.clone(),
        cause,
    })?;
    let mut reader = csv::Reader::from_reader(BufReader::with_capacity(1 << 16, file));
    let headers = reader
        .headers()
        .map_err(|e| parse_error(&games, 1, record_message(&e, None)))?
        .clone();
    let mut rows = RunRows::new(dir, Some(experiment), files);
    let mut record = StringRecord::new();
    let mut ids = ids.peekable();
    let mut count = 0u64;
    while limit.map_or(true, |limit| count < limit) {
        let next_line = reader.position().line();
        let more = reader.read_record(&mut record).map_err(|e| {
            let line = e.position().map_or(next_line, |p| p.line());
            parse_error(&games, line, record_message(&e, Some(&headers)))
        })?;
        let line = record.position().map_or(next_line, |p| p.line());
        let expected = ids.next();
        match (more, expected) {
            (false, None) => break,
            (false, Some(id)) if limit.is_some() => {
                return Err(parse_error(
                    &games,
                    line,
                    format!("the file ends before the row of game {id}"),
                ))
            }
            (false, Some(_)) => break,
            (true, None) => {
                return Err(parse_error(
                    &games,
                    line,
                    "a row after the last game of the experiment (or of the shard)".into(),
                ))
            }
            (true, Some(_)) => {}
        }
        let row: GameRow = record
            .deserialize(Some(&headers))
            .map_err(|e| parse_error(&games, line, record_message(&e, Some(&headers))))?;
        let at = |problem: RowProblem| parse_error(&games, line, problem.to_string());
        if Some(row.game_id) != expected {
            return Err(at(RowProblem {
                column: "game_id",
                message: format!(
                    "game {}, but the row of game {} comes here",
                    row.game_id,
                    expected.expect("matched above")
                ),
            }));
        }
        check_rules(&row).map_err(at)?;
        rows.check(&row, line)?;
        count += 1;
    }
    rows.finish()?;
    Ok(count)
}

/// A csv error without the crate's position prefix, naming the column.
fn record_message(err: &csv::Error, headers: Option<&StringRecord>) -> String {
    match err.kind() {
        ErrorKind::Deserialize { err, .. } => {
            match err.field().and_then(|f| headers?.get(f as usize)) {
                Some(name) => format!("column `{name}`: {}", err.kind()),
                None => format!("not a row of {GAMES_FILE}: {}", err.kind()),
            }
        }
        ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("{len} fields where the header has {expected_len}"),
        _ => err.to_string(),
    }
}

#[cfg(test)]
mod tests;
