//! The agents of an experiment, by index, and the players built from them.
//!
//! The schedule names agents by their index in `tournament.agents`; a lineup
//! turns an index into a roster name (for rows) and into a player for one game
//! (agents may keep state within a game, never between games). The `random`
//! agent is not built at all: its seat plays the engine's own uniform random
//! move, `Game::play_random`, which is what makes random-against-random games
//! cheap enough to be the harness's speed benchmark.
//!
//! External agents are processes, too costly to start for every game: each
//! thread keeps its idle ones in a thread-local pool keyed by roster name (and
//! spec and log file). A game takes one (or starts one) and gives it back when
//! it ends, so each worker thread reuses one process per agent across its
//! games (`newgame` between them); a process that failed is dropped (killed)
//! and the next game starts a fresh one. The pool is per thread, not per
//! lineup, because a child started with `PR_SET_PDEATHSIG` dies with the
//! thread that started it: the pool ends with its thread, which sends `quit`.
//!
//! A caller whose agents a spec cannot describe (the Python package's
//! callables) gives the lineup a [`SeatMaker`]: it seats those agents, and
//! the roster's seats stay the default for the others, so that every path
//! that plays a scheduled game (the runner, the replay of a match's earlier
//! rounds) seats them without knowing of them.

use std::cell::RefCell;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use crate::agents::external::ExternalAgent;
use crate::agents::spec::AgentSpec;
use crate::engine::agent_trait::{Agent, AgentRng};
use crate::engine::forfeit::Forfeit;
use crate::engine::game::{Game, GameError};
use crate::engine::moves::Move;
use crate::engine::rules::Rules;

/// The agents of an experiment, in `tournament.agents` order.
#[derive(Clone)]
pub struct Lineup {
    agents: Vec<(String, AgentSpec)>,
    log_dir: Option<PathBuf>,
    seats: Option<Arc<dyn SeatMaker>>,
    /// Whether a pair's second game between two seats of one deterministic
    /// agent is recorded from its first instead of played (on by default).
    twin_shortcut: bool,
}

impl fmt::Debug for Lineup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lineup")
            .field("agents", &self.agents)
            .field("log_dir", &self.log_dir)
            .field("seats", &self.seats.as_ref().map(|_| "a seat maker"))
            .field("twin_shortcut", &self.twin_shortcut)
            .finish()
    }
}

/// Seats agents that the lineup's specs cannot build (a Python callable),
/// from any worker thread.
pub trait SeatMaker: Send + Sync {
    /// A player for agent `index` of the lineup, or `None` for the
    /// roster's own (built from its spec).
    fn seat(&self, index: usize) -> Option<Seat>;

    /// Whether it seats agent `index` itself (its spec then says nothing of
    /// how it plays). Every agent, unless the maker says which.
    fn seats_agent(&self, _index: usize) -> bool {
        true
    }
}

/// What an idle external agent in the pool is for: the same name, spec and
/// stderr log, or a fresh process.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolKey {
    name: String,
    spec: AgentSpec,
    log: Option<PathBuf>,
}

impl PoolKey {
    /// The agent's standard error log, if kept.
    pub fn log(&self) -> Option<&std::path::Path> {
        self.log.as_deref()
    }
}

thread_local! {
    /// This thread's idle external agents.
    static IDLE: RefCell<Vec<(PoolKey, ExternalAgent)>> = const { RefCell::new(Vec::new()) };
}

