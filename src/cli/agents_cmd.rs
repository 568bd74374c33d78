//! `agents`: shows the roster, so that a user sees what can be put in a
//! tournament and with which parameters: one entry per distinct agent (names
//! of identical agents listed together), each with what it is and, where
//! reports/strength.md measured it, how strong it is.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use hoyito::{builtin_agent_text, AgentNotes, AgentSpec, NamedAgent, Roster};

/// Arguments of `hoyito agents`.
#[derive(Debug, Args)]
pub struct AgentsArgs {
    /// The roster: one NAME.toml per agent, listed with the shipped agents
    /// that it does not replace (`--dir` is the old spelling) [default:
    /// ./agents when it exists, else the shipped roster alone].
    #[arg(long, value_name = "DIR", alias = "dir")]
    agents_dir: Option<PathBuf>,
}

/// One entry of the listing: the names of one agent.
struct Entry<'a> {
    names: Vec<&'a str>,
    spec: &'a AgentSpec,
}

/// The agents grouped by spec, in the order of their first name.
fn entries(agents: &[NamedAgent]) -> Vec<Entry<'_>> {
    let mut entries: Vec<Entry<'_>> = Vec::new();
    for agent in agents {
        match entries.iter_mut().find(|e| *e.spec == agent.spec) {
            Some(entry) => entry.names.push(&agent.name),
            None => entries.push(Entry {
                names: vec![&agent.name],
                spec: &agent.spec,
            }),
        }
    }
    entries
}

/// The notes of agent `name`: its file in `dir` if there is one, else the
/// shipped file's; `true` when it is the shipped agent.
fn notes(dir: Option<&Path>, name: &str) -> (AgentNotes, bool) {
    let own = dir.and_then(|d| std::fs::read_to_string(d.join(format!("{name}.toml"))).ok());
    match own {
        Some(text) => (AgentNotes::of(&text), false),
        None => (
            builtin_agent_text(name).map_or_else(AgentNotes::default, AgentNotes::of),
            true,
        ),
    }
}

/// `hoyito agents`.
pub fn agents(args: AgentsArgs) -> Result<()> {
    let roster = Roster::with_builtin(args.agents_dir.as_deref())?;
    let default = Path::new("agents");
    let dir = args
        .agents_dir
        .as_deref()
        .or_else(|| default.is_dir().then_some(default));
    for entry in entries(roster.agents()) {
        let (notes, shipped) = notes(dir, entry.names[0]);
        let mut tags = String::new();
        if shipped && dir.is_some() {
            tags += "  [shipped]";
        }
        if !entry.spec.reproducible() {
            tags += "  [not reproducible]";
        }
        if entry.spec.deterministic() {
            tags += "  [deterministic]";
        }
        println!("{}  {}{tags}", entry.names.join(", "), entry.spec);
        if let Some(about) = notes.about {
            println!("    {about}");
        }
        if let Some(strength) = notes.strength {
            println!("    strength: {strength}");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_agents_are_one_entry() {
        let roster = Roster::builtin();
        let listed = entries(roster.agents());
        let champion = listed
            .iter()
            .find(|e| e.names.contains(&"champion"))
            .expect("the champion is listed");
        assert_eq!(champion.names, ["champion", "champion-2x6"]);
        assert!(listed.len() < roster.agents().len());
    }
}
