//! One layer of a tablebase and its file format.
//!
//! Building a layer of 2x6 takes minutes, so layers are saved and loaded back;
//! a damaged or mismatched file must never be taken for a good one, since a
//! wrong value would silently mislead every game and study that uses it. So the
//! checksum covers the header as well as the data (a Hoyito I table renamed as
//! a Hoyito II one, its variant byte edited, is refused), every header field is
//! checked against what was asked, a file is written to a temporary name,
//! synced and renamed into place (a killed build never leaves half a table
//! behind), and every refusal says which command rebuilds the file.
//!
//! A saved layer is used in place: [`map`] maps its file read-only after the
//! same checks as [`load`], so that every thread and process that uses a table
//! shares the one copy in the page cache instead of reading its own (a layer of
//! 2x6 is gigabytes). [`load`] still reads a copy, for whoever needs one.
//!
//! File format, version 2 (all integers little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `HOYITOTB` |
//! | 8 | 4 | format version (2) |
//! | 12 | 1 | variant (1, 2 or 3) |
//! | 13 | 1 | holes per row |
//! | 14 | 2 | seeds on the board (the layer) |
//! | 16 | 1 | who takes the last seeds: 0 the capturer, 1 South, 2 North |
//! | 17 | 1 | leftovers of a stalled game: 0 nobody, 1 own row, 2 split |
//! | 18 | 6 | zero |
//! | 24 | 8 | number of entries (2 x boards in the layer) |
//! | 32 | 8 | FNV-1a 64 checksum of bytes 0..32 and of the data |
//! | 40 | entries | values, `i8` each: side to move South, boards in rank order, then North |
//!
//! Each value is the exact capture margin still to come for the side to move.
//! Version 1 (a 32-byte header whose checksum covered the data only) is refused
//! with the command that rebuilds the file.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use memmap2::Mmap;

use thiserror::Error;

use crate::engine::rules::{LastFour, Leftover, Variant};
use crate::engine::side::Side;
use crate::solver::index::LayerIndex;
use crate::solver::mapped_files::{self, Registration};

const MAGIC: &[u8; 8] = b"HOYITOTB";
const VERSION: u32 = 2;
const HEADER_LEN: usize = 40;

/// What a table is about: variant, board, layer and the rules that change values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TableKey {
    /// Which Hoyito.
    pub variant: Variant,
    /// Holes per row.
    pub holes: u8,
    /// Seeds on the board.
    pub seeds: u32,
    /// Who takes the last seeds.
    pub last_four: LastFour,
    /// Who takes the leftovers of a stalled game.
    pub leftover: Leftover,
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

    /// The command that rebuilds this layer into directory `dir`.
    pub fn rebuild_command(&self, dir: &Path) -> String {
        let dir = dir.display().to_string();
        let dir = if dir.is_empty() {
            ".".to_string()
        } else if dir.contains(|c: char| c.is_whitespace() || c == '\'' || c == '"') {
            format!("{dir:?}")
        } else {
            dir
        };
        format!(
            "hoyito solve --variant {} --holes {} --max-seeds {} --only-needed --tables {dir}",
            self.variant, self.holes, self.seeds
        )
    }

    fn header(&self, entries: u64) -> [u8; HEADER_LEN] {
        let mut header = [0u8; HEADER_LEN];
        header[..8].copy_from_slice(MAGIC);
        header[8..12].copy_from_slice(&VERSION.to_le_bytes());
        header[12] = variant_code(self.variant);
        header[13] = self.holes;
        header[14..16].copy_from_slice(&(self.seeds as u16).to_le_bytes());
        header[16] = last_four_code(self.last_four);
        header[17] = leftover_code(self.leftover);
        header[24..32].copy_from_slice(&entries.to_le_bytes());
        header
    }
}

