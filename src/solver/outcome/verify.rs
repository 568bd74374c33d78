//! Checks a certificate with the move generator and the tables alone, with
//! no search: the root is the standard start, or the position the
//! certificate's line of moves reaches from it; every node is reached as one
//! position only; at the prover's nodes the move is legal, at the
//! opponent's nodes every legal reply is there; every leaf is one the rules
//! decide for the prover; and no cycle of the proof runs through positions
//! where endless play would lose the prover the question.
//!
//! Why that is a proof: let the prover play the certificate's moves. Every
//! play then stays among its nodes until it reaches a leaf, which the
//! prover wins. A play that never reaches one captures only finitely often
//! (captures remove seeds), so from some ply on it goes round a cycle of
//! nodes without capturing; the margin still needed stays fixed there, and
//! endless play adds nothing to the margin, so the prover wins exactly when
//! that margin is at most 0. The last check allows cycles only there.

use std::fmt;

use thiserror::Error;

use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::Rules;
use crate::engine::side::Side;
use crate::solver::tablebase::Tablebase;

use super::certificate::{Certificate, Child, ProofNode};

/// What the check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// Nodes checked.
    pub nodes: usize,
    /// Leaves checked.
    pub leaves: u64,
    /// Of those, leaves the tables decided.
    pub table_leaves: u64,
    /// Nodes where endless play wins for the prover and cycles are allowed.
    pub cycle_nodes: usize,
}

/// Why a certificate does not prove its claim.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Refused {
    /// The rules of the header cannot be played.
    #[error("the certificate's board cannot be played: {0}")]
    Board(String),
    /// A fault at one node.
    #[error("node {node} ({position}, the prover needs {need} more): {why}")]
    Node {
        /// The node's number.
        node: u32,
        /// Its position, in the notation of RULES.md (captures counted from the start).
        position: String,
        /// The prover's margin still needed there.
        need: i32,
        /// What is wrong.
        why: String,
    },
    /// The certificate's line from the start cannot be played.
    #[error("the certificate's line from the start cannot be played: {0}")]
    Line(String),
    /// The root itself is claimed as a leaf, and is not one.
    #[error("the certificate has no nodes, and its root is not a leaf the prover wins: {0}")]
    RootLeaf(String),
    /// A node no line reaches.
    #[error("node {0} is never reached from the start")]
    Unreached(u32),
}

/// A node as the check reaches it: the position (captures counted from the
/// start) and the prover's margin still needed.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Reached {
    pos: Position,
    need: i32,
}

impl fmt::Debug for Reached {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (needs {})", self.pos, self.need)
    }
}

/// The prover's gain, net, from `pos` to `child`.
fn gain(prover: Side, pos: &Position, child: &Position) -> i32 {
    let net = |p: &Position| p.captures[prover] as i32 - p.captures[prover.opponent()] as i32;
    net(child) - net(pos)
}

/// Why `pos` is a leaf the prover wins with `need` still needed, or why not.
fn leaf(
    tables: &Tablebase,
    cert: &Certificate,
    pos: &Position,
    need: i32,
) -> Result<&'static str, String> {
    if pos.is_over() {
        return if need <= 0 {
            Ok("over")
        } else {
            Err(format!("the game is over {} short of the margin", need))
        };
    }
    let left = pos.seeds_on_board() as i32;
    if need <= -left {
        return Ok("decided");
    }
    if pos.seeds_on_board() <= cert.tables {
        let v = tables
            .value(pos)
            .ok_or_else(|| format!("its layer of {left} seeds is not in the tables given"))?
            as i32;
        let got = if pos.side == cert.prover { v } else { -v };
        return if got >= need {
            Ok("table")
        } else {
            Err(format!("the tables give the prover {got}, short of {need}"))
        };
    }
    Err(format!(
        "it is not a leaf: {left} seeds are left, the tables stop at {}, and the prover is not yet sure of {need} more",
        cert.tables
    ))
}

