//! One syntax for an agent named on the command line, as `cutechess-cli
//! -engine cmd=./my.py` takes one: every command that names an agent
//! (`match`, `best`, `play --vs`, `play --hint-agent`, `book`, `accuracy`,
//! `tune`) reads it here, so that what works in one works in all.
//!
//! The forms, tried in this order:
//! - `PATH.toml`: an agent file anywhere, named by its stem;
//! - `cmd=COMMAND[,KEY=VALUE...]`: an external agent (agents/PROTOCOL.md);
//!   the command is split at spaces (quotes group words, no other shell
//!   syntax) and the keys are `move_timeout_ms`, `startup_timeout_ms` and
//!   `working_dir`;
//! - `NAME`: a roster agent (the agents directory, then the shipped roster),
//!   else a kind that needs no parameter (`random`, `greedy`, `alphabeta`);
//! - `NAME:KEY=VALUE,...`: that roster agent with its keys overridden, or a
//!   kind with these keys (`mcts:iterations=20000`); the keys are the agent
//!   file's and each value is read as a TOML scalar (`8`, `0.5`, `true`),
//!   else as a string (`rollout=greedy`).
//!
//! The name given to the agent appears in `games.csv`, file names and logs:
//! it is made of the text's own words with only the characters of a roster
//! name ([`Roster::check_name`]), the keys sorted, so that the same agent
//! always gets the same name.

use std::fs;
use std::path::Path;

use thiserror::Error;

use crate::agents::roster::{
    check_table, field_names, kinds, parse_agent, NamedAgent, Roster, TableProblem, MAX_AGENT_NAME,
};

/// Why an agent text names no agent. Control characters of the text are
/// shown escaped (`\n`, `\u{1b}`), so that a newline in a spec does not
/// split the error over several lines and an escape does not reach the
/// terminal.
#[derive(Debug, Error)]
#[error("agent `{}`: {}", escape_controls(text), escape_controls(message))]
pub struct AgentTextError {
    /// The text as given.
    pub text: String,
    /// What is wrong, and what would be accepted.
    pub message: String,
}

/// The keys of `cmd=...` besides the command.
const EXTERNAL_KEYS: [&str; 3] = ["move_timeout_ms", "startup_timeout_ms", "working_dir"];

/// The agent that `text` names, with the name it plays under; `roster`
/// holds the named agents.
pub fn parse_agent_text(text: &str, roster: &Roster) -> Result<NamedAgent, AgentTextError> {
    let fail = |message: String| AgentTextError {
        text: text.to_string(),
        message,
    };
    let text = text.trim();
    if text.is_empty() {
        return Err(fail(format!("empty; {}", FORMS)));
    }
    if text.ends_with(".toml") {
        return agent_file(Path::new(text)).map_err(fail);
    }
    if let Some(command) = text.strip_prefix("cmd=") {
        return external(command).map_err(fail);
    }
    let (base, overrides) = match text.split_once(':') {
        Some((base, rest)) => (base, Some(rest)),
        None => (text, None),
    };
    let mut table = match roster.get(base) {
        Ok(named) => to_table(&named.spec),
        Err(_) if kinds().contains(&base) && base != "external" => {
            let mut table = toml::Table::new();
            table.insert("kind".into(), base.into());
            table
        }
        Err(_) if base == "external" => {
            return Err(fail(
                "write an external agent as cmd=COMMAND[,move_timeout_ms=N]".into(),
            ))
        }
        Err(_) => return Err(fail(unknown_name(base, roster))),
    };
    let kind = table
        .get("kind")
        .and_then(|k| k.as_str())
        .unwrap_or_default()
        .to_string();
    let mut words = vec![base.to_string()];
    if let Some(overrides) = overrides {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for pair in overrides.split(',').filter(|p| !p.trim().is_empty()) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| fail(format!("`{pair}` is not KEY=VALUE")))?;
            let key = key.trim();
            let allowed = field_names(&kind);
            if !allowed.contains(&key) {
                return Err(fail(unknown_key(key, &kind, &allowed)));
            }
            if let Some((_, first)) = pairs.iter().find(|(k, _)| k.as_str() == key) {
                return Err(fail(twice(key, first, value.trim())));
            }
            table.insert(key.to_string(), scalar(value.trim()));
            pairs.push((key.to_string(), value.trim().to_string()));
        }
        pairs.sort();
        words.extend(pairs.iter().map(|(k, v)| format!("{k}{v}")));
    }
    let spec = check_table(table).map_err(|p| fail(describe(p, &kind)))?;
    Ok(NamedAgent {
        name: safe_name(&words.join("-")),
        spec,
    })
}

