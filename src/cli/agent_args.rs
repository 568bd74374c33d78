//! The flag every command that names an agent shares, `--agents-dir`, and
//! the one way those commands read an agent (see
//! [`hoyito::parse_agent_text`]): a roster name is looked up in the agents
//! directory first, then in the shipped roster compiled into the binary, so
//! that `greedy` or `champion` work from any directory and beside a roster
//! of one's own.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use hoyito::{parse_agent_text, NamedAgent, Roster};

/// `--agents-dir DIR`.
#[derive(Debug, Clone, Args)]
pub struct AgentsDirArg {
    /// The roster: one NAME.toml per agent, looked up before the shipped
    /// agents (which stay reachable) [default: ./agents when it exists, else
    /// the shipped roster alone].
    #[arg(long, value_name = "DIR")]
    pub agents_dir: Option<PathBuf>,
}

impl AgentsDirArg {
    /// The agents directory's agents, then the shipped ones.
    pub fn roster(&self) -> Result<Roster> {
        Ok(Roster::with_builtin(self.agents_dir.as_deref())?)
    }
}

/// The agent that `text` names, for the flag `flag`.
pub fn agent(text: &str, roster: &Roster, flag: &str) -> Result<NamedAgent> {
    parse_agent_text(text, roster).with_context(|| flag.to_string())
}