/// Checks `cert` with `tables`, which must hold every layer up to the
/// certificate's `tables` that a game from the start reaches.
pub fn verify(cert: &Certificate, tables: &Tablebase) -> Result<Verified, Refused> {
    let rules = Rules::new(cert.variant)
        .with_board(cert.holes as u32, cert.seeds as u32)
        .map_err(|e| Refused::Board(e.to_string()))?;
    let start = cert.root().map_err(Refused::Line)?;
    let prover = cert.prover;
    let mut report = Verified {
        nodes: cert.nodes.len(),
        leaves: 0,
        table_leaves: 0,
        cycle_nodes: 0,
    };
    if cert.nodes.is_empty() {
        leaf(tables, cert, &start, cert.target).map_err(Refused::RootLeaf)?;
        report.leaves = 1;
        return Ok(report);
    }
    let n = cert.nodes.len();
    let mut reached: Vec<Option<Reached>> = vec![None; n];
    reached[0] = Some(Reached {
        pos: start,
        need: cert.target,
    });
    let mut queue: Vec<u32> = vec![0];
    let mut at = 0;
    let fault = |node: u32, r: &Reached, why: String| Refused::Node {
        node,
        position: r.pos.to_string(),
        need: r.need,
        why,
    };
    while at < queue.len() {
        let i = queue[at];
        at += 1;
        let here = reached[i as usize].expect("queued nodes are reached");
        let mut children: Vec<(Move, Position)> = Vec::new();
        here.pos
            .for_each_child(&rules, |mv, child, _| children.push((mv, child)));
        let mut edges: Vec<(String, Position, Child)> = Vec::new();
        match &cert.nodes[i as usize] {
            ProofNode::Prover(mv, c) => {
                if here.pos.side != prover {
                    return Err(fault(
                        i,
                        &here,
                        "the opponent moves here, but the node gives one move".into(),
                    ));
                }
                let Some(&(_, child)) = children.iter().find(|(m, _)| m == mv) else {
                    return Err(fault(i, &here, format!("move {mv} is not legal here")));
                };
                edges.push((format!("move {mv}"), child, *c));
            }
            ProofNode::Opponent(cs) => {
                if here.pos.side == prover {
                    return Err(fault(
                        i,
                        &here,
                        "the prover moves here, but the node gives replies".into(),
                    ));
                }
                if cs.len() != children.len() {
                    return Err(fault(
                        i,
                        &here,
                        format!(
                            "{} replies are given for the {} legal moves ({})",
                            cs.len(),
                            children.len(),
                            children
                                .iter()
                                .map(|(m, _)| m.to_string())
                                .collect::<Vec<_>>()
                                .join(" ")
                        ),
                    ));
                }
                for ((mv, child), c) in children.iter().zip(cs) {
                    edges.push((format!("reply {mv}"), *child, *c));
                }
            }
        }
        for (what, child, c) in edges {
            let need = here.need - gain(prover, &here.pos, &child);
            match c {
                Child::Leaf => {
                    let kind = leaf(tables, cert, &child, need).map_err(|why| {
                        fault(
                            i,
                            &here,
                            format!("{what} leads to {child}, given as a leaf: {why}"),
                        )
                    })?;
                    report.leaves += 1;
                    if kind == "table" {
                        report.table_leaves += 1;
                    }
                }
                Child::Node(j) => {
                    let r = Reached { pos: child, need };
                    match reached[j as usize] {
                        None => {
                            reached[j as usize] = Some(r);
                            queue.push(j);
                        }
                        Some(seen) if same_node(&seen, &r) => {}
                        Some(seen) => {
                            return Err(fault(
                                i,
                                &here,
                                format!(
                                    "{what} leads to {child}, given as node {j}, which is {seen:?}"
                                ),
                            ))
                        }
                    }
                }
            }
        }
    }
    if let Some(j) = reached.iter().position(Option::is_none) {
        return Err(Refused::Unreached(j as u32));
    }
    let reached: Vec<Reached> = reached
        .into_iter()
        .map(|r| r.expect("all reached"))
        .collect();
    report.cycle_nodes = reached.iter().filter(|r| r.need <= 0).count();
    check_cycles(cert, &reached).map_err(|i| {
        fault(
            i,
            &reached[i as usize],
            "it lies on a cycle of the proof where endless play loses the prover the question"
                .into(),
        )
    })?;
    Ok(report)
}

/// Two reaches of a node are the same node when board, side to move and the
/// margin still needed agree (captures so far may differ).
fn same_node(a: &Reached, b: &Reached) -> bool {
    a.pos.board == b.pos.board && a.pos.side == b.pos.side && a.need == b.need
}

/// A node on a cycle among nodes whose margin still needed is above 0, if
/// any (an iterative depth-first search).
fn check_cycles(cert: &Certificate, reached: &[Reached]) -> Result<(), u32> {
    let n = cert.nodes.len();
    let bad = |i: usize| reached[i].need > 0;
    let succ = |i: usize| -> Vec<u32> {
        match &cert.nodes[i] {
            ProofNode::Prover(_, Child::Node(j)) => vec![*j],
            ProofNode::Prover(_, Child::Leaf) => vec![],
            ProofNode::Opponent(cs) => cs
                .iter()
                .filter_map(|c| match c {
                    Child::Node(j) => Some(*j),
                    Child::Leaf => None,
                })
                .collect(),
        }
        .into_iter()
        .filter(|&j| bad(j as usize))
        .collect()
    };
    // 0: unvisited, 1: on the stack, 2: done.
    let mut color = vec![0u8; n];
    for s in 0..n {
        if color[s] != 0 || !bad(s) {
            continue;
        }
        let mut stack: Vec<(u32, Vec<u32>)> = vec![(s as u32, succ(s))];
        color[s] = 1;
        while let Some((node, next)) = stack.last_mut() {
            match next.pop() {
                Some(j) => match color[j as usize] {
                    0 => {
                        color[j as usize] = 1;
                        let sj = succ(j as usize);
                        stack.push((j, sj));
                    }
                    1 => return Err(j),
                    _ => {}
                },
                None => {
                    color[*node as usize] = 2;
                    stack.pop();
                }
            }
        }
    }
    Ok(())
}
