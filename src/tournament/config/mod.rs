//! Experiments as TOML files: what is played, how often, and by whom.
//!
//! A config is plain data read with `deny_unknown_fields`, then checked as a
//! whole before anything is written, so that a typo stops a run at once with a
//! message naming the file, the key and the allowed values instead of
//! producing a directory of games nobody asked for. The same type, resolved
//! (games rounded up to pairs, command-line overrides applied), is saved as
//! `experiment.toml` beside the results: it is how a rerun recognises its own
//! directory and how `hoyito replay` rebuilds a game.
//!
//! The folder, top-down: reading an experiment (`load`), its checks
//! (`check`), the walk for unknown names (`unknown_keys`) and the naming
//! of every problem where reading stops at the first (`every_problem`); the
//! [`Experiment`] itself (`experiment`) and its sections (`rules_config`,
//! `openings` with the book files it reads, `tournament_config`,
//! `record_config`, `run_date`); and what they share at the bottom: the
//! error (`error`), an unknown name (`unknown`), the serde helpers
//! (`holes_range`, `serde_names`) and the spelling suggestions (`suggest`).

pub(crate) mod book;
mod check;
pub(crate) mod error;
mod every_problem;
pub(crate) mod experiment;
mod holes_range;
mod load;
pub(crate) mod openings;
mod record_config;
mod rules_config;
mod run_date;
mod serde_names;
mod suggest;
pub(crate) mod tournament_config;
mod unknown;
mod unknown_keys;

pub use crate::records::safe_file::check_regular_file;
pub use crate::records::toml_place::TomlPlace;
pub use book::{read_entries, Book, BookEntry, BookError};
pub use check::{MAX_ROUNDS, MAX_THREADS, MAX_TOTAL_GAMES};
pub use error::ConfigError;
pub use experiment::Experiment;
pub use load::{DEFAULT_CONFIG, DEFAULT_CONFIG_NAME};
pub use openings::{InlineBook, Openings, DEFAULT_RANDOM_PLIES};
pub use record_config::RecordConfig;
pub use rules_config::RulesConfig;
pub use run_date::RunDate;
pub use tournament_config::{Format, TournamentConfig};
pub use unknown::{Unknown, UnknownKind};

#[cfg(test)]
mod tests;
