//! The roster: named agents, one TOML file each in `agents/`, so that adding a
//! configured agent is adding a file and a bad file says exactly what is wrong.
//!
//! A file is checked against the fields each kind accepts before serde reads
//! it, because serde's messages for internally tagged enums lose the name of an
//! ill-typed field; the table of fields is tested against [`AgentSpec`].

use std::fs;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::agents::alphabeta::max_depth;
use crate::agents::spec::AgentSpec;
use crate::records::safe_file::check_regular_file;
use crate::records::toml_place::TomlPlace;

/// The longest agent name, in characters.
pub const MAX_AGENT_NAME: usize = 64;

/// An agent of the roster: the file stem and what it describes.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedAgent {
    /// The file stem, e.g. `alphabeta-d8`.
    pub name: String,
    /// The agent.
    pub spec: AgentSpec,
}

/// The named agents of a directory, sorted by name.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Roster {
    agents: Vec<NamedAgent>,
}

/// Why a roster cannot be loaded or an agent found.
#[derive(Debug, Error)]
pub enum RosterError {
    /// The directory cannot be listed.
    #[error("cannot read the agent directory {dir}")]
    ReadDir {
        /// The directory.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file cannot be read.
    #[error("cannot read agent file {file}")]
    ReadFile {
        /// The file.
        file: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not TOML, or not an agent table.
    #[error("agent file {file}: {message}")]
    Syntax {
        /// The file.
        file: PathBuf,
        /// The parser's message, after `line L, column C: ` where known.
        message: String,
    },
    /// A field is missing, unknown, ill-typed or out of range.
    #[error("agent file {file}: field `{field}` {problem}; allowed: {allowed}")]
    Field {
        /// The file.
        file: PathBuf,
        /// The field.
        field: String,
        /// What is wrong with it.
        problem: String,
        /// What would be accepted.
        allowed: String,
    },
    /// A `*.toml` entry that is not a regular file, or whose stem is not a
    /// usable agent name.
    #[error("agent file {file}: {problem}")]
    BadEntry {
        /// The entry.
        file: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// The directory holds no `*.toml` file.
    #[error("no agent files (*.toml) in {0}")]
    Empty(PathBuf),
    /// No agent has this name.
    #[error("no agent named {name:?}; the roster has: {}", known.join(", "))]
    UnknownAgent {
        /// The name asked for.
        name: String,
        /// The names that exist.
        known: Vec<String>,
    },
}

/// A TOML value type a field accepts.
#[derive(Clone, Copy)]
enum Type {
    /// A non-negative integer.
    Count,
    /// `true` or `false`.
    Flag,
    /// A number.
    Number,
    /// One of these strings.
    OneOf(&'static [&'static str]),
    /// An agent spec of its own, a table (checked when it is read).
    Agent,
    /// A string.
    Text,
    /// A list of strings.
    Strings,
    /// A table of its own (an `[eval]` table, checked when it is read).
    Table,
}

/// One accepted field of a kind: name, type, whether required, what is allowed.
type FieldSpec = (&'static str, Type, bool, &'static str);

const KINDS: &[&str] = &[
    "random",
    "greedy",
    "alphabeta",
    "mcts",
    "tablebase",
    "external",
];

/// The fields each kind accepts, besides `kind`.
fn fields_of(kind: &str) -> &'static [FieldSpec] {
    match kind {
        "alphabeta" => &[
            (
                "depth",
                Type::Count,
                false,
                concat!("an integer from 1 to ", max_depth!()),
            ),
            ("nodes", Type::Count, false, "an integer at least 1"),
            ("time_ms", Type::Count, false, "an integer at least 1"),
            (
                "eval",
                Type::Table,
                false,
                "an [eval] table: kind = \"material\" or kind = \"learned\" with [eval.weights]",
            ),
            ("pvs", Type::Flag, false, "true or false"),
            ("aspiration", Type::Count, false, "an integer from 0 (off) to 255"),
            ("killers", Type::Flag, false, "true or false"),
            ("history", Type::Flag, false, "true or false"),
            ("quiescence", Type::Count, false, "an integer from 0 (off) to 32"),
            (
                "reductions",
                Type::Count,
                false,
                "an integer from 0 (off) to 4 (with pvs = true)",
            ),
            ("max_seeds", Type::Count, false, "an integer from 0 to 120"),
            ("tables", Type::Text, false, "a directory path (with max_seeds)"),
            (
                "tt_mb",
                Type::Count,
                false,
                "a power of two from 1 to 4096 (MiB)",
            ),
            ("tt_deep", Type::Flag, false, "true or false"),
            (
                "diverse_plies",
                Type::Count,
                false,
                "an integer from 0 (off) to 64 (opening plies mixed)",
            ),
            (
                "diverse_margin",
                Type::Count,
                false,
                "an integer from 0 to 255 seeds (with diverse_plies)",
            ),
            (
                "seed",
                Type::Count,
                false,
                "an integer at least 0 (with diverse_plies: the agent's own random numbers)",
            ),
        ],
        "mcts" => &[
            (
                "iterations",
                Type::Count,
                true,
                "an integer from 1 to 10000000",
            ),
            ("exploration", Type::Number, false, "a number at least 0"),
            (
                "rollout",
                Type::OneOf(&["random", "greedy", "none"]),
                false,
                "\"random\", \"greedy\" or \"none\"",
            ),
            ("rollout_cap", Type::Count, false, "an integer at least 1"),
            (
                "eval",
                Type::Table,
                false,
                "an [eval] table: kind = \"material\" or kind = \"learned\" with [eval.weights]",
            ),
            ("solver", Type::Flag, false, "true or false"),
            ("progressive_bias", Type::Number, false, "a number at least 0"),
            ("rave", Type::Number, false, "a number at least 0"),
            ("grave_ref", Type::Count, false, "an integer at least 0"),
            ("reuse", Type::Flag, false, "true or false"),
            ("per_legal_move", Type::Flag, false, "true or false"),
            (
                "seed",
                Type::Count,
                false,
                "an integer at least 0 (the agent's own random numbers)",
            ),
        ],
        "tablebase" => &[
            ("max_seeds", Type::Count, true, "an integer from 0 to 120"),
            ("depth", Type::Count, false, "an integer from 1 to 16"),
            (
                "fallback",
                Type::Agent,
                false,
                "an agent table, e.g. { kind = \"alphabeta\", depth = 6 }",
            ),
            (
                "tables",
                Type::Text,
                false,
                "a directory path (the tables' files, as hoyito solve --tables writes them)",
            ),
        ],
        "external" => &[
            (
                "command",
                Type::Strings,
                true,
                "a list of the program and its arguments, e.g. [\"python3\", \"agents/examples/random.py\"]",
            ),
            ("working_dir", Type::Text, false, "a directory path"),
            ("move_timeout_ms", Type::Count, false, "an integer at least 1"),
            ("startup_timeout_ms", Type::Count, false, "an integer at least 1"),
        ],
        _ => &[],
    }
}

fn accepts(ty: Type, value: &toml::Value) -> bool {
    match (ty, value) {
        (Type::Count, toml::Value::Integer(i)) => *i >= 0,
        (Type::Flag, toml::Value::Boolean(_)) => true,
        (Type::Number, toml::Value::Integer(_) | toml::Value::Float(_)) => true,
        (Type::OneOf(names), toml::Value::String(s)) => names.contains(&s.as_str()),
        (Type::Agent | Type::Table, toml::Value::Table(_)) => true,
        (Type::Text, toml::Value::String(_)) => true,
        (Type::Strings, toml::Value::Array(items)) => items
            .iter()
            .all(|item| matches!(item, toml::Value::String(_))),
        _ => false,
    }
}

/// Why an agent table is refused, before the caller says where it came
/// from (an agent file, or an agent given on the command line).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TableProblem {
    /// serde's own message.
    Syntax(String),
    /// A field is missing, unknown, ill-typed or out of range.
    Field {
        /// The field.
        field: String,
        /// What is wrong with it.
        problem: String,
        /// What would be accepted.
        allowed: String,
    },
}

