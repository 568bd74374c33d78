//! The plain game loop: two agents play one game to its end. The tournament
//! harness builds on it; tests, examples and the ladder use it directly.

use thiserror::Error;

use crate::engine::agent_trait::{Agent, AgentRng};
use crate::engine::game::{Game, GameError};
use crate::engine::moves::Move;
use crate::engine::rules::Rules;
use crate::engine::side::{BySide, Side};

/// An agent chose a move the rules refuse: a bug in that agent.
#[derive(Debug, Clone, Error)]
#[error("the {side} agent chose the illegal move {mv} in {position}: {reason}")]
pub struct PlayError {
    /// The seat of the faulty agent.
    pub side: Side,
    /// The move it chose.
    pub mv: Move,
    /// The position, in the notation of RULES.md.
    pub position: String,
    /// Why the move was refused.
    pub reason: GameError,
    /// The game up to the refused move.
    pub game: Box<Game>,
}

/// Plays `start` to its end with `agents`, telling them of the new game and of
/// every move. Each agent draws its randomness from `rng`.
///
/// An agent that breaks the rules (here one that always passes) stops the
/// game with a [`PlayError`] naming its seat, its move and the position:
///
/// ```
/// use hoyito::tournament::rng_from_seed;
/// use hoyito::{play_game, Agent, AgentRng, BySide, Game, Greedy, Move, Rules, Side, Variant};
///
/// struct AlwaysPass;
/// impl Agent for AlwaysPass {
///     fn choose(&mut self, _game: &Game, _rng: &mut AgentRng) -> Move {
///         Move::Pass
///     }
/// }
///
/// let rules = Rules::new(Variant::Ii);
/// let (mut greedy, mut passer) = (Greedy, AlwaysPass);
/// let seats = BySide::new(&mut greedy as &mut dyn Agent, &mut passer);
/// let err = play_game(&rules, Game::new(rules), seats, &mut rng_from_seed(3)).unwrap_err();
/// assert_eq!((err.side, err.mv), (Side::North, Move::Pass));
/// assert_eq!(err.game.plies(), 1);
/// assert_eq!(err.position, err.game.position().to_string());
/// ```
pub fn play_game(
    rules: &Rules,
    start: Game,
    mut agents: BySide<&mut dyn Agent>,
    rng: &mut AgentRng,
) -> Result<Game, PlayError> {
    let mut game = start;
    for side in Side::BOTH {
        agents[side].new_game(rules);
    }
    while !game.is_over() {
        let side = game.position().side_to_move();
        let mv = agents[side].choose(&game, rng);
        if let Err(reason) = game.play(mv) {
            return Err(PlayError {
                side,
                mv,
                position: game.position().to_string(),
                reason,
                game: Box::new(game),
            });
        }
        for side in Side::BOTH {
            agents[side].observe(&game, mv);
        }
    }
    Ok(game)
}
