//! The one error of reading an experiment: [`ConfigError`].
//!
//! Every way an experiment file can fail (unreadable, malformed TOML, an
//! unknown name, a value that cannot be run) is one variant that names the
//! file, so that the command line prints one line per problem; the checks
//! gather several into [`ConfigError::Several`] so that a config with three
//! mistakes takes one edit.

use thiserror::Error;

use super::unknown::Unknown;
use crate::records::toml_place::TomlPlace;

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
    pub(super) fn unknowns(file: &str, unknown: Vec<Unknown>) -> Vec<ConfigError> {
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
