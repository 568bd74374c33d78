//! [`Unknown`]: a name an experiment does not know (a key, a value of a
//! closed set, an agent), with where it is and the closest known name.
//!
//! Its own file, below both the key walk that finds such names
//! (`unknown_keys`) and the error that carries them (`error`), so that the
//! error does not import the walk, nor the walk the experiment's reader.

use std::fmt;

use super::suggest::closest;

/// What kind of name is unknown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnknownKind {
    /// A key of a table (the name is the dotted path, `rules.hole`).
    Key,
    /// A value of the closed set of `key` (`tournament.format`).
    Value {
        /// The key, as a dotted path.
        key: String,
    },
    /// An agent of `tournament.agents` that neither the roster nor
    /// `[roster.NAME]` gives.
    Agent,
}

/// A name the experiment does not know, with the closest known one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    /// Key, value or agent.
    pub kind: UnknownKind,
    /// The name as written (a key as its dotted path).
    pub name: String,
    /// Its line in the file, from 1, where known.
    pub line: Option<usize>,
    /// The known name closest to it, if one is close.
    pub suggestion: Option<String>,
    /// Every name allowed in its place.
    pub known: Vec<String>,
}

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = self
            .line
            .map(|l| format!(" (line {l})"))
            .unwrap_or_default();
        let quoted = || {
            self.known
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match &self.kind {
            UnknownKind::Key => write!(f, "unknown key `{}`{line}: ", self.name)?,
            UnknownKind::Value { key } => {
                write!(f, "unknown value `{}` for `{key}`{line}: ", self.name)?
            }
            UnknownKind::Agent => write!(
                f,
                "key `tournament.agents`: unknown agent `{}`{line}: ",
                self.name
            )?,
        }
        if let Some(s) = &self.suggestion {
            write!(f, "did you mean `{s}`? ")?;
        }
        match &self.kind {
            UnknownKind::Key => {
                let table = self
                    .name
                    .rsplit_once('.')
                    .map_or_else(|| "the top level".to_string(), |(t, _)| format!("[{t}]"));
                write!(f, "(keys of {table}: {})", quoted())
            }
            UnknownKind::Value { .. } => write!(f, "(one of {})", quoted()),
            UnknownKind::Agent => write!(
                f,
                "(not in the agents directory nor in [roster.NAME]; the roster has: {})",
                self.known.join(", ")
            ),
        }
    }
}

impl Unknown {
    pub(super) fn new(
        kind: UnknownKind,
        name: String,
        line: Option<usize>,
        known: Vec<String>,
    ) -> Unknown {
        let last = name.rsplit('.').next().unwrap_or(&name);
        let last = if kind == UnknownKind::Key {
            last
        } else {
            &name
        };
        let suggestion = closest(last, known.iter().map(String::as_str)).map(str::to_string);
        Unknown {
            kind,
            name,
            line,
            suggestion,
            known,
        }
    }
}
