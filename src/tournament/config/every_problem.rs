//! Every problem of an experiment text at once, where reading it as an
//! [`Experiment`] stops at the first: serde gives up at the first missing
//! key or wrong type, so a file with a missing `seed`, a missing
//! `tournament.format` and `rules.seeds = 0` took three runs to mend.
//!
//! The text is read as a plain TOML table and mended a step at a time, each
//! mend naming what it mended: unknown keys and values (already named by
//! `unknown_keys`) are dropped; a missing required key is named and given a
//! stand-in; each key is then read alone, on a stand-in experiment, and one
//! that cannot be read is named and dropped; what is left is read whole and
//! checked, and the checks' problems with keys not already named are added.
//! A stand-in never produces a problem of its own: the checks' problems
//! with a named key are dropped.

use toml::{Table, Value};

use super::error::ConfigError;
use super::experiment::Experiment;
use super::unknown::{Unknown, UnknownKind};
use crate::records::toml_place::TomlPlace;

/// The keys an experiment must give, as dotted paths, what to give, and
/// the stand-in that lets the rest be read while one is missing. A section
/// that is not there stands in as a whole.
const REQUIRED: [(&str, &str); 6] = [
    ("name", "a short name: letters, digits, '-', '_' and '.'"),
    ("seed", "the master seed, an integer from 0"),
    ("games", "games per pairing, per variant, per board"),
    (
        "tournament",
        "a [tournament] table with `format` and `agents`",
    ),
    (
        "tournament.format",
        "one of \"round-robin\", \"gauntlet\", \"self-play\", \"ladder\"",
    ),
    (
        "tournament.agents",
        "the agents' names, e.g. [\"random\", \"greedy\"]",
    ),
];

/// The keys `[sprt]` must give when it is there.
const SPRT_REQUIRED: [(&str, &str); 2] = [
    (
        "sprt.elo0",
        "the Elo difference of the null hypothesis, e.g. 0",
    ),
    ("sprt.elo1", "the Elo difference of the alternative, e.g. 5"),
];

/// What stands in for a missing required key: the least demanding value
/// (self-play needs only one agent).
fn stand_in(path: &str) -> Value {
    match path {
        "name" => Value::String("experiment".into()),
        "seed" => Value::Integer(0),
        "games" => Value::Integer(2),
        "tournament" => Value::Table(Table::new()),
        "tournament.format" => Value::String("self-play".into()),
        "tournament.agents" => Value::Array(vec![Value::String("random".into())]),
        // `[sprt]`'s two hypotheses, needed to read any of its other keys.
        "sprt.elo0" => Value::Float(0.0),
        "sprt.elo1" => Value::Float(5.0),
        _ => Value::Table(Table::new()),
    }
}

/// Keys that a section needs to be read at all, beside the one tried.
fn section_needs(section: &str) -> &'static [&'static str] {
    match section {
        "tournament" => &["tournament.format", "tournament.agents"],
        "sprt" => &["sprt.elo0", "sprt.elo1"],
        _ => &[],
    }
}

/// Every problem of experiment `text` (read as TOML), `unknown` its
/// unknown names, for `file`: the unknown names, the missing keys, the keys
/// that cannot be read, then the checks of what is left. `None` where the
/// text is not TOML (the parser's one error says why).
pub(super) fn every_problem(
    text: &str,
    file: &str,
    unknown: Vec<Unknown>,
) -> Option<Vec<ConfigError>> {
    let mut table: Table = text.parse().ok()?;
    let invalid = |key: &str, message: String| ConfigError::Invalid {
        file: file.to_string(),
        key: key.to_string(),
        message,
    };
    let mut named: Vec<String> = Vec::new();
    for u in &unknown {
        let key = match &u.kind {
            UnknownKind::Key => u.name.clone(),
            UnknownKind::Value { key } => key.clone(),
            UnknownKind::Agent => continue,
        };
        remove(&mut table, &key);
        named.push(key);
    }
    let mut problems = ConfigError::unknowns(file, unknown);
    let sprt = get(&table, "sprt").is_some_and(Value::is_table);
    let required = REQUIRED
        .into_iter()
        .chain(SPRT_REQUIRED.into_iter().filter(|_| sprt));
    for (path, what) in required {
        if get(&table, path).is_none() {
            let parent_named = named.iter().any(|n| under(path, n));
            if !parent_named {
                problems.push(invalid(path, format!("missing: give {what}")));
            }
            set(&mut table, path, stand_in(path));
            named.push(path.to_string());
        }
    }
    // Each key alone, on a stand-in experiment: a section's keys one by one
    // (with what the section needs to be read), `[roster.NAME]` one agent
    // at a time.
    let base = stand_in_experiment();
    for path in leaves(&table) {
        if named.iter().any(|n| under(&path, n)) {
            continue;
        }
        let Some(value) = get(&table, &path).cloned() else {
            continue;
        };
        let mut alone = base.clone();
        let section = path.split('.').next().unwrap_or_default();
        for need in section_needs(section) {
            if *need != path {
                set(&mut alone, need, stand_in(need));
            }
        }
        set(&mut alone, &path, value);
        if let Err(err) = Value::Table(alone).try_into::<Experiment>() {
            problems.push(invalid(&path, serde_message(&err)));
            remove(&mut table, &path);
            named.push(path);
        }
    }
    match Value::Table(table).try_into::<Experiment>() {
        Ok(mut experiment) => {
            let mut checked = Vec::new();
            if let Err(err) = experiment.openings.load_books(file) {
                checked.push(err);
            }
            if let Err(err) = experiment.check(file) {
                checked.push(err);
            }
            let flat = checked.into_iter().flat_map(|e| match e {
                ConfigError::Several(list) => list,
                e => vec![e],
            });
            problems.extend(flat.filter(|e| match e {
                ConfigError::Invalid { key, .. } => {
                    !named.iter().any(|n| under(key, n) || under(n, key))
                }
                _ => true,
            }));
        }
        // Keys that read alone but not together: named as serde says, at
        // its place in the text.
        Err(err) => problems.push(match toml::from_str::<Experiment>(text) {
            Err(cause) => ConfigError::Toml {
                file: file.to_string(),
                place: TomlPlace::of(text, &cause),
            },
            Ok(_) => invalid("", serde_message(&err)),
        }),
    }
    Some(problems)
}

