//! One layer of a tablebase and its file format.
//!
//! Building a layer of 2x6 takes minutes, so layers are saved and loaded back;
//! a damaged or mismatched file must never be taken for a good one, since a
//! wrong value would silently mislead every game and study that uses it.
//!
//! File format, version 1 (all integers little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `HOYITOTB` |
//! | 8 | 4 | format version (1) |
//! | 12 | 1 | variant (1, 2 or 3) |
//! | 13 | 1 | holes per row |
//! | 14 | 2 | seeds on the board (the layer) |
//! | 16 | 8 | number of entries (2 x boards in the layer) |
//! | 24 | 8 | FNV-1a 64 checksum of the data |
//! | 32 | entries | values, `i8` each: side to move South, boards in rank order, then North |
//!
//! Each value is the exact capture margin still to come for the side to move.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::rules::Variant;
use crate::solver::index::LayerIndex;

const MAGIC: &[u8; 8] = b"HOYITOTB";
const VERSION: u32 = 1;
const HEADER_LEN: usize = 32;

/// What a table is about: variant, board and layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TableKey {
    /// Which Hoyito.
    pub variant: Variant,
    /// Holes per row.
    pub holes: u8,
    /// Seeds on the board.
    pub seeds: u32,
}

impl TableKey {
    /// The file name of this layer inside a table directory.
    pub fn file_name(&self) -> String {
        format!(
            "hoyito-{}-2x{}-{:03}.tb",
            self.variant, self.holes, self.seeds
        )
    }

    /// Entries in the layer: two sides to move times the boards.
    pub fn entries(&self) -> u64 {
        LayerIndex::new(self.holes, self.seeds)
            .count()
            .saturating_mul(2)
    }
}

/// Why a table file cannot be saved or used.
#[derive(Debug, Error)]
pub enum TableError {
    /// Reading or writing the file failed.
    #[error("table file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Not a hoyito table file at all.
    #[error("{0} is not a hoyito table file (bad magic bytes)")]
    Magic(PathBuf),
    /// Written by another version of the format.
    #[error("{path} has table format version {found}; this program reads version {VERSION}")]
    Version {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: u32,
    },
    /// A table for another variant, board or layer.
    #[error("{path} holds {found}, but {wanted} was asked for")]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What the header says.
        found: String,
        /// What the caller wanted.
        wanted: String,
    },
    /// Shorter or longer than its header says.
    #[error("{path} is truncated or padded: {found} data bytes, expected {expected}")]
    Length {
        /// The file.
        path: PathBuf,
        /// Bytes found after the header.
        found: u64,
        /// Bytes the layer needs.
        expected: u64,
    },
    /// The data does not match its checksum: the file is damaged.
    #[error("{0} is damaged: its data does not match the checksum; delete it and build again")]
    Checksum(PathBuf),
}

fn describe(variant: u8, holes: u8, seeds: u16) -> String {
    format!("Hoyito variant {variant} on 2x{holes} with {seeds} seeds")
}

fn variant_code(variant: Variant) -> u8 {
    match variant {
        Variant::I => 1,
        Variant::Ii => 2,
        Variant::Iii => 3,
    }
}

/// FNV-1a, 64 bits, eight lanes so that it runs at memory speed; a checksum
/// against damage, not against tampering.
pub fn checksum(data: &[i8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut lanes = [OFFSET; 8];
    let mut chunks = data.chunks_exact(8);
    for chunk in &mut chunks {
        for (lane, &byte) in lanes.iter_mut().zip(chunk) {
            *lane = (*lane ^ byte as u8 as u64).wrapping_mul(PRIME);
        }
    }
    let mut h = OFFSET;
    for byte in chunks
        .remainder()
        .iter()
        .map(|&b| b as u8)
        .chain(lanes.iter().flat_map(|l| l.to_le_bytes()))
    {
        h = (h ^ byte as u64).wrapping_mul(PRIME);
    }
    h ^ data.len() as u64
}

/// Writes one layer to `path`.
pub fn save(path: &Path, key: TableKey, values: &[i8]) -> Result<(), TableError> {
    let io = |source| TableError::Io {
        path: path.to_path_buf(),
        source,
    };
    debug_assert_eq!(values.len() as u64, key.entries());
    let mut header = [0u8; HEADER_LEN];
    header[..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&VERSION.to_le_bytes());
    header[12] = variant_code(key.variant);
    header[13] = key.holes;
    header[14..16].copy_from_slice(&(key.seeds as u16).to_le_bytes());
    header[16..24].copy_from_slice(&(values.len() as u64).to_le_bytes());
    header[24..32].copy_from_slice(&checksum(values).to_le_bytes());
    let mut out = BufWriter::new(File::create(path).map_err(io)?);
    out.write_all(&header).map_err(io)?;
    let mut buf = Vec::with_capacity(1 << 16);
    for chunk in values.chunks(1 << 16) {
        buf.clear();
        buf.extend(chunk.iter().map(|&v| v as u8));
        out.write_all(&buf).map_err(io)?;
    }
    out.flush().map_err(io)
}

/// Reads one layer from `path`, refusing anything that is not exactly the
/// table of `key`.
pub fn load(path: &Path, key: TableKey) -> Result<Vec<i8>, TableError> {
    let p = || path.to_path_buf();
    let io = |source| TableError::Io { path: p(), source };
    let file = File::open(path).map_err(io)?;
    let file_len = file.metadata().map_err(io)?.len();
    let mut input = BufReader::new(file);
    let mut header = [0u8; HEADER_LEN];
    if input.read_exact(&mut header).is_err() || &header[..8] != MAGIC {
        return Err(TableError::Magic(p()));
    }
    let word = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().expect("8 bytes"));
    let version = u32::from_le_bytes(header[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(TableError::Version {
            path: p(),
            found: version,
        });
    }
    let seeds = u16::from_le_bytes([header[14], header[15]]);
    let wanted_code = variant_code(key.variant);
    if (header[12], header[13], seeds as u32) != (wanted_code, key.holes, key.seeds) {
        return Err(TableError::Mismatch {
            path: p(),
            found: describe(header[12], header[13], seeds),
            wanted: describe(wanted_code, key.holes, key.seeds as u16),
        });
    }
    let expected = key.entries();
    let found = file_len - HEADER_LEN as u64;
    if word(16) != expected || found != expected {
        return Err(TableError::Length {
            path: p(),
            found,
            expected,
        });
    }
    let mut bytes = vec![0u8; expected as usize];
    input.read_exact(&mut bytes).map_err(io)?;
    let values: Vec<i8> = bytes.into_iter().map(|b| b as i8).collect();
    if checksum(&values) != word(24) {
        return Err(TableError::Checksum(p()));
    }
    Ok(values)
}
