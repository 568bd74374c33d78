//! Checking an experiment as a whole, before anything is written.
//!
//! Every key is checked and every problem reported, one line each, so that a
//! config with three mistakes takes one edit, not three runs. Checks that
//! depend on others (the SPRT needs valid pairings, books need valid boards)
//! run only when those passed. Counts are checked with exact arithmetic: the
//! total number of games must fit in [`MAX_TOTAL_GAMES`].

use std::collections::BTreeSet;

use crate::agents::roster::Roster;
use crate::engine::rules::{check_board, max_seeds_per_hole, RulesError, Variant};
use crate::stats::sprt::{Sprt, SprtConfig};
use crate::tournament::adjudication::TableResults;

use super::error::ConfigError;
use super::experiment::Experiment;
use super::rules_config::RulesConfig;
use super::tournament_config::{Format, TournamentConfig};

/// The most games one experiment may play in all: 2^53, the largest count
/// that a TOML integer, a JSON number and an `f64` all hold exactly (so that
/// `experiment.toml`, `summary.json` and the statistics agree).
pub const MAX_TOTAL_GAMES: u64 = 1 << 53;

/// The most rounds per match: far beyond any competition, and small enough
/// that a match pair (two matches, played as one unit of work) stays short.
pub const MAX_ROUNDS: u32 = 100;

/// The most worker threads a run may ask for; more cannot be started on
/// ordinary systems, and would fail only after the results directory exists.
pub const MAX_THREADS: usize = 1024;

/// The problems found so far, each one line.
struct Problems<'a> {
    file: &'a str,
    list: Vec<ConfigError>,
}

impl Problems<'_> {
    fn invalid(&self, key: &str, message: String) -> ConfigError {
        ConfigError::Invalid {
            file: self.file.to_string(),
            key: key.to_string(),
            message,
        }
    }

    fn add(&mut self, key: &str, message: String) {
        self.list.push(self.invalid(key, message));
    }

    /// Notes the outcome of a check; `true` when it passed.
    fn note(&mut self, result: Result<(), ConfigError>) -> bool {
        match result {
            Ok(()) => true,
            Err(ConfigError::Several(errors)) => {
                self.list.extend(errors);
                false
            }
            Err(err) => {
                self.list.push(err);
                false
            }
        }
    }
}

impl Experiment {
    /// Checks every value that the TOML types do not; `file` names the source.
    /// Every problem is reported: one is [`ConfigError::Invalid`], more are
    /// [`ConfigError::Several`]. Call it again after changing a value (the
    /// command line's `--games`, `--threads`).
    pub fn check(&self, file: &str) -> Result<(), ConfigError> {
        let mut problems = Problems {
            file,
            list: Vec::new(),
        };
        let name_ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
        if self.name.is_empty() || !self.name.chars().all(name_ok) || self.name.starts_with('.') {
            problems.add(
                "name",
                format!(
                    "{:?} is not a usable name: use letters, digits, '-', '_' and '.' (not first)",
                    self.name
                ),
            );
        }
        if self.seed > i64::MAX as u64 {
            problems.add(
                "seed",
                format!("{} is too large: seeds are 0 to {}", self.seed, i64::MAX),
            );
        }
        if self.threads > MAX_THREADS {
            problems.add(
                "threads",
                format!(
                    "{} threads: at most {MAX_THREADS} worker threads (0 = all cores)",
                    self.threads
                ),
            );
        }
        if let Some(message) = self.date.problem() {
            problems.add("date", message);
        }
        let rules_ok = self.rules.check(&mut problems);
        let names_ok = self.check_names(&mut problems);
        let tournament_ok = names_ok && {
            let invalid = |key: &str, message| problems.invalid(key, message);
            let result = self.tournament.check(&invalid);
            problems.note(result)
        };
        self.check_games(tournament_ok, &mut problems);
        if rules_ok {
            let invalid = |key: &str, message| problems.invalid(key, message);
            let result = self.openings.check(&self.rules, &invalid);
            problems.note(result);
        }
        if let (Some(config), true) = (self.sprt, rules_ok && tournament_ok) {
            let invalid = |key: &str, message| problems.invalid(key, message);
            let result = self.check_sprt(config, &invalid);
            problems.note(result);
        }
        self.check_adjudication(&mut problems);
        // A name that is not usable was named above, and would break the line.
        for (name, spec) in self
            .roster
            .iter()
            .filter(|(n, _)| Roster::check_name(n).is_ok())
        {
            if let Err(message) = spec.validate() {
                problems.add(&format!("roster.{name}"), message);
            }
        }
        ConfigError::all(problems.list)
    }

