//! `agents`: shows the roster, so that a user sees what can be put in a
//! tournament and with which parameters.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use hoyito::Roster;

/// Arguments of `hoyito agents`.
#[derive(Debug, Args)]
pub struct AgentsArgs {
    /// The roster directory: one `<name>.toml` per agent (`run` takes the same
    /// flag; `--dir` is the old spelling).
    #[arg(long, value_name = "DIR", alias = "dir", default_value = "agents")]
    agents_dir: PathBuf,
}

/// `hoyito agents`.
pub fn agents(args: AgentsArgs) -> Result<()> {
    let roster = Roster::load(&args.agents_dir)?;
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
