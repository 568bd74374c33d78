//! The agents of an experiment, by index, and the players built from them.
//!
//! The schedule names agents by their index in `tournament.agents`; a lineup
//! turns an index into a roster name (for rows) and into a fresh player (for
//! a worker). Players are built once per worker chunk and told of each new
//! game, so that building an agent is not a per-game cost.

use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::game::{Game, GameError};
use crate::moves::Move;
use crate::rules::Rules;

use super::play::Seats;

/// An agent name that the lineup cannot build.
#[derive(Debug, Error)]
#[error("unknown agent {name:?}: known agents are {known}")]
pub struct UnknownAgent {
    /// The name asked for.
    pub name: String,
    /// The names that exist, comma-separated.
    pub known: String,
}

/// What kind of player an agent is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// Uniformly random legal moves, through the engine's fast path.
    Random,
}

/// The agents of an experiment, in `tournament.agents` order.
#[derive(Debug, Clone)]
pub struct Lineup {
    names: Vec<String>,
    kinds: Vec<Kind>,
}

/// One player in one seat.
#[derive(Debug)]
pub enum Seat {
    /// The random agent: `Game::play_random`.
    Random,
}

impl Lineup {
    /// The lineup of `names`.
    pub fn new(names: &[String]) -> Result<Lineup, UnknownAgent> {
        let kinds = names
            .iter()
            .map(|name| match name.as_str() {
                "random" => Ok(Kind::Random),
                _ => Err(UnknownAgent {
                    name: name.clone(),
                    known: "random".to_string(),
                }),
            })
            .collect::<Result<_, _>>()?;
        Ok(Lineup {
            names: names.to_vec(),
            kinds,
        })
    }

    /// How many agents.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there is no agent (never, for a checked experiment).
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The roster name of agent `index`.
    pub fn name(&self, index: usize) -> &str {
        &self.names[index]
    }

    /// Whether every agent is the random one (cheap games: large work chunks).
    pub fn all_random(&self) -> bool {
        self.kinds.iter().all(|k| *k == Kind::Random)
    }

    /// A fresh player for agent `index`.
    pub fn seat(&self, index: usize) -> Seat {
        match self.kinds[index] {
            Kind::Random => Seat::Random,
        }
    }
}

impl Seat {
    /// Gets ready for a new game.
    pub fn new_game(&mut self, _rules: &Rules) {}

    /// Chooses and plays one move, and returns it.
    pub fn play(&mut self, game: &mut Game, rng: &mut ChaCha8Rng) -> Result<Move, GameError> {
        match self {
            Seat::Random => Ok(game.play_random(rng)),
        }
    }
}

/// The players of one worker chunk, built on first use: two per agent, so
/// that an agent playing itself has a separate player in each seat.
pub struct SeatCache<'a> {
    lineup: &'a Lineup,
    seats: Vec<Option<Seat>>,
}

impl<'a> SeatCache<'a> {
    /// No player built yet.
    pub fn new(lineup: &'a Lineup) -> SeatCache<'a> {
        let mut seats = Vec::new();
        seats.resize_with(2 * lineup.len(), || None);
        SeatCache { lineup, seats }
    }

    /// The players for agent `south` against agent `north`.
    pub fn seats(&mut self, south: usize, north: usize) -> Seats<'_> {
        let (s, n) = if south == north {
            (2 * south, 2 * south + 1)
        } else {
            (2 * south, 2 * north)
        };
        for (slot, agent) in [(s, south), (n, north)] {
            if self.seats[slot].is_none() {
                self.seats[slot] = Some(self.lineup.seat(agent));
            }
        }
        let (low, high) = self.seats.split_at_mut(s.max(n));
        let low = low[s.min(n)].as_mut().expect("built above");
        let high = high[0].as_mut().expect("built above");
        if s < n {
            Seats {
                south: low,
                north: high,
            }
        } else {
            Seats {
                south: high,
                north: low,
            }
        }
    }
}
