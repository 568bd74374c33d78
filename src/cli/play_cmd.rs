//! `hoyito play`: a person plays a roster agent on the terminal. The flags are
//! resolved into the library's [`PlaySetup`] and the session runs over standard
//! input and output.

use std::io::{self, IsTerminal};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use hoyito::human::{play_session, PlaySetup, Player};
use hoyito::{prepare_tables, Roster, Rules, Side, Variant};

/// The agent that answers `hint` unless `--hint-agent` names another: the
/// strongest agent of the shipped roster on Hoyito II 2x6 (configs/ladder.toml),
/// on boards of up to 6 holes per row.
const DEFAULT_HINT_AGENT: &str = "alphabeta-d16";
/// The default hint agent on larger boards, where 16 plies take half a minute
/// a move (measured on 2x12): an answer within a second.
const DEFAULT_HINT_AGENT_LARGE: &str = "alphabeta-d8";
/// The largest board, in holes per row, that gets [`DEFAULT_HINT_AGENT`].
const DEEP_HINT_MAX_HOLES: u32 = 6;

/// A seat, as typed.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Seat {
    /// The near row; moves first.
    South,
    /// The far row.
    North,
}

/// Arguments of `hoyito play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Which Hoyito: i, ii or iii.
    #[arg(long, default_value = "ii")]
    variant: Variant,
    /// Holes per row (2 to 16).
    #[arg(long, default_value_t = 6)]
    holes: u32,
    /// Seeds per hole at the start.
    #[arg(long, default_value_t = 4)]
    seeds: u32,
    /// The agent to play against (roster name).
    #[arg(long, default_value = "greedy")]
    vs: String,
    /// Your seat: south (moves first) or north.
    #[arg(long = "as", value_enum, default_value = "south")]
    seat: Seat,
    /// The agent that answers `hint` (roster name) [default: alphabeta-d16, the
    /// strongest of the shipped roster, up to 6 holes per row; alphabeta-d8 on
    /// larger boards, where 16 plies are too slow to wait for].
    #[arg(long)]
    hint_agent: Option<String>,
    /// Seeds the agents' random generators: the same seed and entries give the same game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The roster: one TOML file per agent.
    #[arg(long, default_value = "agents")]
    agents_dir: PathBuf,
}

/// The hint agent for a board of `holes` holes per row.
fn default_hint_agent(holes: u32) -> &'static str {
    if holes <= DEEP_HINT_MAX_HOLES {
        DEFAULT_HINT_AGENT
    } else {
        DEFAULT_HINT_AGENT_LARGE
    }
}

/// Runs `hoyito play`.
pub fn play(args: PlayArgs) -> Result<()> {
    let rules = Rules::new(args.variant).with_board(args.holes, args.seeds)?;
    let roster = Roster::load(&args.agents_dir)?;
    let hint_name = args
        .hint_agent
        .as_deref()
        .unwrap_or(default_hint_agent(args.holes));
    let player = |name: &str, role: &str| -> Result<Player> {
        let spec = &roster.get(name).with_context(|| role.to_string())?.spec;
        prepare_tables(spec, &rules).with_context(|| format!("{role} {name}"))?;
        Ok(Player {
            name: name.to_string(),
            agent: spec.build(),
        })
    };
    let opponent = player(&args.vs, "--vs")?;
    let hint = player(hint_name, "--hint-agent")?;
    let setup = PlaySetup {
        rules,
        human: match args.seat {
            Seat::South => Side::South,
            Seat::North => Side::North,
        },
        opponent,
        hint,
        seed: args.seed,
        echo: !io::stdin().is_terminal(),
    };
    play_session(setup, &mut io::stdin().lock(), &mut io::stdout().lock())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deep_hint_is_kept_to_boards_where_it_answers_at_once() {
        assert_eq!(default_hint_agent(4), "alphabeta-d16");
        assert_eq!(default_hint_agent(6), "alphabeta-d16");
        assert_eq!(default_hint_agent(7), "alphabeta-d8");
        assert_eq!(default_hint_agent(12), "alphabeta-d8");
    }
}