/// The names of the fields that `kind` accepts, besides `kind`.
pub(crate) fn field_names(kind: &str) -> Vec<&'static str> {
    fields_of(kind).iter().map(|f| f.0).collect()
}

/// The kinds an agent file or an agent text may name.
pub(crate) fn kinds() -> &'static [&'static str] {
    KINDS
}

/// Checks an agent table (a file's or a command line's) and reads it.
pub(crate) fn check_table(table: toml::Table) -> Result<AgentSpec, TableProblem> {
    let field_error = |field: &str, problem: String, allowed: String| TableProblem::Field {
        field: field.to_string(),
        problem,
        allowed,
    };
    let kinds = KINDS.join(", ");
    let kind = match table.get("kind") {
        None => return Err(field_error("kind", "is missing".into(), kinds)),
        Some(toml::Value::String(k)) if KINDS.contains(&k.as_str()) => k.clone(),
        Some(other) => return Err(field_error("kind", format!("is {other}"), kinds)),
    };
    let fields = fields_of(&kind);
    let names = || {
        let list: Vec<&str> = fields.iter().map(|f| f.0).collect();
        if list.is_empty() {
            format!("kind {kind} takes no parameters")
        } else {
            format!("the parameters of kind {kind} are {}", list.join(", "))
        }
    };
    for (key, value) in table.iter().filter(|(k, _)| *k != "kind") {
        let Some(&(_, ty, _, allowed)) = fields.iter().find(|f| f.0 == key) else {
            return Err(field_error(key, "is unknown".into(), names()));
        };
        if !accepts(ty, value) {
            return Err(field_error(key, format!("is {value}"), allowed.into()));
        }
    }
    if let Some(&(name, _, _, allowed)) = fields.iter().find(|f| f.2 && !table.contains_key(f.0)) {
        return Err(field_error(name, "is missing".into(), allowed.into()));
    }
    let spec: AgentSpec = table
        .try_into()
        .map_err(|e: toml::de::Error| TableProblem::Syntax(e.message().to_string()))?;
    spec.validate().map_err(|message| {
        let field = message.split(" = ").next().unwrap_or_default();
        // A nested field (`fallback.depth`) has no entry here: the message's
        // own "allowed ..." part says what is allowed.
        let allowed = fields.iter().find(|f| f.0 == field).map_or_else(
            || message.split_once(": allowed ").map_or("", |(_, a)| a),
            |f| f.3,
        );
        field_error(field, "is out of range".into(), allowed.into())
    })?;
    Ok(spec)
}

