//! The engine: the game of `RULES.md` and nothing else. Sides and rules,
//! moves and positions with their notation, the sowing, a game with its stall
//! rules, outcome and record, Hoyito III's rounds, the agent trait and a game
//! between two agents, and the seeded generators every game draws from.
//!
//! It is a folder so that the bottom layer of the house reads as one: nothing
//! here imports from outside it, and everything else (records, agents, the
//! tournament, the studies) is built on it. `lib.rs` re-exports its public
//! names as the library's flat API.

pub(crate) mod agent_trait;
pub(crate) mod bits;
mod board_key;
pub(crate) mod diagram;
pub(crate) mod forfeit;
pub(crate) mod game;
pub(crate) mod game_loop;
pub(crate) mod game_record;
pub(crate) mod moves;
pub(crate) mod notation;
pub(crate) mod perft;
pub(crate) mod position;
mod repetition;
pub(crate) mod rounds_match;
pub(crate) mod rules;
pub(crate) mod seeding;
pub(crate) mod side;
pub(crate) mod sowing;
