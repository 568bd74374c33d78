//! `hoyito match A B`: a two-agent experiment from flags alone, the quick
//! question "is A stronger than B?" without writing a config file.
//!
//! The flags are turned into the text of an experiment file and read back
//! through the same parser and checks as `hoyito run CONFIG`, so a match is
//! an ordinary run in every respect: it writes its `experiment.toml`,
//! resumes, extends with a larger `--games`, and reports like any other.
//!
//! The agents are written as everywhere else (`alphabeta:depth=12`,
//! `champion:nodes=200000`, `cmd=python3 my_agent.py`, a roster name or an
//! agent file) and saved in the experiment's `[roster]`. The default results
//! directory is named after every setting that makes the experiment what it
//! is (agents, variant, board, seed, book, adjudication, SPRT), so that a
//! match with other settings never lands in another's directory; `--games`
//! is left out, so that a larger one extends the same run.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use hoyito::tournament::Experiment;
use hoyito::{NamedAgent, Variant};

use super::agent_args::agent;
use super::session::{execute, RunOutputArgs};

/// Games per match when no SPRT runs.
const DEFAULT_GAMES: u64 = 200;
/// The cap of a match decided by an SPRT.
const DEFAULT_SPRT_CAP: u64 = 20_000;

/// Arguments of `hoyito match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The first agent, whose score and Elo are given: a roster name,
    /// KIND:KEY=VALUE,... (alphabeta:depth=12, mcts:iterations=20000),
    /// NAME:KEY=VALUE,... (champion:nodes=200000), cmd=COMMAND (an external
    /// agent, e.g. 'cmd=python3 my_agent.py') or PATH.toml.
    #[arg(value_name = "AGENT")]
    agent: String,
    /// Its opponent, written the same way.
    #[arg(value_name = "OPPONENT")]
    opponent: String,
    /// Which Hoyito: i, ii or iii (ii unless given, in every command).
    #[arg(long, default_value = "ii")]
    variant: Variant,
    /// Holes per row (2 to 16).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(2..=16))]
    holes: u32,
    /// Seeds per hole at the start.
    #[arg(long, default_value_t = 4)]
    seeds: u32,
    /// Games (whole seat-swapped pairs) [default: 200; the cap with --sprt: 20000].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// An opening book (see `hoyito book`): pair k plays entry k.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Adjudicate with the endgame tables in DIR (`[adjudication]
    /// tablebase`): a game ends with the perfect-play result as soon as the
    /// board holds no more seeds than the tables cover.
    #[arg(long, value_name = "DIR")]
    tablebase: Option<PathBuf>,
    /// With --tablebase: adjudicate only won and lost results (`decided`),
    /// playing on where perfect play draws; or every result (`all`).
    #[arg(long, value_name = "RESULTS", requires = "tablebase",
          value_parser = ["all", "decided"])]
    tablebase_results: Option<String>,
    /// End a game as soon as one side has captured more than half of all
    /// seeds (`[adjudication] decided`): the winner is exact, the margin a
    /// lower bound.
    #[arg(long)]
    adjudicate_decided: bool,
    /// Stop as soon as an SPRT of H0: elo <= ELO0 against H1: elo >= ELO1 decides.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
    /// The Elo of the SPRT bounds: normalized or logistic.
    #[arg(long, default_value = "normalized", value_parser = ["normalized", "logistic"])]
    sprt_model: String,
    /// Master seed.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=i64::MAX as u64))]
    seed: u64,
    /// Worker threads, 0 = all cores.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    #[command(flatten)]
    output: RunOutputArgs,
}

/// `A,B` as two finite numbers.
fn parse_bounds(text: &str) -> Result<(f64, f64)> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let numbers: Vec<f64> = parts.iter().filter_map(|p| p.parse::<f64>().ok()).collect();
    match numbers.as_slice() {
        [elo0, elo1] if parts.len() == 2 && elo0.is_finite() && elo1.is_finite() => {
            Ok((*elo0, *elo1))
        }
        _ => bail!("--sprt {text:?}: expected two Elo bounds ELO0,ELO1 such as 0,10"),
    }
}

/// The experiment's name, which names the default results directory: the
/// two agents and every setting that changes the games (not `--games`,
/// which extends a run), with only the characters an experiment name allows.
fn match_name(args: &MatchArgs, agent: &str, opponent: &str) -> String {
    let mut name = format!(
        "{agent}-vs-{opponent}-{}-2x{}",
        args.variant.name(),
        args.holes
    );
    if args.seeds != 4 {
        name += &format!("-{}seeds", args.seeds);
    }
    name += &format!("-seed{}", args.seed);
    if let Some(book) = &args.book {
        let stem = book.file_stem().map(|s| s.to_string_lossy().into_owned());
        name += &format!("-book-{}", stem.unwrap_or_default());
    }
    if let Some(dir) = &args.tablebase {
        let leaf = dir.file_name().map(|s| s.to_string_lossy().into_owned());
        name += &format!("-tb-{}", leaf.unwrap_or_default());
        if let Some(results) = &args.tablebase_results {
            name += &format!("-{results}");
        }
    }
    if args.adjudicate_decided {
        name += "-decided";
    }
    if let Some(bounds) = &args.sprt {
        name += &format!("-sprt{}-{}", bounds.replace(',', "_"), args.sprt_model);
    }
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect::<String>()
        .trim_start_matches('.')
        .to_string()
}

