//! [`Experiment`]: one experiment as data, what is played, how often, and by
//! whom.
//!
//! The type is plain data, read with `deny_unknown_fields` (its sections are
//! the files beside it: `rules_config`, `openings`, `tournament_config`,
//! `record_config`), and the methods here only derive from it what a run
//! needs: its boards, its agents' specs, its saved text. Reading and checking
//! it are `load` and `check`, above it in this folder, so that the sections
//! and the key walk of `unknown_keys` can name the type without importing
//! its reader.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::openings::Openings;
use super::record_config::RecordConfig;
use super::rules_config::RulesConfig;
use super::run_date::RunDate;
use super::tournament_config::TournamentConfig;
use crate::agents::spec::AgentSpec;
use crate::engine::rules::{Rules, Variant};
use crate::stats::sprt::SprtConfig;
use crate::tournament::adjudication::AdjudicationConfig;

/// One experiment, as written in `configs/*.toml` and saved as `experiment.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// A short name: letters, digits, `-`, `_` and `.` (the default output directory).
    pub name: String,
    /// The master seed: every random choice of the experiment derives from it.
    pub seed: u64,
    /// Games per pairing, per variant, per board; rounded up to whole pairs.
    /// With `rules.rounds = K > 1`, matches of K rounds (K rows each).
    pub games: u64,
    /// Worker threads; 0 = all cores. Not part of the results.
    #[serde(default)]
    pub threads: usize,
    /// `date = "YYYY-MM-DD"`: when the games were played, for the PGN `Date`
    /// tag. A run writes the day it starts its directory into its
    /// `experiment.toml` when the config gives none. Never part of the
    /// results, nor of the experiment's identity: a rerun on another day is
    /// the same experiment ([`RunDate`] compares equal to every other).
    #[serde(default, skip_serializing_if = "RunDate::is_unknown")]
    pub date: RunDate,
    /// The games played.
    #[serde(default)]
    pub rules: RulesConfig,
    /// Random openings or opening books.
    #[serde(default)]
    pub openings: Openings,
    /// Who plays whom.
    pub tournament: TournamentConfig,
    /// What is recorded besides `games.csv`.
    #[serde(default)]
    pub record: RecordConfig,
    /// `[adjudication]`: end games whose result is known (endgame tables,
    /// or one side past half of all seeds); off by default.
    #[serde(default, skip_serializing_if = "is_off")]
    pub adjudication: AdjudicationConfig,
    /// `[sprt]`: stop a two-agent experiment on one setting as soon as a
    /// sequential probability ratio test decides; `games` is then the cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtConfig>,
    /// `[roster.NAME]`: agents given here rather than in the agents directory.
    /// A run saves the spec of every agent it plays here, in `experiment.toml`,
    /// so that the saved experiment replays without the agents directory.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub roster: BTreeMap<String, AgentSpec>,
}

/// Whether no adjudication is asked for (left out of a saved experiment).
fn is_off(config: &AdjudicationConfig) -> bool {
    *config == AdjudicationConfig::default()
}

impl Experiment {
    /// The experiment as TOML, without its `date`: the text that says which
    /// experiment it is (compared and fingerprinted; a date never makes
    /// another experiment).
    pub fn to_toml(&self) -> String {
        let mut plain = self.clone();
        plain.date = RunDate::default();
        toml::to_string(&plain).expect("an experiment is plain TOML data")
    }

    /// The experiment as saved in `experiment.toml`: [`Experiment::to_toml`]
    /// with its `date`, when known.
    pub fn to_saved_toml(&self) -> String {
        toml::to_string(self).expect("an experiment is plain TOML data")
    }

    /// Rounds `games` up to whole seat-swapped pairs. Never wraps: `u64::MAX`
    /// becomes `u64::MAX - 1`, which [`Experiment::check`] refuses anyway
    /// (call it first, after any override).
    pub fn round_to_pairs(&mut self) {
        self.games = self.games.saturating_add(1) / 2 * 2;
    }

    /// The spec of each agent of the tournament, in `tournament.agents` order.
    /// Call after [`Experiment::resolve_agents`].
    pub fn agent_specs(&self) -> Vec<(String, AgentSpec)> {
        self.tournament
            .agents
            .iter()
            .map(|name| {
                let spec = self
                    .roster
                    .get(name)
                    .expect("resolve_agents gave every agent a spec");
                (name.clone(), spec.clone())
            })
            .collect()
    }

    /// The rules of every board played, variant by variant, in schedule order.
    pub fn boards(&self) -> Vec<Rules> {
        self.rules
            .variants
            .iter()
            .flat_map(|&v| {
                self.rules
                    .holes
                    .iter()
                    .map(move |&h| self.rules_for(v, h as u8))
            })
            .collect()
    }

    /// The rules of the games on one board.
    pub fn rules_for(&self, variant: Variant, holes: u8) -> Rules {
        self.rules.rules_for(variant, holes)
    }

    /// The experiment as a run directory saves it: with its own date, else
    /// the date of `kept` (the directory's earlier save), else today's.
    pub fn dated(&self, kept: Option<&Experiment>) -> Experiment {
        let mut dated = self.clone();
        if dated.date.is_unknown() {
            dated.date = kept
                .map(|k| k.date.clone())
                .filter(|d| !d.is_unknown())
                .unwrap_or_else(RunDate::today);
        }
        dated
    }
}
