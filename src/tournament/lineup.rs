//! The agents of an experiment, by index, and the players built from them.
//!
//! The schedule names agents by their index in `tournament.agents`; a lineup
//! turns an index into a roster name (for rows) and into a fresh player for
//! one game (agents may keep state within a game, never between games). The
//! `random` agent is not built at all: its seat plays the engine's own uniform
//! random move, `Game::play_random`, which is what makes random-against-random
//! games cheap enough to be the harness's speed benchmark.

use crate::agent::{Agent, AgentRng};
use crate::agents::AgentSpec;
use crate::game::{Game, GameError};
use crate::moves::Move;
use crate::rules::Rules;

/// The agents of an experiment, in `tournament.agents` order.
#[derive(Debug, Clone)]
pub struct Lineup {
    agents: Vec<(String, AgentSpec)>,
}

/// One player in one seat, for one game.
pub enum Seat {
    /// The random agent: `Game::play_random` (uniform over the legal moves).
    Random,
    /// Any other agent.
    Agent(Box<dyn Agent>),
}

impl Lineup {
    /// The lineup of named specs (from [`super::Experiment::agent_specs`]).
    pub fn new(agents: Vec<(String, AgentSpec)>) -> Lineup {
        Lineup { agents }
    }

    /// How many agents.
    pub fn len(&self) -> usize {
        self.agents.len()
    }

    /// Whether there is no agent (never, for a checked experiment).
    pub fn is_empty(&self) -> bool {
        self.agents.is_empty()
    }

    /// The roster name of agent `index`.
    pub fn name(&self, index: usize) -> &str {
        &self.agents[index].0
    }

    /// Whether every agent is the random one (cheap games: large work chunks).
    pub fn all_random(&self) -> bool {
        self.agents
            .iter()
            .all(|(_, spec)| *spec == AgentSpec::Random)
    }

    /// The names of the agents whose play depends on the clock.
    pub fn unreproducible(&self) -> Vec<&str> {
        self.agents
            .iter()
            .filter(|(_, spec)| !spec.reproducible())
            .map(|(name, _)| name.as_str())
            .collect()
    }

    /// A fresh player for agent `index`.
    pub fn seat(&self, index: usize) -> Seat {
        match &self.agents[index].1 {
            AgentSpec::Random => Seat::Random,
            spec => Seat::Agent(spec.build()),
        }
    }
}

impl Seat {
    /// Gets ready for a new game.
    pub fn new_game(&mut self, rules: &Rules) {
        if let Seat::Agent(agent) = self {
            agent.new_game(rules);
        }
    }

    /// Chooses and plays one move, and returns it.
    pub fn play(&mut self, game: &mut Game, rng: &mut AgentRng) -> Result<Move, (Move, GameError)> {
        match self {
            Seat::Random => Ok(game.play_random(rng)),
            Seat::Agent(agent) => {
                let mv = agent.choose(game, rng);
                game.play(mv).map(|_| mv).map_err(|err| (mv, err))
            }
        }
    }

    /// Hears of a move played by either side.
    pub fn observe(&mut self, game: &Game, mv: Move) {
        if let Seat::Agent(agent) = self {
            agent.observe(game, mv);
        }
    }
}
