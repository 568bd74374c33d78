//! `apply`, `perft` and `show`: the engine on one position, for people and for
//! checking the engine against other implementations.

use anyhow::{bail, Context, Result};
use clap::Args;
use hoyito::{describe_step, diagram, perft as count_perft, Move, Position, Rules, Trace, Variant};

/// Where a position and a variant come from.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// Position in the notation of RULES.md, e.g. "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0".
    #[arg(long, short = 'p')]
    position: String,
}

impl PositionArgs {
    fn parse(&self) -> Result<Position> {
        self.position
            .parse()
            .with_context(|| format!("bad position {:?}", self.position))
    }
}

/// Arguments of `hoyito apply`.
#[derive(Debug, Args)]
pub struct ApplyArgs {
    /// Which Hoyito: i, ii or iii (ii unless given, in every command).
    #[arg(long, default_value = "ii")]
    variant: Variant,
    #[command(flatten)]
    position: PositionArgs,
    /// Print every step of every move (laps, captures, extra moves) first.
    #[arg(long)]
    trace: bool,
    /// Moves: hole numbers 1..n of the side to move, or `pass`.
    moves: Vec<String>,
}

/// Arguments of `hoyito perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Which Hoyito: i, ii or iii (ii unless given, in every command).
    #[arg(long, default_value = "ii")]
    variant: Variant,
    #[command(flatten)]
    position: PositionArgs,
    /// Depth in plies; any depth is accepted. Perft ignores the stall rules (the
    /// no-capture limit and repetitions): a position that cycles is counted
    /// again on every pass round its cycle, so its count never stops by itself
    /// (two seeds on 2x2 give 1 at every depth).
    #[arg(long, short = 'd')]
    depth: u32,
    /// Print the count below each legal move first.
    #[arg(long)]
    divide: bool,
}

/// Arguments of `hoyito show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    #[command(flatten)]
    position: PositionArgs,
}

/// Rules for a position given by hand: the variant, and the position's board.
fn rules_for(variant: Variant, pos: &Position) -> Rules {
    Rules {
        holes: pos.holes(),
        ..Rules::new(variant)
    }
}

/// Reads a move written on the command line, checking the hole number against
/// the board so that the message names the real range.
fn read_move(text: &str, pos: &Position) -> Result<Move> {
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    // Digits only, as counts are read: `+3` and `-1` are refused like `+4`.
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    let Some(number) = digits.then(|| text.parse::<u64>().ok()).flatten() else {
        bail!("cannot read move {text:?}: expected a hole number or \"pass\"");
    };
    let n = pos.holes() as u64;
    if !(1..=n).contains(&number) {
        bail!(
            "hole {number} is out of range: {}'s holes are 1..{n}",
            pos.side_to_move()
        );
    }
    Ok(Move::Sow(number as u8 - 1))
}

/// `hoyito apply`.
pub fn apply(args: ApplyArgs) -> Result<()> {
    let mut pos = args.position.parse()?;
    let rules = rules_for(args.variant, &pos);
    for (k, text) in args.moves.iter().enumerate() {
        let context = || format!("move {} ({text:?}) from {pos}", k + 1);
        let mv = read_move(text, &pos).with_context(context)?;
        let mut trace = Trace::new();
        let (next, _) = pos
            .play_traced(&rules, mv, &mut trace)
            .with_context(context)?;
        if args.trace {
            println!("{} plays {mv}:", pos.side_to_move());
            for step in &trace {
                println!("  {}", describe_step(step, pos.holes()));
            }
            println!("  -> {next}");
        }
        pos = next;
    }
    println!("{pos}");
    Ok(())
}

/// `hoyito perft`.
pub fn perft(args: PerftArgs) -> Result<()> {
    let pos = args.position.parse()?;
    let rules = rules_for(args.variant, &pos);
    if args.divide && args.depth > 0 {
        let mut total = 0;
        pos.for_each_child(&rules, |mv, child, _| {
            let n = count_perft(&child, &rules, args.depth - 1);
            total += n;
            println!("{mv}: {n}");
        });
        println!("{total}");
    } else {
        println!("{}", count_perft(&pos, &rules, args.depth));
    }
    Ok(())
}

/// `hoyito show`.
pub fn show(args: ShowArgs) -> Result<()> {
    let pos = args.position.parse()?;
    println!("{}", diagram(&pos));
    println!("{pos}");
    Ok(())
}
