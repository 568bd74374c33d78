//! Every name an experiment does not know, found at once, each with the
//! closest known one.
//!
//! serde stops at the first unknown field, so a newcomer's config with five
//! typos took five runs to fix, and the message never said what was meant.
//! Here the file is first read as a plain tree of tables (keeping where each
//! key is), and walked against the keys of each table, which come from the
//! serde structs themselves ([`super::serde_names`]); values of closed sets
//! (variants, format, leftover, ...) are checked too. Agent names are known
//! only when the roster is: [`unknown_agents`] names them all at resolve time.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use toml::Spanned;

use super::experiment::Experiment;
use super::openings::Openings;
use super::record_config::RecordConfig;
use super::rules_config::RulesConfig;
use super::serde_names::{names_of, reads_str};
use super::suggest::closest;
use super::tournament_config::{Format, TournamentConfig};
use super::unknown::{Unknown, UnknownKind};
use crate::engine::rules::{Leftover, Variant};
use crate::records::toml_place::line_column;
use crate::stats::sprt::{SprtConfig, SprtModel};
use crate::tournament::adjudication::{AdjudicationConfig, TableResults};

/// Every unknown key and closed-set value of experiment `text`, in file
/// order. Empty when the text is not TOML: the parser's error says why.
pub fn unknown_names(text: &str) -> Vec<Unknown> {
    let Ok(Raw::Table(root)) = toml::from_str::<Raw>(text) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    walk(text, "", &root, &mut found);
    found.sort_by_key(|u| u.line);
    found
}

/// The agents of `names` that neither `inline` (`[roster.NAME]`) nor
/// `roster` (the agents directory) gives, each with the closest name.
pub fn unknown_agents<'a>(
    names: impl IntoIterator<Item = &'a String>,
    inline: &[&str],
    roster: &[&str],
) -> Vec<Unknown> {
    let known: Vec<String> = roster.iter().chain(inline).map(|s| s.to_string()).collect();
    names
        .into_iter()
        .filter(|n| !known.contains(n))
        .map(|n| Unknown::new(UnknownKind::Agent, n.clone(), None, known.clone()))
        .collect()
}

/// The keys of the table at `path` (dotted), or `None` for tables not walked:
/// `[roster.NAME]` (an agent's keys are checked with the agent) and
/// `[[openings.inline]]` (written by runs, not by hand).
fn keys_of(path: &str) -> Option<&'static [&'static str]> {
    Some(match path {
        "" => names_of::<Experiment>(),
        "rules" => names_of::<RulesConfig>(),
        "openings" => names_of::<Openings>(),
        "tournament" => names_of::<TournamentConfig>(),
        "record" => names_of::<RecordConfig>(),
        "adjudication" => names_of::<AdjudicationConfig>(),
        "sprt" => names_of::<SprtConfig>(),
        _ => return None,
    })
}

/// The tables a key may be misplaced into or out of.
const TABLES: [&str; 7] = [
    "",
    "rules",
    "openings",
    "tournament",
    "record",
    "adjudication",
    "sprt",
];

/// A key of another table close to `name`, as a dotted path: `variant` at
/// the top level is most likely `rules.variants`.
fn elsewhere(path: &str, name: &str) -> Option<String> {
    TABLES.iter().filter(|&&t| t != path).find_map(|&t| {
        let keys = keys_of(t)?.iter().copied();
        let key = closest(name, keys)?;
        Some(match t {
            "" => key.to_string(),
            _ => format!("{t}.{key}"),
        })
    })
}

