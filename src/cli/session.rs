//! How `hoyito run` and `hoyito match` show a run that the library carries
//! out ([`hoyito::session`]): its warnings, a line naming what it plays, the
//! progress (shown by [`super::live`], stopped cleanly on Ctrl-C by
//! [`super::interrupt`]) and the lines that close it. Standard output
//! carries one line for scripts, the path of `games.csv`; all that a person
//! reads goes to standard error.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use hoyito::report::CHARTS;
use hoyito::session::{RunPlan, Session};
use hoyito::tournament::{Experiment, Shard, Stopped, GAMES_FILE};

use super::agent_args::AgentsDirArg;
use super::interrupt::{catch_interrupts, Interrupted};
use super::live::{progress_bar, rate_line, sprt_line, Live};

/// The flags of every command that runs an experiment (`run`, `match`):
/// where its results go and how it shows its progress.
#[derive(Debug, Args)]
pub struct RunOutputArgs {
    /// Results directory [default: runs/NAME, NAME from the experiment].
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Run into a directory that holds another experiment, deleting its results.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub agents: AgentsDirArg,
    /// Print the standings every N games (0 = only at the end) [default: about ten times a run].
    #[arg(long, value_name = "N")]
    pub report_every: Option<u64>,
    /// Play both games of a pair whose seats hold one deterministic agent,
    /// instead of recording the second from the first: the same records,
    /// twice the time (to check or time the shortcut).
    #[arg(long)]
    pub play_twins: bool,
}

impl RunOutputArgs {
    /// The plan that runs `experiment` (read from `source`), or one
    /// `shard` of it, as these flags say.
    pub fn plan(&self, experiment: Experiment, source: String, shard: Option<Shard>) -> RunPlan {
        let mut plan = RunPlan::new(experiment, source, self.out.clone(), shard);
        plan.force = self.force;
        plan.twin_shortcut = !self.play_twins;
        plan
    }
}

/// Carries out a run and shows it: every check first, then the games, then
/// the report. `report_every`: standings every this many games; `None` =
/// about ten times a run; 0 = only the final standings.
pub fn execute(plan: RunPlan, report_every: Option<u64>) -> Result<()> {
    let mut session = Session::prepare(plan)?;
    for warning in session.warnings() {
        eprintln!("warning: {warning}");
    }
    let (first, total, out) = (session.first(), session.total(), session.out().to_owned());
    if let Some(games) = session.extended_from() {
        eprintln!(
            "extending {}: from {games} to {} games per pairing, per variant, per board; \
             the {first} games recorded are kept",
            out.display(),
            session.experiment().games
        );
    }
    let every = match report_every {
        Some(n) => n,
        None => total.div_ceil(10).max(100).div_ceil(2) * 2,
    };
    let order = session.experiment().tournament.agents.clone();
    let mut live = Live {
        order: &order,
        total,
        every,
        next_report: (first / every.max(1) + 1) * every,
        bar: None,
        start: Instant::now(),
        first,
        reported: 0,
    };
    let slice = match session.shard() {
        None => String::new(),
        Some(shard) => format!(" shard {shard}:"),
    };
    eprintln!(
        "{}:{slice} {total} games ({first} done), {} threads, into {}",
        session.experiment().name,
        session.threads(),
        out.display()
    );
    let decided_before = session.decided();
    if first < total && !decided_before {
        catch_interrupts();
        // A person at the board: no progress bar over the prompt.
        if !session.has_human() {
            live.bar = progress_bar(total, first);
        }
    }
    let played = session.play(&mut live)?;
    if let Some(bar) = live.bar.take() {
        bar.finish_and_clear();
    }
    if played.stopped == Some(Stopped::Interrupted) {
        live.print_standings(session.tallies());
        return Err(Interrupted {
            done: first + played.games,
            total,
            out,
        }
        .into());
    }
    eprintln!("{}", rate_line(played.games, played.wall, decided_before));
    // The final standings, unless the last periodic ones were of every game.
    if played.games > 0 && live.reported != session.tallies().tally().games() {
        live.print_standings(session.tallies());
    }
    if let Some(tracker) = session.tallies().sprt() {
        eprintln!("{}", sprt_line(tracker, total));
    }
    let shard = session.shard();
    match (session.finish()?, shard) {
        (None, Some(shard)) => eprintln!(
            "shard {shard} complete: no report of its own; once every shard is, join them \
             with: hoyito merge OUT SHARD_DIR..."
        ),
        (None, None) => {}
        (Some(files), _) => eprintln!(
            "report: {} (and {}), {} charts in {}",
            files.html.display(),
            files.report.display(),
            files.charts.len(),
            out.join(CHARTS).display()
        ),
    }
    println!("{}", out.join(GAMES_FILE).display());
    Ok(())
}
