//! Forfeits: the ways an agent can lose a game without losing it on the board.
//!
//! A built-in agent cannot forfeit; an agent in another process can crash, hang,
//! write something that is not the protocol, or name a move that is not legal.
//! Each is a named termination, as in fastchess and cutechess (disconnect,
//! timeout, illegal move), so that a run carries on and the report can count
//! them per agent and reason.

use std::fmt;

use thiserror::Error;

/// Why an agent forfeited a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ForfeitReason {
    /// The process exited, could not be started, or closed its pipes.
    Crash,
    /// No answer within the start-up or move time limit.
    Timeout,
    /// A line that is not the expected message.
    Protocol,
    /// A move that is not among the legal ones.
    Illegal,
}

impl ForfeitReason {
    /// Every reason, in report order.
    pub const ALL: [ForfeitReason; 4] = [
        ForfeitReason::Crash,
        ForfeitReason::Timeout,
        ForfeitReason::Protocol,
        ForfeitReason::Illegal,
    ];

    /// The short name: `crash`, `timeout`, `protocol`, `illegal`.
    pub fn name(self) -> &'static str {
        match self {
            ForfeitReason::Crash => "crash",
            ForfeitReason::Timeout => "timeout",
            ForfeitReason::Protocol => "protocol",
            ForfeitReason::Illegal => "illegal",
        }
    }
}

impl fmt::Display for ForfeitReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An agent's forfeit of the current game: the reason and what happened.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("forfeit ({reason}): {detail}")]
pub struct Forfeit {
    /// Why, as counted in reports.
    pub reason: ForfeitReason,
    /// What happened, for a person (e.g. the line the agent wrote).
    pub detail: String,
}

impl Forfeit {
    /// A forfeit for `reason`, explained by `detail`.
    pub fn new(reason: ForfeitReason, detail: impl Into<String>) -> Forfeit {
        Forfeit {
            reason,
            detail: detail.into(),
        }
    }
}
