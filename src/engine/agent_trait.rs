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

use crate::engine::forfeit::Forfeit;
use crate::engine::game::Game;
use crate::engine::moves::Move;
use crate::engine::rules::Rules;

/// The random generator handed to agents: fast, portable and seedable.
///
/// The same seed gives the same game, move for move:
///
/// ```
/// use hoyito::tournament::rng_from_seed;
/// use hoyito::{play_game, Agent, AgentRng, BySide, Game, RandomAgent, Rules, Variant};
///
/// let rules = Rules::new(Variant::I);
/// let play = |rng: &mut AgentRng| {
///     let (mut south, mut north) = (RandomAgent, RandomAgent);
///     let seats = BySide::new(&mut south as &mut dyn Agent, &mut north);
///     play_game(&rules, Game::new(rules), seats, rng).expect("random moves are legal")
/// };
/// let (a, b) = (play(&mut rng_from_seed(7)), play(&mut rng_from_seed(7)));
/// assert_eq!(a.moves(), b.moves());
/// assert_eq!(a.outcome(), b.outcome());
/// ```
pub type AgentRng = rand_chacha::ChaCha8Rng;

/// A player: chooses moves.
///
/// A tiny agent that always plays its first legal move, seated against
/// [`crate::RandomAgent`] with a seeded generator:
///
/// ```
/// use hoyito::tournament::rng_from_seed;
/// use hoyito::{play_game, Agent, AgentRng, BySide, Game, Move, RandomAgent, Rules, Side, Variant};
///
/// struct FirstMove;
///
/// impl Agent for FirstMove {
///     fn choose(&mut self, game: &Game, _rng: &mut AgentRng) -> Move {
///         game.legal_moves()[0]
///     }
/// }
///
/// let rules = Rules::new(Variant::Iii);
/// let (mut first, mut random) = (FirstMove, RandomAgent);
/// let seats = BySide::new(&mut first as &mut dyn Agent, &mut random);
/// let game = play_game(&rules, Game::new(rules), seats, &mut rng_from_seed(1))?;
/// assert_eq!(game.moves()[0], Move::Sow(0));
/// let outcome = game.outcome().expect("play_game plays to the end");
/// assert_eq!((outcome.scores, outcome.winner), (BySide::new(36, 12), Some(Side::South)));
/// # Ok::<(), hoyito::PlayError>(())
/// ```
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
