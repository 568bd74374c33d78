//! An agent in another process, in any language, spoken to over the line
//! protocol of [`crate::protocol`] (agents/PROTOCOL.md).
//!
//! The agent is thin over the protocol: it starts the process and shakes hands
//! (`hoyito 1` → `ready NAME`), announces each game lazily when it is first
//! asked to move (then it knows its seat and draws the game's `seed=N` from the
//! game's generator), tells it every ply it did not choose itself (`moved M`:
//! the opening and the opponent's moves, tracked by how many plies it has been
//! told), asks for moves (`go` → `move M`) and reports the end (`gameover`).
//! Every failure is a typed [`Forfeit`]: the process is then killed and started
//! again for the next game. One process serves many games (`newgame` between
//! them); the harness keeps it in the lineup's pool between games.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use rand::Rng;

use crate::engine::agent_trait::{Agent, AgentRng};
use crate::engine::forfeit::{Forfeit, ForfeitReason};
use crate::engine::game::Game;
use crate::engine::moves::Move;
use crate::engine::rules::{LastFour, Leftover, Rules};
use crate::engine::side::Side;
use crate::protocol::message::{AgentMessage, GameResult, HarnessMessage, PROTOCOL_VERSION};
use crate::protocol::process::{AgentProcess, ProcessError};

/// How to start an external agent and how long to wait for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalCommand {
    /// The program and its arguments (no shell).
    pub command: Vec<String>,
    /// The directory it runs in (the harness's own when `None`).
    pub working_dir: Option<PathBuf>,
    /// The longest wait for a move.
    pub move_timeout_ms: u64,
    /// The longest wait for `ready` after `hoyito 1`.
    pub startup_timeout_ms: u64,
}

/// Time given to an agent to exit by itself after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);

/// An [`Agent`] played by an external process.
pub struct ExternalAgent {
    command: ExternalCommand,
    stderr_log: Option<PathBuf>,
    /// The running process (boxed: the agent sits in the lineup's seats,
    /// beside agents that are one pointer).
    process: Option<Box<AgentProcess>>,
    /// The name the agent gave in `ready`.
    ready_name: Option<String>,
    /// Whether the current game was announced (`newgame`).
    announced: bool,
    /// Plies of the current game the agent knows (told or chose).
    told: usize,
}

impl ExternalAgent {
    /// An agent that will start `command` when first asked to move, its
    /// standard error appended to `stderr_log`.
    pub fn new(command: ExternalCommand, stderr_log: Option<PathBuf>) -> ExternalAgent {
        ExternalAgent {
            command,
            stderr_log,
            process: None,
            ready_name: None,
            announced: false,
            told: 0,
        }
    }

    /// The name the agent gave when it last started.
    pub fn ready_name(&self) -> Option<&str> {
        self.ready_name.as_deref()
    }

    /// Starts the process and shakes hands now, rather than at the first
    /// move: a run checks that every agent starts before its first game.
    /// A failure is written to the agent's stderr log, as in a game.
    pub fn start(&mut self) -> Result<(), Forfeit> {
        match self.process() {
            Ok(_) => Ok(()),
            Err(forfeit) => Err(self.fail(forfeit)),
        }
    }

    /// Whether a process is running (one that exited is dropped).
    pub fn is_running(&mut self) -> bool {
        if !self.process.as_mut().is_some_and(|p| p.is_alive()) {
            self.process = None;
        }
        self.process.is_some()
    }

    /// The running process, started and greeted if need be.
    fn process(&mut self) -> Result<&mut AgentProcess, Forfeit> {
        if self.process.is_none() {
            let mut process = AgentProcess::spawn(
                &self.command.command,
                self.command.working_dir.as_deref(),
                self.stderr_log.as_deref(),
            )
            .map_err(|e| Forfeit::new(ForfeitReason::Crash, e.to_string()))?;
            let hello = HarnessMessage::Hello {
                version: PROTOCOL_VERSION,
            };
            process.send(&hello.to_string()).map_err(forfeit_of)?;
            let timeout = Duration::from_millis(self.command.startup_timeout_ms);
            let line = process.recv(timeout).map_err(forfeit_of)?;
            match line.parse::<AgentMessage>() {
                Ok(AgentMessage::Ready(name)) => self.ready_name = Some(name),
                _ => {
                    return Err(Forfeit::new(
                        ForfeitReason::Protocol,
                        format!("expected \"ready NAME\" after \"{hello}\", got {line:?}"),
                    ))
                }
            }
            self.process = Some(Box::new(process));
        }
        Ok(self.process.as_mut().expect("started above"))
    }

    /// Sends one message. On a failure the caller kills the process
    /// ([`Self::fail`]), once: the agent's log says why only once.
    fn send(&mut self, msg: &HarnessMessage) -> Result<(), Forfeit> {
        let sent = self.process()?.send(&msg.to_string());
        sent.map_err(forfeit_of)
    }

    /// Kills the process after a failure, says why in the agent's stderr
    /// log, and hands the forfeit on.
    fn fail(&mut self, forfeit: Forfeit) -> Forfeit {
        self.process = None;
        self.announced = false;
        if let Some(log) = &self.stderr_log {
            // The log is for a person: failing to write it changes nothing.
            // Never through a link planted at the log's name.
            let _ = crate::records::safe_file::open_append_no_follow(log)
                .and_then(|mut file| writeln!(file, "hoyito: {forfeit}"));
        }
        forfeit
    }

