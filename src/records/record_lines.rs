//! The line reader under `moves.csv` and `metrics.csv`: both are one row
//! per game id in id order, written without quoting by the ordered writer,
//! so both are read the same way — a checked header, one line at a time
//! (a torn last line, from a run killed mid-write, is not a row), game ids
//! that increase, and errors that name the file and the line.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

use thiserror::Error;

/// A per-game record file (`moves.csv`, `metrics.csv`) that cannot be read.
#[derive(Debug, Error)]
pub enum RecordFileError {
    /// The file could not be opened or read.
    #[error("cannot read {}: {cause}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        cause: io::Error,
    },
    /// A line is not a row of the file.
    #[error("{}, line {line}: {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The line, counted from 1 (the header is line 1).
        line: u64,
        /// What is wrong with it.
        message: String,
    },
}

/// One record file read line by line, holding one line at a time.
#[derive(Debug)]
pub(crate) struct RecordLines {
    reader: BufReader<File>,
    path: PathBuf,
    line: u64,
    text: String,
    previous: Option<u64>,
}

impl RecordLines {
    /// Opens `path` and checks that its first line is `header` (without its
    /// newline); `not_header` says what was expected when it is not.
    pub(crate) fn open(
        path: &Path,
        header: &str,
        not_header: &str,
    ) -> Result<RecordLines, RecordFileError> {
        let file = crate::records::safe_file::open_regular(path).map_err(|cause| {
            RecordFileError::Read {
                path: path.to_path_buf(),
                cause,
            }
        })?;
        let mut lines = RecordLines {
            reader: BufReader::with_capacity(1 << 16, file),
            path: path.to_path_buf(),
            line: 0,
            text: String::new(),
            previous: None,
        };
        if !lines.read_line()? || lines.text != header {
            return Err(lines.error(not_header.to_string()));
        }
        Ok(lines)
    }

    /// Reads the next whole line (see [`RecordLines::text`]); `false` at the
    /// end of the file or at a torn last line.
    pub(crate) fn read_line(&mut self) -> Result<bool, RecordFileError> {
        self.text.clear();
        let n = self
            .reader
            .read_line(&mut self.text)
            .map_err(|cause| RecordFileError::Read {
                path: self.path.clone(),
                cause,
            })?;
        if n == 0 || !self.text.ends_with('\n') {
            return Ok(false);
        }
        self.text.pop();
        self.line += 1;
        Ok(true)
    }

    /// The line read last, without its newline.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// Checks that the row read last, of game `id`, comes after the one
    /// before it.
    pub(crate) fn follow(&mut self, id: u64) -> Result<(), RecordFileError> {
        if let Some(previous) = self.previous.filter(|&p| id <= p) {
            return Err(self.error(format!(
                "game {id} comes after game {previous}: rows must be in game-id order"
            )));
        }
        self.previous = Some(id);
        Ok(())
    }

    /// The line of the row read last (the header is line 1).
    pub(crate) fn line(&self) -> u64 {
        self.line
    }

    /// An error at the line read last.
    pub(crate) fn error(&self, message: String) -> RecordFileError {
        RecordFileError::Parse {
            path: self.path.clone(),
            line: self.line,
            message,
        }
    }
}
