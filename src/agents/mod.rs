//! The agents of the roster, one file per kind, and what they share: the
//! evaluation, the data that describes an agent ([`AgentSpec`]) and the roster of
//! named agents in `agents/*.toml`.

mod agent_text;
pub(crate) mod alphabeta;
mod analysis;
pub(crate) mod build;
mod builtin;
mod diverse;
mod eval_choice;
pub(crate) mod eval_learned;
pub(crate) mod eval_margin;
pub(crate) mod eval_spec;
pub(crate) mod external;
pub(crate) mod features;
mod greedy;
pub(crate) mod human;
pub(crate) mod mcts;
mod notes;
mod random;
pub(crate) mod roster;
mod skip_default;
pub(crate) mod spec;
mod tablebase;

pub use agent_text::{parse_agent_text, split_agent_list, AgentTextError};
pub use alphabeta::{AlphaBeta, AlphaBetaBudget, SearchInfo, SearchOptions};
pub use analysis::{analyse, Analyse, Analysis, AnalysisError};
pub use build::prepare_tables;
pub use eval_choice::Evaluator;
pub use eval_learned::{LearnedEval, Weights, MAX_WEIGHT};
pub use eval_margin::{
    evaluate, outcome_reward, stalled_margin, terminal_margin, Score, StallTracker,
};
pub use eval_spec::EvalSpec;
pub use external::{ExternalAgent, ExternalCommand};
pub use features::{cheap_features, features, hand, Feature, FeatureVector, FEATURES};
pub use greedy::{turn_gain, Greedy, TURN_SEARCH_LIMIT};
pub use human::{check_human_input, HumanAgent, HumanSeatError};
pub use mcts::{
    logistic_reward, Mcts, MctsInfo, MctsOptions, MctsParams, MoveStats, Proof, RolloutPolicy,
    LEAF_SCALE,
};
pub use notes::{builtin_agent_text, AgentNotes};
pub use random::RandomAgent;
pub use roster::{NamedAgent, Roster, RosterError};
pub use spec::AgentSpec;
pub use tablebase::{shared_tables, shared_tables_in, TablebaseAgent, TablebaseAgentError};
