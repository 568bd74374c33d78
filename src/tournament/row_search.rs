//! Finding one game's row in `games.csv` or `moves.csv` without reading the
//! whole file: both hold one row per line in increasing game-id order, the id
//! first, so a binary search over byte offsets finds a row in about
//! `log2(file size)` short reads, however many games a run has.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Seek, SeekFrom};
use std::path::Path;

/// The line (without its newline) of the row of `game_id` in a file of rows
/// in increasing game-id order after one header line, or `None` if no
/// complete row has that id. Rows whose first field is not a number are an
/// `InvalidData` error.
///
/// Source: the lower-bound binary search (Knuth, TAOCP vol. 3, 6.2.1,
/// algorithm B) over byte positions `p`, keyed by the id of the first line
/// that starts at or after `p`, a non-decreasing function of `p`.
pub fn find_row_line(path: &Path, game_id: u64) -> io::Result<Option<String>> {
    let file = crate::records::safe_file::open_regular(path)?;
    let len = file.metadata()?.len();
    let mut reader = BufReader::with_capacity(4096, file);
    let mut line = Vec::new();
    let header_end = reader.read_until(b'\n', &mut line)? as u64;
    let (mut lo, mut hi) = (header_end, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match first_row_from(&mut reader, mid, header_end, &mut line)? {
            Some(id) if id < game_id => lo = mid + 1,
            _ => hi = mid,
        }
    }
    match first_row_from(&mut reader, lo, header_end, &mut line)? {
        Some(id) if id == game_id => {
            line.pop();
            String::from_utf8(line)
                .map(Some)
                .map_err(|err| io::Error::new(io::ErrorKind::InvalidData, err))
        }
        _ => Ok(None),
    }
}

/// Reads into `line` the first complete line that starts at or after `pos`
/// (`pos` at least `header_end`) and returns its id; `None` past the last
/// complete line.
fn first_row_from(
    reader: &mut BufReader<File>,
    pos: u64,
    header_end: u64,
    line: &mut Vec<u8>,
) -> io::Result<Option<u64>> {
    line.clear();
    if pos > header_end {
        // The line holding byte `pos - 1` ends before (or at) `pos`: skip it.
        reader.seek(SeekFrom::Start(pos - 1))?;
        reader.read_until(b'\n', line)?;
        line.clear();
    } else {
        reader.seek(SeekFrom::Start(header_end))?;
    }
    reader.read_until(b'\n', line)?;
    if line.last() != Some(&b'\n') {
        return Ok(None);
    }
    let id = line.split(|&b| b == b',').next().unwrap_or_default();
    std::str::from_utf8(id)
        .ok()
        .and_then(|s| s.parse().ok())
        .map(Some)
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "a row does not start with a game id: {:?}",
                    String::from_utf8_lossy(line).trim_end()
                ),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_found_and_missing_ids_are_not() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("rows.csv");
        // Rows of very different lengths, ids with gaps, and a torn last line.
        let mut text = String::from("game_id,moves\n");
        let ids: Vec<u64> = (0..300).map(|i| i * 3 + (i % 2)).collect();
        for &id in &ids {
            text += &format!("{id},{}\n", "x ".repeat((id % 37) as usize * 5));
        }
        text += "2000,torn";
        std::fs::write(&path, &text).unwrap();
        for &id in &ids {
            let line = find_row_line(&path, id).unwrap().unwrap();
            assert!(line.starts_with(&format!("{id},")), "{id}: {line}");
            assert!(!line.ends_with('\n'));
        }
        for id in [2, 5, 899, 900, 2000, u64::MAX] {
            assert_eq!(find_row_line(&path, id).unwrap(), None, "{id}");
        }
        std::fs::write(&path, "game_id,moves\n").unwrap();
        assert_eq!(find_row_line(&path, 0).unwrap(), None);
        std::fs::write(&path, "game_id,moves\n0,1\nx,2\n2,3\n").unwrap();
        let err = find_row_line(&path, 2).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    }
}