/// The experiment file equivalent to the flags, but its agents (the
/// caller puts their specs in its roster).
fn experiment_text(args: &MatchArgs, agent: &NamedAgent, opponent: &NamedAgent) -> Result<String> {
    let mut doc = toml::Table::new();
    doc.insert(
        "name".into(),
        match_name(args, &agent.name, &opponent.name).into(),
    );
    doc.insert("seed".into(), toml_int(args.seed)?);
    let games = args.games.unwrap_or(if args.sprt.is_some() {
        DEFAULT_SPRT_CAP
    } else {
        DEFAULT_GAMES
    });
    doc.insert("games".into(), toml_int(games)?);
    doc.insert("threads".into(), toml_int(args.threads as u64)?);
    let mut rules = toml::Table::new();
    rules.insert(
        "variants".into(),
        toml::Value::Array(vec![args.variant.name().into()]),
    );
    rules.insert(
        "holes".into(),
        toml::Value::Array(vec![toml_int(u64::from(args.holes))?]),
    );
    rules.insert("seeds".into(), toml_int(u64::from(args.seeds))?);
    doc.insert("rules".into(), rules.into());
    if let Some(book) = &args.book {
        let mut openings = toml::Table::new();
        let path = book
            .to_str()
            .with_context(|| format!("--book {}: not a UTF-8 path", book.display()))?;
        openings.insert("book".into(), path.into());
        doc.insert("openings".into(), openings.into());
    }
    let mut tournament = toml::Table::new();
    tournament.insert("format".into(), "round-robin".into());
    tournament.insert(
        "agents".into(),
        toml::Value::Array(vec![
            agent.name.as_str().into(),
            opponent.name.as_str().into(),
        ]),
    );
    doc.insert("tournament".into(), tournament.into());
    if args.tablebase.is_some() || args.adjudicate_decided {
        let mut adjudication = toml::Table::new();
        if let Some(dir) = &args.tablebase {
            let path = dir
                .to_str()
                .with_context(|| format!("--tablebase {}: not a UTF-8 path", dir.display()))?;
            adjudication.insert("tablebase".into(), path.into());
        }
        if let Some(results) = &args.tablebase_results {
            adjudication.insert("tablebase_results".into(), results.as_str().into());
        }
        if args.adjudicate_decided {
            adjudication.insert("decided".into(), true.into());
        }
        doc.insert("adjudication".into(), adjudication.into());
    }
    if let Some(bounds) = &args.sprt {
        let (elo0, elo1) = parse_bounds(bounds)?;
        let mut sprt = toml::Table::new();
        sprt.insert("elo0".into(), elo0.into());
        sprt.insert("elo1".into(), elo1.into());
        sprt.insert("model".into(), args.sprt_model.as_str().into());
        doc.insert("sprt".into(), sprt.into());
    }
    Ok(toml::to_string(&doc).expect("a table of plain values serialises"))
}

fn toml_int(value: u64) -> Result<toml::Value> {
    let value = i64::try_from(value).with_context(|| format!("{value} is too large"))?;
    Ok(toml::Value::Integer(value))
}

/// Runs `hoyito match`.
pub fn run_match(args: MatchArgs) -> Result<()> {
    let roster = args.output.agents.roster()?;
    let first = agent(&args.agent, &roster, "the first agent")?;
    let second = agent(&args.opponent, &roster, "the opponent")?;
    if first.name == second.name {
        bail!(
            "a match needs two different agents (for {} against itself, run a self-play \
             experiment: `[tournament] format = \"self-play\"`)",
            first.name
        );
    }
    let label = "hoyito match";
    let text = experiment_text(&args, &first, &second)?;
    let mut experiment = Experiment::parse(&text, label)?;
    // The agents go in as the typed specs their flags were read into, not
    // written out as TOML and read again.
    for named in [first, second] {
        experiment.roster.insert(named.name, named.spec);
    }
    experiment.round_to_pairs();
    experiment.resolve_agents(label, || Ok(roster))?;
    execute(
        args.output.plan(experiment, label.to_string(), None),
        args.output.report_every,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sprt_bounds_are_two_numbers() {
        assert_eq!(parse_bounds("0,10").unwrap(), (0.0, 10.0));
        assert_eq!(parse_bounds("-5, 2.5").unwrap(), (-5.0, 2.5));
        for bad in ["", "0", "0,10,20", "a,b", "0,inf", "0;10"] {
            assert!(parse_bounds(bad).is_err(), "{bad}");
        }
    }

    fn args(extra: &[&str]) -> MatchArgs {
        #[derive(clap::Parser)]
        struct Wrap {
            #[command(flatten)]
            args: MatchArgs,
        }
        let words = ["hoyito", "greedy", "random"].iter().chain(extra);
        <Wrap as clap::Parser>::try_parse_from(words).unwrap().args
    }

    #[test]
    fn the_name_keeps_to_the_allowed_characters() {
        assert_eq!(
            match_name(&args(&[]), "greedy", "alphabeta-d8"),
            "greedy-vs-alphabeta-d8-ii-2x6-seed1"
        );
        assert_eq!(match_name(&args(&[]), "a+b", "c"), "a_b-vs-c-ii-2x6-seed1");
    }

    /// The name follows every setting but the game count, so that a III
    /// match after a II one goes to its own directory, not to the II one's
    /// runs/A-vs-B (where it would be refused).
    #[test]
    fn the_name_follows_every_setting_but_games() {
        let name = |extra: &[&str]| match_name(&args(extra), "a", "b");
        let base = name(&[]);
        assert_eq!(name(&["--games", "1000"]), base);
        let mut seen = vec![base];
        for extra in [
            &["--variant", "iii"][..],
            &["--holes", "5"],
            &["--seeds", "3"],
            &["--seed", "2"],
            &["--book", "books/x.txt"],
            &["--tablebase", "tables/ii-6"],
            &["--adjudicate-decided"],
            &["--sprt", "0,10"],
        ] {
            let other = name(extra);
            assert!(!seen.contains(&other), "{extra:?}: {other}");
            seen.push(other);
        }
    }
}
