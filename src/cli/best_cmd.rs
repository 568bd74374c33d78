//! `hoyito best`: ask one agent for its move in a position, the
//! equivalent of a UCI `go`. It prints what the agent can say about its search
//! (depth, score, nodes, principal variation for alpha-beta; the move alone for
//! agents that report nothing yet) and, as its last line, `move M`.

use anyhow::{bail, Context, Result};
use clap::Args;
use hoyito::{analyse, prepare_tables, AgentRng, Game, Position, Rules, Variant};
use rand::SeedableRng;

use super::agent_args::{agent, AgentsDirArg};
use super::agent_memory::check_agents_memory;

/// Arguments of `hoyito best`.
#[derive(Debug, Args)]
pub struct BestArgs {
    /// The agent to ask: a roster name, KIND:KEY=VALUE,..., NAME:KEY=VALUE,...,
    /// cmd=COMMAND or PATH.toml.
    #[arg(long, value_name = "AGENT")]
    agent: String,
    /// Position in the notation of RULES.md, e.g. "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0".
    #[arg(long, short = 'p')]
    position: String,
    /// Which Hoyito: i, ii or iii (ii unless given, in every command).
    #[arg(long, default_value = "ii")]
    variant: Variant,
    /// Holes per row: checked against the position when given (the position
    /// sets the board).
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=16))]
    holes: Option<u32>,
    /// Seeds the agent's random generator: the same seed gives the same answer.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    agents_dir: AgentsDirArg,
}

/// `hoyito best`.
pub fn best(args: BestArgs) -> Result<()> {
    let pos: Position = args
        .position
        .parse()
        .with_context(|| format!("bad position {:?}", args.position))?;
    if let Some(holes) = args.holes {
        if holes != u32::from(pos.holes()) {
            bail!(
                "position {:?} has {} holes per row, but --holes is {holes}",
                args.position,
                pos.holes()
            );
        }
    }
    let rules = Rules {
        holes: pos.holes(),
        ..Rules::new(args.variant)
    };
    let game = Game::from_position(rules, pos);
    if game.is_over() {
        bail!("the game is over in position {pos}: there is no move to choose");
    }
    let roster = args.agents_dir.roster()?;
    let named = agent(&args.agent, &roster, "--agent")?;
    let (name, spec) = (&named.name, &named.spec);
    let what = format!("agent {name}");
    check_agents_memory(&what, &[(spec, 1)], rules.holes, 1)
        .with_context(|| format!("--agent {name}"))?;
    prepare_tables(spec, &rules).with_context(|| format!("--agent {name}"))?;
    let mut rng = AgentRng::seed_from_u64(args.seed);
    let analysis = analyse(spec, &game, &mut rng).with_context(|| format!("--agent {name}"))?;
    println!("agent {name} ({spec})");
    println!("position {pos}");
    for line in &analysis.lines {
        println!("{line}");
    }
    println!("move {}", analysis.mv);
    Ok(())
}