    /// `[adjudication]`: table options only with tables, and no adjudication
    /// of matches in rounds (a round's result sets up the next one, and the
    /// rounds are replayed from their records on resume).
    fn check_adjudication(&self, problems: &mut Problems<'_>) {
        let a = &self.adjudication;
        if a.tablebase.is_none() {
            if let Some(seeds) = a.tablebase_seeds {
                problems.add(
                    "adjudication.tablebase_seeds",
                    format!("{seeds}: no tables to use; give `tablebase = \"DIR\"` too"),
                );
            }
            if a.tablebase_results != TableResults::All {
                problems.add(
                    "adjudication.tablebase_results",
                    "\"decided\": no tables to use; give `tablebase = \"DIR\"` too".into(),
                );
            }
        }
        if a.tablebase
            .as_ref()
            .is_some_and(|d| d.as_os_str().is_empty())
        {
            problems.add(
                "adjudication.tablebase",
                "an empty path: give the directory of the tables".into(),
            );
        }
        if a.is_on() && self.rules.rounds > 1 {
            problems.add(
                "adjudication",
                format!(
                    "matches of {} rounds are not adjudicated: remove [adjudication] or \
                     play single games (rounds = 1)",
                    self.rules.rounds
                ),
            );
        }
    }

    /// Agent names in `tournament.agents`, `champion` and `[roster.NAME]`
    /// must be roster names ([`Roster::check_name`]); `true` when they are.
    fn check_names(&self, problems: &mut Problems<'_>) -> bool {
        let before = problems.list.len();
        for name in &self.tournament.agents {
            if let Err(message) = Roster::check_name(name) {
                problems.add("tournament.agents", message);
            }
        }
        if let Some(Err(message)) = self.tournament.champion.as_deref().map(Roster::check_name) {
            problems.add("tournament.champion", message);
        }
        for name in self.roster.keys() {
            if let Err(message) = Roster::check_name(name) {
                problems.add("roster", message);
            }
        }
        problems.list.len() == before
    }

    /// The total number of games, `games` rounded up to pairs times the
    /// pairings times the settings, must not exceed [`MAX_TOTAL_GAMES`]. When
    /// the tournament is invalid its pairings are not known: one is assumed.
    fn check_games(&self, tournament_ok: bool, problems: &mut Problems<'_>) {
        if self.games == 0 {
            problems.add(
                "games",
                "0 games: must be at least 1 (games per pairing, per variant, per board)"
                    .to_string(),
            );
            return;
        }
        let settings = self.rules.variants.len().max(1) * self.rules.holes.len().max(1);
        let pairings = if tournament_ok {
            self.tournament.pairings().len().max(1)
        } else {
            1
        };
        // In 128 bits: `games` rounded up to pairs times the pairings and
        // settings cannot wrap there, so the message says the real total.
        let per_game = settings as u128 * pairings as u128 * u128::from(self.rules.rounds.max(1));
        let total = u128::from(self.games).div_ceil(2) * 2 * per_game;
        if total <= u128::from(MAX_TOTAL_GAMES) {
            return;
        }
        let largest = u128::from(MAX_TOTAL_GAMES) / per_game / 2 * 2;
        let rounds = match self.rules.rounds {
            0 | 1 => String::new(),
            k => format!(" x {k} rounds"),
        };
        problems.add(
            "games",
            format!(
                "{} games per pairing, per variant, per board make {total} games in all \
                 ({pairings} pairing(s) x {settings} setting(s){rounds}, whole pairs); at most \
                 2^53 = {MAX_TOTAL_GAMES} are allowed: give at most {largest}",
                self.games
            ),
        );
    }

    /// An SPRT needs one question: two agents on one variant and board.
    fn check_sprt(
        &self,
        config: SprtConfig,
        invalid: &dyn Fn(&str, String) -> ConfigError,
    ) -> Result<(), ConfigError> {
        Sprt::new(config).map_err(|err| invalid("sprt", err.to_string()))?;
        let settings = self.rules.variants.len() * self.rules.holes.len();
        if settings != 1 {
            return Err(invalid(
                "sprt",
                format!(
                    "an SPRT tests one variant on one board; this experiment has {settings} \
                     (give one variant in `rules.variants` and one board in `rules.holes`)"
                ),
            ));
        }
        let pairings = self.tournament.pairings();
        if pairings.len() != 1 || pairings[0].0 == pairings[0].1 {
            return Err(invalid(
                "sprt",
                format!(
                    "an SPRT tests two agents against each other; this experiment plays {} \
                     pairing(s){} (use two agents and no self-play)",
                    pairings.len(),
                    if self.tournament.self_play {
                        " with self-play"
                    } else {
                        ""
                    }
                ),
            ));
        }
        Ok(())
    }
}

