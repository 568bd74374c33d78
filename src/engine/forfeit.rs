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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::{Ending, Game};
    use crate::engine::moves::Move;
    use crate::engine::rules::{Rules, Variant};
    use crate::engine::side::{BySide, Side};

    /// The side to move forfeits: the other side wins even when behind, the
    /// captures stand, and each reason has its own ending, read and written
    /// as in `games.csv`.
    #[test]
    fn a_forfeit_ends_the_game_for_the_other_side() {
        let rules = Rules::new(Variant::Iii).with_board(2, 3).unwrap();
        // 3,3/3,3: South's hole 2 sows its 3 seeds into North's holes 1 and 2
        // and South's hole 1, the last making four: South captures those 4
        // (III: no chain) and moves again, 4-0 up.
        let mut game = Game::new(rules);
        game.play(Move::Sow(1)).unwrap();
        let captures = game.position().captures();
        assert_eq!(captures, BySide { south: 4, north: 0 });
        assert_eq!(game.position().side_to_move(), Side::South);
        for reason in ForfeitReason::ALL {
            let mut lost = game.clone();
            lost.forfeit(reason);
            let outcome = lost.outcome().unwrap();
            assert_eq!(outcome.winner, Some(Side::North));
            assert_eq!(outcome.scores, captures);
            assert_eq!(outcome.plies, 1);
            assert_eq!(outcome.ending, Ending::forfeit(reason));
            assert_eq!(outcome.ending.forfeit_reason(), Some(reason));
            let name = format!("forfeit-{reason}");
            assert_eq!(outcome.ending.name(), name);
            let json = serde_json::to_string(&outcome.ending).unwrap();
            assert_eq!(json, format!("\"{name}\""));
            assert_eq!(
                serde_json::from_str::<Ending>(&json).unwrap(),
                outcome.ending
            );
            assert!(lost.legal_moves().is_empty());
        }
        assert_eq!(Ending::Normal.forfeit_reason(), None);
    }
}
