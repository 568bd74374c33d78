//! Which settings make a results directory's experiment another one: a
//! directory refused because it "holds a different experiment" says exactly
//! what differs and how to go on, so that a person need not compare two
//! `experiment.toml` files by eye.

use std::path::Path;

use crate::records::run_files::EXPERIMENT_FILE;
use crate::records::safe_file::read_regular_to_string;
use crate::tournament::config::experiment::Experiment;

use super::error::SessionError;

/// Settings that a run may change in a directory it resumes: `threads` does
/// not change the results, and a larger `games` extends the run.
const FREE: [&str; 2] = ["threads", "games"];

/// The most differences named in one message.
const SHOWN: usize = 6;

/// Refuses `out` when its `experiment.toml` differs from `experiment` in
/// anything but [`FREE`], naming each setting with both values. Anything
/// else (no file, an unreadable one, only `games` differing) is left to the
/// run directory's own checks.
pub fn check_same_settings(out: &Path, experiment: &Experiment) -> Result<(), SessionError> {
    let path = out.join(EXPERIMENT_FILE);
    let Ok(text) = read_regular_to_string(&path) else {
        return Ok(());
    };
    let Ok(saved) = Experiment::parse(&text, &path.display().to_string()) else {
        return Ok(());
    };
    let diffs = differences(&saved, experiment);
    if diffs.is_empty() {
        return Ok(());
    }
    let mut shown: Vec<String> = diffs.iter().take(SHOWN).cloned().collect();
    if diffs.len() > SHOWN {
        shown.push(format!("and {} more", diffs.len() - SHOWN));
    }
    Err(SessionError::Refused(format!(
        "{} holds a different experiment: {}; choose another --out directory, or pass \
         --force to delete its results and start again",
        out.display(),
        shown.join("; ")
    )))
}

/// `KEY: A there, B here` for each setting that differs.
fn differences(saved: &Experiment, ours: &Experiment) -> Vec<String> {
    let table = |e: &Experiment| -> toml::Table {
        toml::from_str(&e.to_toml()).expect("an experiment's TOML reads back")
    };
    let (mut there, mut here) = (Vec::new(), Vec::new());
    flatten("", &table(saved), &mut there);
    flatten("", &table(ours), &mut here);
    let mut keys: Vec<&String> = there.iter().chain(&here).map(|(k, _)| k).collect();
    keys.sort();
    keys.dedup();
    let value = |list: &[(String, String)], key: &str| {
        list.iter()
            .find(|(k, _)| k == key)
            .map_or_else(|| "unset".to_string(), |(_, v)| v.clone())
    };
    keys.into_iter()
        .filter(|k| !FREE.contains(&k.as_str()))
        .filter_map(|k| {
            let (a, b) = (value(&there, k), value(&here, k));
            (a != b).then(|| format!("{k} is {a} there, {b} here"))
        })
        .collect()
}

/// Every leaf of `table` as a dotted key and its TOML text.
fn flatten(prefix: &str, table: &toml::Table, out: &mut Vec<(String, String)>) {
    for (key, value) in table {
        let key = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match value {
            toml::Value::Table(inner) => flatten(&key, inner, out),
            other => out.push((key, other.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_that_differ_are_named_with_both_values() {
        let a = Experiment::default_experiment();
        let mut b = a.clone();
        b.games += 10;
        b.threads = 3;
        assert!(differences(&a, &b).is_empty());
        b.seed = a.seed + 1;
        b.rules.holes = vec![5];
        let diffs = differences(&a, &b);
        assert_eq!(diffs.len(), 2, "{diffs:?}");
        assert!(diffs.contains(&format!("seed is {} there, {} here", a.seed, b.seed)));
        assert!(
            diffs.iter().any(|d| d.starts_with("rules.holes is ")),
            "{diffs:?}"
        );
    }
}
