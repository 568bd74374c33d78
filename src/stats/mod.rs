//! Statistics of a tournament, as pure functions of the counts of its
//! `games.csv` rows.
//!
//! Every figure in `summary.json`, `report.md` and the charts comes from here,
//! so that a report can be redrawn from the rows alone and tested on hand-made
//! rows. The rows are first counted in one pass into a [`Tally`], whose size
//! does not grow with the number of games, and every statistic is a function
//! of the tally. One concept per file: the variant and board, the tally, the
//! Wilson interval, pairings, the first player's seat, ratings and game
//! length; and the pair-aware figures, pure functions of counts: the score
//! estimate with Elo, nElo and LOS (`elo`), the SPRT (`sprt`), the
//! pair-clustered mean (`cluster`) and the normal distribution function
//! they share (`normal`); and the measures of a skill ladder (`skill`,
//! `skill_trace`).

mod cluster;
pub(crate) mod distinct;
pub(crate) mod elo;
pub(crate) mod endings;
pub(crate) mod first_player;
pub(crate) mod length;
mod matrix;
mod normal;
pub(crate) mod outcomes;
pub(crate) mod pairing;
pub(crate) mod ratings;
pub(crate) mod setting;
pub(crate) mod skill;
pub(crate) mod skill_trace;
pub(crate) mod sprt;
pub(crate) mod tally;
mod units;
pub(crate) mod wilson;

pub use cluster::ClusteredMean;
pub use elo::{elo_from_score, score_from_elo, Interval, SampleUnit, ScoreEstimate, NELO_PER_T};
pub use endings::{AgentForfeits, EndingCounts, ForfeitCounts};
pub use first_player::{first_player, ludii_advantage_p1, ludii_balance, Scope, SeatStats};
pub use length::{length_stats, LengthStats};
pub use normal::normal_cdf;
pub use outcomes::{Pentanomial, Wdl};
pub use pairing::{pairings, GroupGames, PairingStats};
pub use ratings::{bradley_terry, elo_from_logit, Rating, RatingTable};
pub use setting::Setting;
pub use skill::{skill_chain, spans, summed_elo, Separation, Span, Step, StepKind};
pub use skill_trace::{skill_trace, SkillTrace};
pub use sprt::{
    llr_logistic, llr_normalized, Sprt, SprtConfig, SprtDecision, SprtError, SprtModel, SprtStatus,
    MAX_SPRT_ELO,
};
pub use tally::{SettingTally, Tally};
pub use units::{Trinomial, Units};
pub use wilson::{wilson, Proportion, Z95};
