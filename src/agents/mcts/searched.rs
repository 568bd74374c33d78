//! The identity of the game a search tree was built for (rules, start
//! position, moves), which tree reuse (`reuse`) checks before it carries a
//! tree into the next move.

use crate::engine::game::Game;
use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::Rules;

/// The game that the tree in memory was searched for.
#[derive(Debug, Clone)]
pub(super) struct Searched {
    pub(super) rules: Rules,
    pub(super) start: Position,
    pub(super) moves: Vec<Move>,
}

impl Searched {
    /// The game's identity now.
    pub(super) fn of(game: &Game) -> Searched {
        Searched {
            rules: *game.rules(),
            start: *game.start(),
            moves: game.moves().to_vec(),
        }
    }
}
