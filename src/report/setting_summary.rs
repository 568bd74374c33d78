//! The statistics of one variant on one board, as `summary.json` lists
//! them: below both the whole summary and the caveats drawn from it.

use serde::Serialize;

use crate::stats::first_player::SeatStats;
use crate::stats::length::LengthStats;
use crate::stats::pairing::PairingStats;
use crate::stats::ratings::RatingTable;
use crate::stats::setting::Setting;

/// The statistics of one variant on one board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SettingSummary {
    /// Variant and board.
    #[serde(flatten)]
    pub setting: Setting,
    /// Games played, those that ended inside the opening included.
    pub games: u64,
    /// Games that ended inside their random opening, before any agent
    /// moved: left out of every figure below.
    pub opening_ended: u64,
    /// Each pairing of two different agents.
    pub pairings: Vec<PairingStats>,
    /// South's results: all games, each pairing, each agent's self-play.
    pub first_player: Vec<SeatStats>,
    /// Bradley-Terry ratings, when agents met other agents.
    pub ratings: Option<RatingTable>,
    /// Game length and endings.
    pub length: LengthStats,
}
