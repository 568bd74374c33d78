//! Checking the rows a resumed run keeps: every field the schedule fixes,
//! the row's shape, and (with `moves.csv`) that the moves hash to the row's
//! `moves_hash` and replay to its result; see [`crate::tournament::row_check`].
//!
//! The cost is one more pass over both files on one thread: measured on 200k
//! random 2x6 games with moves (21 MB `games.csv`, 43 MB `moves.csv`), the
//! check took 4.9 s, about 25 microseconds a game, so about 25 s for a
//! 1M-game run (playing those games took 2 threads longer). A run without
//! `moves.csv` checks everything but the result columns, which only the
//! moves fix.

use std::path::Path;

use csv::{ErrorKind, StringRecord};

use super::{io_error, RunDirError, GAMES_FILE};
use crate::tournament::config::Experiment;
use crate::tournament::game_row::GameRow;
use crate::tournament::moves_file::{MovesFileError, MovesReader, MovesRow, MOVES_FILE};
use crate::tournament::row_check::{check_rules, RowProblem, ScheduleCheck};
use crate::tournament::safe_file::open_read_no_follow;

/// Checks the first `rows` rows of `dir/games.csv` (and of `dir/moves.csv`
/// when `with_moves`), whose game ids were already found to be the first of
/// `ids`.
pub(super) fn check_kept_rows(
    dir: &Path,
    experiment: &Experiment,
    ids: impl Iterator<Item = u64>,
    rows: u64,
    with_moves: bool,
) -> Result<(), RunDirError> {
    if rows == 0 {
        return Ok(());
    }
    let games_path = dir.join(GAMES_FILE);
    let file = open_read_no_follow(&games_path).map_err(io_error(&games_path, "read it"))?;
    let mut reader = csv::Reader::from_reader(std::io::BufReader::with_capacity(1 << 16, file));
    let corrupt = |path: &Path, line: u64, message: String| RunDirError::Corrupt {
        path: path.to_path_buf(),
        line,
        message,
    };
    let headers = reader
        .headers()
        .map_err(|e| corrupt(&games_path, 1, e.to_string()))?
        .clone();
    let moves_path = dir.join(MOVES_FILE);
    let mut moves = match with_moves {
        true => Some(MovesReader::open(&moves_path).map_err(moves_error)?),
        false => None,
    };
    let mut check = ScheduleCheck::new(experiment);
    let mut record = StringRecord::new();
    let mut moves_row = MovesRow::default();
    for (row_index, id) in ids.take(rows as usize).enumerate() {
        let line = row_index as u64 + 2;
        match reader.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => return Err(corrupt(&games_path, line, "the file ended early".into())),
            Err(e) => return Err(corrupt(&games_path, line, record_message(&e, &headers))),
        }
        let row: GameRow = record
            .deserialize(Some(&headers))
            .map_err(|e| corrupt(&games_path, line, record_message(&e, &headers)))?;
        let at = |problem: RowProblem| corrupt(&games_path, line, problem.to_string());
        check_rules(&row).map_err(at)?;
        check.check(&row).map_err(at)?;
        if let Some(moves) = moves.as_mut() {
            if !moves.next_row(&mut moves_row).map_err(moves_error)? {
                return Err(corrupt(&moves_path, line, "the file ended early".into()));
            }
            if moves_row.game_id != id {
                return Err(corrupt(
                    &moves_path,
                    line,
                    format!("expected the row of game {id}"),
                ));
            }
            check
                .check_moves(&row, &moves_row.moves)
                .map_err(|problem| {
                    let message = format!("{problem} (moves.csv line {})", moves.line());
                    corrupt(&games_path, line, message)
                })?;
        }
    }
    Ok(())
}

fn moves_error(err: MovesFileError) -> RunDirError {
    match err {
        MovesFileError::Read { path, cause } => RunDirError::Io {
            path,
            action: "read it",
            cause,
        },
        MovesFileError::Parse {
            path,
            line,
            message,
        } => RunDirError::Corrupt {
            path,
            line,
            message,
        },
    }
}

/// A csv error without the crate's position prefix, naming the column.
fn record_message(err: &csv::Error, headers: &StringRecord) -> String {
    match err.kind() {
        ErrorKind::Deserialize { err, .. } => {
            match err.field().and_then(|f| headers.get(f as usize)) {
                Some(name) => format!("column `{name}`: {}", err.kind()),
                None => format!("not a row of games.csv: {}", err.kind()),
            }
        }
        ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("{len} fields where the header has {expected_len}"),
        _ => err.to_string(),
    }
}
