//! The shipped roster, compiled into the binary, so that a named agent such
//! as `greedy` or `champion` can be played from any directory and beside an
//! `--agents-dir` of one's own: a name is looked up in that directory first,
//! then here (see [`Roster::with_builtin`]).
//!
//! The files are `agents/*.toml` as shipped; a test checks that this list
//! and the directory agree.

use std::path::Path;

use crate::agents::roster::{parse_agent, NamedAgent, Roster, RosterError};

/// Each shipped agent file: its name and its text.
const FILES: &[(&str, &str)] = &[
    (
        "alphabeta-1m",
        include_str!("../../agents/alphabeta-1m.toml"),
    ),
    (
        "alphabeta-d16",
        include_str!("../../agents/alphabeta-d16.toml"),
    ),
    (
        "alphabeta-d4",
        include_str!("../../agents/alphabeta-d4.toml"),
    ),
    (
        "alphabeta-d8",
        include_str!("../../agents/alphabeta-d8.toml"),
    ),
    (
        "champion-2x12",
        include_str!("../../agents/champion-2x12.toml"),
    ),
    (
        "champion-2x6",
        include_str!("../../agents/champion-2x6.toml"),
    ),
    (
        "champion-diverse-4",
        include_str!("../../agents/champion-diverse-4.toml"),
    ),
    (
        "champion-diverse-4m",
        include_str!("../../agents/champion-diverse-4m.toml"),
    ),
    (
        "champion-diverse",
        include_str!("../../agents/champion-diverse.toml"),
    ),
    ("champion", include_str!("../../agents/champion.toml")),
    ("greedy", include_str!("../../agents/greedy.toml")),
    ("mcts-5k", include_str!("../../agents/mcts-5k.toml")),
    ("py-greedy", include_str!("../../agents/py-greedy.toml")),
    ("py-random", include_str!("../../agents/py-random.toml")),
    ("random", include_str!("../../agents/random.toml")),
    ("tablebase-8", include_str!("../../agents/tablebase-8.toml")),
    (
        "tuned-i-2x12",
        include_str!("../../agents/tuned-i-2x12.toml"),
    ),
    ("tuned-i-2x6", include_str!("../../agents/tuned-i-2x6.toml")),
    (
        "tuned-ii-2x12",
        include_str!("../../agents/tuned-ii-2x12.toml"),
    ),
    (
        "tuned-ii-2x6",
        include_str!("../../agents/tuned-ii-2x6.toml"),
    ),
    (
        "tuned-iii-2x12",
        include_str!("../../agents/tuned-iii-2x12.toml"),
    ),
    (
        "tuned-iii-2x6",
        include_str!("../../agents/tuned-iii-2x6.toml"),
    ),
];

/// The shipped agents, each with the text of its file (for its comments).
pub(crate) fn builtin_files() -> &'static [(&'static str, &'static str)] {
    FILES
}

impl Roster {
    /// The shipped roster (`agents/*.toml` as compiled in).
    pub fn builtin() -> Roster {
        let agents = FILES
            .iter()
            .map(|(name, text)| NamedAgent {
                name: (*name).to_string(),
                spec: parse_agent(Path::new(&format!("agents/{name}.toml")), text)
                    .expect("the shipped agent files are checked by the tests"),
            })
            .collect();
        Roster::from_agents(agents)
    }

    /// The agents of `dir` (every file checked as [`Roster::load`] does),
    /// then the shipped agents whose names `dir` does not use. Without `dir`:
    /// `./agents` when that directory exists, else the shipped roster alone.
    pub fn with_builtin(dir: Option<&Path>) -> Result<Roster, RosterError> {
        let default = Path::new("agents");
        let own = match dir {
            Some(dir) => Roster::load(dir)?,
            None if default.is_dir() => Roster::load(default)?,
            None => Roster::default(),
        };
        let mut agents = own.agents().to_vec();
        for shipped in Roster::builtin().agents() {
            if !agents.iter().any(|a| a.name == shipped.name) {
                agents.push(shipped.clone());
            }
        }
        Ok(Roster::from_agents(agents))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_roster_is_the_shipped_directory() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("agents");
        assert_eq!(Roster::builtin(), Roster::load(&dir).unwrap());
    }

    #[test]
    fn an_agents_dir_comes_first_and_the_shipped_agents_stay_reachable() {
        let dir = std::env::temp_dir().join(format!("hoyito-builtin-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("greedy.toml"), "kind = \"random\"").unwrap();
        std::fs::write(dir.join("mine.toml"), "kind = \"alphabeta\"\ndepth = 2").unwrap();
        let roster = Roster::with_builtin(Some(&dir)).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(roster.get("greedy").unwrap().spec.kind(), "random");
        assert_eq!(roster.get("mine").unwrap().spec.kind(), "alphabeta");
        assert!(roster.get("champion").is_ok());
        let missing = Roster::with_builtin(Some(Path::new("/nonexistent/hoyito-agents")));
        assert!(missing.is_err());
    }
}
