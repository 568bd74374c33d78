//! Questions about one position, answered from the tables: its exact value, the
//! value of each move, and the best moves.
//!
//! A move's value for the mover is the seeds it takes now (net, the last seeds
//! included) plus the value of the position it leads to, counted for the mover:
//! plus when the mover moves again (an extra move), minus when the opponent does.

use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::solver::retrograde::move_value;
use crate::solver::tablebase::Tablebase;

/// A position and what the tables say about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// The margin still to come for the side to move under perfect play.
    pub value: i8,
    /// Every legal move with its exact value for the mover.
    pub moves: Vec<(Move, i8)>,
}

impl Probe {
    /// The moves that keep the value, in move order (`pass` when forced).
    pub fn best_moves(&self) -> Vec<Move> {
        self.moves
            .iter()
            .filter(|&&(_, v)| v == self.value)
            .map(|&(mv, _)| mv)
            .collect()
    }
}

impl Tablebase {
    /// The value of `pos` and of each of its moves, or `None` when the layers it
    /// needs are not available (or the game is over: no move, value 0 is
    /// [`Tablebase::value`]'s answer).
    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        let value = self.value(pos)?;
        if pos.is_over()
            || !Tablebase::dependencies(pos.seeds_on_board())
                .iter()
                .all(|&k| self.has_layer(k))
        {
            return None;
        }
        let mut moves = Vec::new();
        let lower = |p: &Position| self.value(p).expect("its layer was checked above");
        pos.for_each_child(self.rules(), |mv, child, _| {
            moves.push((mv, move_value(pos, &child, &lower)));
        });
        debug_assert_eq!(moves.iter().map(|&(_, v)| v).max(), Some(value));
        Some(Probe { value, moves })
    }
}
