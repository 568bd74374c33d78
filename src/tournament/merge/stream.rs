//! Streaming the shards' record files into one, in game-id order: the
//! schedule says which shard holds each pair, so the k-way merge takes each
//! next row from the shard that must hold it, checking its id, one line at a
//! time; memory does not grow with the games.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::check::Part;
use super::error::{io_error, MergeError};
use crate::records::safe_file::{create_new, open_read_no_follow};
use crate::tournament::schedule::Schedule;
use crate::tournament::shard::Shard;

/// Streams `name` of every shard into `staging/name` in game-id order.
pub(super) fn merge_file(
    staging: &Path,
    parts: &[Part],
    schedule: &Schedule,
    name: &str,
    header: &[u8],
    rows: &mut u64,
) -> Result<(), MergeError> {
    let target = staging.join(name);
    let file = create_new(&target).map_err(io_error(&target, "create it"))?;
    let mut writer = BufWriter::with_capacity(1 << 16, file);
    let write_error = io_error(&target, "write it");
    let mut readers = parts
        .iter()
        .map(|part| RowReader::open(&part.dir.join(name), header))
        .collect::<Result<Vec<_>, _>>()?;
    let count = parts.len() as u64;
    let mut line = Vec::with_capacity(256);
    let result = (|| {
        writer.write_all(header)?;
        for pair in 0..schedule.pairs() {
            let reader = &mut readers[Shard::of_pair(schedule, pair, count) as usize];
            for id in schedule.pair_games(pair) {
                reader.next_row(id, &mut line)?;
                writer.write_all(&line)?;
                *rows += 1;
            }
        }
        writer.flush()?;
        writer.get_ref().sync_all()?;
        Ok::<(), ReadOrWrite>(())
    })();
    match result {
        Ok(()) => {}
        Err(ReadOrWrite::Read(err)) => return Err(err),
        Err(ReadOrWrite::Write(err)) => return Err(write_error(err)),
    }
    for reader in &mut readers {
        reader.expect_end(&mut line)?;
    }
    Ok(())
}

/// A failed read (already a [`MergeError`]) or write.
enum ReadOrWrite {
    Read(MergeError),
    Write(io::Error),
}

impl From<io::Error> for ReadOrWrite {
    fn from(err: io::Error) -> Self {
        ReadOrWrite::Write(err)
    }
}

impl From<MergeError> for ReadOrWrite {
    fn from(err: MergeError) -> Self {
        ReadOrWrite::Read(err)
    }
}

/// One shard's record file, read a line at a time.
struct RowReader {
    path: PathBuf,
    reader: BufReader<File>,
    line: u64,
}

impl RowReader {
    fn open(path: &Path, header: &[u8]) -> Result<RowReader, MergeError> {
        let file = open_read_no_follow(path).map_err(io_error(path, "read it"))?;
        let mut reader = RowReader {
            path: path.to_path_buf(),
            reader: BufReader::with_capacity(1 << 16, file),
            line: 0,
        };
        let mut first = Vec::new();
        reader.read_line(&mut first)?;
        if first != header {
            return Err(reader.corrupt("not the header of this harness".into()));
        }
        Ok(reader)
    }

    fn corrupt(&self, message: String) -> MergeError {
        MergeError::Corrupt {
            path: self.path.clone(),
            line: self.line,
            message,
        }
    }

    /// Reads the next whole line into `line` (empty at the end of the file).
    fn read_line(&mut self, line: &mut Vec<u8>) -> Result<(), MergeError> {
        line.clear();
        self.line += 1;
        let read_error = io_error(&self.path, "read it");
        self.reader.read_until(b'\n', line).map_err(read_error)?;
        if !line.is_empty() && line.last() != Some(&b'\n') {
            return Err(self.corrupt("a partial last line".into()));
        }
        Ok(())
    }

    /// Reads the row of game `id`, which must be next.
    fn next_row(&mut self, id: u64, line: &mut Vec<u8>) -> Result<(), MergeError> {
        self.read_line(line)?;
        if line.is_empty() {
            return Err(self.corrupt(format!("the file ends before the row of game {id}")));
        }
        let field = line.split(|&b| b == b',').next().unwrap_or_default();
        let found = std::str::from_utf8(field)
            .ok()
            .and_then(|s| s.parse::<u64>().ok());
        if found != Some(id) {
            return Err(self.corrupt(format!("expected the row of game {id}")));
        }
        Ok(())
    }

    /// Checks that no row is left.
    fn expect_end(&mut self, line: &mut Vec<u8>) -> Result<(), MergeError> {
        self.read_line(line)?;
        match line.is_empty() {
            true => Ok(()),
            false => Err(self.corrupt("a row after the last game of the shard".into())),
        }
    }
}