/// What is wrong with the contents of a table file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Damage {
    /// Not a hoyito table file at all.
    Magic,
    /// Shorter than a header.
    NoHeader {
        /// Bytes in the file.
        bytes: u64,
    },
    /// Written by another version of the format.
    Version {
        /// Its version.
        found: u32,
    },
    /// A table for another variant, board, layer or rules.
    Mismatch {
        /// What the header says.
        found: String,
        /// What was asked for.
        wanted: String,
    },
    /// The header's entry count is not the layer's.
    Count {
        /// Entries the header claims.
        found: u64,
        /// Entries the layer has.
        expected: u64,
    },
    /// Shorter or longer than the layer.
    Length {
        /// Bytes found after the header.
        found: u64,
        /// Bytes the layer needs.
        expected: u64,
    },
    /// Header or data do not match the checksum.
    Checksum,
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Damage::Magic => f.write_str("is not a hoyito table file (bad magic bytes)"),
            Damage::NoHeader { bytes } => write!(
                f,
                "is truncated: {bytes} bytes, shorter than the {HEADER_LEN}-byte header"
            ),
            Damage::Version { found } => write!(
                f,
                "has table format version {found}; this program reads version {VERSION}"
            ),
            Damage::Mismatch { found, wanted } => {
                write!(f, "holds {found}, but {wanted} was asked for")
            }
            Damage::Count { found, expected } => write!(
                f,
                "has a damaged header: it claims {found} entries, the layer has {expected}"
            ),
            Damage::Length { found, expected } if found < expected => write!(
                f,
                "is truncated: {found} data bytes, the layer needs {expected}"
            ),
            Damage::Length { found, expected } => write!(
                f,
                "has {} bytes too many: {found} data bytes, the layer needs {expected}",
                found - expected
            ),
            Damage::Checksum => {
                f.write_str("is damaged: its header or data do not match the checksum")
            }
        }
    }
}

/// Why a table file cannot be saved or used.
#[derive(Debug, Error)]
pub enum TableError {
    /// Reading the file failed (the cause follows in the error chain).
    #[error("cannot read table file {path}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// Writing the file failed (the cause follows in the error chain).
    #[error("cannot write table file {path}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The file is there but cannot be used as the table asked for.
    #[error("table file {path} {damage}; delete it, then rebuild it with `{rebuild}`")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        damage: Damage,
        /// The command that rebuilds it.
        rebuild: String,
    },
    /// No memory for the values.
    #[error("table file {path}: cannot allocate {bytes} bytes for its values")]
    Memory {
        /// The file.
        path: PathBuf,
        /// The allocation that failed.
        bytes: u64,
    },
}

impl TableError {
    /// What is wrong with the file's contents, if that is the problem.
    pub fn damage(&self) -> Option<&Damage> {
        match self {
            TableError::Damaged { damage, .. } => Some(damage),
            _ => None,
        }
    }
}

fn describe(variant: u8, holes: u8, seeds: u16, last_four: u8, leftover: u8) -> String {
    let last = match last_four {
        0 => "the capturer takes the last seeds".to_string(),
        1 => "South takes the last seeds".to_string(),
        2 => "North takes the last seeds".to_string(),
        n => format!("last-seeds rule {n}"),
    };
    let left = match leftover {
        0 => "stalled leftovers to nobody".to_string(),
        1 => "stalled leftovers to their row's owner".to_string(),
        2 => "stalled leftovers split".to_string(),
        n => format!("leftover rule {n}"),
    };
    format!("Hoyito variant {variant} on 2x{holes} with {seeds} seeds ({last}, {left})")
}

fn variant_code(variant: Variant) -> u8 {
    match variant {
        Variant::I => 1,
        Variant::Ii => 2,
        Variant::Iii => 3,
    }
}

fn last_four_code(last_four: LastFour) -> u8 {
    match last_four {
        LastFour::Capturer => 0,
        LastFour::Player(Side::South) => 1,
        LastFour::Player(Side::North) => 2,
    }
}

fn leftover_code(leftover: Leftover) -> u8 {
    match leftover {
        Leftover::None => 0,
        Leftover::OwnSide => 1,
        Leftover::Split => 2,
    }
}

/// FNV-1a, 64 bits, eight lanes so that it runs at memory speed; a checksum
/// against damage, not against tampering. `prefix` (the header) is hashed
/// first.
pub fn checksum(prefix: &[u8], data: &[i8]) -> u64 {
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
    for byte in prefix
        .iter()
        .copied()
        .chain(chunks.remainder().iter().map(|&b| b as u8))
        .chain(lanes.iter().flat_map(|l| l.to_le_bytes()))
    {
        h = (h ^ byte as u64).wrapping_mul(PRIME);
    }
    h ^ data.len() as u64
}

