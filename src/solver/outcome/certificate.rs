//! Certificates: a proof of "the prover's final margin is at least `target`
//! from the standard start", written so that anyone can check it with the
//! move generator and the tables alone ([`mod@super::verify`]).
//!
//! The file is one header line of text, then the nodes, then a checksum:
//!
//! ```text
//! HOYITO-PROOF 1 variant=ii holes=5 seeds=4 tables=16 prover=south target=1 nodes=1234
//! ```
//!
//! Node 0 is the start. A node where the prover moves holds its one move (the
//! hole's 0-based index, 255 for a pass) and that move's child; a node where
//! the opponent moves holds a child for every legal move, in the engine's
//! order, after their count. A child is `0` for a leaf (the game is over,
//! the prover is sure of the margin whatever happens to the seeds left, or
//! the tables give the position's exact value) or `j + 1` for node `j`: a
//! position reached by several lines (a transposition) is stored once.
//! Numbers are LEB128 varints; the checksum (FNV-1a, 64 bits, little-endian)
//! covers the header line and the nodes.

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use thiserror::Error;

use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::{Rules, Variant};
use crate::engine::side::Side;

use super::dfpn::{key_of, leaf_value, need_at, Limits, Prover, Verdict};
use super::transposition::NodeKey;

/// The format version written and read.
pub const VERSION: u32 = 1;
const MAGIC: &str = "HOYITO-PROOF";

/// A child reference: a leaf, or a node of the certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Child {
    /// A position the leaf rules decide for the prover.
    Leaf,
    /// Node `j`.
    Node(u32),
}

/// A node of the proof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProofNode {
    /// The prover moves: the one move and where it leads.
    Prover(Move, Child),
    /// The opponent moves: where every legal move leads, in the engine's order.
    Opponent(Vec<Child>),
}

/// A proof from a standard start, or from the position a line of moves
/// reaches from it (one shard of a proof split over a cluster).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certificate {
    /// Which Hoyito.
    pub variant: Variant,
    /// Holes per row.
    pub holes: u8,
    /// Seeds per hole at the start.
    pub seeds: u8,
    /// The largest layer whose table values are leaves.
    pub tables: u32,
    /// Who the proof is for.
    pub prover: Side,
    /// The prover's final margin (its captures minus the opponent's) is at
    /// least this.
    pub target: i32,
    /// The moves from the standard start to the proof's root (empty: the
    /// root is the start).
    pub after: Vec<Move>,
    /// Node 0 is the root; empty when the root is itself a leaf.
    pub nodes: Vec<ProofNode>,
}

/// Why a certificate file cannot be read.
#[derive(Debug, Error)]
pub enum CertificateError {
    /// The file cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not a certificate, or is damaged or cut short.
    #[error("{path} is not a whole hoyito proof certificate: {why}")]
    Damaged {
        /// The file.
        path: String,
        /// What is wrong.
        why: String,
    },
}

impl fmt::Display for Certificate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} 2x{}", self.variant.name(), self.holes)?;
        if !self.after.is_empty() {
            write!(f, " after {}", line_text(&self.after, " "))?;
        }
        write!(
            f,
            ": {}'s margin is at least {}",
            side_name(self.prover),
            self.target
        )
    }
}

/// Moves written as players write them, joined by `sep`.
pub fn line_text(moves: &[Move], sep: &str) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// The header field naming a shard's line (` after=3,11`), empty for a
/// search from the start, so that its files read (and hash) as they always
/// have.
pub fn after_field(after: &[Move]) -> String {
    if after.is_empty() {
        String::new()
    } else {
        format!(" after={}", line_text(after, ","))
    }
}

/// The position `after` reaches from the standard start of `rules`, or why
/// the line cannot be played (an illegal move, or a game already over).
pub fn play_line(rules: &Rules, after: &[Move]) -> Result<Position, String> {
    let mut pos = Position::start(rules);
    for (ply, &mv) in after.iter().enumerate() {
        if pos.is_over() {
            return Err(format!(
                "the game is over after {ply} moves of the line {}",
                line_text(after, ",")
            ));
        }
        pos = pos
            .play(rules, mv)
            .map_err(|e| {
                format!(
                    "move {} of the line {}: {e}",
                    ply + 1,
                    line_text(after, ",")
                )
            })?
            .0;
    }
    Ok(pos)
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "south",
        Side::North => "north",
    }
}

