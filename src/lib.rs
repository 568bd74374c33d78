//! Hoyito: plays, studies and solves the Dominican mancala games Hoyito I, II and III.
//!
//! The rules engine ([`Position`], [`Game`]) implements `RULES.md` exactly on any
//! board of two rows of 2 to 16 holes. Modules are private and re-exported here as
//! one flat API.

#![warn(missing_docs)]

mod diagram;
mod game;
mod moves;
mod notation;
mod perft;
mod position;
mod record;
mod repetition;
mod round_match;
mod rules;
mod side;
pub mod solver;
mod sowing;
pub mod tournament;

pub use diagram::{describe_step, diagram, hole_name};
pub use game::{stalled_scores, Ending, Game, GameError, Outcome};
pub use moves::{Move, MoveList, ParseMoveError};
pub use notation::ParsePositionError;
pub use perft::perft;
pub use position::{IllegalMove, MoveEffect, Position};
pub use record::GameRecord;
pub use round_match::{play_match, round_setup, MatchResult};
pub use rules::{
    check_board, LastFour, Leftover, Rules, RulesError, StallRules, UnknownVariant, Variant,
    MAX_HOLES, MAX_TOTAL_SEEDS, MIN_HOLES,
};
pub use side::{BySide, Side};
pub use sowing::{Board, CaptureKind, Observer, Step, Trace};
