//! Reading `games.csv` back, so that a report can be redrawn from the file
//! alone: one pass that counts each row into a [`Tally`] and drops it, so
//! memory does not grow with the number of games. Errors name the file and
//! line, and say which column is wrong. Every row is checked against the
//! rules ([`check_rules`]: a board of 2 to 16 holes, at least one seed, a
//! winner and captures that agree). The csv reader skips blank lines; in a
//! run directory a blank line in place of a row is caught as a missing game
//! id (see [`super::write_report_from_csv`]).

use std::path::Path;

use csv::{ErrorKind, StringRecord};
use serde::de::value::{Error as ValueError, StrDeserializer};
use serde::de::DeserializeOwned;

use crate::engine::game::Ending;
use crate::engine::rules::Variant;
use crate::records::game_row::{GameRow, Winner};
use crate::records::moves_hash::MovesHash;
use crate::stats::tally::Tally;
use crate::tournament::row_check::{check_rules, RowProblem};

use super::error::ReportError;

/// Counts every row of a `games.csv` (with its header line) in one pass,
/// holding one row at a time. Rows must be in increasing game-id order, each
/// in the pair `game_id / 2`, as a run writes them.
pub fn tally_games_csv(path: &Path) -> Result<Tally, ReportError> {
    let mut tally = Tally::new();
    read_games_csv(path, |row| tally.add(row))?;
    Ok(tally)
}

/// Reads every row of a `games.csv` (with its header line) in one pass,
/// checked as [`tally_games_csv`] checks them, and hands each to `each`;
/// returns the number of rows.
pub fn read_games_csv(path: &Path, mut each: impl FnMut(&GameRow)) -> Result<u64, ReportError> {
    try_read_games_csv(path, |row| {
        each(row);
        Ok(())
    })
}

/// [`read_games_csv`] with a check of each row: the first problem that
/// `each` finds stops the reading, as an error naming the file, the row's
/// line and the column.
pub fn try_read_games_csv(
    path: &Path,
    mut each: impl FnMut(&GameRow) -> Result<(), RowProblem>,
) -> Result<u64, ReportError> {
    let file =
        crate::records::safe_file::open_regular(path).map_err(|source| ReportError::Read {
            path: path.to_path_buf(),
            source,
        })?;
    let mut reader = csv::Reader::from_reader(file);
    let parse_error = |line: u64, message: String| ReportError::Parse {
        path: path.to_path_buf(),
        line,
        message,
    };
    let headers = reader
        .headers()
        .map_err(|e| parse_error(1, csv_message(&e, None)))?
        .clone();
    let mut rows = 0u64;
    let mut previous: Option<u64> = None;
    let mut record = StringRecord::new();
    loop {
        let next_line = reader.position().line();
        match reader.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                let line = e.position().map_or(next_line, |p| p.line());
                return Err(parse_error(line, csv_message(&e, Some(&headers))));
            }
        }
        let line = record.position().map_or(next_line, |p| p.line());
        let row: GameRow = record.deserialize(Some(&headers)).map_err(|e| {
            let message = match enum_column(&record, &headers) {
                Some(column) => format!("column `{column}`: {}", csv_message(&e, None)),
                None => csv_message(&e, Some(&headers)),
            };
            parse_error(line, message)
        })?;
        if let Some(previous) = previous.filter(|&p| row.game_id <= p) {
            return Err(match first_line_of(path, &headers, row.game_id, line) {
                Some(first_line) => ReportError::DuplicateGame {
                    path: path.to_path_buf(),
                    line,
                    game_id: row.game_id,
                    first_line,
                },
                None => ReportError::OutOfOrder {
                    path: path.to_path_buf(),
                    line,
                    game_id: row.game_id,
                    previous,
                },
            });
        }
        if row.pair_id != row.game_id / 2 {
            let message = format!(
                "column `pair_id`: {}, but game {} belongs to pair {}",
                row.pair_id,
                row.game_id,
                row.game_id / 2
            );
            return Err(parse_error(line, message));
        }
        check_rules(&row)
            .and_then(|()| each(&row))
            .map_err(|problem| parse_error(line, problem.to_string()))?;
        previous = Some(row.game_id);
        rows += 1;
    }
    Ok(rows)
}

/// The first line before `before` that holds game `game_id`, found by reading
/// the file again: only an error message needs it, so the pass over the games
/// keeps no index of lines.
fn first_line_of(path: &Path, headers: &StringRecord, game_id: u64, before: u64) -> Option<u64> {
    let column = headers.iter().position(|h| h == "game_id")?;
    let mut reader = csv::Reader::from_reader(crate::records::safe_file::open_regular(path).ok()?);
    let mut record = StringRecord::new();
    while reader.read_record(&mut record).ok()? {
        let line = record.position()?.line();
        if line >= before {
            break;
        }
        if record.get(column)?.parse::<u64>() == Ok(game_id) {
            return Some(line);
        }
    }
    None
}

/// The first enum column (`variant`, `winner`, `ending`) whose value is not
/// one of its names, or a `moves_hash` that is not 16 hex digits: serde
/// reports these without the column.
fn enum_column<'h>(record: &StringRecord, headers: &'h StringRecord) -> Option<&'h str> {
    fn parses<T: DeserializeOwned>(value: &str) -> bool {
        T::deserialize(StrDeserializer::<ValueError>::new(value)).is_ok()
    }
    headers
        .iter()
        .zip(record.iter())
        .find(|(name, value)| match *name {
            "variant" => !parses::<Variant>(value),
            "winner" => !parses::<Winner>(value),
            "ending" => !parses::<Ending>(value),
            "moves_hash" => value.parse::<MovesHash>().is_err(),
            _ => false,
        })
        .map(|(name, _)| name)
}

/// A csv error without the crate's position prefix, naming the column when
/// one is known.
fn csv_message(err: &csv::Error, headers: Option<&StringRecord>) -> String {
    match err.kind() {
        ErrorKind::Deserialize { err, .. } => {
            let column = err
                .field()
                .and_then(|f| headers.and_then(|h| h.get(f as usize)));
            match column {
                Some(name) => format!("column `{name}`: {}", err.kind()),
                None => err.kind().to_string(),
            }
        }
        ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("{len} fields where the header has {expected_len}"),
        _ => err.to_string(),
    }
}
