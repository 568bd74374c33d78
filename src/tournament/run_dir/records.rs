//! A record file of a run directory (`games.csv`, `moves.csv` or
//! `metrics.csv`) opened for resuming: its complete rows found and checked
//! (header, then games of the slice in order), and cut back to a prefix.

use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::error::{io_error, RunDirError};
use super::slice::Slice;
use crate::records::safe_file::{create_new, is_symlink, open_existing_no_follow};

/// A record file opened for resuming.
pub(super) struct Records<'a> {
    /// The games it may hold, in order.
    slice: Slice<'a>,
    path: PathBuf,
    pub(super) file: File,
    header: Vec<u8>,
    /// Complete rows: games `0..rows`.
    pub(super) rows: u64,
    /// The byte just after the last complete row, 0 when not even the header
    /// is whole.
    end: u64,
}

impl<'a> Records<'a> {
    /// Opens (or creates, with its header) a record file and finds its rows:
    /// checks the header and that rows are the slice's first `k` games in order.
    pub(super) fn open(
        path: &Path,
        header: &[u8],
        slice: Slice<'a>,
    ) -> Result<Records<'a>, RunDirError> {
        let total_games = slice.games();
        if is_symlink(path) {
            return Err(RunDirError::Link {
                path: path.to_path_buf(),
            });
        }
        // No link at the name now; O_EXCL and O_NOFOLLOW keep it so if one
        // is planted between the check and the open.
        let file = match path.exists() {
            false => create_new(path).map_err(io_error(path, "create it"))?,
            true => open_existing_no_follow(path).map_err(io_error(path, "open it"))?,
        };
        let mut records = Records {
            slice,
            path: path.to_path_buf(),
            file,
            header: header.to_vec(),
            rows: 0,
            end: 0,
        };
        (records.rows, records.end) = records.scan(u64::MAX)?;
        if records.rows > total_games {
            return Err(records.corrupt(
                records.rows + 1,
                format!(
                    "{} rows, but the experiment has only {total_games} games",
                    records.rows
                ),
            ));
        }
        Ok(records)
    }

    fn corrupt(&self, line: u64, message: String) -> RunDirError {
        RunDirError::Corrupt {
            path: self.path.clone(),
            line,
            message,
        }
    }

    /// Reads at most `limit` rows from the start: (complete rows, end of the last).
    fn scan(&mut self, limit: u64) -> Result<(u64, u64), RunDirError> {
        self.file
            .seek(SeekFrom::Start(0))
            .map_err(io_error(&self.path, "seek in it"))?;
        let mut reader = BufReader::with_capacity(1 << 16, &mut self.file);
        let mut line = Vec::with_capacity(256);
        let mut complete_end = 0u64;
        let mut done = 0u64;
        let mut error = None;
        let mut expected = self.slice.ids();
        while done < limit {
            line.clear();
            let n = reader
                .read_until(b'\n', &mut line)
                .map_err(io_error(&self.path, "read it"))?;
            if n == 0 || line.last() != Some(&b'\n') {
                break;
            }
            if complete_end == 0 {
                if line != self.header {
                    let name = self.path.file_name().unwrap_or_default().to_string_lossy();
                    error = Some((1, format!("not the {name} header of this harness")));
                    break;
                }
            } else {
                let id = line.split(|&b| b == b',').next().unwrap_or_default();
                let want = expected.next();
                let found = std::str::from_utf8(id)
                    .ok()
                    .and_then(|s| s.parse::<u64>().ok());
                if found.is_none() || found != want {
                    let message = match want {
                        Some(want) => format!("expected the row of game {want}"),
                        None => format!("a row after the last game of {}", self.slice.part()),
                    };
                    error = Some((done + 2, message));
                    break;
                }
                done += 1;
            }
            complete_end += n as u64;
        }
        match error {
            Some((line, message)) => Err(self.corrupt(line, message)),
            None => Ok((done, complete_end)),
        }
    }

    /// Cuts the file after row `rows - 1` (a partial last line too), or
    /// rewrites a torn header, and leaves it positioned at its end.
    pub(super) fn cut_to(&mut self, rows: u64) -> Result<(), RunDirError> {
        let path = self.path.clone();
        let end = if rows < self.rows {
            self.scan(rows)?.1
        } else {
            self.end
        };
        if end == 0 {
            // Not even a whole header: the run was killed as it started.
            self.file
                .set_len(0)
                .map_err(io_error(&path, "truncate it"))?;
            self.file
                .seek(SeekFrom::Start(0))
                .map_err(io_error(&path, "seek in it"))?;
            self.file
                .write_all(&self.header)
                .map_err(io_error(&path, "write it"))?;
        } else {
            self.file
                .set_len(end)
                .map_err(io_error(&path, "truncate it"))?;
        }
        self.file
            .seek(SeekFrom::End(0))
            .map_err(io_error(&path, "seek in it"))?;
        self.rows = rows;
        Ok(())
    }
}