/// Writes one layer to `path`, atomically: to a temporary file in the same
/// directory, synced to disk, then renamed over `path`. A crash leaves either
/// no file or the whole file (and perhaps a `.tmp` file, never read).
pub fn save(path: &Path, key: TableKey, values: &[i8]) -> Result<(), TableError> {
    let write_err = |source| TableError::Write {
        path: path.to_path_buf(),
        source,
    };
    debug_assert_eq!(values.len() as u64, key.entries());
    let mut header = key.header(values.len() as u64);
    let sum = checksum(&header[..32], values);
    header[32..40].copy_from_slice(&sum.to_le_bytes());
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    // `create_new` refuses an existing file or link: a planted link is never
    // followed. One left by a killed process of the same id is removed (the
    // link itself, not its target) and the creation tried once more.
    let create = || OpenOptions::new().write(true).create_new(true).open(&temp);
    let file = match create() {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            std::fs::remove_file(&temp).map_err(write_err)?;
            create()
        }
        other => other,
    }
    .map_err(write_err)?;
    let written = write_all(file, &header, values).and_then(|()| std::fs::rename(&temp, path));
    if let Err(source) = written {
        // Best effort: the temporary file is never read, only in the way.
        let _ = std::fs::remove_file(&temp);
        return Err(write_err(source));
    }
    // Make the rename itself durable; some file systems cannot sync a directory.
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(dir) = File::open(dir) {
            let _ = dir.sync_all();
        }
    }
    Ok(())
}

/// The temporary file named `name`, if it is one of a solve's: the file
/// it was to become and the id of the process that wrote it. A table of
/// [`save`] (`.hoyito-ii-2x6-012.tb.PID.tmp`), a layer of the start
/// solver's state (`.keys-28.bin.PID.tmp`, `.values-28.bin.PID.tmp`).
fn temp_of(name: &str) -> Option<(&str, i32)> {
    let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (file, pid) = inner.rsplit_once('.')?;
    let is_table = file.starts_with("hoyito-") && file.ends_with(".tb");
    let is_state = ["keys-", "values-"].iter().any(|kind| {
        file.strip_prefix(kind)
            .and_then(|rest| rest.strip_suffix(".bin"))
            .is_some_and(|seeds| !seeds.is_empty() && seeds.bytes().all(|b| b.is_ascii_digit()))
    });
    let pid = pid.parse().ok().filter(|&pid| pid > 0)?;
    (is_table || is_state).then_some((file, pid))
}

