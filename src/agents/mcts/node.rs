//! The tree's node: a position with its statistics and, for MCTS-Solver, what
//! is proven about it. Kept small (64 bytes on 2x6) because a search holds
//! millions of them; the enhancements' extra data lives beside the nodes.

use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::side::Side;

/// What MCTS-Solver has proven about a node, for the side that moved into it
/// (or, in [`crate::agents::MctsInfo`], for the side to move at the root).
///
/// Results are seed margins, but proofs are on their sign only: a proven win
/// is a margin above 0 whatever the line, not a proven margin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Proof {
    /// Nothing proven yet.
    #[default]
    Unknown,
    /// A won game under best play.
    Win,
    /// A drawn game under best play.
    Draw,
    /// A lost game under best play.
    Loss,
}

impl Proof {
    /// The same result seen by the other side.
    pub fn flipped(self) -> Proof {
        match self {
            Proof::Win => Proof::Loss,
            Proof::Loss => Proof::Win,
            other => other,
        }
    }

    /// The result seen by `to` of a proof held for `from`.
    pub(crate) fn seen_by(self, from: Side, to: Side) -> Proof {
        if from == to {
            self
        } else {
            self.flipped()
        }
    }

    /// Orders results for the side they are for: loss < draw < win.
    pub(crate) fn rank(self) -> u8 {
        match self {
            Proof::Loss => 0,
            Proof::Unknown | Proof::Draw => 1,
            Proof::Win => 2,
        }
    }

    /// The proof of a result of `margin` seeds.
    pub(crate) fn of_margin(margin: i32) -> Proof {
        match margin.signum() {
            1 => Proof::Win,
            0 => Proof::Draw,
            _ => Proof::Loss,
        }
    }
}

/// A node of the tree.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    pub(crate) pos: Position,
    /// The move from the parent (unused at the root).
    pub(crate) mv: Move,
    /// The side that played `mv`.
    pub(crate) mover: Side,
    /// What is proven for `mover` (MCTS-Solver only).
    pub(crate) proof: Proof,
    /// Plies since the last capture.
    pub(crate) since: u32,
    /// Index of the first child; children are contiguous.
    pub(crate) first_child: u32,
    pub(crate) children: u8,
    pub(crate) expanded: bool,
    /// The game ends here: finished or stalled.
    pub(crate) terminal: bool,
    pub(crate) visits: u32,
    /// Sum of rewards for `mover`.
    pub(crate) total: f64,
}

impl Node {
    pub(crate) fn new(pos: Position, mv: Move, mover: Side, since: u32, terminal: bool) -> Node {
        Node {
            pos,
            mv,
            mover,
            proof: Proof::Unknown,
            since,
            first_child: 0,
            children: 0,
            expanded: false,
            terminal,
            visits: 0,
            total: 0.0,
        }
    }

    /// The indices of the children.
    #[inline]
    pub(crate) fn child_range(&self) -> std::ops::Range<u32> {
        self.first_child..self.first_child + self.children as u32
    }

    /// The mean reward for `mover` (0 when unvisited).
    #[inline]
    pub(crate) fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / self.visits as f64
        }
    }
}
