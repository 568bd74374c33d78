//! Depth-first proof-number search (Nagai 2002) with the 1+ε trick
//! (Pawlewicz and Lew 2007), over the game's graph, for one kind of
//! question: does South's margin still to come reach `need`?
//!
//! South is the prover: a node with South to move is an OR node, one with
//! North to move an AND node. A node's key is its board, side to move and
//! the margin South still needs, so one table serves every threshold.
//!
//! # Cycles
//! Play without captures can go round forever, and endless play is worth
//! nothing more (as the tables count it): a cycle, which never captures,
//! keeps the margin still needed fixed, so it is a win for South when that
//! margin is at most 0 and a loss otherwise. A child repeating a position of
//! the search path takes that value. Such a result holds for this path only
//! (the graph-history interaction problem), so it is marked with the path
//! frame it rests on and trusted only while that frame is on the path, or
//! once the frame has been resolved to the very value its repetition was
//! given (the cyclic argument then holds from any path). A frame that was
//! repeated and leaves the path any other way starts a new epoch, and no
//! result marked before it is trusted again: every result used is one that
//! holds from any path, or holds on the path it is used on.
//!
//! A proof found this way is written out as a certificate and checked by
//! [`mod@super::verify`] with no search at all, so a flaw here could lose a
//! proof but could not pass a false one.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::Rules;
use crate::engine::side::Side;
use crate::solver::tablebase::Tablebase;

use super::transposition::{add, Entry, NodeKey, Table, INF};

/// What may stop a search before it resolves its root.
#[derive(Debug, Clone, Copy, Default)]
pub struct Limits {
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this long.
    pub time: Option<Duration>,
}

/// Why the search came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The question holds.
    Proved,
    /// It does not.
    Disproved,
    /// The limits stopped it first: the root's proof and disproof numbers.
    Open {
        /// Proof number.
        pn: u32,
        /// Disproof number.
        dn: u32,
    },
}

/// A report of the search's progress.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Nodes searched so far, over every search of this prover.
    pub nodes: u64,
    /// Seconds since this search began.
    pub seconds: f64,
    /// The root's proof number.
    pub pn: u32,
    /// The root's disproof number.
    pub dn: u32,
    /// Table slots in use and in all.
    pub used: usize,
    /// Table capacity.
    pub capacity: usize,
    /// The longest search path so far, in plies.
    pub deepest: usize,
}

struct Frame {
    serial: u32,
    repeated: bool,
}

#[derive(Clone, Copy)]
struct Child {
    pos: Position,
    key: NodeKey,
    /// Proved (true) or disproved (false) by a rule, with no search.
    leaf: Option<bool>,
}

/// A child's numbers as the node sees them now.
#[derive(Clone, Copy)]
struct Seen {
    pn: u32,
    dn: u32,
    /// The path depth a resolved result rests on, if any.
    dep: Option<u32>,
}

/// The leaf rules: the game is over, or the margin still needed is beyond
/// what the seeds left can change, or the tables know the position.
pub fn leaf_value(tables: &Tablebase, exact_up_to: u32, pos: &Position, need: i32) -> Option<bool> {
    if pos.is_over() {
        return Some(need <= 0);
    }
    let k = pos.seeds_on_board() as i32;
    if need <= -k {
        return Some(true);
    }
    if need > k {
        return Some(false);
    }
    if k as u32 <= exact_up_to {
        if let Some(v) = tables.value(pos) {
            let south = if pos.side == Side::South {
                v as i32
            } else {
                -(v as i32)
            };
            return Some(south >= need);
        }
    }
    None
}

/// The margin South still needs at `pos` for a final margin of `target`.
pub fn need_at(pos: &Position, target: i32) -> i32 {
    target - (pos.captures.south as i32 - pos.captures.north as i32)
}

/// The key of `pos` for a question whose South margin still needed is `need`.
pub fn key_of(pos: &Position, need: i32) -> NodeKey {
    NodeKey {
        board: pos.board,
        side: pos.side,
        need: need as i16,
    }
}