/// The names of a closed set, and the test of whether a value is one.
type ClosedSet = (Vec<&'static str>, fn(&str) -> bool);

/// The names allowed for the key at `path`, if its values form a closed set,
/// and the test of whether a value is one (variants are read without case).
fn values_of(path: &str) -> Option<ClosedSet> {
    Some(match path {
        "rules.variants" => (
            Variant::ALL.iter().map(|v| v.name()).collect(),
            reads_str::<Variant>,
        ),
        "rules.leftover" => (names_of::<Leftover>().to_vec(), reads_str::<Leftover>),
        "tournament.format" => (names_of::<Format>().to_vec(), reads_str::<Format>),
        "adjudication.tablebase_results" => (
            names_of::<TableResults>().to_vec(),
            reads_str::<TableResults>,
        ),
        "sprt.model" => (names_of::<SprtModel>().to_vec(), reads_str::<SprtModel>),
        _ => return None,
    })
}

/// Checks the table at `path` and the tables and values under it.
fn walk(text: &str, path: &str, table: &[(Spanned<String>, Raw)], found: &mut Vec<Unknown>) {
    let Some(keys) = keys_of(path) else {
        return;
    };
    for (key, value) in table {
        let name = key.get_ref();
        let full = match path {
            "" => name.clone(),
            _ => format!("{path}.{name}"),
        };
        let line = Some(line_column(text, key.span().start).0);
        if !keys.contains(&name.as_str()) {
            let known = keys.iter().map(|k| k.to_string()).collect();
            let mut unknown = Unknown::new(UnknownKind::Key, full, line, known);
            if unknown.suggestion.is_none() {
                unknown.suggestion = elsewhere(path, name);
            }
            found.push(unknown);
            continue;
        }
        let values = match value {
            Raw::Table(sub) => {
                walk(text, &full, sub, found);
                continue;
            }
            Raw::Str(s) => vec![s],
            Raw::List(items) => items
                .iter()
                .filter_map(|i| match i {
                    Raw::Str(s) => Some(s),
                    _ => None,
                })
                .collect(),
            Raw::Other => continue,
        };
        let Some((allowed, reads)) = values_of(&full) else {
            continue;
        };
        for value in values.into_iter().filter(|v| !reads(v)) {
            let kind = UnknownKind::Value { key: full.clone() };
            let known = allowed.iter().map(|k| k.to_string()).collect();
            found.push(Unknown::new(kind, value.clone(), line, known));
        }
    }
}

/// A TOML document as a tree, each key with its place in the text.
enum Raw {
    Table(Vec<(Spanned<String>, Raw)>),
    Str(String),
    List(Vec<Raw>),
    /// A number, a boolean or a date: never a name.
    Other,
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Raw, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a TOML value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Raw, E> {
        Ok(Raw::Other)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Raw, E> {
        Ok(Raw::Other)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Raw, E> {
        Ok(Raw::Other)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Raw, E> {
        Ok(Raw::Other)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw::Str(v.to_string()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Raw::List(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Spanned<String>>()? {
            entries.push((key, map.next_value()?));
        }
        Ok(Raw::Table(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A newcomer's config with a typo in every section, all to be named at
    /// once.
    const NEWCOMER: &str = r#"name = "first"
seed = 1
games = 2
variant = ["ii"]

[rules]
hole = [6]

[openings]
random_ply = 4

[tournament]
format = "round-robbin"
agents = ["randm", "greedy"]
"#;

    #[test]
    fn every_unknown_key_and_value_is_found_with_a_suggestion() {
        let found: Vec<String> = unknown_names(NEWCOMER)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(found.len(), 4, "{found:#?}");
        assert!(
            found[0].starts_with("unknown key `variant` (line 4): did you mean `rules.variants`?"),
            "{}",
            found[0]
        );
        assert!(
            found[1].starts_with("unknown key `rules.hole` (line 7): did you mean `holes`? "),
            "{}",
            found[1]
        );
        assert!(
            found[1].contains("(keys of [rules]: `variants`, `holes`"),
            "{}",
            found[1]
        );
        assert!(
            found[2].starts_with(
                "unknown key `openings.random_ply` (line 10): did you mean `random_plies`?"
            ),
            "{}",
            found[2]
        );
        assert!(
            found[3].starts_with(
                "unknown value `round-robbin` for `tournament.format` (line 13): \
                 did you mean `round-robin`? (one of `round-robin`, `gauntlet`"
            ),
            "{}",
            found[3]
        );
    }

    #[test]
    fn a_far_name_gets_the_list_and_good_values_pass() {
        let text = "colour = 1\n[rules]\nvariants = [\"II\", \"iv\"]\nleftover = \"split\"\n";
        let found = unknown_names(text);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].suggestion, None);
        assert!(found[0]
            .to_string()
            .contains("(keys of the top level: `name`, `seed`"));
        assert_eq!(found[1].name, "iv");
        assert_eq!(
            found[1].to_string(),
            "unknown value `iv` for `rules.variants` (line 3): did you mean `i`? \
             (one of `i`, `ii`, `iii`)"
        );
        assert!(unknown_names("not toml = = 1").is_empty());
    }

    #[test]
    fn unknown_agents_are_all_named_with_the_closest_roster_name() {
        let names = [
            "randm".to_string(),
            "greedy".to_string(),
            "mine".to_string(),
        ];
        let found = unknown_agents(&names, &["mine"], &["greedy", "random"]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].suggestion.as_deref(), Some("random"));
        assert!(found[0]
            .to_string()
            .starts_with("key `tournament.agents`: unknown agent `randm`: did you mean `random`?"));
    }
}