/// One player in one seat, for one game.
pub enum Seat {
    /// The random agent: `Game::play_random` (uniform over the legal moves).
    Random,
    /// An agent in another process, and its place in the pool.
    External(Box<PoolKey>, ExternalAgent),
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
        Lineup {
            agents,
            log_dir: None,
            seats: None,
            twin_shortcut: true,
        }
    }

    /// The same lineup, with the twin shortcut on or off (see
    /// [`Lineup::twins`]); off plays every game, to check that the shortcut
    /// changes nothing or to time what it saves.
    pub fn with_twin_shortcut(mut self, on: bool) -> Lineup {
        self.twin_shortcut = on;
        self
    }

    /// Whether a game with agents `south` and `north` is its pair's twin:
    /// both seats hold one deterministic agent ([`AgentSpec::deterministic`])
    /// with the same settings, so that the pair's second game, from the same
    /// opening, is its first move for move, and is recorded from it instead
    /// of played. False when the shortcut is off, or when the seat maker
    /// seats either agent (it may seat anything in place of the spec).
    pub fn twins(&self, south: usize, north: usize) -> bool {
        let (a, b) = (&self.agents[south].1, &self.agents[north].1);
        let made = |i| self.seats.as_ref().is_some_and(|m| m.seats_agent(i));
        self.twin_shortcut && !made(south) && !made(north) && a == b && a.deterministic()
    }

    /// Whether any two of its agents (or one against itself) are twins.
    pub fn has_twins(&self) -> bool {
        let n = self.agents.len();
        (0..n).any(|a| (a..n).any(|b| self.twins(a, b)))
    }

    /// The same lineup, with `seats` seating the agents it makes (the
    /// others take the roster's seats).
    pub fn with_seats(mut self, seats: Arc<dyn SeatMaker>) -> Lineup {
        self.seats = Some(seats);
        self
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

    /// A player for agent `index`: the seat maker's, else fresh from its
    /// spec, or an idle external process.
    pub fn seat(&self, index: usize) -> Seat {
        if let Some(seat) = self.seats.as_ref().and_then(|maker| maker.seat(index)) {
            return seat;
        }
        let (name, spec) = &self.agents[index];
        match spec {
            AgentSpec::Random => Seat::Random,
            AgentSpec::External { .. } => {
                let key = PoolKey {
                    name: name.clone(),
                    spec: spec.clone(),
                    log: self
                        .log_dir
                        .as_ref()
                        .map(|dir| dir.join(format!("{name}.stderr.log"))),
                };
                let idle = IDLE.with(|idle| {
                    let mut idle = idle.borrow_mut();
                    let found = idle.iter().position(|(k, _)| *k == key)?;
                    Some(idle.swap_remove(found).1)
                });
                let agent = idle
                    .and_then(|mut agent| agent.is_running().then_some(agent))
                    .unwrap_or_else(|| {
                        spec.external(key.log.clone())
                            .expect("an external spec builds an external agent")
                    });
                Seat::External(Box::new(key), agent)
            }
            spec => Seat::Agent(spec.build()),
        }
    }

    /// Takes back a player after its game: a running external process waits
    /// in this thread's pool for the next game; anything else is dropped.
    pub fn release(&self, seat: Seat) {
        if let Seat::External(key, mut agent) = seat {
            if agent.is_running() {
                IDLE.with(|idle| idle.borrow_mut().push((*key, agent)));
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

    /// Whether this is the built-in random player, which plays by
    /// `Game::play_random` and needs to hear of nothing.
    pub fn is_random(&self) -> bool {
        matches!(self, Seat::Random)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Seats agent 1 (a Python callable, say) and no other.
    struct SeatsOne(bool);

    impl SeatMaker for SeatsOne {
        fn seat(&self, index: usize) -> Option<Seat> {
            (index == 1).then_some(Seat::Random)
        }

        fn seats_agent(&self, index: usize) -> bool {
            !self.0 || index == 1
        }
    }

    fn lineup() -> Lineup {
        let depth = |d| AgentSpec::Alphabeta {
            depth: Some(d),
            nodes: None,
            time_ms: None,
            eval: Default::default(),
            search: Default::default(),
        };
        Lineup::new(vec![
            ("d3".into(), depth(3)),
            ("d3-again".into(), depth(3)),
            ("d4".into(), depth(4)),
            ("greedy".into(), AgentSpec::Greedy),
        ])
    }

    /// Twins are two seats of one deterministic spec: not two specs, not a
    /// generator's agent, not with the shortcut off, and not an agent that
    /// a seat maker seats (or may seat: a maker that does not say which).
    #[test]
    fn twins_are_two_seats_of_one_deterministic_spec_the_roster_seats() {
        let l = lineup();
        assert!(l.twins(0, 0) && l.twins(0, 1) && l.twins(2, 2));
        assert!(!l.twins(0, 2) && !l.twins(3, 3));
        assert!(l.has_twins());
        assert!(!lineup().with_twin_shortcut(false).twins(0, 0));
        assert!(!lineup().with_twin_shortcut(false).has_twins());
        let told = lineup().with_seats(Arc::new(SeatsOne(true)));
        assert!(told.twins(0, 0) && told.twins(2, 2));
        assert!(!told.twins(1, 1) && !told.twins(0, 1));
        let untold = lineup().with_seats(Arc::new(SeatsOne(false)));
        assert!(!untold.twins(0, 0));
    }
}