impl RulesConfig {
    /// Checks the lists, the boards, the seeds and the stall rules; `true`
    /// when all passed.
    fn check(&self, problems: &mut Problems<'_>) -> bool {
        let before = problems.list.len();
        let invalid = |key: &str, message| problems.invalid(key, message);
        let variants = check_list(
            &self.variants,
            "rules.variants",
            "give one or more of \"i\", \"ii\", \"iii\"",
            |v| format!("{v} is listed twice: give each of \"i\", \"ii\", \"iii\" at most once"),
            &invalid,
        );
        let holes = check_list(
            &self.holes,
            "rules.holes",
            "give one or more board sizes, 2 to 16 holes per row",
            |h| format!("{h} is listed twice: give each board size once"),
            &invalid,
        );
        problems.note(variants);
        problems.note(holes);
        if self.seeds == 0 {
            problems.add("rules.seeds", RulesError::NoSeeds.to_string());
        }
        let mut too_many = Vec::new();
        for &holes in &self.holes {
            match check_board(holes, self.seeds.max(1)) {
                Ok(()) => {}
                Err(RulesError::TooManySeeds { holes, total, .. }) => too_many.push((holes, total)),
                Err(err) => problems.add("rules.holes", err.to_string()),
            }
        }
        if let Some(&(largest, _)) = too_many.iter().max() {
            let totals: Vec<String> = too_many
                .iter()
                .enumerate()
                .map(|(i, (holes, total))| match i {
                    0 => format!("{total} seeds on 2x{holes}"),
                    _ => format!("{total} on 2x{holes}"),
                })
                .collect();
            problems.add(
                "rules.seeds",
                format!(
                    "{} seeds per hole put {}; at most 255 seeds in all are supported, so \
                     at most {} seeds per hole on the boards given",
                    self.seeds,
                    totals.join(", "),
                    max_seeds_per_hole(largest)
                ),
            );
        }
        for err in self.stall().problems() {
            let key = match err {
                RulesError::Repetitions(_) => "rules.repetitions",
                _ => "rules.no_capture_limit",
            };
            problems.add(key, err.to_string());
        }
        if let Some(message) = self.rounds_problem() {
            problems.add("rules.rounds", message);
        }
        problems.list.len() == before
    }
}

impl RulesConfig {
    /// What is wrong with `rounds`, if anything: at least 1, at most
    /// [`MAX_ROUNDS`], and more than 1 only when Hoyito III is the only
    /// variant (the round rule is Hoyito III's, RULES.md).
    fn rounds_problem(&self) -> Option<String> {
        if self.rounds == 0 {
            return Some(
                "0 rounds: give 1 (single games) or more (a match of that many rounds)".to_string(),
            );
        }
        if self.rounds > MAX_ROUNDS {
            return Some(format!(
                "{} rounds: at most {MAX_ROUNDS} rounds per match",
                self.rounds
            ));
        }
        if self.rounds > 1 && self.variants.iter().any(|&v| v != Variant::Iii) {
            return Some(format!(
                "{} rounds: matches in rounds are Hoyito III's (RULES.md); give                  `variants = [\"iii\"]` or `rounds = 1`",
                self.rounds
            ));
        }
        None
    }
}

impl TournamentConfig {
    fn check(&self, invalid: &dyn Fn(&str, String) -> ConfigError) -> Result<(), ConfigError> {
        check_list(
            &self.agents,
            "tournament.agents",
            "give one or more roster names",
            |a| format!("{a:?} is listed twice: give each agent once"),
            invalid,
        )?;
        match (self.format, &self.champion) {
            (Format::Gauntlet, None) => Err(invalid(
                "tournament.champion",
                "missing: a gauntlet needs `champion = \"NAME\"`, one of tournament.agents"
                    .to_string(),
            )),
            (Format::Gauntlet, Some(c)) if !self.agents.contains(c) => Err(invalid(
                "tournament.champion",
                format!(
                    "{c:?} is not in tournament.agents ({})",
                    self.agents.join(", ")
                ),
            )),
            (Format::Gauntlet, Some(_)) if self.agents.len() < 2 => Err(invalid(
                "tournament.agents",
                "a gauntlet needs the champion and at least one other agent".to_string(),
            )),
            (Format::RoundRobin | Format::SelfPlay | Format::Ladder, Some(_)) => Err(invalid(
                "tournament.champion",
                format!("only a gauntlet has a champion, not a {}", self.format),
            )),
            (Format::RoundRobin, None) if self.agents.len() < 2 && !self.self_play => Err(invalid(
                "tournament.agents",
                "a round-robin needs at least two agents (or `self_play = true`)".to_string(),
            )),
            (Format::Ladder, None) if self.agents.len() < 2 => Err(invalid(
                "tournament.agents",
                "a ladder needs at least two agents, weakest first".to_string(),
            )),
            _ => Ok(()),
        }
    }
}

/// Refuses an empty list (`what` says what to give) or one that names an item
/// twice (`twice` says which).
fn check_list<T: Ord>(
    items: &[T],
    key: &str,
    what: &str,
    twice: impl Fn(&T) -> String,
    invalid: &dyn Fn(&str, String) -> ConfigError,
) -> Result<(), ConfigError> {
    if items.is_empty() {
        return Err(invalid(key, format!("empty list: {what}")));
    }
    let mut seen = BTreeSet::new();
    match items.iter().find(|x| !seen.insert(*x)) {
        Some(item) => Err(invalid(key, twice(item))),
        None => Ok(()),
    }
}
