//! `metrics.csv`: the per-game measures of every game (see
//! [`super::measures`]), one row per game id in id order, written beside
//! `games.csv` by the same ordered writer so that it streams, resumes and
//! is the same byte for byte whatever the thread count. All fields are
//! integers, so rows are formatted straight into bytes.

use std::path::Path;

use crate::records::record_lines::{RecordFileError, RecordLines};

use super::measures::GameMeasures;
use crate::records::csv_text::push_decimal;

/// The per-game measures.
pub const METRICS_FILE: &str = "metrics.csv";

/// The columns after `game_id`, in [`GameMeasures`] field order.
pub const METRICS_COLUMNS: [&str; 12] = [
    "decisions",
    "options",
    "captures",
    "seeds_captured",
    "extra_moves",
    "passes",
    "endless_passes",
    "laps",
    "lead_changes",
    "drama",
    "decided",
    "since_capture",
];

/// The header line of `metrics.csv`, with its newline.
pub fn metrics_header() -> String {
    format!("game_id,{}\n", METRICS_COLUMNS.join(","))
}

/// The measures of a row in [`METRICS_COLUMNS`] order: what a check of a
/// row compares column by column with the measures counted again.
pub fn metrics_values(m: &GameMeasures) -> [u32; 12] {
    [
        m.decisions,
        m.options,
        m.captures,
        m.seeds_captured,
        m.extra_moves,
        m.passes,
        m.endless_passes,
        m.laps,
        m.lead_changes,
        m.drama,
        m.decided,
        m.since_capture,
    ]
}

fn from_fields(f: [u32; 12]) -> GameMeasures {
    GameMeasures {
        decisions: f[0],
        options: f[1],
        captures: f[2],
        seeds_captured: f[3],
        extra_moves: f[4],
        passes: f[5],
        endless_passes: f[6],
        laps: f[7],
        lead_changes: f[8],
        drama: f[9],
        decided: f[10],
        since_capture: f[11],
    }
}

/// Appends the row of one game, with its newline, to `out`.
pub fn push_metrics_row(out: &mut Vec<u8>, game_id: u64, m: &GameMeasures) {
    push_decimal(out, game_id);
    for v in metrics_values(m) {
        out.push(b',');
        push_decimal(out, u64::from(v));
    }
    out.push(b'\n');
}

/// Reads a row (without its newline): the game id and its measures; the
/// error names the column at fault.
pub fn parse_metrics_row(line: &str) -> Result<(u64, GameMeasures), String> {
    let mut parts = line.split(',');
    let id = parts.next().unwrap_or_default();
    let id = id
        .parse()
        .map_err(|_| format!("column `game_id`: {id:?} is not a game id"))?;
    let mut f = [0u32; 12];
    for (k, name) in METRICS_COLUMNS.iter().enumerate() {
        let text = parts
            .next()
            .ok_or_else(|| format!("column `{name}` is missing"))?;
        f[k] = text
            .parse()
            .map_err(|_| format!("column `{name}`: {text:?} is not a count"))?;
    }
    if parts.next().is_some() {
        return Err(format!(
            "more than the {} columns of metrics.csv",
            METRICS_COLUMNS.len() + 1
        ));
    }
    Ok((id, from_fields(f)))
}

/// A `metrics.csv` that cannot be read.
pub type MetricsFileError = RecordFileError;

/// Reads a `metrics.csv` row by row, checking its header and that game ids
/// increase; a torn last line (a run killed mid-write) is not a row.
#[derive(Debug)]
pub struct MetricsReader {
    lines: RecordLines,
}

impl MetricsReader {
    /// Opens `path` and checks its header.
    pub fn open(path: &Path) -> Result<MetricsReader, MetricsFileError> {
        let header = metrics_header();
        let lines = RecordLines::open(
            path,
            header.trim_end(),
            "not the metrics.csv header of this harness",
        )?;
        Ok(MetricsReader { lines })
    }

    /// The next row, or `None` at the end of the file.
    pub fn next_row(&mut self) -> Result<Option<(u64, GameMeasures)>, MetricsFileError> {
        if !self.lines.read_line()? {
            return Ok(None);
        }
        let (id, m) =
            parse_metrics_row(self.lines.text()).map_err(|message| self.lines.error(message))?;
        self.lines.follow(id)?;
        Ok(Some((id, m)))
    }

    /// An error at the current line.
    pub fn error(&self, message: String) -> MetricsFileError {
        self.lines.error(message)
    }

    /// The line of the row read last (the header is line 1).
    pub fn line(&self) -> u64 {
        self.lines.line()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_is_written_and_read_back() {
        let m = GameMeasures {
            decisions: 1,
            options: 2,
            captures: 3,
            seeds_captured: 4,
            extra_moves: 5,
            passes: 6,
            endless_passes: 7,
            laps: 8,
            lead_changes: 9,
            drama: 10,
            decided: 11,
            since_capture: 12,
        };
        let mut out = Vec::new();
        push_metrics_row(&mut out, 17, &m);
        assert_eq!(out, b"17,1,2,3,4,5,6,7,8,9,10,11,12\n");
        assert_eq!(
            parse_metrics_row("17,1,2,3,4,5,6,7,8,9,10,11,12"),
            Ok((17, m))
        );
        let err = parse_metrics_row("17,1,2,x").unwrap_err();
        assert_eq!(err, "column `captures`: \"x\" is not a count");
        let err = parse_metrics_row("17,1").unwrap_err();
        assert_eq!(err, "column `options` is missing");
        assert!(parse_metrics_row("17,1,2,3,4,5,6,7,8,9,10,11,12,13").is_err());
    }
}