/// Reads one agent file's text.
pub(crate) fn parse_agent(file: &Path, text: &str) -> Result<AgentSpec, RosterError> {
    let table: toml::Table = toml::from_str(text).map_err(|e| RosterError::Syntax {
        file: file.to_path_buf(),
        message: TomlPlace::of(text, &e).to_string(),
    })?;
    check_table(table).map_err(|problem| match problem {
        TableProblem::Syntax(message) => RosterError::Syntax {
            file: file.to_path_buf(),
            message,
        },
        TableProblem::Field {
            field,
            problem,
            allowed,
        } => RosterError::Field {
            file: file.to_path_buf(),
            field,
            problem,
            allowed,
        },
    })
}

impl Roster {
    /// Reads every `*.toml` file of `dir`; each names one agent by its stem.
    pub fn load(dir: &Path) -> Result<Roster, RosterError> {
        let read_dir = |source| RosterError::ReadDir {
            dir: dir.to_path_buf(),
            source,
        };
        let mut agents = Vec::new();
        for entry in fs::read_dir(dir).map_err(read_dir)? {
            let path = entry.map_err(read_dir)?.path();
            if path.extension().and_then(|e| e.to_str()) != Some("toml") {
                continue;
            }
            let bad = |problem: String| RosterError::BadEntry {
                file: path.clone(),
                problem,
            };
            // A FIFO would block the read forever: only regular files are agents.
            check_regular_file(&path).map_err(|err| bad(err.to_string()))?;
            let name = path
                .file_stem()
                .and_then(|s| s.to_str())
                .ok_or_else(|| bad("the name is not UTF-8".to_string()))?
                .to_string();
            Roster::check_name(&name).map_err(bad)?;
            let text = fs::read_to_string(&path).map_err(|source| RosterError::ReadFile {
                file: path.clone(),
                source,
            })?;
            let spec = parse_agent(&path, &text)?;
            agents.push(NamedAgent { name, spec });
        }
        if agents.is_empty() {
            return Err(RosterError::Empty(dir.to_path_buf()));
        }
        agents.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(Roster { agents })
    }

