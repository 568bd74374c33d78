//! The one contract every player implements, so that the harness can seat any
//! strategy against any other without knowing what it is.
//!
//! An agent is handed the game (position and history, for the stall rules) and the
//! random generator of the game; all its randomness comes from that generator, so
//! a game is reproducible from its seed. The harness builds a fresh agent for each
//! game from an [`crate::AgentSpec`], which is why agents may keep state (a
//! transposition table) between the moves of one game but never between games.
//! The one exception is an agent in another process (`ExternalAgent`), reused
//! across games for speed and told of each new game; its moves can fail, so the
//! harness asks [`Agent::try_choose`], and a failure is a forfeit.

use crate::forfeit::Forfeit;
use crate::game::Game;
use crate::moves::Move;
use crate::rules::Rules;

/// The random generator handed to agents: fast, portable and seedable.
pub type AgentRng = rand_chacha::ChaCha8Rng;

/// A player: chooses moves.
pub trait Agent: Send {
    /// Chooses a legal move for the side to move; `game` is not over.
    fn choose(&mut self, game: &Game, rng: &mut AgentRng) -> Move;
    /// Chooses a move, or forfeits the game (an agent in another process that
    /// crashed, hung or broke the protocol). The harness calls this one; the
    /// default asks [`Agent::choose`], which cannot fail. A move returned here
    /// is still checked against the rules by the harness.
    fn try_choose(&mut self, game: &Game, rng: &mut AgentRng) -> Result<Move, Forfeit> {
        Ok(self.choose(game, rng))
    }
    /// The game is over: `game.outcome()` is set (default: nothing).
    fn game_over(&mut self, _game: &Game) {}
    /// A new game starts (default: nothing).
    fn new_game(&mut self, _rules: &Rules) {}
    /// A move was played by either side (default: nothing).
    fn observe(&mut self, _game: &Game, _mv: Move) {}
}