    /// Announces the game if need be and tells the plies the agent has not heard.
    fn catch_up(&mut self, game: &Game, rng: &mut AgentRng) -> Result<(), Forfeit> {
        if !self.announced {
            let rules = game.rules();
            let msg = HarnessMessage::NewGame {
                variant: rules.variant,
                holes: rules.holes,
                seeds: rules.seeds,
                seat: game.position().side_to_move(),
                seed: rng.random(),
                options: rules_options(rules),
            };
            self.send(&msg)?;
            self.announced = true;
            self.told = 0;
        }
        let pending: Vec<Move> = game.moves()[self.told.min(game.moves().len())..].to_vec();
        for mv in pending {
            self.send(&HarnessMessage::Moved(mv))?;
        }
        self.told = game.moves().len();
        Ok(())
    }

    fn ask(&mut self, game: &Game, rng: &mut AgentRng) -> Result<Move, Forfeit> {
        self.catch_up(game, rng)?;
        let legal = game.legal_moves().to_vec();
        let go = HarnessMessage::Go {
            position: *game.position(),
            legal: legal.clone(),
            nodes: None,
            time_ms: None,
        };
        self.send(&go)?;
        let timeout = Duration::from_millis(self.command.move_timeout_ms);
        let line = self.process()?.recv(timeout).map_err(forfeit_of)?;
        let mv = match line.parse::<AgentMessage>() {
            Ok(AgentMessage::Move(mv)) => mv,
            // A hole number no board has (`move 99`) is a move, just not a
            // legal one: agents/PROTOCOL.md makes that forfeit-illegal.
            Err(_) if is_hole_number(&line) => {
                let list: Vec<String> = legal.iter().map(Move::to_string).collect();
                return Err(Forfeit::new(
                    ForfeitReason::Illegal,
                    format!(
                        "{} is not legal: the legal moves were {}",
                        line.trim(),
                        list.join(" ")
                    ),
                ));
            }
            _ => {
                return Err(Forfeit::new(
                    ForfeitReason::Protocol,
                    format!("expected \"move M\", got {line:?}"),
                ))
            }
        };
        if !legal.contains(&mv) {
            let list: Vec<String> = legal.iter().map(Move::to_string).collect();
            return Err(Forfeit::new(
                ForfeitReason::Illegal,
                format!(
                    "move {mv} is not legal: the legal moves were {}",
                    list.join(" ")
                ),
            ));
        }
        // The agent chose this ply: it need not be told it.
        self.told += 1;
        Ok(mv)
    }
}

/// Whether `line` is `move N` with N a whole number, whatever its size.
fn is_hole_number(line: &str) -> bool {
    let mut words = line.split_whitespace();
    words.next() == Some("move")
        && words
            .next()
            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
        && words.next().is_none()
}

/// The forfeit for a failure of the process.
fn forfeit_of(err: ProcessError) -> Forfeit {
    let reason = match err {
        ProcessError::Timeout(_) => ForfeitReason::Timeout,
        ProcessError::BadLine(_) | ProcessError::Flood => ForfeitReason::Protocol,
        _ => ForfeitReason::Crash,
    };
    Forfeit::new(reason, err.to_string())
}

/// The rules options of `newgame`, `key=value`.
fn rules_options(rules: &Rules) -> Vec<(String, String)> {
    let leftover = match rules.stall.leftover {
        Leftover::None => "none",
        Leftover::OwnSide => "own-side",
        Leftover::Split => "split",
    };
    let last_four = match rules.last_four {
        LastFour::Capturer => "capturer",
        LastFour::Player(Side::South) => "S",
        LastFour::Player(Side::North) => "N",
    };
    vec![
        (
            "no_capture_limit".into(),
            rules.stall.no_capture_limit.to_string(),
        ),
        ("repetitions".into(), rules.stall.repetitions.to_string()),
        ("leftover".into(), leftover.into()),
        ("last_four".into(), last_four.into()),
    ]
}

impl Agent for ExternalAgent {
    /// Only for callers that cannot take a forfeit: the first legal move stands
    /// in for a failure. The harness calls [`Agent::try_choose`].
    fn choose(&mut self, game: &Game, rng: &mut AgentRng) -> Move {
        match self.try_choose(game, rng) {
            Ok(mv) => mv,
            Err(_) => game.legal_moves()[0],
        }
    }

    fn try_choose(&mut self, game: &Game, rng: &mut AgentRng) -> Result<Move, Forfeit> {
        self.ask(game, rng).map_err(|forfeit| self.fail(forfeit))
    }

    fn new_game(&mut self, _rules: &Rules) {
        self.announced = false;
        self.told = 0;
    }

    fn game_over(&mut self, game: &Game) {
        let Some(outcome) = game.outcome() else {
            return;
        };
        if !self.announced || self.process.is_none() {
            return;
        }
        let pending: Vec<Move> = game.moves()[self.told.min(game.moves().len())..].to_vec();
        let mut messages: Vec<HarnessMessage> =
            pending.into_iter().map(HarnessMessage::Moved).collect();
        messages.push(HarnessMessage::GameOver {
            result: outcome.winner.map_or(GameResult::Draw, GameResult::Win),
            captures: outcome.scores,
            ending: outcome.ending.name().to_string(),
        });
        for msg in &messages {
            if let Err(forfeit) = self.send(msg) {
                // The game is over: a crash now costs nothing but a restart.
                self.fail(forfeit);
                return;
            }
        }
        self.announced = false;
        self.told = 0;
    }
}

impl Drop for ExternalAgent {
    fn drop(&mut self) {
        if let Some(mut process) = self.process.take() {
            if process.send(&HarnessMessage::Quit.to_string()).is_ok() {
                process.close(QUIT_GRACE);
            }
        }
    }
}
