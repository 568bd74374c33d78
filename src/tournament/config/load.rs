//! Reading an experiment: from a file or text to a checked [`Experiment`],
//! and its agents' specs from the roster.
//!
//! A config is checked as a whole before anything is written, so that a typo
//! stops a run at once with a message naming the file, the key and the
//! allowed values instead of producing a directory of games nobody asked
//! for: every unknown name first (`unknown_keys`), then the values (serde),
//! the books (`openings`), and the whole (`check`). The same type, resolved
//! (games rounded up to pairs, command-line overrides applied), is saved as
//! `experiment.toml` beside the results: it is how a rerun recognises its own
//! directory and how `hoyito replay` rebuilds a game.

use std::path::Path;

use super::error::ConfigError;
use super::every_problem::every_problem;
use super::experiment::Experiment;
use super::unknown_keys;
use crate::agents::roster::{Roster, RosterError};
use crate::records::safe_file::check_regular_file;
use crate::records::toml_place::TomlPlace;

/// The built-in default experiment (also `configs/default.toml`).
pub const DEFAULT_CONFIG: &str = include_str!("../../../configs/default.toml");

/// The name under which errors refer to [`DEFAULT_CONFIG`].
pub const DEFAULT_CONFIG_NAME: &str = "built-in default experiment (configs/default.toml)";

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
    /// when it has any problem, also names its unknown agents
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
        // Only a file that was read and is TOML is read again (never a FIFO
        // or a device: `load` refused those before reading), so that its
        // unknown agents are named beside its other problems.
        let malformed = matches!(err, ConfigError::Read { .. } | ConfigError::Toml { .. });
        if malformed || check_regular_file(path).is_err() {
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
                // A name that is not usable is named as such by the checks.
                let names = list.iter().filter_map(toml::Value::as_str);
                let usable = names.filter(|n| Roster::check_name(n).is_ok());
                usable.map(str::to_string).collect()
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
    ///
    /// An experiment of random against greedy play on Hoyito II, 2x6, with
    /// the agents given inline (`[roster.NAME]`); a typo is refused with the
    /// file and the key:
    ///
    /// ```
    /// use hoyito::tournament::{Experiment, Format};
    /// use hoyito::Variant;
    ///
    /// let text = r#"
    ///     name = "doc"
    ///     seed = 7
    ///     games = 3
    ///     [rules]
    ///     variants = ["ii"]
    ///     holes = [6]
    ///     [tournament]
    ///     format = "round-robin"
    ///     agents = ["random", "greedy"]
    ///     [roster.random]
    ///     kind = "random"
    ///     [roster.greedy]
    ///     kind = "greedy"
    /// "#;
    /// let mut experiment = Experiment::parse(text, "doc.toml")?;
    /// experiment.round_to_pairs();
    /// assert_eq!(experiment.games, 4);
    /// assert_eq!(experiment.tournament.format, Format::RoundRobin);
    /// assert_eq!(experiment.boards()[0].variant, Variant::Ii);
    ///
    /// let typo = Experiment::parse(&text.replace("seed =", "sed ="), "doc.toml");
    /// assert!(typo.unwrap_err().to_string().contains("sed"));
    /// # Ok::<(), hoyito::tournament::ConfigError>(())
    /// ```
    pub fn parse(text: &str, file: &str) -> Result<Experiment, ConfigError> {
        let unknown = unknown_keys::unknown_names(text);
        let cause = match toml::from_str::<Experiment>(text) {
            Ok(mut experiment) if unknown.is_empty() => {
                experiment.openings.load_books(file)?;
                experiment.check(file)?;
                return Ok(experiment);
            }
            Ok(_) => None,
            Err(cause) => Some(cause),
        };
        // Something is wrong: name all of it, not only what serde met first.
        match every_problem(text, file, unknown) {
            Some(problems) if !problems.is_empty() => {
                Err(ConfigError::all(problems).expect_err("problems"))
            }
            _ => Err(ConfigError::Toml {
                file: file.to_string(),
                place: TomlPlace::of(text, &cause.expect("an experiment without problems reads")),
            }),
        }
    }

    /// The built-in default experiment.
    pub fn default_experiment() -> Experiment {
        Experiment::parse(DEFAULT_CONFIG, DEFAULT_CONFIG_NAME)
            .expect("configs/default.toml is checked by the tests")
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
}