/// A serde message on one line, without the parser's own place (there is
/// none in a table read back).
fn serde_message(err: &toml::de::Error) -> String {
    err.message().trim().replace('\n', " ")
}

/// The smallest experiment that reads: every required key's stand-in.
fn stand_in_experiment() -> Table {
    let mut table = Table::new();
    for (path, _) in REQUIRED {
        set(&mut table, path, stand_in(path));
    }
    table
}

/// Whether dotted `path` is `key` or under it.
fn under(path: &str, key: &str) -> bool {
    path == key
        || path
            .strip_prefix(key)
            .is_some_and(|rest| rest.starts_with('.'))
}

/// The keys to read alone: the top level's, each section's own, and each
/// `[roster.NAME]` whole.
fn leaves(table: &Table) -> Vec<String> {
    let mut out = Vec::new();
    for (key, value) in table {
        match value {
            Value::Table(sub) if key != "date" => {
                out.extend(sub.keys().map(|k| format!("{key}.{k}")));
            }
            _ => out.push(key.clone()),
        }
    }
    out
}

fn get<'a>(table: &'a Table, path: &str) -> Option<&'a Value> {
    let (head, rest) = match path.split_once('.') {
        Some((head, rest)) => (head, Some(rest)),
        None => (path, None),
    };
    let value = table.get(head)?;
    match rest {
        None => Some(value),
        Some(rest) => get(value.as_table()?, rest),
    }
}

fn set(table: &mut Table, path: &str, value: Value) {
    match path.split_once('.') {
        None => {
            table.insert(path.to_string(), value);
        }
        Some((head, rest)) => {
            let entry = table
                .entry(head.to_string())
                .or_insert_with(|| Value::Table(Table::new()));
            if !entry.is_table() {
                *entry = Value::Table(Table::new());
            }
            if let Some(sub) = entry.as_table_mut() {
                set(sub, rest, value);
            }
        }
    }
}

fn remove(table: &mut Table, path: &str) {
    match path.split_once('.') {
        None => {
            table.remove(path);
        }
        Some((head, rest)) => {
            if let Some(sub) = table.get_mut(head).and_then(Value::as_table_mut) {
                remove(sub, rest);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stand_in_experiment_reads_with_each_section_on_its_own() {
        let base = stand_in_experiment();
        Value::Table(base.clone())
            .try_into::<Experiment>()
            .expect("the stand-ins read");
        for section in ["rules", "openings", "record", "adjudication", "sprt"] {
            let mut alone = base.clone();
            set(&mut alone, section, Value::Table(Table::new()));
            for need in section_needs(section) {
                set(&mut alone, need, stand_in(need));
            }
            Value::Table(alone)
                .try_into::<Experiment>()
                .unwrap_or_else(|e| panic!("[{section}] alone: {e}"));
        }
    }

    #[test]
    fn dotted_paths_are_read_written_and_removed() {
        let mut table = Table::new();
        set(&mut table, "a.b", Value::Integer(1));
        assert_eq!(get(&table, "a.b"), Some(&Value::Integer(1)));
        assert!(under("a.b", "a") && under("a", "a") && !under("ab", "a"));
        remove(&mut table, "a.b");
        assert_eq!(get(&table, "a.b"), None);
        assert!(get(&table, "a").is_some());
    }
}