/// `text` with its control characters escaped, the rest as it is.
fn escape_controls(text: &str) -> String {
    text.chars()
        .map(|c| match c.is_control() {
            true => c.escape_debug().to_string(),
            false => c.to_string(),
        })
        .collect()
}

/// A comma-separated list of agent texts (`accuracy --agents`): a part
/// that reads `KEY=VALUE` belongs to the agent before it, so that
/// `greedy,mcts:iterations=9,exploration=1` is two agents.
pub fn split_agent_list(text: &str) -> Vec<String> {
    let mut agents: Vec<String> = Vec::new();
    for part in text.split(',') {
        let is_key = part.split_once('=').is_some_and(|(key, _)| {
            key != "cmd"
                && !key.is_empty()
                && key.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        });
        match agents.last_mut() {
            Some(last) if is_key => {
                last.push(',');
                last.push_str(part);
            }
            _ => agents.push(part.to_string()),
        }
    }
    agents
}

/// A key given twice in one spec, as agent files refuse it.
fn twice(key: &str, first: &str, second: &str) -> String {
    format!("`{key}` is given twice ({key}={first} and {key}={second}): give each key once")
}

/// The forms, for messages.
const FORMS: &str = "give a roster name, KIND[:KEY=VALUE,...], NAME:KEY=VALUE,..., \
                     cmd=COMMAND or a path to an agent file (.toml)";

fn agent_file(path: &Path) -> Result<NamedAgent, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("cannot read it: {e}"))?;
    let spec = parse_agent(path, &text).map_err(|e| e.to_string())?;
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("agent");
    Ok(NamedAgent {
        name: safe_name(stem),
        spec,
    })
}

fn external(text: &str) -> Result<NamedAgent, String> {
    let mut command = String::new();
    let mut table = toml::Table::new();
    table.insert("kind".into(), "external".into());
    let mut words = vec!["cmd".to_string()];
    for (i, part) in text.split(',').enumerate() {
        let option = part
            .split_once('=')
            .filter(|(key, _)| i > 0 && key.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
        match option {
            Some((key, value)) => {
                if !EXTERNAL_KEYS.contains(&key) {
                    return Err(unknown_key(key, "cmd=", &EXTERNAL_KEYS));
                }
                if let Some(first) = table.get(key) {
                    return Err(twice(key, &first.to_string(), value));
                }
                table.insert(key.into(), scalar(value));
                words.push(format!("{key}{value}"));
            }
            None if i == 0 => command.push_str(part),
            None => {
                command.push(',');
                command.push_str(part);
            }
        }
    }
    let argv = split_words(&command)?;
    if argv.is_empty() {
        return Err("cmd= needs a command, e.g. cmd=python3 agents/examples/random.py".into());
    }
    words.splice(1..1, argv.iter().cloned());
    table.insert(
        "command".into(),
        toml::Value::Array(argv.into_iter().map(toml::Value::from).collect()),
    );
    let spec = check_table(table).map_err(|p| describe(p, "external"))?;
    Ok(NamedAgent {
        name: safe_name(&words.join("-")),
        spec,
    })
}

/// Words split at spaces, `'...'` and `"..."` grouping.
fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(q) = quote {
        return Err(format!("the command has an unclosed {q}"));
    }
    words.extend(word);
    Ok(words)
}

fn to_table(spec: &crate::agents::spec::AgentSpec) -> toml::Table {
    toml::Value::try_from(spec)
        .ok()
        .and_then(|v| v.as_table().cloned())
        .expect("an agent spec serialises to a table")
}

