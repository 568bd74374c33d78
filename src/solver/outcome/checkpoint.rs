//! The proof search's saved state: its table's entries that hold from any
//! path, so that a search killed at any moment (even by `kill -9`) resumes
//! from its last checkpoint and reaches the same result.
//!
//! One header line of text names the start and the tables it belongs to;
//! the entries follow (board, side to move, margin needed, proof and
//! disproof numbers, work, move), then an FNV-1a checksum. The file is
//! written to a temporary name, synced and renamed, so a kill leaves the
//! previous checkpoint whole.

use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::path::Path;

use crate::engine::moves::Move;
use crate::engine::rules::Rules;
use crate::engine::side::Side;

use super::certificate::{after_field, fnv64, fnv64_more, CertificateError, FNV_START};
use super::transposition::{Entry, NodeKey, Table};

const MAGIC: &str = "HOYITO-PROOF-STATE";
const VERSION: u32 = 1;

/// What a state file belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateOf<'a> {
    /// The start's rules (variant, board, seeds).
    pub rules: Rules,
    /// The largest table layer used as leaves.
    pub tables: u32,
    /// The moves from the start to the search's root (empty: the start).
    pub after: &'a [Move],
}

impl StateOf<'_> {
    fn header(&self, nodes: u64, entries: usize) -> String {
        let mut header = format!(
            "{MAGIC} {VERSION} variant={} holes={} seeds={} tables={} nodes={nodes} entries={entries}",
            self.rules.variant.name(),
            self.rules.holes,
            self.rules.seeds,
            self.tables
        );
        header.push_str(&after_field(self.after));
        header
    }
}

/// FNV-1a over bytes as they are written.
struct Hashing<W> {
    inner: W,
    hash: u64,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash = fnv64_more(self.hash, &buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Writes the entries of `table` that hold from any path, streamed through
/// a temporary file (a table of gigabytes is never copied in memory), synced
/// and renamed over `path`.
pub fn save(
    path: &Path,
    of: StateOf<'_>,
    table: &Table,
    nodes: u64,
) -> Result<(), CertificateError> {
    let io = |source| CertificateError::Io {
        path: path.display().to_string(),
        source,
    };
    let width = 2 * of.rules.holes as usize;
    let kept = table.entries().filter(|e| e.dep_serial == 0).count();
    let temp = path.with_extension("part");
    let file = crate::records::safe_file::create_temp(&temp).map_err(io)?;
    let mut out = Hashing {
        inner: BufWriter::with_capacity(1 << 20, file),
        hash: FNV_START,
    };
    let write = || -> std::io::Result<()> {
        out.write_all(of.header(nodes, kept).as_bytes())?;
        out.write_all(b"\n")?;
        for e in table.entries().filter(|e| e.dep_serial == 0) {
            out.write_all(&e.key.board[..width])?;
            out.write_all(&[e.key.side as u8])?;
            out.write_all(&e.key.need.to_le_bytes())?;
            out.write_all(&e.pn.to_le_bytes())?;
            out.write_all(&e.dn.to_le_bytes())?;
            out.write_all(&e.work.to_le_bytes())?;
            out.write_all(&[e.best])?;
        }
        let sum = out.hash;
        out.write_all(&sum.to_le_bytes())?;
        let file = out.inner.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    };
    write().map_err(io)
}

/// Reads a state file written for `of`: its entries and the nodes searched.
/// A file of another start or other tables, or a damaged one, is refused.
pub fn load(path: &Path, of: StateOf<'_>) -> Result<(Vec<Entry>, u64), CertificateError> {
    let damaged = |why: String| CertificateError::Damaged {
        path: path.display().to_string(),
        why,
    };
    let bytes = std::fs::read(path).map_err(|source| CertificateError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let line_end = bytes
        .iter()
        .take(8192)
        .position(|&b| b == b'\n')
        .ok_or_else(|| damaged("no header line: not a proof search's state".into()))?;
    let header = std::str::from_utf8(&bytes[..line_end])
        .map_err(|_| damaged("the header line is not text".into()))?;
    let mut words = header.split(' ');
    if words.next() != Some(MAGIC) {
        return Err(damaged(format!(
            "it does not begin with {MAGIC}: not a proof search's state"
        )));
    }
    if words.next() != Some(&VERSION.to_string()) {
        return Err(damaged(format!("not state format version {VERSION}")));
    }
    let fields: HashMap<&str, &str> = words.filter_map(|w| w.split_once('=')).collect();
    let get = |name: &str| fields.get(name).copied().unwrap_or("");
    let mine = of.header(0, 0);
    let mine: HashMap<&str, &str> = mine.split(' ').filter_map(|w| w.split_once('=')).collect();
    let mine_of = |name: &str| mine.get(name).copied().unwrap_or("");
    for name in ["variant", "holes", "seeds", "tables", "after"] {
        if get(name) != mine_of(name) {
            return Err(damaged(format!(
                "it is the state of another start or tables ({name}={}, this search has {name}={}); \
                 give another file, or delete it to start afresh",
                get(name),
                mine_of(name)
            )));
        }
    }
    let nodes: u64 = get("nodes")
        .parse()
        .map_err(|_| damaged("nodes= is not a number".into()))?;
    let count: usize = get("entries")
        .parse()
        .map_err(|_| damaged("entries= is not a number".into()))?;
    let width = 2 * of.rules.holes as usize;
    let record = width + 1 + 2 + 4 + 4 + 4 + 1;
    if bytes.len() != line_end + 1 + count * record + 8 {
        return Err(damaged(format!(
            "it is {} bytes, not the {} its header announces (cut short?)",
            bytes.len(),
            line_end + 1 + count * record + 8
        )));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if fnv64(body).to_le_bytes() != sum {
        return Err(damaged(
            "its checksum does not hold (the file is damaged)".into(),
        ));
    }
    let word = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("four bytes"));
    let mut entries = Vec::with_capacity(count);
    for r in body[line_end + 1..].chunks_exact(record) {
        let mut board = [0u8; 32];
        board[..width].copy_from_slice(&r[..width]);
        let side = match r[width] {
            0 => Side::South,
            _ => Side::North,
        };
        let at = width + 1;
        entries.push(Entry {
            key: NodeKey {
                board,
                side,
                need: i16::from_le_bytes([r[at], r[at + 1]]),
            },
            pn: word(&r[at + 2..at + 6]),
            dn: word(&r[at + 6..at + 10]),
            work: word(&r[at + 10..at + 14]),
            dep_serial: 0,
            dep_depth: 0,
            epoch: 0,
            best: r[at + 14],
        });
    }
    Ok((entries, nodes))
}
