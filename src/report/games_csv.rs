//! Reading `games.csv` back into rows, so that a report can be redrawn from the
//! file alone. Errors name the file and line, and say which column is wrong.

use std::collections::HashMap;
use std::fs::File;
use std::path::Path;

use csv::{ErrorKind, StringRecord};
use serde::de::value::{Error as ValueError, StrDeserializer};
use serde::de::DeserializeOwned;

use crate::game::Ending;
use crate::rules::Variant;
use crate::tournament::{GameRow, Winner};

use super::error::ReportError;

/// Reads every row of a `games.csv` (with its header line).
pub fn read_games_csv(path: &Path) -> Result<Vec<GameRow>, ReportError> {
    let file = File::open(path).map_err(|source| ReportError::Read {
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
    let mut rows = Vec::new();
    let mut first_line: HashMap<u64, u64> = HashMap::new();
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
        if let Some(&first) = first_line.get(&row.game_id) {
            return Err(ReportError::DuplicateGame {
                path: path.to_path_buf(),
                line,
                game_id: row.game_id,
                first_line: first,
            });
        }
        first_line.insert(row.game_id, line);
        rows.push(row);
    }
    Ok(rows)
}

/// The agents in the order they first appear (South before North), which is
/// the schedule's order when the rows come from a run.
pub fn agents_by_first_appearance(rows: &[GameRow]) -> Vec<String> {
    let mut agents: Vec<String> = Vec::new();
    for name in rows.iter().flat_map(|r| [&r.south, &r.north]) {
        if !agents.contains(name) {
            agents.push(name.clone());
        }
    }
    agents
}

/// The first enum column (`variant`, `winner`, `ending`) whose value is not
/// one of its names: serde reports these without the column.
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
