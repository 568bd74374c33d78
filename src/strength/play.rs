//! Asking an agent for its move in each position of a set.
//!
//! Each position is a fresh game that starts there (no history, so no stall
//! rule is near) played by a freshly built agent, with a generator of its own:
//! `ChaCha8Rng::seed_from_u64(game_seed(seed, i))` for the `i`-th position
//! ([`crate::tournament::game_seed`], the derivation games use). The moves
//! therefore depend on the seed and the position's place in the set only, not
//! on the number of threads or the order in which they finish; positions run
//! in parallel (rayon) and are collected in order.

use rayon::prelude::*;

use crate::agents::build::prepare_tables;
use crate::agents::roster::NamedAgent;
use crate::agents::spec::AgentSpec;
use crate::engine::game::Game;
use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::Rules;
use crate::engine::seeding::{game_seed, rng_from_seed};
use crate::strength::StrengthError;

/// Positions to ask agents about, under one set of rules.
#[derive(Debug, Clone, PartialEq)]
pub struct PositionSet {
    /// The rules of the games started from the positions.
    pub rules: Rules,
    /// The positions, each with the side to move having a choice.
    pub positions: Vec<Position>,
    /// The master seed of the agents' generators.
    pub seed: u64,
}

/// The move `agent` chooses in each position of `set`, in order; `progress`
/// is told of every position done.
pub fn agent_moves(
    set: &PositionSet,
    agent: &NamedAgent,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Move>, StrengthError> {
    let refuse = |problem: &str| StrengthError::Agent {
        agent: agent.name.clone(),
        problem: problem.to_string(),
    };
    if matches!(agent.spec, AgentSpec::Human) {
        return Err(refuse("a person cannot be measured here"));
    }
    prepare_tables(&agent.spec, &set.rules).map_err(|err| {
        let chain: Vec<String> = error_chain(&err);
        refuse(&chain.join(": "))
    })?;
    set.positions
        .par_iter()
        .enumerate()
        .map(|(i, pos)| {
            let mv = choose(set, agent, i, pos);
            progress(1);
            mv
        })
        .collect()
}

/// The move of a fresh `agent` in a fresh game from `pos`, the `i`-th position.
fn choose(
    set: &PositionSet,
    agent: &NamedAgent,
    i: usize,
    pos: &Position,
) -> Result<Move, StrengthError> {
    let bad = |problem: String| StrengthError::BadMove {
        agent: agent.name.clone(),
        position: pos.to_string(),
        problem,
    };
    let game = Game::from_position(set.rules, *pos);
    let mut player = agent.spec.build();
    player.new_game(&set.rules);
    let mut rng = rng_from_seed(game_seed(set.seed, i as u64));
    let mv = player
        .try_choose(&game, &mut rng)
        .map_err(|forfeit| bad(forfeit.to_string()))?;
    if !game.legal_moves().contains(&mv) {
        return Err(bad(format!("chose {mv}, which is not a legal move")));
    }
    Ok(mv)
}

/// An error and its causes, as lines.
fn error_chain(err: &dyn std::error::Error) -> Vec<String> {
    let mut lines = vec![err.to_string()];
    let mut source = err.source();
    while let Some(cause) = source {
        lines.push(cause.to_string());
        source = cause.source();
    }
    lines
}
