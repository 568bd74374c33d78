//! The positions a learned evaluation is fitted on: every position of games
//! that the base agent plays against itself, labelled with how the game ended
//! for the side to move there.
//!
//! Each game starts with a few uniformly random plies so that games differ
//! (the base agent may be deterministic), then the base agent plays both
//! sides to the end (stall rules included). Game `g` draws every random
//! choice, its opening and its agents', from one ChaCha8 generator seeded with
//! the master seed and set to stream `g`, so a game depends on its seed and
//! number alone: games may be played on any number of threads, and are
//! collected in game order.

use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use crate::agents::eval_margin::evaluate;
use crate::agents::features;
use crate::agents::features::FeatureVector;
use crate::agents::spec::AgentSpec;
use crate::engine::agent_trait::{Agent, AgentRng};
use crate::engine::game::Game;
use crate::engine::game_loop::{play_game, PlayError};
use crate::engine::rules::Rules;
use crate::engine::side::BySide;

/// The most random plies a game opens with (drawn uniformly from 0 to this).
pub const MAX_RANDOM_PLIES: u32 = 6;

/// One labelled position.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The game it comes from.
    pub game: u32,
    /// Its features, from the side to move's point of view.
    pub features: FeatureVector,
    /// The material evaluation ([`crate::agents::evaluate`]): the baseline.
    pub material: i32,
    /// The result for the side to move: 1 won, ½ drawn, 0 lost.
    pub result: f64,
}

/// Plays game `game` of the base agent against itself and labels its
/// positions (the finished one and the random opening's excluded).
pub fn game_samples(
    spec: &AgentSpec,
    rules: &Rules,
    seed: u64,
    game: u32,
) -> Result<Vec<Sample>, Box<PlayError>> {
    let mut rng = AgentRng::seed_from_u64(seed);
    rng.set_stream(u64::from(game));
    let mut start = Game::new(*rules);
    let opening = rng.random_range(0..=MAX_RANDOM_PLIES);
    for _ in 0..opening {
        if start.is_over() {
            break;
        }
        start.play_random(&mut rng);
    }
    let first = start.plies() as usize;
    let (mut south, mut north) = (spec.build(), spec.build());
    let agents: BySide<&mut dyn Agent> = BySide::new(south.as_mut(), north.as_mut());
    let played = play_game(rules, start, agents, &mut rng).map_err(Box::new)?;
    let scores = played.outcome().expect("play_game plays to the end").scores;
    let mut samples = Vec::new();
    let mut pos = *played.start();
    for (ply, &mv) in played.moves().iter().enumerate() {
        if ply >= first && !pos.is_over() {
            let me = pos.side_to_move();
            let result = match scores[me].cmp(&scores[me.opponent()]) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
            samples.push(Sample {
                game,
                features: features(&pos, rules),
                material: evaluate(&pos, rules),
                result,
            });
        }
        pos = pos
            .play_unchecked(rules, mv)
            .expect("a played game's moves are legal")
            .0;
    }
    Ok(samples)
}

/// The samples of games `0..games`, in game order, played on the current
/// rayon pool.
pub fn samples(
    spec: &AgentSpec,
    rules: &Rules,
    seed: u64,
    games: u32,
) -> Result<Vec<Sample>, Box<PlayError>> {
    let per_game: Vec<Result<Vec<Sample>, Box<PlayError>>> = (0..games)
        .into_par_iter()
        .map(|g| game_samples(spec, rules, seed, g))
        .collect();
    let mut all = Vec::new();
    for game in per_game {
        all.extend(game?);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Variant;

    #[test]
    fn games_are_labelled_from_the_movers_point_of_view() {
        let rules = Rules::new(Variant::Ii);
        let samples = game_samples(&AgentSpec::Greedy, &rules, 7, 3).unwrap();
        assert!(!samples.is_empty());
        let results: Vec<f64> = samples.iter().map(|s| s.result).collect();
        assert!(results.iter().all(|r| [0.0, 0.5, 1.0].contains(r)));
        assert_eq!(
            game_samples(&AgentSpec::Greedy, &rules, 7, 3).unwrap(),
            samples
        );
        assert_ne!(
            game_samples(&AgentSpec::Greedy, &rules, 7, 4).unwrap(),
            samples
        );
    }
}
