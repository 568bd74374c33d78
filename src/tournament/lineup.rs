//! The agents of an experiment, by index, and the players built from them.
//!
//! The schedule names agents by their index in `tournament.agents`; a lineup
//! turns an index into a roster name (for rows) and into a player for one game
//! (agents may keep state within a game, never between games). The `random`
//! agent is not built at all: its seat plays the engine's own uniform random
//! move, `Game::play_random`, which is what makes random-against-random games
//! cheap enough to be the harness's speed benchmark.
//!
//! External agents are processes, too costly to start for every game: the
//! lineup keeps a pool of idle ones per agent. A game takes one (or starts
//! one), and gives it back when it ends, so each worker thread reuses one
//! process per agent across its games (`newgame` between them); a process
//! that failed is dropped (killed) and the next game starts a fresh one. The
//! pool is dropped, and its processes killed, with the lineup.

use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::agent::{Agent, AgentRng};
use crate::agents::{AgentSpec, ExternalAgent};
use crate::forfeit::Forfeit;
use crate::game::{Game, GameError};
use crate::moves::Move;
use crate::rules::Rules;

/// The agents of an experiment, in `tournament.agents` order.
#[derive(Debug, Clone)]
pub struct Lineup {
    agents: Vec<(String, AgentSpec)>,
    log_dir: Option<PathBuf>,
    pool: Pool,
}

/// Idle external agents, per agent index.
#[derive(Clone, Default)]
struct Pool(Arc<Mutex<Vec<Vec<ExternalAgent>>>>);

impl fmt::Debug for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Pool")
    }
}

/// One player in one seat, for one game.
pub enum Seat {
    /// The random agent: `Game::play_random` (uniform over the legal moves).
    Random,
    /// An agent in another process: agent `index` of the lineup.
    External(usize, ExternalAgent),
    /// Any other agent.
    Agent(Box<dyn Agent>),
}

/// Why a seat did not play a move.
pub enum SeatError {
    /// The agent forfeited the game.
    Forfeit(Forfeit),
    /// The agent chose a move the rules refuse (a bug of a built-in agent).
    Illegal(Move, GameError),
}

impl Lineup {
    /// The lineup of named specs (from [`super::Experiment::agent_specs`]).
    pub fn new(agents: Vec<(String, AgentSpec)>) -> Lineup {
        let pool = Pool(Arc::new(Mutex::new(
            agents.iter().map(|_| Vec::new()).collect(),
        )));
        Lineup {
            agents,
            log_dir: None,
            pool,
        }
    }

    /// The same lineup, its external agents' standard error appended to
    /// `DIR/NAME.stderr.log` (a run passes its `agents/` directory).
    pub fn with_log_dir(mut self, dir: PathBuf) -> Lineup {
        self.log_dir = Some(dir);
        self
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

    /// A player for agent `index`: fresh, or an idle external process.
    pub fn seat(&self, index: usize) -> Seat {
        let (name, spec) = &self.agents[index];
        match spec {
            AgentSpec::Random => Seat::Random,
            AgentSpec::External { .. } => {
                let idle = self.pool.0.lock().ok().and_then(|mut p| p[index].pop());
                let agent = idle.unwrap_or_else(|| {
                    let log = self
                        .log_dir
                        .as_ref()
                        .map(|dir| dir.join(format!("{name}.stderr.log")));
                    spec.external(log)
                        .expect("an external spec builds an external agent")
                });
                Seat::External(index, agent)
            }
            spec => Seat::Agent(spec.build()),
        }
    }

    /// Takes back a player after its game: a running external process waits
    /// in the pool for the next game; anything else is dropped.
    pub fn release(&self, seat: Seat) {
        if let Seat::External(index, agent) = seat {
            if agent.is_running() {
                if let Ok(mut pool) = self.pool.0.lock() {
                    pool[index].push(agent);
                }
            }
        }
    }
}

impl Seat {
    fn agent(&mut self) -> Option<&mut dyn Agent> {
        match self {
            Seat::Random => None,
            Seat::External(_, agent) => Some(agent),
            Seat::Agent(agent) => Some(agent.as_mut()),
        }
    }

    /// Gets ready for a new game.
    pub fn new_game(&mut self, rules: &Rules) {
        if let Some(agent) = self.agent() {
            agent.new_game(rules);
        }
    }

    /// Chooses and plays one move, and returns it.
    pub fn play(&mut self, game: &mut Game, rng: &mut AgentRng) -> Result<Move, SeatError> {
        match self.agent() {
            None => Ok(game.play_random(rng)),
            Some(agent) => {
                let mv = agent.try_choose(game, rng).map_err(SeatError::Forfeit)?;
                game.play(mv)
                    .map(|_| mv)
                    .map_err(|err| SeatError::Illegal(mv, err))
            }
        }
    }

    /// Hears of a move played by either side.
    pub fn observe(&mut self, game: &Game, mv: Move) {
        if let Some(agent) = self.agent() {
            agent.observe(game, mv);
        }
    }

    /// Hears that the game is over.
    pub fn game_over(&mut self, game: &Game) {
        if let Some(agent) = self.agent() {
            agent.game_over(game);
        }
    }
}