/// FNV-1a's starting value.
pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits, carried on from `h` over `bytes`.
pub fn fnv64_more(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// FNV-1a, 64 bits.
pub fn fnv64(bytes: &[u8]) -> u64 {
    fnv64_more(FNV_START, bytes)
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, String> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| format!("cut short at byte {}", self.at))?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= ((b & 0x7F) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(format!("a number runs past 64 bits at byte {}", self.at))
    }
}

impl Certificate {
    /// The header line, without its newline.
    fn header(&self) -> String {
        let mut header = format!(
            "{MAGIC} {VERSION} variant={} holes={} seeds={} tables={} prover={} target={} nodes={}",
            self.variant.name(),
            self.holes,
            self.seeds,
            self.tables,
            side_name(self.prover),
            self.target,
            self.nodes.len()
        );
        header.push_str(&after_field(&self.after));
        header
    }

    /// The proof's root: the position its line reaches from the start.
    pub fn root(&self) -> Result<Position, String> {
        let rules = Rules::new(self.variant)
            .with_board(self.holes as u32, self.seeds as u32)
            .map_err(|e| e.to_string())?;
        play_line(&rules, &self.after)
    }

    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = self.header().into_bytes();
        out.push(b'\n');
        let child = |out: &mut Vec<u8>, c: &Child| match c {
            Child::Leaf => put_varint(out, 0),
            Child::Node(j) => put_varint(out, *j as u64 + 1),
        };
        for node in &self.nodes {
            match node {
                ProofNode::Prover(mv, c) => {
                    out.push(0);
                    out.push(match mv {
                        Move::Sow(i) => *i,
                        Move::Pass => 255,
                    });
                    child(&mut out, c);
                }
                ProofNode::Opponent(children) => {
                    out.push(1);
                    put_varint(&mut out, children.len() as u64);
                    for c in children {
                        child(&mut out, c);
                    }
                }
            }
        }
        let sum = fnv64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a certificate from its bytes; `path` names it in errors.
    pub fn decode(bytes: &[u8], path: &Path) -> Result<Certificate, CertificateError> {
        let damaged = |why: String| CertificateError::Damaged {
            path: path.display().to_string(),
            why,
        };
        let line_end = bytes
            .iter()
            .take(8192)
            .position(|&b| b == b'\n')
            .ok_or_else(|| damaged("no header line".into()))?;
        let header = std::str::from_utf8(&bytes[..line_end])
            .map_err(|_| damaged("the header line is not text".into()))?;
        let mut words = header.split(' ');
        if words.next() != Some(MAGIC) {
            return Err(damaged(format!("it does not begin with {MAGIC}")));
        }
        match words.next().and_then(|v| v.parse::<u32>().ok()) {
            Some(VERSION) => {}
            Some(v) => {
                return Err(damaged(format!(
                    "format version {v}, this hoyito reads version {VERSION}"
                )))
            }
            None => return Err(damaged("no format version".into())),
        }
        let fields: HashMap<&str, &str> = words.filter_map(|w| w.split_once('=')).collect();
        let field = |name: &str| {
            fields
                .get(name)
                .copied()
                .ok_or_else(|| damaged(format!("the header has no {name}=")))
        };
        let number = |name: &str| -> Result<i64, CertificateError> {
            field(name)?
                .parse::<i64>()
                .map_err(|_| damaged(format!("{name}= is not a number")))
        };
        let variant: Variant = field("variant")?
            .parse()
            .map_err(|_| damaged("variant= is not i, ii or iii".into()))?;
        let prover = match field("prover")? {
            "south" => Side::South,
            "north" => Side::North,
            other => return Err(damaged(format!("prover={other} is not south or north"))),
        };
        let holes =
            u8::try_from(number("holes")?).map_err(|_| damaged("holes= out of range".into()))?;
        let seeds =
            u8::try_from(number("seeds")?).map_err(|_| damaged("seeds= out of range".into()))?;
        let tables =
            u32::try_from(number("tables")?).map_err(|_| damaged("tables= out of range".into()))?;
        let target =
            i32::try_from(number("target")?).map_err(|_| damaged("target= out of range".into()))?;
        let count =
            usize::try_from(number("nodes")?).map_err(|_| damaged("nodes= out of range".into()))?;
        let after = match fields.get("after") {
            None => Vec::new(),
            Some(line) => line
                .split(',')
                .map(|m| m.parse::<Move>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| damaged(format!("after=: {e}")))?,
        };
        if bytes.len() < line_end + 1 + 8 {
            return Err(damaged("cut short: no checksum".into()));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if fnv64(body).to_le_bytes() != sum {
            return Err(damaged(
                "its checksum does not hold (the file is damaged or cut short)".into(),
            ));
        }
        let mut r = Reader {
            bytes: &body[line_end + 1..],
            at: 0,
        };
        let child = |r: &mut Reader<'_>| -> Result<Child, String> {
            match r.varint()? {
                0 => Ok(Child::Leaf),
                j if j <= count as u64 => Ok(Child::Node((j - 1) as u32)),
                j => Err(format!(
                    "a child names node {}, beyond the {count} nodes",
                    j - 1
                )),
            }
        };
        let mut nodes = Vec::with_capacity(count.min(1 << 24));
        for i in 0..count {
            let node = (|| -> Result<ProofNode, String> {
                match r.byte()? {
                    0 => {
                        let mv = match r.byte()? {
                            255 => Move::Pass,
                            h if h < holes => Move::Sow(h),
                            h => return Err(format!("move to hole index {h} on a row of {holes}")),
                        };
                        Ok(ProofNode::Prover(mv, child(&mut r)?))
                    }
                    1 => {
                        let n = r.varint()?;
                        if n > 17 {
                            return Err(format!("{n} replies, more than a row has moves"));
                        }
                        let children = (0..n).map(|_| child(&mut r)).collect::<Result<_, _>>()?;
                        Ok(ProofNode::Opponent(children))
                    }
                    t => Err(format!("unknown node kind {t}")),
                }
            })()
            .map_err(|why| damaged(format!("node {i}: {why}")))?;
            nodes.push(node);
        }
        if r.at != r.bytes.len() {
            return Err(damaged(format!(
                "{} bytes follow the last node",
                r.bytes.len() - r.at
            )));
        }
        Ok(Certificate {
            variant,
            holes,
            seeds,
            tables,
            prover,
            target,
            after,
            nodes,
        })
    }

