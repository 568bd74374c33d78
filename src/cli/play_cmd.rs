//! `hoyito play`: a person plays an agent on the terminal. The flags are
//! resolved into the library's [`PlaySetup`] and the session runs over standard
//! input and output.

use std::io::{self, IsTerminal};

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use hoyito::human::{play_session, HintAgent, PlaySetup, Player};
use hoyito::{analyse, prepare_tables, Rules, Side, Variant};

use super::agent_args::{agent, AgentsDirArg};
use super::agent_memory::check_agents_memory;

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
    /// Which Hoyito: i, ii or iii (ii unless given, in every command).
    #[arg(long, default_value = "ii")]
    variant: Variant,
    /// Holes per row (2 to 16).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(2..=16))]
    holes: u32,
    /// Seeds per hole at the start.
    #[arg(long, default_value_t = 4)]
    seeds: u32,
    /// The agent to play against: a roster name, KIND:KEY=VALUE,...,
    /// NAME:KEY=VALUE,..., cmd=COMMAND or PATH.toml.
    #[arg(long, value_name = "AGENT", default_value = "greedy")]
    vs: String,
    /// Your seat: south (moves first) or north.
    #[arg(
        long = "as",
        value_enum,
        default_value = "south",
        hide_possible_values = true
    )]
    seat: Seat,
    /// The agent that answers `hint`, written as --vs is; it gives its move,
    /// and the score and expected line where it searches [default: alphabeta-d16, the
    /// strongest of the shipped roster, up to 6 holes per row; alphabeta-d8 on
    /// larger boards, where 16 plies are too slow to wait for].
    #[arg(long, value_name = "AGENT")]
    hint_agent: Option<String>,
    /// Seeds the agents' random generators: the same seed and entries give the same game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    agents_dir: AgentsDirArg,
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
    let roster = args.agents_dir.roster()?;
    let hint_text = args
        .hint_agent
        .as_deref()
        .unwrap_or(default_hint_agent(args.holes));
    // The opponent and the hint agent are held at once.
    let vs = agent(&args.vs, &roster, "--vs")?;
    let hint = agent(hint_text, &roster, "--hint-agent")?;
    let what = format!("--vs {} with --hint-agent {}", vs.name, hint.name);
    check_agents_memory(&what, &[(&vs.spec, 1), (&hint.spec, 1)], rules.holes, 1)?;
    prepare_tables(&vs.spec, &rules).with_context(|| format!("--vs {}", vs.name))?;
    prepare_tables(&hint.spec, &rules).with_context(|| format!("--hint-agent {}", hint.name))?;
    let opponent = Player {
        agent: vs.spec.build(),
        name: vs.name,
    };
    let hint_spec = hint.spec;
    let hint = HintAgent {
        name: hint.name,
        ask: Box::new(move |game, rng| {
            analyse(&hint_spec, game, rng)
                .map(|a| (a.mv, a.lines))
                .map_err(|e| e.to_string())
        }),
    };
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