/// `value` as a TOML scalar, else as a string.
fn scalar(value: &str) -> toml::Value {
    toml::from_str::<toml::Table>(&format!("v = {value}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| value.into())
}

fn describe(problem: TableProblem, kind: &str) -> String {
    match problem {
        TableProblem::Syntax(message) => message,
        TableProblem::Field {
            field,
            problem,
            allowed,
        } => {
            let example = if field == "iterations" && problem == "is missing" {
                " (e.g. mcts:iterations=5000)"
            } else {
                ""
            };
            format!("key `{field}` of {kind} {problem}; allowed: {allowed}{example}")
        }
    }
}

fn unknown_key(key: &str, kind: &str, allowed: &[&str]) -> String {
    if allowed.is_empty() {
        return format!("unknown key `{key}`: {kind} takes no keys");
    }
    let hint = closest(key, allowed.iter().copied())
        .map(|c| format!("did you mean `{c}`? "))
        .unwrap_or_default();
    format!(
        "unknown key `{key}` for {kind}; {hint}allowed keys: {}",
        allowed.join(", ")
    )
}

fn unknown_name(name: &str, roster: &Roster) -> String {
    let names = roster.agents().iter().map(|a| a.name.as_str());
    let candidates: Vec<&str> = names.chain(kinds().iter().copied()).collect();
    let hint = closest(name, candidates.iter().copied())
        .map(|c| format!("did you mean `{c}`? "))
        .unwrap_or_default();
    let known: Vec<&str> = roster.agents().iter().map(|a| a.name.as_str()).collect();
    format!(
        "no agent named {name:?}; {hint}the roster has: {}; the kinds are: {}; {FORMS}",
        known.join(", "),
        kinds().join(", ")
    )
}

/// The candidate nearest to `word` in edit distance, if near enough to be
/// a slip (at most a third of the word's letters).
fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .map(|c| (edit_distance(word, c), c))
        .filter(|&(d, _)| d > 0 && d <= word.len().max(3) / 3)
        .min()
        .map(|(_, c)| c)
}

/// Levenshtein distance, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// `text` as a roster name: other characters become `_`, a leading `.` or
/// `-` is dropped, and a name too long keeps its start and a stable hash of
/// the whole (FNV-1a, the same on every build).
fn safe_name(text: &str) -> String {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+');
    let mapped: String = text
        .chars()
        .map(|c| if allowed(c) { c } else { '_' })
        .collect();
    let trimmed = mapped.trim_start_matches(['.', '-']);
    let name = if trimmed.is_empty() { "agent" } else { trimmed };
    if name.len() <= MAX_AGENT_NAME {
        return name.to_string();
    }
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{}-{:08x}", &name[..MAX_AGENT_NAME - 9], hash as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::spec::AgentSpec;

    fn roster() -> Roster {
        Roster::builtin()
    }

    fn parse(text: &str) -> Result<NamedAgent, String> {
        parse_agent_text(text, &roster()).map_err(|e| e.to_string())
    }

    /// `alphabeta:depth=2,depth=3` searched to depth 3 as
    /// `alphabeta-depth2-depth3`; agent files refuse duplicate keys, and so
    /// do specs.
    #[test]
    fn a_key_given_twice_in_a_spec_is_refused() {
        let err = parse("alphabeta:depth=2,depth=3").unwrap_err();
        assert!(
            err.contains("`depth` is given twice (depth=2 and depth=3)"),
            "{err}"
        );
        let err = parse("cmd=python3 a.py,move_timeout_ms=5,move_timeout_ms=6").unwrap_err();
        assert!(err.contains("`move_timeout_ms` is given twice"), "{err}");
        assert!(parse("alphabeta:depth=2").is_ok());
    }

    /// Control characters of a spec were printed raw: a newline split the
    /// error over three lines, and an escape reached the terminal.
    #[test]
    fn control_characters_of_a_spec_are_shown_escaped_on_one_line() {
        let err = parse("alpha\nbeta:\u{1b}[31mdepth=2").unwrap_err();
        assert!(!err.contains('\n') && !err.contains('\u{1b}'), "{err:?}");
        assert!(
            err.starts_with("agent `alpha\\nbeta:\\u{1b}[31mdepth=2`: "),
            "{err}"
        );
        let err = parse("alphabeta:dep\tth=2").unwrap_err();
        assert!(err.contains("dep\\tth") && !err.contains('\t'), "{err:?}");
    }

    #[test]
    fn kinds_and_keys_make_an_agent() {
        let ab = parse("alphabeta:depth=12").unwrap();
        assert_eq!(ab.name, "alphabeta-depth12");
        assert_eq!(ab.spec.to_string(), "alphabeta depth=12");
        let mcts = parse("mcts:iterations=200,exploration=0.5,rollout=greedy").unwrap();
        assert_eq!(mcts.name, "mcts-exploration0.5-iterations200-rolloutgreedy");
        assert_eq!(
            mcts.spec.to_string(),
            "mcts iterations=200 exploration=0.500 rollout=greedy rollout_cap=200"
        );
        assert_eq!(parse("greedy").unwrap().spec, AgentSpec::Greedy);
        assert_eq!(
            parse("alphabeta").unwrap().spec.to_string(),
            "alphabeta depth=8"
        );
    }

    #[test]
    fn a_roster_agent_takes_overrides() {
        let champion = parse("champion").unwrap();
        assert_eq!(champion.name, "champion");
        let lighter = parse("champion:nodes=200000").unwrap();
        assert_eq!(lighter.name, "champion-nodes200000");
        let text = lighter.spec.to_string();
        assert!(
            text.contains("nodes=200000") && text.contains("pvs"),
            "{text}"
        );
        assert_ne!(lighter.spec, champion.spec);
    }

    #[test]
    fn the_same_agent_gets_the_same_name() {
        let a = parse("mcts:iterations=9,exploration=1").unwrap();
        let b = parse("mcts:exploration=1,iterations=9").unwrap();
        assert_eq!((a.name, a.spec), (b.name, b.spec));
    }

    #[test]
    fn errors_name_the_key_and_the_closest() {
        let err = parse("mcts:iteration=5").unwrap_err();
        assert!(
            err.contains("unknown key `iteration` for mcts; did you mean `iterations`?")
                && err.contains("allowed keys: iterations, exploration"),
            "{err}"
        );
        let err = parse("mcts").unwrap_err();
        assert!(err.contains("`iterations` of mcts is missing"), "{err}");
        let err = parse("alphabeta:depth=0").unwrap_err();
        assert!(
            err.contains("`depth` of alphabeta is out of range"),
            "{err}"
        );
        let err = parse("greedy:depth=3").unwrap_err();
        assert!(err.contains("greedy takes no keys"), "{err}");
        let err = parse("champoin").unwrap_err();
        assert!(err.contains("did you mean `champion`?"), "{err}");
        assert!(parse("alphabeta:depth")
            .unwrap_err()
            .contains("not KEY=VALUE"));
        assert!(parse("").is_err());
    }

    #[test]
    fn a_command_makes_an_external_agent() {
        let agent = parse("cmd=python3 'my agent.py' --fast,move_timeout_ms=500").unwrap();
        assert_eq!(
            agent.name,
            "cmd-python3-my_agent.py---fast-move_timeout_ms500"
        );
        match agent.spec {
            AgentSpec::External {
                command,
                move_timeout_ms,
                ..
            } => {
                assert_eq!(command, ["python3", "my agent.py", "--fast"]);
                assert_eq!(move_timeout_ms, 500);
            }
            other => panic!("{other}"),
        }
        let err = parse("cmd=x,timeout=5").unwrap_err();
        assert!(err.contains("unknown key `timeout`"), "{err}");
        assert!(parse("cmd=").unwrap_err().contains("needs a command"));
        assert!(parse("cmd=a 'b").unwrap_err().contains("unclosed"));
    }

    #[test]
    fn a_list_keeps_each_agent_s_keys() {
        assert_eq!(
            split_agent_list(
                "greedy,mcts:iterations=9,exploration=1,cmd=x,move_timeout_ms=5,random"
            ),
            [
                "greedy",
                "mcts:iterations=9,exploration=1",
                "cmd=x,move_timeout_ms=5",
                "random"
            ]
        );
    }

    #[test]
    fn a_path_names_an_agent_file() {
        let path = std::env::temp_dir().join(format!("hoyito-text-{}.toml", std::process::id()));
        fs::write(&path, "kind = \"alphabeta\"\ndepth = 3").unwrap();
        let agent = parse(path.to_str().unwrap());
        fs::remove_file(&path).unwrap();
        let agent = agent.unwrap();
        assert_eq!(agent.spec.to_string(), "alphabeta depth=3");
        assert!(agent.name.starts_with("hoyito-text-"));
        assert!(parse("/nonexistent/x.toml")
            .unwrap_err()
            .contains("cannot read"));
    }

    #[test]
    fn names_are_usable_and_long_ones_are_cut_with_a_hash() {
        let long = format!("cmd={}", "a ".repeat(80));
        let name = parse(&long).unwrap().name;
        assert!(Roster::check_name(&name).is_ok(), "{name}");
        assert_eq!(name.len(), MAX_AGENT_NAME);
        assert_eq!(name, parse(&long).unwrap().name);
        assert_eq!(safe_name("./a/b c"), "_a_b_c");
    }
}