    /// Refuses a name that is not a usable agent name: 1 to
    /// `MAX_AGENT_NAME` ASCII letters, digits, `-`, `_`, `.` and `+`, not
    /// beginning with `.` or `-`. Names appear in `games.csv`, file names and
    /// command lines unquoted, so nothing that a CSV reader, a file system or a
    /// shell treats specially is allowed.
    pub fn check_name(name: &str) -> Result<(), String> {
        let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+');
        let fine = !name.is_empty()
            && name.chars().count() <= MAX_AGENT_NAME
            && name.chars().all(allowed)
            && !name.starts_with(['.', '-']);
        if fine {
            Ok(())
        } else {
            Err(format!(
                "{name:?} is not a usable agent name: use 1 to {MAX_AGENT_NAME} letters, \
                 digits, '-', '_', '.' and '+', not beginning with '.' or '-'"
            ))
        }
    }

    /// The agent called `name`.
    pub fn get(&self, name: &str) -> Result<&NamedAgent, RosterError> {
        self.agents
            .iter()
            .find(|a| a.name == name)
            .ok_or_else(|| RosterError::UnknownAgent {
                name: name.to_string(),
                known: self.agents.iter().map(|a| a.name.clone()).collect(),
            })
    }

    /// A roster of these agents, sorted by name.
    pub(crate) fn from_agents(mut agents: Vec<NamedAgent>) -> Roster {
        agents.sort_by(|a, b| a.name.cmp(&b.name));
        Roster { agents }
    }