    /// Writes the certificate to `path` (through a temporary file, synced).
    pub fn save(&self, path: &Path) -> Result<(), CertificateError> {
        let temp = path.with_extension("part");
        crate::records::safe_file::write_atomic(&temp, path, &self.encode()).map_err(|source| {
            CertificateError::Io {
                path: path.display().to_string(),
                source,
            }
        })
    }

    /// Reads the certificate at `path`.
    pub fn load(path: &Path) -> Result<Certificate, CertificateError> {
        let io = |source| CertificateError::Io {
            path: path.display().to_string(),
            source,
        };
        crate::records::safe_file::check_regular_file(path).map_err(io)?;
        let bytes = std::fs::read(path).map_err(io)?;
        Certificate::decode(&bytes, path)
    }
}

/// Builds the certificate of a question the prover has settled: South's
/// final margin from `root` is at least `target` (when `proved`), or, when
/// disproved, North's is at least `1 - target`. Positions the table has
/// lost are searched again.
pub struct Extractor<'p, 'a> {
    prover: &'p mut Prover<'a>,
    target: i32,
    for_south: bool,
    nodes: Vec<Option<ProofNode>>,
    ids: HashMap<NodeKey, u32>,
    open: HashMap<NodeKey, u32>,
}

impl<'p, 'a> Extractor<'p, 'a> {
    /// An extractor of the proof (`proved`) or disproof of South's final
    /// margin reaching `target`.
    pub fn new(prover: &'p mut Prover<'a>, target: i32, proved: bool) -> Self {
        Extractor {
            prover,
            target,
            for_south: proved,
            nodes: Vec::new(),
            ids: HashMap::new(),
            open: HashMap::new(),
        }
    }

    /// Whether a leaf or a search result `pn`/`dn` favours the prover.
    fn favours(&self, proved: bool) -> bool {
        proved == self.for_south
    }

    /// The certificate from `root` (the caller sets `after` where the root
    /// is not the standard start of `rules`).
    pub fn extract(mut self, rules: &Rules, root: &Position) -> Option<Certificate> {
        let (prover, target) = if self.for_south {
            (Side::South, self.target)
        } else {
            (Side::North, 1 - self.target)
        };
        let nodes = match self.child(root)? {
            Child::Leaf => Vec::new(),
            Child::Node(_) => {
                let nodes: Vec<ProofNode> = self.nodes.into_iter().collect::<Option<_>>()?;
                compact(nodes)
            }
        };
        Some(Certificate {
            variant: rules.variant,
            holes: rules.holes,
            seeds: rules.seeds,
            tables: self.prover.exact_up_to(),
            prover,
            target,
            after: Vec::new(),
            nodes,
        })
    }

