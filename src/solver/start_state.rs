//! The files of a start solve in progress, so that a killed solve resumes.
//!
//! A start solve writes, in its state directory, one file per layer when the
//! forward closure has closed it (`keys-K.bin`, the sorted keys) and one when
//! the backward pass has solved it (`values-K.bin`, values and settling
//! sweeps). Each file is written to a temporary name, synced and renamed into
//! place, so a kill leaves either the whole file or none (temporary files are
//! never read). Its 48-byte header names what it holds, and a checksum covers
//! header and data: a file of another start, another layer, or damaged in any
//! byte is refused with its path named, never read as a result.
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `HOYSTART` |
//! | 8 | 1 | version (1) |
//! | 9 | 1 | kind: 1 keys, 2 values |
//! | 10 | 1 | variant: 1, 2 or 3 |
//! | 11 | 1 | holes per row |
//! | 12 | 4 | seeds on the board in this layer |
//! | 16 | 8 | the start: a hash of its notation |
//! | 24 | 8 | entries |
//! | 32 | 8 | reserved (0) |
//! | 40 | 8 | FNV-1a 64 of bytes 0..40 and the data |

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::tournament::{fnv1a, write_atomic, FNV_OFFSET_BASIS};

const MAGIC: &[u8; 8] = b"HOYSTART";
const VERSION: u8 = 1;
const HEADER: usize = 48;

/// What a state file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The sorted keys of a closed layer.
    Keys = 1,
    /// Values and settling sweeps of a solved layer.
    Values = 2,
}

/// The identity every file of one solve shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ident {
    /// 1, 2 or 3.
    pub variant: u8,
    /// Holes per row.
    pub holes: u8,
    /// FNV-1a of the start's notation.
    pub start: u64,
}

/// A state file that cannot be read or written.
#[derive(Debug, Error)]
pub enum StateError {
    /// The file system refused.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not the state it should be.
    #[error(
        "{path} is not a usable state file ({why}); it is never read as a result: \
         remove it, or the whole state directory, to solve that layer again"
    )]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: &'static str,
    },
}

/// The identity of the start `notation` (its text in the notation of
/// RULES.md) for state files.
pub fn start_hash(notation: &str) -> u64 {
    fnv1a(FNV_OFFSET_BASIS, notation.as_bytes())
}

/// The path of the file of `kind` for the layer of `seeds`.
pub fn path(dir: &Path, kind: Kind, seeds: u32) -> PathBuf {
    let name = match kind {
        Kind::Keys => "keys",
        Kind::Values => "values",
    };
    dir.join(format!("{name}-{seeds}.bin"))
}

fn header(ident: Ident, kind: Kind, seeds: u32, entries: u64) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8] = VERSION;
    h[9] = kind as u8;
    h[10] = ident.variant;
    h[11] = ident.holes;
    h[12..16].copy_from_slice(&seeds.to_le_bytes());
    h[16..24].copy_from_slice(&ident.start.to_le_bytes());
    h[24..32].copy_from_slice(&entries.to_le_bytes());
    h
}

/// Room for the header before a file's data: callers build the whole file
/// in one buffer, data from this offset on, and [`save`] fills the header.
pub const HEADER_BYTES: usize = HEADER;

/// Writes `file` (the header's room, then `entries` items of data)
/// atomically as the file of `kind` for the layer of `seeds`.
pub fn save(
    dir: &Path,
    ident: Ident,
    kind: Kind,
    seeds: u32,
    entries: u64,
    mut file: Vec<u8>,
) -> Result<(), StateError> {
    let path = path(dir, kind, seeds);
    let mut head = header(ident, kind, seeds, entries);
    let sum = fnv1a(fnv1a(FNV_OFFSET_BASIS, &head[..40]), &file[HEADER..]);
    head[40..48].copy_from_slice(&sum.to_le_bytes());
    file[..HEADER].copy_from_slice(&head);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    if let Err(source) = write_atomic(&temp, &path, &file) {
        let _ = std::fs::remove_file(&temp);
        return Err(StateError::Io { path, source });
    }
    // Make the rename itself durable; some file systems cannot sync a directory.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Reads the file of `kind` for the layer of `seeds`, if there is one:
/// `Ok(None)` when it does not exist, an error when it is not exactly a
/// file of this solve and layer, whole.
pub fn load(
    dir: &Path,
    ident: Ident,
    kind: Kind,
    seeds: u32,
    item_bytes: usize,
) -> Result<Option<(u64, Vec<u8>)>, StateError> {
    let path = path(dir, kind, seeds);
    let meta = match std::fs::symlink_metadata(&path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(StateError::Io { path, source }),
    };
    let damaged = |why| StateError::Damaged {
        path: path.clone(),
        why,
    };
    if !meta.is_file() {
        return Err(damaged("not a regular file"));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    File::open(&path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|source| StateError::Io {
            path: path.clone(),
            source,
        })?;
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err(damaged("no state header"));
    }
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let entries = word(24);
    let expected = header(ident, kind, seeds, entries);
    if bytes[..40] != expected[..40] {
        return Err(damaged("its header is for another start, layer or version"));
    }
    if (bytes.len() - HEADER) as u64 != entries.saturating_mul(item_bytes as u64) {
        return Err(damaged("its length does not match its header (truncated?)"));
    }
    if fnv1a(fnv1a(FNV_OFFSET_BASIS, &bytes[..40]), &bytes[HEADER..]) != word(40) {
        return Err(damaged("its checksum does not match"));
    }
    bytes.drain(..HEADER);
    Ok(Some((entries, bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: Ident = Ident {
        variant: 1,
        holes: 3,
        start: 7,
    };

    #[test]
    fn a_saved_file_loads_and_any_change_is_refused() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let data: Vec<u8> = (0..64u8).collect();
        let mut file = vec![0u8; HEADER_BYTES];
        file.extend_from_slice(&data);
        save(dir.path(), ID, Kind::Keys, 12, 8, file).expect("saved");
        let (n, back) = load(dir.path(), ID, Kind::Keys, 12, 8)
            .expect("readable")
            .expect("there");
        assert_eq!((n, back), (8, data.clone()));
        assert!(load(dir.path(), ID, Kind::Keys, 16, 8)
            .expect("no error")
            .is_none());
        // Another start, another kind: refused.
        let other = Ident { start: 8, ..ID };
        assert!(load(dir.path(), other, Kind::Keys, 12, 8).is_err());
        let file = path(dir.path(), Kind::Keys, 12);
        let whole = std::fs::read(&file).expect("read");
        // Every single flipped byte, and a truncation, are refused.
        for at in 0..whole.len() {
            let mut bad = whole.clone();
            bad[at] ^= 0x10;
            std::fs::write(&file, &bad).expect("write");
            let err = load(dir.path(), ID, Kind::Keys, 12, 8).expect_err("damaged");
            assert!(err.to_string().contains("keys-12.bin"), "{err}");
        }
        std::fs::write(&file, &whole[..whole.len() - 1]).expect("write");
        assert!(load(dir.path(), ID, Kind::Keys, 12, 8).is_err());
    }
}
