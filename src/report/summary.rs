//! `summary.json`: every statistic of a run in one machine-readable file, the
//! same figures that `report.md` and the charts show.

use std::io::Write;

use serde::Serialize;

use super::balance::BalanceSummary;
use super::caveats::{caveats, Caveat};
use super::openings_summary::OpeningsSummary;
use super::setting_summary::SettingSummary;
use super::sprt_summary::SprtSummary;
use crate::stats::endings::AgentForfeits;
use crate::stats::first_player;
use crate::stats::length::length_stats;
use crate::stats::pairing::{pairings, rank};
use crate::stats::ratings::bradley_terry;
use crate::stats::tally::Tally;

/// What "first player" means in every figure below.
pub const FIRST_PLAYER: &str = "\"First player\" is the South seat, which moves first, \
     not any particular agent: in each seat-swapped pair both agents sit there once.";

/// All statistics of a set of games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Games counted.
    pub games: u64,
    /// Games the run's experiment plans (the length of its schedule), when
    /// the report has the run's `experiment.toml`.
    pub planned_games: Option<u64>,
    /// Whether the run is over: every planned game played, or its SPRT
    /// decided. `true` when nothing is known of a plan.
    pub complete: bool,
    /// Agents that played, in the listed order.
    pub agents: Vec<String>,
    /// The meaning of "first player".
    pub first_player: &'static str,
    /// The no-capture limit of the run's rules (plies), when known from its
    /// `experiment.toml` and not 0 (off).
    pub no_capture_limit: Option<u32>,
    /// What to keep in mind when reading the figures, found automatically.
    pub caveats: Vec<Caveat>,
    /// The run's SPRT, when its experiment has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtSummary>,
    /// How the games opened, when the run's experiment is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openings: Option<OpeningsSummary>,
    /// Forfeits per agent and reason (agents in other processes), when any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub forfeits: Vec<AgentForfeits>,
    /// Matches in rounds (Hoyito III, `rules.rounds > 1`): match scores, the
    /// balance by round number and the last seeds; absent for single games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<super::rounds_summary::RoundsSummary>,
    /// One entry per variant and board.
    pub settings: Vec<SettingSummary>,
    /// The game-design metrics, when the run recorded `metrics.csv`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balance: Option<BalanceSummary>,
}

/// Computes every statistic of the tallied games; agents are ordered as in
/// `agent_order` (unlisted ones after, by name). `no_capture_limit` is the
/// rules' limit when known (`None` or 0 when not, or off).
pub fn summarize(tally: &Tally, agent_order: &[String], no_capture_limit: Option<u32>) -> Summary {
    let mut agents: Vec<&str> = tally.agents().iter().map(String::as_str).collect();
    agents.sort_by_key(|a| rank(agent_order, a));
    let settings = tally
        .settings()
        .map(|games| SettingSummary {
            setting: games.setting(),
            games: games.games(),
            opening_ended: games.opening_ended(),
            pairings: pairings(&games, agent_order),
            first_player: first_player(&games, agent_order),
            ratings: bradley_terry(&games, agent_order),
            length: length_stats(&games),
        })
        .collect::<Vec<_>>();
    Summary {
        games: tally.games(),
        planned_games: None,
        complete: true,
        agents: agents.into_iter().map(str::to_string).collect(),
        first_player: FIRST_PLAYER,
        no_capture_limit: no_capture_limit.filter(|&l| l > 0),
        caveats: caveats(&settings),
        sprt: None,
        openings: None,
        forfeits: tally.forfeits().agents(),
        rounds: None,
        settings,
        balance: None,
    }
}

/// Writes the summary as pretty-printed JSON with a final newline.
pub fn write_summary(mut out: impl Write, summary: &Summary) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut out, summary)?;
    writeln!(out)
}