/// Told the search's progress.
type ReportFn<'a> = Box<dyn FnMut(&Progress) + 'a>;
/// Told to save the table (and the nodes searched so far).
type SaveFn<'a> = Box<dyn FnMut(&Table, u64) + 'a>;

/// The proof search, with its table, which outlives one question.
pub struct Prover<'a> {
    rules: Rules,
    tables: &'a Tablebase,
    exact_up_to: u32,
    /// The transposition table.
    pub table: Table,
    target: i32,
    path: Vec<Frame>,
    on_path: HashMap<NodeKey, usize>,
    serial: u32,
    epoch: u32,
    confirmed: HashMap<u32, u32>,
    /// Nodes searched over every question.
    pub nodes: u64,
    deepest: usize,
    limits: Limits,
    limit_nodes: u64,
    started: Instant,
    stopped: bool,
    root_pn: u32,
    root_dn: u32,
    next_report: Instant,
    report_every: Duration,
    report: Option<ReportFn<'a>>,
    checkpoint_every: Option<Duration>,
    next_checkpoint: Instant,
    checkpoint: Option<SaveFn<'a>>,
    epsilon_quarters: u32,
}

impl<'a> Prover<'a> {
    /// A prover for `rules` with exact values from `tables` at `exact_up_to`
    /// seeds or fewer and a table of `table_bytes`.
    pub fn new(rules: Rules, tables: &'a Tablebase, exact_up_to: u32, table_bytes: u64) -> Self {
        let now = Instant::now();
        Prover {
            rules,
            tables,
            exact_up_to,
            table: Table::with_budget(table_bytes),
            target: 0,
            path: Vec::new(),
            on_path: HashMap::new(),
            serial: 0,
            epoch: 1,
            confirmed: HashMap::new(),
            nodes: 0,
            deepest: 0,
            limits: Limits::default(),
            limit_nodes: u64::MAX,
            started: now,
            stopped: false,
            root_pn: 1,
            root_dn: 1,
            next_report: now,
            report_every: Duration::from_secs(10),
            report: None,
            checkpoint_every: None,
            next_checkpoint: now,
            checkpoint: None,
            epsilon_quarters: 1,
        }
    }

    /// Calls `report` about every `every` with the search's progress.
    pub fn on_progress(&mut self, every: Duration, report: impl FnMut(&Progress) + 'a) {
        self.report_every = every;
        self.report = Some(Box::new(report));
    }

    /// Calls `save` with the table about every `every`, for a checkpoint.
    pub fn on_checkpoint(&mut self, every: Duration, save: impl FnMut(&Table, u64) + 'a) {
        self.checkpoint_every = Some(every);
        self.checkpoint = Some(Box::new(save));
    }

