//! The weakest agent, the bottom rung of every ladder: uniform random play;
//! and the one way an agent's `seed` key reaches the random numbers it draws
//! ([`with_own_stream`]).

use rand::Rng;

use crate::agent::{Agent, AgentRng};
use crate::game::Game;
use crate::moves::Move;

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

/// Runs `draw` on the game's generator `rng` moved to a stream of its own,
/// the agent's `seed`: the same ChaCha key, at the same place, on the stream
/// `rng`'s XOR the SplitMix64 output of `seed` (never 0 for the seeds one
/// writes, so never the game's own stream). `rng` then moves on by as many
/// numbers as `draw` took, as if they had been its own.
///
/// So an agent with a seed draws other numbers than the same agent without
/// one, and another seed others again, each as reproducible as the game's
/// generator itself: built from the master seed and the game's identity
/// alone, whatever the thread count. An agent without a seed never calls
/// this, and draws exactly what it always drew.
pub(crate) fn with_own_stream<T>(
    rng: &mut AgentRng,
    seed: u64,
    draw: impl FnOnce(&mut AgentRng) -> T,
) -> T {
    let mut own = rng.clone();
    own.set_stream(rng.get_stream() ^ crate::seeding::splitmix64_nth(seed, 0));
    let out = draw(&mut own);
    rng.set_word_pos(own.get_word_pos());
    out
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::*;

    #[test]
    fn a_seed_draws_its_own_numbers_and_moves_the_generator_on() {
        let draws = |seed: Option<u64>| {
            let mut rng = AgentRng::seed_from_u64(9);
            let take = |rng: &mut AgentRng| (0..4).map(|_| rng.random::<u64>()).collect();
            let first: Vec<u64> = match seed {
                Some(seed) => with_own_stream(&mut rng, seed, take),
                None => take(&mut rng),
            };
            (first, rng.random::<u64>())
        };
        let (plain, after_plain) = draws(None);
        let (three, after_three) = draws(Some(3));
        let (four, _) = draws(Some(4));
        assert_ne!(plain, three);
        assert_ne!(three, four);
        assert_eq!(draws(Some(3)).0, three);
        // The game's generator moves on by what the agent drew, whatever the seed.
        assert_eq!(after_plain, after_three);
    }
}
