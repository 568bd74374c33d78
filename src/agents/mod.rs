//! The agents of the roster, one file per kind, and what they share: the
//! evaluation, the data that describes an agent ([`AgentSpec`]) and the roster of
//! named agents in `agents/*.toml`.

mod alphabeta;
mod analysis;
mod diverse;
mod eval_spec;
mod evaluation;
mod external;
mod features;
mod greedy;
mod human;
mod learned;
mod mcts;
mod random;
mod roster;
mod spec;
mod tablebase;

pub use alphabeta::{AlphaBeta, AlphaBetaBudget, SearchInfo, SearchOptions};
pub use analysis::{analyse, Analyse, Analysis, AnalysisError};
pub use diverse::Diverse;
pub use eval_spec::EvalSpec;
pub use evaluation::{
    evaluate, outcome_reward, stalled_margin, terminal_margin, Evaluator, Score, StallTracker,
};
pub use external::{ExternalAgent, ExternalCommand};
pub use features::{cheap_features, features, hand, Feature, FeatureVector, FEATURES};
pub use greedy::{turn_gain, Greedy, TURN_SEARCH_LIMIT};
pub use human::{check_human_input, HumanAgent, HumanSeatError};
pub use learned::{LearnedEval, Weights, MAX_WEIGHT};
pub use mcts::{
    logistic_reward, Mcts, MctsInfo, MctsOptions, MctsParams, MoveStats, Proof, LEAF_SCALE,
};
pub use random::RandomAgent;
pub use roster::{NamedAgent, Roster, RosterError};
pub use spec::{AgentSpec, RolloutPolicy};
pub use tablebase::{
    prepare_tables, shared_tables, shared_tables_in, TablebaseAgent, TablebaseAgentError,
};