    /// The rules searched.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The tables used as leaves.
    pub fn tables(&self) -> &'a Tablebase {
        self.tables
    }

    /// The largest layer taken from the tables.
    pub fn exact_up_to(&self) -> u32 {
        self.exact_up_to
    }

    /// Whether South's final margin from `root` is at least `target`.
    pub fn prove(&mut self, root: &Position, target: i32, limits: Limits) -> Verdict {
        self.target = target;
        self.limits = limits;
        self.limit_nodes = limits
            .nodes
            .map_or(u64::MAX, |n| self.nodes.saturating_add(n));
        self.started = Instant::now();
        self.next_report = self.started + self.report_every;
        if let Some(every) = self.checkpoint_every {
            self.next_checkpoint = self.started + every;
        }
        self.stopped = false;
        let need = need_at(root, target);
        if let Some(v) = leaf_value(self.tables, self.exact_up_to, root, need) {
            return if v {
                Verdict::Proved
            } else {
                Verdict::Disproved
            };
        }
        let key = key_of(root, need);
        let (pn, dn) = self.mid(*root, key, INF, INF);
        self.path.clear();
        self.on_path.clear();
        self.root_pn = pn;
        self.root_dn = dn;
        // A search long enough to have reported ends with its last numbers;
        // the many short searches that rebuild a certificate stay quiet.
        if self.started.elapsed() >= self.report_every {
            self.report_now();
        }
        if pn == 0 {
            Verdict::Proved
        } else if dn == 0 {
            Verdict::Disproved
        } else {
            Verdict::Open { pn, dn }
        }
    }

    /// The current root numbers, nodes and time, to the progress callback.
    fn report_now(&mut self) {
        let progress = Progress {
            nodes: self.nodes,
            seconds: self.started.elapsed().as_secs_f64(),
            pn: self.root_pn,
            dn: self.root_dn,
            used: self.table.used(),
            capacity: self.table.capacity(),
            deepest: self.deepest,
        };
        if let Some(report) = self.report.as_mut() {
            report(&progress);
        }
    }

    fn tick(&mut self) {
        if self.nodes >= self.limit_nodes {
            self.stopped = true;
        }
        if self.nodes % 4096 != 0 {
            return;
        }
        let now = Instant::now();
        if let Some(t) = self.limits.time {
            if now.duration_since(self.started) >= t {
                self.stopped = true;
            }
        }
        if now >= self.next_report {
            self.next_report = now + self.report_every;
            self.report_now();
        }
        if self.checkpoint.is_some() && now >= self.next_checkpoint {
            self.next_checkpoint = now + self.checkpoint_every.unwrap_or_default();
            let nodes = self.nodes;
            if let Some(save) = self.checkpoint.as_mut() {
                save(&self.table, nodes);
            }
        }
    }

    /// The children of `pos`, each with its key and its leaf value.
    fn children(&self, pos: &Position) -> Vec<Child> {
        let mut out = Vec::with_capacity(16);
        let (tables, exact, target) = (self.tables, self.exact_up_to, self.target);
        pos.for_each_child(&self.rules, |_, child, _| {
            let need = need_at(&child, target);
            out.push(Child {
                pos: child,
                key: key_of(&child, need),
                leaf: leaf_value(tables, exact, &child, need),
            });
        });
        out
    }

    /// Whether a cycle through `key` (which keeps its margin needed) is a
    /// win for South.
    fn cycle_proves(key: &NodeKey) -> bool {
        key.need <= 0
    }

    /// A table entry as the path now sees it: `None` where it is not held
    /// or not trusted here.
    fn trusted(&self, e: &Entry) -> Option<Seen> {
        if !e.resolved() || e.dep_serial == 0 {
            return Some(Seen {
                pn: e.pn,
                dn: e.dn,
                dep: None,
            });
        }
        let active = self
            .path
            .get(e.dep_depth as usize)
            .is_some_and(|f| f.serial == e.dep_serial);
        if active && e.epoch == self.epoch {
            return Some(Seen {
                pn: e.pn,
                dn: e.dn,
                dep: Some(e.dep_depth),
            });
        }
        if self.confirmed.get(&e.dep_serial) == Some(&e.epoch) {
            return Some(Seen {
                pn: e.pn,
                dn: e.dn,
                dep: None,
            });
        }
        None
    }

    /// A child's numbers: a rule's, a repetition's, the table's, else those
    /// this node's last search of it returned (`kept`), else fresh ones.
    fn seen(&mut self, child: &Child, kept: Option<&Entry>) -> Seen {
        match child.leaf {
            Some(true) => {
                return Seen {
                    pn: 0,
                    dn: INF,
                    dep: None,
                }
            }
            Some(false) => {
                return Seen {
                    pn: INF,
                    dn: 0,
                    dep: None,
                }
            }
            None => {}
        }
        if let Some(&depth) = self.on_path.get(&child.key) {
            self.path[depth].repeated = true;
            let dep = Some(depth as u32);
            return if Self::cycle_proves(&child.key) {
                Seen {
                    pn: 0,
                    dn: INF,
                    dep,
                }
            } else {
                Seen {
                    pn: INF,
                    dn: 0,
                    dep,
                }
            };
        }
        let held = self.table.get(&child.key);
        let resolved_held = held.is_some_and(Entry::resolved);
        if let Some(seen) = held.and_then(|e| self.trusted(e)) {
            if resolved_held || !kept.is_some_and(Entry::resolved) {
                return seen;
            }
        }
        match kept.and_then(|e| self.trusted(e)) {
            Some(seen) => seen,
            None => fresh(&child.pos, child.key.need as i32),
        }
    }

    /// One multiple-iterative-deepening step: searches `pos` until its
    /// proof number reaches `th_pn` or its disproof number `th_dn`, and
    /// returns both.
    fn mid(&mut self, pos: Position, key: NodeKey, th_pn: u32, th_dn: u32) -> (u32, u32) {
        self.nodes += 1;
        self.tick();
        let nodes_before = self.nodes;
        let depth = self.path.len();
        self.deepest = self.deepest.max(depth + 1);
        self.serial = self.serial.wrapping_add(1).max(1);
        let serial = self.serial;
        self.path.push(Frame {
            serial,
            repeated: false,
        });
        self.on_path.insert(key, depth);
        let or = pos.side == Side::South;
        let children = self.children(&pos);
        let mut seen: Vec<Seen> = Vec::with_capacity(children.len());
        // What this node's own searches of its children returned: a small
        // table may lose it while a sibling is searched, and the node would
        // then search the same child from fresh numbers again and again.
        let mut returned: Vec<Option<Entry>> = vec![None; children.len()];
        let (mut pn, mut dn);
        let mut best_index = 0usize;
        loop {
            seen.clear();
            for (c, kept) in children.iter().zip(&returned) {
                let s = self.seen(c, kept.as_ref());
                seen.push(s);
            }
            (pn, dn) = if or {
                (
                    seen.iter().map(|s| s.pn).min().unwrap_or(INF),
                    joint(seen.iter().map(|s| s.dn)),
                )
            } else {
                (
                    joint(seen.iter().map(|s| s.pn)),
                    seen.iter().map(|s| s.dn).min().unwrap_or(INF),
                )
            };
            if depth == 0 {
                self.root_pn = pn;
                self.root_dn = dn;
            }
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 || self.stopped {
                break;
            }
            // The most promising child and the runner-up's number.
            let number = |s: &Seen| if or { s.pn } else { s.dn };
            let (mut first, mut second) = (usize::MAX, INF);
            for (i, s) in seen.iter().enumerate() {
                if first == usize::MAX || number(s) < number(&seen[first]) {
                    if first != usize::MAX {
                        second = second.min(number(&seen[first]));
                    }
                    first = i;
                } else {
                    second = second.min(number(s));
                }
            }
            best_index = first;
            let c = children[first];
            let s = seen[first];
            let grow = |n: u32| {
                if n == INF {
                    INF
                } else {
                    let quarters = self.epsilon_quarters;
                    add(n, n.saturating_mul(quarters).div_ceil(4)).max(add(n, 1))
                }
            };
            let (cth_pn, cth_dn) = if or {
                (
                    th_pn.min(grow(second)),
                    sub(th_dn, dn).saturating_add(s.dn).min(INF - 1),
                )
            } else {
                (
                    sub(th_pn, pn).saturating_add(s.pn).min(INF - 1),
                    th_dn.min(grow(second)),
                )
            };
            self.mid(c.pos, c.key, cth_pn, cth_dn);
            returned[first] = self.table.get(&c.key).copied();
        }
        // Which child settled it, and what the result rests on.
        let mut dep: Option<u32> = None;
        if pn == 0 || dn == 0 {
            let proved = pn == 0;
            let decisive = |s: &Seen| if proved { s.pn == 0 } else { s.dn == 0 };
            // One decisive child settles an OR proof or an AND disproof;
            // every child is needed otherwise.
            let one = or == proved;
            let pick = seen
                .iter()
                .enumerate()
                .filter(|(_, s)| decisive(s))
                // No dependency first, then the deepest frame.
                .min_by_key(|(_, s)| s.dep.map_or(0, |d| u64::MAX - d as u64))
                .map(|(i, _)| i)
                .expect("a resolved node has a decisive child");
            if one {
                best_index = pick;
                dep = seen[pick].dep;
            } else {
                dep = seen.iter().filter_map(|s| s.dep).min();
            }
            // A result resting on this very frame's repetition, equal to
            // the value the repetition was given, holds from any path: the
            // cycle it closes is one the question counts as won.
            if dep == Some(depth as u32) && proved == Self::cycle_proves(&key) {
                dep = None;
            }
        }
        let frame = self.path.pop().expect("the frame pushed above");
        self.on_path.remove(&key);
        let resolved = pn == 0 || dn == 0;
        let (dep_serial, dep_depth) = match dep {
            Some(d) if (d as usize) < self.path.len() => (self.path[d as usize].serial, d),
            // A result against this frame's own repetition never uses it.
            Some(_) => (u32::MAX, u32::MAX),
            None => (0, 0),
        };
        let work = (self.nodes - nodes_before + 1).min(u32::MAX as u64) as u32;
        self.table.put(Entry {
            key,
            pn,
            dn,
            work,
            dep_serial: if resolved { dep_serial } else { 0 },
            dep_depth,
            epoch: self.epoch,
            best: best_index.min(u8::MAX as usize) as u8,
        });
        if frame.repeated {
            if resolved && (pn == 0) == Self::cycle_proves(&key) {
                // Kept within an eighth of the table's slots (about 3% of
                // its bytes): forgetting confirmations only makes results
                // that rest on them untrusted, which is safe.
                if self.confirmed.len() >= (self.table.capacity() / 8).max(1024) {
                    self.confirmed.clear();
                }
                self.confirmed.insert(frame.serial, self.epoch);
            } else {
                self.epoch += 1;
            }
        }
        (pn, dn)
    }

    /// The proved (or disproved) entry of `pos` for South's final margin
    /// `target`, trusted from any path: used to write certificates.
    pub fn resolved_entry(&self, pos: &Position, target: i32) -> Option<Entry> {
        let key = key_of(pos, need_at(pos, target));
        self.table.get(&key).copied().filter(|e| e.resolved())
    }

    /// Whether the last search stopped at its limits.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Loads entries saved by a checkpoint (results that hold from any path,
    /// and proof numbers).
    pub fn load(&mut self, entries: impl IntoIterator<Item = Entry>, nodes: u64) {
        for e in entries {
            self.table.put(e);
        }
        self.nodes = nodes;
    }

    /// The moves of `pos`, in the order the search numbers them.
    pub fn moves(&self, pos: &Position) -> Vec<(Move, Position)> {
        let mut out = Vec::new();
        pos.for_each_child(&self.rules, |mv, child, _| out.push((mv, child)));
        out
    }
}

