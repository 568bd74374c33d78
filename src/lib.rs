//! Hoyito: plays, studies and solves the Dominican mancala games Hoyito I, II and III.
//!
//! The rules engine (`engine/`: [`Position`], [`Game`]) implements `RULES.md`
//! exactly on any board of two rows of 2 to 16 holes. Modules are private and re-exported here as
//! one flat API.
//!
//! A complete game of Hoyito II on the standard 2x6 board, a greedy player in
//! South's seat against a random one, reproducible from its seed:
//!
//! ```
//! use hoyito::tournament::rng_from_seed;
//! use hoyito::{play_game, Agent, BySide, Ending, Game, Greedy, RandomAgent, Rules, Side, Variant};
//!
//! let rules = Rules::new(Variant::Ii);
//! let (mut greedy, mut random) = (Greedy, RandomAgent);
//! let mut rng = rng_from_seed(2024);
//! let seats = BySide::new(&mut greedy as &mut dyn Agent, &mut random);
//! let game = play_game(&rules, Game::new(rules), seats, &mut rng)?;
//!
//! let outcome = game.outcome().expect("play_game plays to the end");
//! assert_eq!(outcome.ending, Ending::Normal);
//! assert_eq!(outcome.winner, Some(Side::South));
//! assert_eq!(outcome.scores, BySide::new(48, 0));
//! assert_eq!(outcome.plies, 54);
//! assert_eq!(game.moves().len(), 54);
//! # Ok::<(), hoyito::PlayError>(())
//! ```
//!
//! A few plies from the standard start, read and written in the position
//! notation of `RULES.md`:
//!
//! ```
//! use hoyito::{Game, Move, Rules, Variant};
//!
//! let mut game = Game::new(Rules::new(Variant::Iii));
//! assert_eq!(game.position().to_string(), "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0");
//! for text in ["1", "2"] {
//!     game.play(text.parse::<Move>()?)?;
//! }
//! // North's move made a casa: North captured four and moves again.
//! assert_eq!(game.position().to_string(), "0,0,2,7,2,7/7,1,2,0,8,8 N 0-4");
//! assert_eq!(game.last_effect().captured, 4);
//! assert!(game.last_effect().extra_move);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod agents;
pub mod batch;
pub mod bench;
mod engine;
pub mod human;
pub mod metrics;
pub mod openings;
pub mod protocol;
mod records;
pub mod report;
pub mod session;
pub mod solver;
pub mod stats;
pub mod strength;
pub mod tournament;
pub mod tune;

pub use agents::{analyse, shared_tables_in, Analyse, Analysis, AnalysisError, SearchOptions};
pub use agents::{
    builtin_agent_text, parse_agent_text, split_agent_list, AgentNotes, AgentTextError,
};
pub use agents::{
    cheap_features, features, hand, Feature, FeatureVector, LearnedEval, Weights, FEATURES,
    MAX_WEIGHT,
};
pub use agents::{check_human_input, HumanAgent, HumanSeatError};
pub use agents::{
    evaluate, outcome_reward, stalled_margin, terminal_margin, turn_gain, AgentSpec, AlphaBeta,
    AlphaBetaBudget, ExternalAgent, ExternalCommand, Greedy, Mcts, MctsParams, NamedAgent,
    RandomAgent, RolloutPolicy, Roster, RosterError, Score, SearchInfo, StallTracker,
    TablebaseAgent, TURN_SEARCH_LIMIT,
};
pub use agents::{logistic_reward, MctsInfo, MctsOptions, MoveStats, Proof, LEAF_SCALE};
pub use agents::{prepare_tables, shared_tables, EvalSpec, Evaluator, TablebaseAgentError};
pub use engine::agent_trait::{Agent, AgentRng};
pub use engine::diagram::{describe_step, diagram, hole_name};
pub use engine::forfeit::{Forfeit, ForfeitReason};
pub use engine::game::{stalled_scores, Ending, Game, GameError, Outcome};
pub use engine::game_loop::{play_game, PlayError};
pub use engine::game_record::GameRecord;
pub use engine::moves::{Move, MoveList, ParseMoveError};
pub use engine::notation::ParsePositionError;
pub use engine::perft::perft;
pub use engine::position::{IllegalMove, MoveEffect, Position};
pub use engine::rounds_match::{play_match, round_setup, round_setup_after, MatchResult};
pub use engine::rules::{
    check_board, LastFour, Leftover, Rules, RulesError, StallRules, UnknownVariant, Variant,
    MAX_HOLES, MAX_TOTAL_SEEDS, MIN_HOLES,
};
pub use engine::side::{BySide, Side};
pub use engine::sowing::{Board, CaptureKind, Observer, Step, Trace, MAX_RELAY_LAPS};