    /// The reference to `pos` in the proof, building its node if needed;
    /// `None` if the prover's side cannot be shown to win there.
    fn child(&mut self, pos: &Position) -> Option<Child> {
        let need = need_at(pos, self.target);
        let key = key_of(pos, need);
        let (tables, exact) = (self.prover.tables(), self.prover.exact_up_to());
        if let Some(v) = leaf_value(tables, exact, pos, need) {
            return self.favours(v).then_some(Child::Leaf);
        }
        if let Some(&id) = self.ids.get(&key) {
            return Some(Child::Node(id));
        }
        if let Some(&id) = self.open.get(&key) {
            // A cycle: endless play keeps the margin still needed, which
            // is a win for South when it is at most 0.
            return (self.favours(need <= 0)).then_some(Child::Node(id));
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(None);
        self.open.insert(key, id);
        let node = self.build(pos).or_else(|| {
            // The table lost part of the proof, or held results that hold
            // on one path only: search the position again, then retry.
            self.rollback(id);
            self.nodes.push(None);
            self.open.insert(key, id);
            let verdict = self.prover.prove(pos, self.target, Limits::default());
            let again = matches!(verdict, Verdict::Proved | Verdict::Disproved);
            again.then(|| self.build(pos)).flatten()
        });
        self.open.remove(&key);
        match node {
            Some(node) => {
                self.nodes[id as usize] = Some(node);
                self.ids.insert(key, id);
                Some(Child::Node(id))
            }
            None => {
                self.rollback(id);
                None
            }
        }
    }

    /// Forgets node `id` and every node made after it.
    fn rollback(&mut self, id: u32) {
        self.nodes.truncate(id as usize);
        self.ids.retain(|_, &mut j| j < id);
        self.open.retain(|_, &mut j| j < id);
    }

    fn build(&mut self, pos: &Position) -> Option<ProofNode> {
        let moves = self.prover.moves(pos);
        let prover_moves = (pos.side == Side::South) == self.for_south;
        if prover_moves {
            // Children the table shows won, the smallest proofs first.
            let mut candidates: Vec<(u32, usize)> = Vec::new();
            for (i, (_, child)) in moves.iter().enumerate() {
                let need = need_at(child, self.target);
                let (tables, exact) = (self.prover.tables(), self.prover.exact_up_to());
                if let Some(v) = leaf_value(tables, exact, child, need) {
                    if self.favours(v) {
                        candidates.push((0, i));
                    }
                    continue;
                }
                if let Some(e) = self.prover.resolved_entry(child, self.target) {
                    if self.favours(e.pn == 0) {
                        candidates.push((e.work.max(1), i));
                    }
                }
            }
            candidates.sort();
            for (_, i) in candidates {
                if let Some(c) = self.child(&moves[i].1) {
                    return Some(ProofNode::Prover(moves[i].0, c));
                }
            }
            None
        } else {
            let mut children = Vec::with_capacity(moves.len());
            for (_, child) in &moves {
                children.push(self.child(child)?);
            }
            Some(ProofNode::Opponent(children))
        }
    }
}

/// Renumbers the nodes reachable from node 0 in the order first reached.
fn compact(nodes: Vec<ProofNode>) -> Vec<ProofNode> {
    let mut order: Vec<u32> = vec![0];
    let mut new_id: HashMap<u32, u32> = HashMap::from([(0, 0)]);
    let mut at = 0;
    while at < order.len() {
        let node = &nodes[order[at] as usize];
        let refs: Vec<u32> = match node {
            ProofNode::Prover(_, Child::Node(j)) => vec![*j],
            ProofNode::Prover(_, Child::Leaf) => vec![],
            ProofNode::Opponent(cs) => cs
                .iter()
                .filter_map(|c| match c {
                    Child::Node(j) => Some(*j),
                    Child::Leaf => None,
                })
                .collect(),
        };
        for j in refs {
            if let std::collections::hash_map::Entry::Vacant(slot) = new_id.entry(j) {
                slot.insert(order.len() as u32);
                order.push(j);
            }
        }
        at += 1;
    }
    let map = |c: &Child| match c {
        Child::Leaf => Child::Leaf,
        Child::Node(j) => Child::Node(new_id[j]),
    };
    order
        .iter()
        .map(|&old| match &nodes[old as usize] {
            ProofNode::Prover(mv, c) => ProofNode::Prover(*mv, map(c)),
            ProofNode::Opponent(cs) => ProofNode::Opponent(cs.iter().map(map).collect()),
        })
        .collect()
}
