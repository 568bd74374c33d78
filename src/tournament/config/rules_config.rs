//! `[rules]` of an experiment: the variants and boards played, and the
//! options of RULES.md, with the documented defaults.

use serde::{Deserialize, Serialize};

use super::holes_range;
use crate::engine::rules::{LastFour, Leftover, Rules, StallRules, Variant};

/// `[rules]`: the variants and boards played, and the options of RULES.md.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RulesConfig {
    /// Which Hoyitos: `i`, `ii`, `iii`.
    pub variants: Vec<Variant>,
    /// Holes per row, each 2 to 16: a list, or `"A..=B"` in the file.
    #[serde(deserialize_with = "holes_range::deserialize_holes")]
    pub holes: Vec<u32>,
    /// Seeds per hole at the start.
    pub seeds: u32,
    /// Plies without a capture that stall a game; 0 = off.
    pub no_capture_limit: u32,
    /// Occurrences of a position since the last capture that stall a game; 0 = off.
    pub repetitions: u32,
    /// Who gets the seeds of a stalled game: `none`, `own-side`, `split`.
    pub leftover: Leftover,
    /// Rounds per match (Hoyito III only): 1 plays single games; K > 1 makes
    /// every scheduled game a match of K rounds between the same two agents
    /// (RULES.md, "Hoyito III played in rounds"). Left out of
    /// `experiment.toml` when 1, so that older run directories still match.
    #[serde(skip_serializing_if = "is_one")]
    pub rounds: u32,
}

/// Whether a count is 1 (the default left out of a saved experiment).
fn is_one(n: &u32) -> bool {
    *n == 1
}

impl Default for RulesConfig {
    fn default() -> Self {
        let stall = StallRules::default();
        RulesConfig {
            variants: Variant::ALL.to_vec(),
            holes: vec![6],
            seeds: 4,
            no_capture_limit: stall.no_capture_limit,
            repetitions: stall.repetitions,
            leftover: stall.leftover,
            rounds: 1,
        }
    }
}

impl RulesConfig {
    /// The stall rules of every game.
    pub fn stall(&self) -> StallRules {
        StallRules {
            no_capture_limit: self.no_capture_limit,
            repetitions: self.repetitions,
            leftover: self.leftover,
        }
    }

    /// The rules of the games on one board of these settings.
    pub fn rules_for(&self, variant: Variant, holes: u8) -> Rules {
        Rules {
            variant,
            holes,
            seeds: self.seeds as u8,
            stall: self.stall(),
            last_four: LastFour::Capturer,
        }
    }
}
