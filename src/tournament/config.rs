//! Experiments as TOML files: what is played, how often, and by whom.
//!
//! A config is plain data read with `deny_unknown_fields`, then checked as a
//! whole before anything is written, so that a typo stops a run at once with a
//! message naming the file, the key and the allowed values instead of
//! producing a directory of games nobody asked for. The same type, resolved
//! (games rounded up to pairs, command-line overrides applied), is saved as
//! `experiment.toml` beside the results: it is how a rerun recognises its own
//! directory and how `hoyito replay` rebuilds a game.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::agents::{AgentSpec, Roster, RosterError};
pub use crate::openings::Openings;
use crate::rules::{LastFour, Leftover, Rules, StallRules, Variant};
use crate::stats::SprtConfig;
use crate::tournament::adjudication::AdjudicationConfig;

mod check;
mod holes_range;
mod run_date;
mod serde_names;
mod suggest;
mod unknown_keys;

pub use crate::records::safe_file::check_regular_file;
pub use crate::toml_place::TomlPlace;
pub use check::{MAX_ROUNDS, MAX_THREADS, MAX_TOTAL_GAMES};
pub use run_date::RunDate;
pub use unknown_keys::{Unknown, UnknownKind};

/// The built-in default experiment (also `configs/default.toml`).
pub const DEFAULT_CONFIG: &str = include_str!("../../configs/default.toml");

/// The name under which errors refer to [`DEFAULT_CONFIG`].
pub const DEFAULT_CONFIG_NAME: &str = "built-in default experiment (configs/default.toml)";

/// An experiment that cannot be run as written.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read {file}: {cause}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        cause: std::io::Error,
    },
    /// Malformed TOML, an unknown key, or a value of the wrong kind.
    #[error("{file}: {place}")]
    Toml {
        /// The file.
        file: String,
        /// Where and what: `line L, column C: MESSAGE`, one line.
        place: TomlPlace,
    },
    /// A well-formed value that cannot be run.
    #[error("{file}: key `{key}`: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// The key, as a dotted path (`rules.holes`).
        key: String,
        /// What is wrong and what is allowed.
        message: String,
    },
    /// A key, or a value of a closed set (a variant, a format, an agent),
    /// that the experiment does not know, with the closest known name.
    #[error("{file}: {unknown}")]
    Unknown {
        /// The file.
        file: String,
        /// The name, where it is, and what was probably meant (boxed: the
        /// error stays small).
        unknown: Box<Unknown>,
    },
    /// Several problems at once (at least two), one line each: a config is
    /// checked as a whole so that every invalid key is named in one go.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Several(Vec<ConfigError>),
}

impl ConfigError {
    /// One error per unknown name of `file`.
    fn unknowns(file: &str, unknown: Vec<Unknown>) -> Vec<ConfigError> {
        unknown
            .into_iter()
            .map(|unknown| ConfigError::Unknown {
                file: file.to_string(),
                unknown: Box::new(unknown),
            })
            .collect()
    }

    /// `Ok` when `list` is empty, else its one error or [`ConfigError::Several`].
    pub fn all(mut list: Vec<ConfigError>) -> Result<(), ConfigError> {
        match list.len() {
            0 => Ok(()),
            1 => Err(list.remove(0)),
            _ => Err(ConfigError::Several(list)),
        }
    }
}

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

/// Whether no adjudication is asked for (left out of a saved experiment).
fn is_off(config: &AdjudicationConfig) -> bool {
    *config == AdjudicationConfig::default()
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

/// How agents are paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every agent against every other.
    RoundRobin,
    /// The champion against every other agent.
    Gauntlet,
    /// Every agent against itself (first-player advantage at one level of play).
    SelfPlay,
    /// A strength ladder: every agent against the one listed just before it
    /// (list them weakest first).
    Ladder,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
            Format::SelfPlay => "self-play",
            Format::Ladder => "ladder",
        })
    }
}

/// `[tournament]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentConfig {
    /// `round-robin`, `gauntlet`, `self-play` or `ladder`.
    pub format: Format,
    /// Roster names (files in the agents directory).
    pub agents: Vec<String>,
    /// The agent that meets all others in a gauntlet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub champion: Option<String>,
    /// Also play every agent against itself (round-robin and gauntlet).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub self_play: bool,
}

impl Experiment {
    /// Reads and checks an experiment file.
    pub fn load(path: &Path) -> Result<Experiment, ConfigError> {
        let file = path.display().to_string();
        let read = |cause| ConfigError::Read {
            file: file.clone(),
            cause,
        };
        // A FIFO or a device would block or never end: only plain files are read.
        check_regular_file(path).map_err(read)?;
        let text = std::fs::read_to_string(path).map_err(read)?;
        Experiment::parse(&text, &file)
    }

