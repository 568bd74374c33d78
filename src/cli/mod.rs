//! Command-line parsing and dispatch. Raw flags are parsed here, then turned into
//! the library's objects; every error leaves as one line on standard error with
//! a non-zero exit.

mod accuracy_cmd;
mod agent_args;
mod agent_memory;
mod agents_cmd;
mod bench_cmd;
mod best_cmd;
mod book_cmd;
mod export_cmd;
mod interrupt;
mod known_starts;
mod live;
mod match_cmd;
mod merge_cmd;
mod outcome_cmd;
mod play_cmd;
mod position_cmds;
mod progress;
mod replay_cmd;
mod report_cmd;
mod run_cmd;
mod session;
mod skill_cmd;
mod solve_cmd;
mod solve_start;
mod start_values;
mod table_dir;
mod tune_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Plays, studies and solves the Dominican mancala games Hoyito I, II and III.
#[derive(Debug, Parser)]
#[command(name = "hoyito", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the agents of the roster: name, kind and parameters.
    Agents(agents_cmd::AgentsArgs),
    /// Play moves from a position and print the resulting position (last line).
    Apply(position_cmds::ApplyArgs),
    /// Count move sequences to a depth (the perft of RULES.md; last line).
    Perft(position_cmds::PerftArgs),
    /// Draw a position as the players see it.
    Show(position_cmds::ShowArgs),
    /// Run an experiment (default: the built-in one) into a results directory.
    Run(run_cmd::RunArgs),
    /// Join the shard directories of `run --shard K/N` into the single run's results.
    Merge(merge_cmd::MergeArgs),
    /// Play an agent yourself on the terminal (undo, hint, quit).
    Play(play_cmd::PlayArgs),
    /// Play two agents against each other from flags alone (optionally until an SPRT decides).
    Match(match_cmd::MatchArgs),
    /// Replay one game of a run, drawing the board after every move.
    Replay(replay_cmd::ReplayArgs),
    /// Write a run's games as PGN (South = White), for Ordo or BayesElo.
    Export(export_cmd::ExportArgs),
    /// Redraw summary.json, report.md and the charts from DIR/games.csv.
    Report(report_cmd::ReportArgs),
    /// What a deeper search is worth on each board, from ladder runs: Elo per rung, skill chain, SkillTrace.
    Skill(skill_cmd::SkillArgs),
    /// Build endgame tables by retrograde analysis.
    Solve(solve_cmd::SolveArgs),
    /// Print a position's exact value and best moves from the tables.
    Probe(solve_cmd::ProbeArgs),
    /// Check a proof certificate with the move generator and the tables alone
    VerifyProof(outcome_cmd::VerifyProofArgs),
    /// Count the positions of a layer where someone can force the next capture.
    Captures(solve_cmd::CapturesArgs),
    /// The standard start's value under search at rising depth, per board, with charts.
    StartValues(start_values::StartValuesArgs),
    /// Write an opening book: distinct balanced positions after random plies.
    Book(book_cmd::BookArgs),
    /// Learn an evaluation from an agent's self-play games and write an agent file with it.
    Tune(tune_cmd::TuneArgs),
    /// Ask an agent for its move in a position, with its search information.
    Best(best_cmd::BestArgs),
    /// Score agents' moves against perfect play (the share of best moves, the seeds lost).
    Accuracy(accuracy_cmd::AccuracyArgs),
    /// Measure plies per second per variant and board: the engine's floor and the whole harness
    Bench(bench_cmd::BenchArgs),
}

/// A closed stdout (`hoyito agents | head -1`, `| true`) ends the process
/// quietly, as it ends every Unix tool: `println!` reports the closed pipe
/// by panicking with "failed printing to stdout: Broken pipe", and this hook
/// turns exactly that panic into exit status 141 (128 + SIGPIPE, what a
/// shell shows for a tool the closed pipe stopped) with nothing on stderr.
/// SIGPIPE itself stays ignored, so that an external agent that dies still
/// shows as a failed write (a forfeit), not as the harness's own death.
/// Under `ulimit -f`, a write past the limit sends SIGXFSZ, whose default
/// kills the process with no word (exit 153) and leaves its temporaries.
/// Ignored, the write fails with EFBIG instead ("File too large"), which
/// every write already reports as the error it is, as a full disk is.
fn file_size_limit_as_error() {
    // SAFETY: setting a signal's disposition to SIG_IGN has no handler to
    // run and is async-signal-safe; done once, before any thread starts.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}

/// The messages of an error's chain, each once: an error whose message
/// already ends with its cause's (`the agent gave no move: forfeit (crash):
/// ...` over the forfeit itself) does not repeat the cause (so `best` prints
/// a forfeit's text once, not twice).
fn error_lines(err: &anyhow::Error) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if lines.last().is_some_and(|last| last.ends_with(&text)) {
            continue;
        }
        lines.push(text);
    }
    lines
}

/// Runs the command line and turns errors into one line and exit status 1.
pub fn main() -> ExitCode {
    quiet_on_closed_stdout();
    file_size_limit_as_error();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) if err.use_stderr() => {
            // One line naming the problem; clap's usage block stays behind --help.
            let text = err.to_string();
            let first: Vec<&str> = text
                .lines()
                .take_while(|line| !line.trim().is_empty())
                .map(str::trim)
                .collect();
            eprintln!("{} (see --help)", first.join(" "));
            return ExitCode::from(2);
        }
        Err(err) => {
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
    };
    let result = match cli.command {
        Command::Agents(args) => agents_cmd::agents(args),
        Command::Apply(args) => position_cmds::apply(args),
        Command::Perft(args) => position_cmds::perft(args),
        Command::Show(args) => position_cmds::show(args),
        Command::Run(args) => run_cmd::run(args),
        Command::Match(args) => match_cmd::run_match(args),
        Command::Merge(args) => merge_cmd::merge(args),
        Command::Play(args) => play_cmd::play(args),
        Command::Replay(args) => replay_cmd::replay(args),
        Command::Export(args) => export_cmd::export(args),
        Command::Report(args) => report_cmd::report(args),
        Command::Skill(args) => skill_cmd::skill(args),
        Command::Solve(args) => solve_cmd::solve(args),
        Command::StartValues(args) => start_values::start_values(args),
        Command::Probe(args) => solve_cmd::probe(args),
        Command::VerifyProof(args) => outcome_cmd::verify_proof(args),
        Command::Captures(args) => solve_cmd::captures(args),
        Command::Book(args) => book_cmd::book(args),
        Command::Tune(args) => tune_cmd::tune_cmd(args),
        Command::Best(args) => best_cmd::best(args),
        Command::Accuracy(args) => accuracy_cmd::accuracy(args),
        Command::Bench(args) => bench_cmd::bench(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if err.downcast_ref::<interrupt::Interrupted>().is_some() => {
            eprintln!("{err}");
            ExitCode::from(130)
        }
        Err(err) => {
            // One line per problem: a config with several invalid keys
            // names them all, each on its own `error:` line.
            let chain = error_lines(&err);
            for line in chain.join(": ").lines() {
                eprintln!("error: {line}");
            }
            ExitCode::FAILURE
        }
    }
}
