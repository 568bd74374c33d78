//! The weakest agent, the bottom rung of every ladder: uniform random play.

use rand::Rng;

use crate::engine::agent_trait::{Agent, AgentRng};
use crate::engine::game::Game;
use crate::engine::moves::Move;

/// Plays a legal move chosen uniformly at random with the game's generator.
///
/// No parameters. It is the baseline every other agent must beat: a result
/// against it measures skill above chance.
#[derive(Debug, Clone, Default)]
pub struct RandomAgent;

impl Agent for RandomAgent {
    fn choose(&mut self, game: &Game, rng: &mut AgentRng) -> Move {
        let moves = game.legal_moves();
        moves[rng.random_range(0..moves.len())]
    }
}