    /// All agents, sorted by name.
    pub fn agents(&self) -> &[NamedAgent] {
        &self.agents
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The field table agrees with serde: every listed field is read, and serde
    /// knows no other.
    #[test]
    fn the_field_table_matches_the_spec() {
        let file = Path::new("x.toml");
        let eval = "eval = { kind = \"learned\", weights = { captures = 1.0 } }";
        let full = [
            (
                "alphabeta",
                "depth = 3\nnodes = 10\ntime_ms = 5\npvs = true\naspiration = 2\n\
                 killers = true\nhistory = true\nquiescence = 4\nreductions = 1\nmax_seeds = 8\ntables = \"t\"\n\
                 tt_mb = 16\ntt_deep = true\ndiverse_plies = 4\ndiverse_margin = 2\nseed = 3",
            ),
            (
                "mcts",
                "iterations = 7\nexploration = 0.5\nrollout = \"greedy\"\nrollout_cap = 9\n\
                 solver = true\nprogressive_bias = 0.5\nrave = 100.0\ngrave_ref = 50\nreuse = true\nper_legal_move = true\nseed = 4",
            ),
        ];
        for (kind, body) in full {
            let text = format!("kind = \"{kind}\"\n{body}\n{eval}");
            let spec = parse_agent(file, &text).unwrap();
            let written: toml::Table = toml::from_str(&toml::to_string(&spec).unwrap()).unwrap();
            assert_eq!(written.len(), fields_of(kind).len() + 1, "{written}");
        }
        for kind in KINDS {
            let bogus: Result<AgentSpec, _> = toml::from_str(&format!("kind = \"{kind}\"\nzz = 1"));
            if let Err(e) = bogus {
                // The alpha-beta enhancements are one flattened struct, and
                // serde then names the unknown key without the list.
                if *kind == "alphabeta" {
                    assert!(e.message().contains("`zz`"), "{kind}: {e}");
                    continue;
                }
                for f in fields_of(kind) {
                    assert!(e.message().contains(f.0), "{kind}: {e}");
                }
            }
        }
    }

    #[test]
    fn external_files_are_read_and_checked() {
        let file = Path::new("py.toml");
        let ok = "kind = \"external\"\ncommand = [\"python3\", \"a.py\"]\nworking_dir = \"x\"\n\
                  move_timeout_ms = 5\nstartup_timeout_ms = 6";
        let spec = parse_agent(file, ok).unwrap();
        let written = toml::to_string(&spec).unwrap();
        assert_eq!(written.lines().count(), fields_of("external").len() + 1);
        for (text, expected) in [
            (
                "command = \"python3 a.py\"",
                "`command` is \"python3 a.py\"",
            ),
            ("command = [\"python3\", 3]", "`command` is"),
            ("command = []", "`command` is out of range"),
            (
                "command = [\"a\"]\nmove_timeout_ms = 0",
                "`move_timeout_ms` is out of range",
            ),
            ("command = [\"a\"]\nshell = true", "`shell` is unknown"),
            ("working_dir = \"x\"", "`command` is missing"),
        ] {
            let err = parse_agent(file, &format!("kind = \"external\"\n{text}"))
                .unwrap_err()
                .to_string();
            assert!(err.contains(expected), "{text}: {err}");
        }
    }

    /// A TOML error of an agent file is one line with its place, not the
    /// several lines the parser gives.
    #[test]
    fn a_toml_error_is_one_line_with_its_place() {
        let err = parse_agent(Path::new("a.toml"), "kind = \"mcts\"\niterations = = 3\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("agent file a.toml: line 2, column 14: "),
            "{err}"
        );
        assert!(!err.contains('\n'), "{err}");
    }

    /// Names with a newline, and empty or blank names, which would break
    /// `games.csv`, are refused.
    #[test]
    fn agent_names_keep_to_the_documented_characters() {
        for good in [
            "a",
            "alphabeta-d8",
            "mcts_5k",
            "v1.2",
            "a+b",
            "A9",
            &"x".repeat(64),
        ] {
            assert!(Roster::check_name(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            " ",
            "a\nb",
            "a b",
            ".hidden",
            "-flag",
            "a,b",
            "a\"b",
            "é",
            &"x".repeat(65),
        ] {
            let err = Roster::check_name(bad).unwrap_err();
            assert!(err.contains("not a usable agent name"), "{err}");
        }
    }

    /// Regression: the field check once knew only the first four kinds and
    /// refused every tablebase file.
    #[test]
    fn tablebase_files_are_read_and_checked() {
        let file = Path::new("tb.toml");
        let ok = "kind = \"tablebase\"\nmax_seeds = 8\nfallback = { kind = \"greedy\" }";
        assert!(parse_agent(file, ok).is_ok());
        let err = parse_agent(file, "kind = \"tablebase\"\nmax_seeds = \"x\"")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("`max_seeds`") && err.contains("0 to 120"),
            "{err}"
        );
        let err = parse_agent(file, "kind = \"tablebase\"")
            .unwrap_err()
            .to_string();
        assert!(err.contains("`max_seeds` is missing"), "{err}");
    }
}
