//! `[record]` of an experiment: what a run writes besides `games.csv`.

use serde::{Deserialize, Serialize};

/// `[record]`: what a run writes besides `games.csv`. Part of the
/// experiment: a directory run with one setting is not resumed with another.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RecordConfig {
    /// Write every game's moves to `moves.csv` (default); `false` for huge
    /// runs, whose games can then be seen again only by re-running agents.
    pub moves: bool,
    /// Write every game's design measures to `metrics.csv` (default), for
    /// the report's Balance section; `false` to leave them out.
    pub metrics: bool,
}

impl Default for RecordConfig {
    fn default() -> Self {
        RecordConfig {
            moves: true,
            metrics: true,
        }
    }
}