/// Whether process `pid` still runs (or cannot be told: another user's).
fn process_runs(pid: i32) -> bool {
    // SAFETY: signal 0 sends nothing; it only checks that `pid` exists.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Removes from `dir` the temporary files of [`save`] whose process no longer
/// runs, and returns them, each with the id of that process: a solve killed
/// while it writes a layer leaves its `.NAME.PID.tmp` (megabytes to gigabytes)
/// behind, for good unless cleared. Files of running processes, such as
/// another solve's, are left alone.
pub fn clear_stale_temps(dir: &Path) -> std::io::Result<Vec<(PathBuf, i32)>> {
    let mut removed = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some((_, pid)) = name.to_str().and_then(temp_of) else {
            continue;
        };
        if pid as u32 == std::process::id() || process_runs(pid) {
            continue;
        }
        // Plain files only (a link is removed, never followed).
        if entry.file_type()?.is_dir() {
            continue;
        }
        match std::fs::remove_file(entry.path()) {
            Ok(()) => removed.push((entry.path(), pid)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    removed.sort();
    Ok(removed)
}

fn write_all(file: File, header: &[u8], values: &[i8]) -> std::io::Result<()> {
    let mut out = BufWriter::new(file);
    out.write_all(header)?;
    let mut buf = Vec::with_capacity(1 << 16);
    for chunk in values.chunks(1 << 16) {
        buf.clear();
        buf.extend(chunk.iter().map(|&v| v as u8));
        out.write_all(&buf)?;
    }
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()
}

/// Checks everything but the checksum: `head` holds the first bytes of a file
/// of `file_len` bytes (all of them when shorter than a header).
fn check_header(head: &[u8], file_len: u64, key: TableKey) -> Result<(), Damage> {
    if head.len() < 8 || &head[..8] != MAGIC {
        return Err(Damage::Magic);
    }
    if head.len() >= 12 {
        let version = u32::from_le_bytes([head[8], head[9], head[10], head[11]]);
        if version != VERSION {
            return Err(Damage::Version { found: version });
        }
    }
    if head.len() < HEADER_LEN || file_len < HEADER_LEN as u64 {
        return Err(Damage::NoHeader { bytes: file_len });
    }
    let expected = key.entries();
    let wanted = key.header(expected);
    if head[12..18] != wanted[12..18] {
        let seeds = |h: &[u8]| u16::from_le_bytes([h[14], h[15]]);
        let describe_header = |h: &[u8]| describe(h[12], h[13], seeds(h), h[16], h[17]);
        return Err(Damage::Mismatch {
            found: describe_header(head),
            wanted: describe_header(&wanted),
        });
    }
    let count = header_word(head, 24);
    if count != expected {
        return Err(Damage::Count {
            found: count,
            expected,
        });
    }
    let found = file_len - HEADER_LEN as u64;
    if found != expected {
        return Err(Damage::Length { found, expected });
    }
    Ok(())
}

/// The little-endian word at `at` of a whole header.
fn header_word(header: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&header[at..at + 8]);
    u64::from_le_bytes(word)
}

/// The error for a file `path` of the table `key` that is not that table.
fn damaged(path: &Path, key: TableKey, damage: Damage) -> TableError {
    TableError::Damaged {
        path: path.to_path_buf(),
        damage,
        rebuild: key.rebuild_command(path.parent().unwrap_or(Path::new("."))),
    }
}

/// Opens `path` for reading, refusing anything but a regular file first
/// (opening a FIFO for reading blocks until a writer comes), and returns its
/// length with the first bytes, up to a header's worth.
fn open_checked(path: &Path) -> Result<(File, u64, Vec<u8>), TableError> {
    let read_err = |source| TableError::Read {
        path: path.to_path_buf(),
        source,
    };
    crate::records::safe_file::check_regular_file(path).map_err(read_err)?;
    let mut file = File::open(path).map_err(read_err)?;
    let file_len = file.metadata().map_err(read_err)?.len();
    let mut head = vec![0u8; (file_len as usize).min(HEADER_LEN)];
    file.read_exact(&mut head).map_err(read_err)?;
    Ok((file, file_len, head))
}

/// Reads one layer from `path`, refusing anything that is not exactly the
/// table of `key`: every header field is checked, then the checksum over
/// header and data. [`map`] makes the same checks without copying the values.
pub fn load(path: &Path, key: TableKey) -> Result<Vec<i8>, TableError> {
    let read_err = |source| TableError::Read {
        path: path.to_path_buf(),
        source,
    };
    let (file, file_len, head) = open_checked(path)?;
    check_header(&head, file_len, key).map_err(|d| damaged(path, key, d))?;
    let expected = key.entries();
    let mut bytes: Vec<u8> = Vec::new();
    let len = usize::try_from(expected)
        .ok()
        .filter(|&n| n <= isize::MAX as usize);
    match len {
        Some(n) if bytes.try_reserve_exact(n).is_ok() => {}
        _ => {
            return Err(TableError::Memory {
                path: path.to_path_buf(),
                bytes: expected,
            })
        }
    }
    file.take(expected)
        .read_to_end(&mut bytes)
        .map_err(read_err)?;
    if bytes.len() as u64 != expected {
        // The file shrank while being read.
        return Err(damaged(
            path,
            key,
            Damage::Length {
                found: bytes.len() as u64,
                expected,
            },
        ));
    }
    // Reinterpret in place: u8 and i8 have the same size and alignment.
    let values: Vec<i8> = bytes.into_iter().map(|b| b as i8).collect();
    if checksum(&head[..32], &values) != header_word(&head, 32) {
        return Err(damaged(path, key, Damage::Checksum));
    }
    Ok(values)
}

/// One layer's file, checked and mapped read-only: its values are read from
/// the page cache, never copied, so every process and thread mapping the same
/// file shares one copy in memory. Cloning shares the mapping.
#[derive(Debug, Clone)]
pub struct MappedLayer {
    map: Arc<WatchedMap>,
    path: PathBuf,
}

/// A mapping and its watch ([`mapped_files`]): the watch is dropped first
/// (fields drop in order), so it never outlives the mapping.
#[derive(Debug)]
struct WatchedMap {
    _watch: Registration,
    map: Mmap,
}

/// Whether table bytes (header and values) hold their checksum.
fn checksum_holds(bytes: &[u8]) -> bool {
    bytes.len() >= HEADER_LEN
        && checksum(&bytes[..32], as_values(&bytes[HEADER_LEN..])) == header_word(bytes, 32)
}

impl MappedLayer {
    /// The values, side to move South in rank order, then North.
    pub fn values(&self) -> &[i8] {
        as_values(&self.map.map[HEADER_LEN..])
    }

    /// The file mapped.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Views bytes as the `i8` values they store.
fn as_values(bytes: &[u8]) -> &[i8] {
    // SAFETY: `u8` and `i8` have the same size and alignment, and every bit
    // pattern is a valid `i8`; the slice borrows `bytes` for its lifetime.
    unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<i8>(), bytes.len()) }
}

/// Maps one layer from `path` read-only, refusing anything that is not
/// exactly the table of `key`, with the same checks and errors as [`load`]:
/// a regular file, then every header field, the length and the checksum over
/// header and data (which reads the whole file once, through the mapping).
///
/// A mapped file must not be truncated or rewritten in place while mapped;
/// [`save`] never does that, it renames a new file over the old one, and a
/// mapping keeps the old file's contents. Another program might: every
/// mapping is watched ([`mapped_files`]), so that reading a truncated table
/// stops the process with a message naming the file instead of a bare
/// `SIGBUS`, and a table rewritten with other bytes is found by
/// [`mapped_files::check_unchanged`], which a run calls before it writes
/// each chunk of rows.
pub fn map(path: &Path, key: TableKey) -> Result<MappedLayer, TableError> {
    let read_err = |source| TableError::Read {
        path: path.to_path_buf(),
        source,
    };
    let (file, file_len, head) = open_checked(path)?;
    check_header(&head, file_len, key).map_err(|d| damaged(path, key, d))?;
    // SAFETY: the mapping is read-only and this program never writes a table
    // file in place (see above); the checks below run on the mapped bytes,
    // so a file changed since its header was read is still refused.
    let map = unsafe { Mmap::map(&file) }.map_err(read_err)?;
    // Watched before the checksum is verified: a change while it is read
    // moves the file's stamp, and the next check verifies it again.
    let watch = mapped_files::register(file, path, &map).map_err(read_err)?;
    let mapped_len = map.len() as u64;
    check_header(&map[..HEADER_LEN.min(map.len())], mapped_len, key)
        .map_err(|d| damaged(path, key, d))?;
    if !checksum_holds(&map) {
        return Err(damaged(path, key, Damage::Checksum));
    }
    Ok(MappedLayer {
        map: Arc::new(WatchedMap { _watch: watch, map }),
        path: path.to_path_buf(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::tablebase::Tablebase;

    /// The layer of 4 seeds of Hoyito II on 2x3 (252 entries), saved in `dir`.
    fn small_table(dir: &Path) -> (PathBuf, TableKey, Vec<u8>) {
        let mut tb = Tablebase::new(Variant::Ii, 3).expect("a valid board");
        tb.ensure(4, Some(dir), &|_| {}).expect("built and saved");
        let key = tb.key(4);
        let path = dir.join(key.file_name());
        let bytes = std::fs::read(&path).expect("saved");
        assert_eq!(bytes.len() as u64, HEADER_LEN as u64 + key.entries());
        (path, key, bytes)
    }

    /// Writes `bytes` to `bad` and checks that both `map` and `load` refuse it
    /// with the same damage, naming the file.
    fn refused(bad: &Path, key: TableKey, bytes: &[u8]) -> Option<Damage> {
        std::fs::write(bad, bytes).expect("writable");
        let mapped = map(bad, key).expect_err("refused by map");
        let loaded = load(bad, key).expect_err("refused by load");
        let message = mapped.to_string();
        assert!(message.contains(&bad.display().to_string()), "{message}");
        assert_eq!(message, loaded.to_string());
        assert_eq!(mapped.damage(), loaded.damage());
        mapped.damage().cloned()
    }

    #[test]
    fn mapped_values_are_the_loaded_ones() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let (path, key, bytes) = small_table(dir.path());
        let mapped = map(&path, key).expect("a good file");
        let loaded = load(&path, key).expect("a good file");
        assert_eq!(mapped.values(), loaded.as_slice());
        assert_eq!(mapped.path(), path.as_path());
        let raw: Vec<i8> = bytes[HEADER_LEN..].iter().map(|&b| b as i8).collect();
        assert_eq!(mapped.values(), raw.as_slice());
        // A clone shares the mapping.
        let clone = mapped.clone();
        assert_eq!(clone.values().as_ptr(), mapped.values().as_ptr());
    }

    #[test]
    fn map_refuses_every_flipped_byte() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let (_, key, good) = small_table(dir.path());
        let bad = dir.path().join("flipped.tb");
        for at in 0..good.len() {
            for mask in [0x01u8, 0x80] {
                let mut bytes = good.clone();
                bytes[at] ^= mask;
                let damage = refused(&bad, key, &bytes);
                assert!(damage.is_some(), "byte {at} ^ {mask:#x}");
                if at >= 32 || (18..24).contains(&at) {
                    assert_eq!(damage, Some(Damage::Checksum), "byte {at}");
                }
            }
        }
    }

    #[test]
    fn map_refuses_truncated_and_overlong_files() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let (_, key, good) = small_table(dir.path());
        let bad = dir.path().join("short.tb");
        assert_eq!(refused(&bad, key, &[]), Some(Damage::Magic));
        assert_eq!(refused(&bad, key, &good[..5]), Some(Damage::Magic));
        assert_eq!(
            refused(&bad, key, &good[..10]),
            Some(Damage::NoHeader { bytes: 10 })
        );
        assert_eq!(
            refused(&bad, key, &good[..HEADER_LEN - 1]),
            Some(Damage::NoHeader {
                bytes: HEADER_LEN as u64 - 1
            })
        );
        let expected = key.entries();
        for cut in [HEADER_LEN, good.len() - 1] {
            assert_eq!(
                refused(&bad, key, &good[..cut]),
                Some(Damage::Length {
                    found: (cut - HEADER_LEN) as u64,
                    expected
                })
            );
        }
        let mut long = good.clone();
        long.push(0);
        assert_eq!(
            refused(&bad, key, &long),
            Some(Damage::Length {
                found: expected + 1,
                expected
            })
        );
    }

    #[test]
    fn map_refuses_another_table_and_what_is_not_a_file() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let (path, key, _) = small_table(dir.path());
        let other = TableKey { seeds: 8, ..key };
        let err = map(&path, other).expect_err("another layer");
        assert!(
            matches!(err.damage(), Some(Damage::Mismatch { .. })),
            "{err}"
        );
        assert!(err.to_string().contains(&path.display().to_string()));
        assert!(err
            .to_string()
            .contains("hoyito solve --variant ii --holes 3 --max-seeds 8"));
        let missing = dir.path().join("missing.tb");
        let err = map(&missing, key).expect_err("no file");
        assert!(matches!(err, TableError::Read { .. }), "{err}");
        assert!(err.to_string().contains("missing.tb"), "{err}");
        let err = map(dir.path(), key).expect_err("a directory");
        assert!(matches!(err, TableError::Read { .. }), "{err}");
    }

    /// A 7 MB `.hoyito-*.tb.PID.tmp` of a solve killed with SIGKILL would
    /// stay for good: those of processes that no longer run are cleared;
    /// the running process's and other files stay.
    #[test]
    fn temporary_files_of_dead_processes_are_cleared() {
        let dir = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id() as i32;
        child.wait().unwrap();
        let own = std::process::id();
        let stale = format!(".hoyito-ii-2x6-012.tb.{dead}.tmp");
        let keep = [
            format!(".hoyito-ii-2x6-013.tb.{own}.tmp"),
            format!(".other.{dead}.tmp"),
            "hoyito-ii-2x6-012.tb".to_string(),
        ];
        for name in keep.iter().chain([&stale]) {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        let removed = clear_stale_temps(dir.path()).unwrap();
        assert_eq!(removed, vec![(dir.path().join(&stale), dead)]);
        for name in &keep {
            assert!(dir.path().join(name).exists(), "{name}");
        }
        assert_eq!(temp_of(&stale), Some(("hoyito-ii-2x6-012.tb", dead)));
        assert_eq!(temp_of(".hoyito-ii-2x6-012.tb.0.tmp"), None);
        // A layer of the start solver's state, left by `ulimit -f`.
        assert_eq!(
            temp_of(".keys-28.bin.4242.tmp"),
            Some(("keys-28.bin", 4242))
        );
        assert_eq!(temp_of(".values-8.bin.7.tmp"), Some(("values-8.bin", 7)));
        assert_eq!(temp_of(".keys-.bin.7.tmp"), None);
    }
}