/// The numbers of a node not searched yet: how far it is, in casas, from
/// the decided leaves. Each seed South captures lowers the margin it still
/// needs by one and the seeds left by one, so South is sure of the answer
/// once `need + seeds` has fallen to 0, two units a seed, eight a casa;
/// North has refuted it once `seeds - need` is below 0.
fn fresh(pos: &Position, need: i32) -> Seen {
    let left = pos.seeds_on_board() as i32;
    let casas = |gap: i32| 1 + (gap.max(0) / 8) as u32;
    Seen {
        pn: casas(need + left),
        dn: casas(left - need + 1),
        dep: None,
    }
}

/// The number of a node that needs every child: the largest child's number
/// plus one for each other child still open. A plain sum counts a position
/// reached by several lines once per line, and grows with the depth as fast
/// as the tree does (Hoyito II and III, whose extra moves chain nodes of
/// one side, overflowed 32 bits in under a million nodes on 2x4); this
/// keeps the numbers within reach while still preferring nodes with fewer
/// open children.
fn joint(numbers: impl Iterator<Item = u32>) -> u32 {
    let mut max = 0u32;
    let mut open = 0u32;
    for n in numbers {
        if n == INF {
            return INF;
        }
        if n > 0 {
            max = max.max(n);
            open += 1;
        }
    }
    if open == 0 {
        0
    } else {
        add(max, open - 1)
    }
}

fn sub(a: u32, b: u32) -> u32 {
    if a == INF {
        INF
    } else {
        a.saturating_sub(b)
    }
}