    /// Reads and checks an experiment file as [`Experiment::load`] does, and
    /// when it has unknown keys or values, also names its unknown agents
    /// (against `load_roster` and its `[roster.NAME]` tables), so that every
    /// unknown name is in the one error. A roster that cannot be loaded adds
    /// nothing: [`Experiment::resolve_agents`] reports it.
    pub fn load_naming_agents(
        path: &Path,
        load_roster: impl FnOnce() -> Result<Roster, RosterError>,
    ) -> Result<Experiment, ConfigError> {
        let err = match Experiment::load(path) {
            Ok(experiment) => return Ok(experiment),
            Err(err) => err,
        };
        let has_unknown = |e: &ConfigError| matches!(e, ConfigError::Unknown { .. });
        let unknown = match &err {
            ConfigError::Several(list) => list.iter().any(has_unknown),
            other => has_unknown(other),
        };
        // Only a file that was read and held unknown names is read again
        // (never a FIFO or a device: `load` refused those before reading).
        if !unknown || check_regular_file(path).is_err() {
            return Err(err);
        }
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let Ok(table) = text.parse::<toml::Table>() else {
            return Err(err);
        };
        let Ok(roster) = load_roster() else {
            return Err(err);
        };
        let tournament = table.get("tournament").and_then(toml::Value::as_table);
        let names: Vec<String> = tournament
            .and_then(|t| t.get("agents"))
            .and_then(toml::Value::as_array)
            .map(|list| {
                let names = list.iter().filter_map(toml::Value::as_str);
                names.map(str::to_string).collect()
            })
            .unwrap_or_default();
        let inline: Vec<&str> = table
            .get("roster")
            .and_then(toml::Value::as_table)
            .map(|t| t.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let known: Vec<&str> = roster.agents().iter().map(|a| a.name.as_str()).collect();
        let mut list = match err {
            ConfigError::Several(list) => list,
            other => vec![other],
        };
        list.extend(ConfigError::unknowns(
            &file,
            unknown_keys::unknown_agents(&names, &inline, &known),
        ));
        Err(ConfigError::all(list).expect_err("at least the error of `load`"))
    }

    /// Parses and checks experiment text; `file` names it in errors. Every
    /// unknown key and value is named at once, before the values are read.
    pub fn parse(text: &str, file: &str) -> Result<Experiment, ConfigError> {
        ConfigError::all(ConfigError::unknowns(
            file,
            unknown_keys::unknown_names(text),
        ))?;
        let mut experiment: Experiment =
            toml::from_str(text).map_err(|cause| ConfigError::Toml {
                file: file.to_string(),
                place: TomlPlace::of(text, &cause),
            })?;
        experiment.openings.load_books(file)?;
        experiment.check(file)?;
        Ok(experiment)
    }

    /// The built-in default experiment.
    pub fn default_experiment() -> Experiment {
        Experiment::parse(DEFAULT_CONFIG, DEFAULT_CONFIG_NAME)
            .expect("configs/default.toml is checked by the tests")
    }

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

    /// Gives every agent of the tournament its spec in `roster`: those written
    /// in the experiment stay, the others come from `load_roster` (the agents
    /// directory, read only if needed); specs of agents not playing are dropped.
    pub fn resolve_agents(
        &mut self,
        file: &str,
        load_roster: impl FnOnce() -> Result<Roster, RosterError>,
    ) -> Result<(), ConfigError> {
        let invalid = |message: String| ConfigError::Invalid {
            file: file.to_string(),
            key: "tournament.agents".to_string(),
            message,
        };
        let agents = &self.tournament.agents;
        self.roster.retain(|name, _| agents.contains(name));
        if agents.iter().all(|name| self.roster.contains_key(name)) {
            return Ok(());
        }
        let roster = load_roster().map_err(|err| invalid(err.to_string()))?;
        let inline: Vec<&str> = self.roster.keys().map(String::as_str).collect();
        let known: Vec<&str> = roster.agents().iter().map(|a| a.name.as_str()).collect();
        ConfigError::all(ConfigError::unknowns(
            file,
            unknown_keys::unknown_agents(agents, &inline, &known),
        ))?;
        for name in agents {
            if !self.roster.contains_key(name) {
                let named = roster.get(name).map_err(|err| invalid(err.to_string()))?;
                self.roster.insert(name.clone(), named.spec.clone());
            }
        }
        Ok(())
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
        Rules {
            variant,
            holes,
            seeds: self.rules.seeds as u8,
            stall: self.rules.stall(),
            last_four: LastFour::Capturer,
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
}

impl TournamentConfig {
    /// The pairings, as indices into `agents`: `(a, b)` plays pairs of games,
    /// `a` in South's seat in the first game of each pair.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.agents.len();
        let selves = (0..n).map(|i| (i, i));
        match self.format {
            Format::SelfPlay => selves.collect(),
            Format::RoundRobin => {
                let mut list: Vec<_> = (0..n)
                    .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                    .collect();
                if self.self_play {
                    list.extend(selves);
                }
                list
            }
            Format::Ladder => {
                let mut list: Vec<_> = (1..n).map(|i| (i, i - 1)).collect();
                if self.self_play {
                    list.extend(selves);
                }
                list
            }
            Format::Gauntlet => {
                let champion = self
                    .champion
                    .as_ref()
                    .and_then(|c| self.agents.iter().position(|a| a == c))
                    .expect("checked: the champion is one of the agents");
                let mut list: Vec<_> = (0..n)
                    .filter(|&j| j != champion)
                    .map(|j| (champion, j))
                    .collect();
                if self.self_play {
                    list.extend(selves);
                }
                list
            }
        }
    }
}

#[cfg(test)]
mod tests;
