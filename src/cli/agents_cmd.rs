//! `agents`: shows the roster, so that a user sees what can be put in a
//! tournament and with which parameters.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use hoyito::Roster;

/// Arguments of `hoyito agents`.
#[derive(Debug, Args)]
pub struct AgentsArgs {
    /// The roster directory: one `<name>.toml` per agent.
    #[arg(long, default_value = "agents")]
    dir: PathBuf,
}

/// `hoyito agents`.
pub fn agents(args: AgentsArgs) -> Result<()> {
    let roster = Roster::load(&args.dir)?;
    let width = roster
        .agents()
        .iter()
        .map(|a| a.name.len())
        .max()
        .unwrap_or(0);
    for agent in roster.agents() {
        let note = if agent.spec.reproducible() {
            ""
        } else {
            "  [not reproducible]"
        };
        println!("{:width$}  {}{note}", agent.name, agent.spec);
    }
    Ok(())
}
