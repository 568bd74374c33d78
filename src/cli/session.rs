//! One run of an experiment into a results directory, shared by `hoyito run`
//! and `hoyito match`: the checks before anything is written, resuming, the
//! games in parallel with live standings and an SPRT that may stop them, a
//! clean stop on Ctrl-C, and the report at the end.
//!
//! What a person sees while a run plays: on a terminal, a progress bar with
//! the standings printed above it every `--report-every` games; elsewhere
//! (a log file, CI), plain progress lines and the same standings, never
//! control characters. Ctrl-C lets the games being played finish (a second
//! Ctrl-C exits at once; the files are valid either way), prints the
//! standings so far and the command that resumes the run.
//!
//! Every row recorded is tallied, the rows a resumed run already holds
//! included, so that any standings printed (periodic, final or on Ctrl-C)
//! count the games in `games.csv`; `--report-every 0` only silences the
//! periodic ones. All that a person reads goes to standard error; standard
//! output carries one line for scripts, the path of `games.csv`.

use std::fmt;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use hoyito::openings::opening_warnings;
use hoyito::report::{
    read_games_csv, significant, sprt_summary, write_report_from_csv, write_standings, SprtLine,
    CHARTS,
};
use hoyito::stats::{Sprt, SprtDecision, Tally};
use hoyito::tournament::Adjudicator;
use hoyito::tournament::{
    append_timings, open_slice_dir, run_games, Experiment, Flow, GameRow, Lineup, RunTimes,
    Schedule, Shard, SprtTracker, Stopped, Watch, Work, GAMES_FILE, TIMINGS_FILE,
};
use hoyito::{check_human_input, prepare_tables, AgentSpec};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};

use super::agent_args::AgentsDirArg;
use super::settings_diff::check_same_settings;

/// Set by Ctrl-C (or SIGTERM): finish the games in hand and stop.
static STOP: AtomicBool = AtomicBool::new(false);

/// The flags of every command that runs an experiment (`run`, `match`):
/// where its results go and how it shows its progress.
#[derive(Debug, Args)]
pub struct RunOutputArgs {
    /// Results directory [default: runs/NAME, NAME from the experiment].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Run into a directory that holds another experiment, deleting its results.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub agents: AgentsDirArg,
    /// Print the standings every N games (0 = only at the end) [default: about ten times a run].
    #[arg(long, value_name = "N")]
    pub report_every: Option<u64>,
}

impl RunOutputArgs {
    /// The session that runs `experiment` (read from `file`) as these flags say.
    pub fn session(&self, experiment: Experiment, file: String) -> Session {
        let out = self
            .out
            .clone()
            .unwrap_or_else(|| Path::new("runs").join(&experiment.name));
        Session {
            experiment,
            file,
            out,
            force: self.force,
            report_every: self.report_every,
            shard: None,
        }
    }
}

/// A run to carry out.
#[derive(Debug)]
pub struct Session {
    /// The experiment, checked, resolved and rounded to pairs.
    pub experiment: Experiment,
    /// What errors call its source (a file name or the built-in default).
    pub file: String,
    /// The results directory.
    pub out: PathBuf,
    /// Delete another experiment's results in `out`.
    pub force: bool,
    /// Standings every this many games; `None` = about ten times a run; 0 =
    /// only the final standings.
    pub report_every: Option<u64>,
    /// The slice played: `None` for the whole run, or one shard (0/1 too)
    /// whose directory has no report of its own (`hoyito merge` writes the
    /// whole run's).
    pub shard: Option<Shard>,
}

/// A run stopped by Ctrl-C: the message says how to resume it.
#[derive(Debug)]
pub struct Interrupted {
    /// Games recorded.
    pub done: u64,
    /// Games planned.
    pub total: u64,
    /// The results directory.
    pub out: PathBuf,
}

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "interrupted: {} of {} games recorded in {}; resume with: {}",
            self.done,
            self.total,
            self.out.display(),
            resume_command()
        )
    }
}

impl std::error::Error for Interrupted {}

/// The command line that started this process, shell-quoted, without
/// `--force` (which would delete what was recorded): run again, it resumes.
pub fn resume_command() -> String {
    let mut words: Vec<String> = Vec::new();
    for (i, arg) in std::env::args().enumerate() {
        if i > 0 && arg == "--force" {
            continue;
        }
        words.push(shell_quote(&arg));
    }
    words.join(" ")
}

/// `word` as a POSIX shell reads it back: bare when it is plain, else in
/// single quotes.
fn shell_quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Whether a person takes a seat.
fn lineup_has_human(experiment: &Experiment) -> bool {
    experiment
        .agent_specs()
        .iter()
        .any(|(_, spec)| *spec == AgentSpec::Human)
}

/// Refuses to shard what cannot be split: an SPRT stops at the first game
/// where its test decides, in id order, which a slice cannot know; a person
/// cannot sit at several machines.
fn check_shardable(experiment: &Experiment, file: &str) -> Result<()> {
    if experiment.sprt.is_some() {
        anyhow::bail!(
            "{file}: --shard: an experiment with [sprt] stops at the game where its test \
             decides, in game order, so it cannot be split into shards; run it whole"
        );
    }
    if lineup_has_human(experiment) {
        anyhow::bail!("{file}: --shard: a human agent plays; run it whole");
    }
    Ok(())
}

/// Installs the Ctrl-C handler: the first press asks the run to stop after
/// the games in hand, the second exits at once (every file is flushed per
/// chunk and resumes from a cut line).
fn catch_interrupts() {
    // A second handler cannot be installed (only in tests, which never
    // install one); running without it only loses the clean stop.
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            eprintln!("\ninterrupted again: stopping now");
            std::process::exit(130);
        }
        eprintln!("\ninterrupted: finishing the games being played (Ctrl-C again to quit now)");
    });
}

/// Carries out a run: every check first, then the games, then the report.
pub fn execute(session: Session) -> Result<()> {
    let Session {
        experiment,
        file,
        out,
        force,
        report_every,
        shard,
    } = session;
    if shard.is_some() {
        check_shardable(&experiment, &file)?;
    }
    let lineup = Lineup::new(experiment.agent_specs()).with_log_dir(out.join("agents"));
    // Tablebase agents build their tables now, so that one that cannot fails
    // to start with its reason, before the results directory is touched.
    for &variant in &experiment.rules.variants {
        for &holes in &experiment.rules.holes {
            let rules = experiment.rules_for(variant, holes as u8);
            for (name, spec) in experiment.agent_specs() {
                prepare_tables(&spec, &rules).with_context(|| format!("{file}: agent {name}"))?;
            }
        }
    }
    // Adjudication tables are opened (mapped and checked) now: a missing,
    // partial or mismatched table stops the run before the first game.
    let adjudicator = Adjudicator::new(&experiment.adjudication, &experiment.boards())
        .with_context(|| format!("{file}: [adjudication]"))?;
    // A person at the board: their input must be readable, and one game at a
    // time with no progress bar over the prompt.
    let human = lineup_has_human(&experiment);
    if human {
        check_human_input().with_context(|| format!("{file}: a human agent plays"))?;
    }
    let clocked = lineup.unreproducible();
    if !clocked.is_empty() {
        eprintln!(
            "warning: {file}: {} play(s) by the clock: results will differ from run to run, \
             and a resumed run will not equal an uninterrupted one",
            clocked.join(", ")
        );
    }
    for warning in opening_warnings(&experiment) {
        eprintln!("warning: {file}: {warning}");
    }
    let sprt = experiment
        .sprt
        .map(|config| Sprt::new(config).context("the experiment's [sprt]"))
        .transpose()?;
    let schedule = Schedule::new(&experiment);
    let total = shard.unwrap_or(Shard::WHOLE).games(&schedule);
    // Threads, memory and disk, before the directory is touched.
    for warning in hoyito::tournament::check_resources(&experiment, &out, total)? {
        eprintln!("warning: {file}: {warning}");
    }
    if !force && shard.is_none() {
        check_same_settings(&out, &experiment)?;
    }
    let mut run_dir = open_slice_dir(&out, &experiment, &schedule, shard, force)?;
    let first = run_dir.done;
    if let Some(games) = run_dir.extended_from {
        eprintln!(
            "extending {}: from {games} to {} games per pairing, per variant, per board; \
             the {first} games recorded are kept",
            out.display(),
            experiment.games
        );
    }
    let threads = match experiment.threads {
        _ if human => 1,
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let order = &experiment.tournament.agents;
    let every = match report_every {
        Some(n) => n,
        None => total.div_ceil(10).max(100).div_ceil(2) * 2,
    };
    let mut live = Live {
        tally: Tally::new(),
        sprt: sprt.map(|sprt| SprtTracker::new(sprt, &order[0])),
        order,
        total,
        every,
        next_report: 0,
        bar: None,
        start: Instant::now(),
        first,
        reported: 0,
    };
    if first > 0 {
        // Standings and the SPRT carry on from the games already recorded.
        let games = out.join(GAMES_FILE);
        read_games_csv(&games, |row| {
            live.tally.add(row);
            if let Some(tracker) = live.sprt.as_mut() {
                tracker.add(row);
            }
        })
        .with_context(|| format!("resuming from {}", games.display()))?;
    }
    live.next_report = (first / every.max(1) + 1) * every;
    let slice = match shard {
        None => String::new(),
        Some(shard) => format!(" shard {shard}:"),
    };
    eprintln!(
        "{}:{slice} {total} games ({first} done), {threads} threads, into {}",
        experiment.name,
        out.display()
    );
    let decided_before = live.sprt.as_ref().is_some_and(SprtTracker::is_decided);
    let mut played = 0;
    let mut wall = Duration::ZERO;
    if first < total && !decided_before {
        catch_interrupts();
        live.bar = if human {
            None
        } else {
            progress_bar(total, first)
        };
        let work = Work {
            schedule: &schedule,
            lineup: &lineup,
            adjudicator: adjudicator.as_ref(),
        };
        let start = Instant::now();
        let ids = shard.unwrap_or(Shard::WHOLE).ids(&schedule, first);
        let outcome = run_games(work, ids, threads, run_dir.sinks(), &mut live)
            .with_context(|| format!("running into {}", out.display()))?;
        wall = start.elapsed();
        played = outcome.written;
        run_dir.record_written(first + played)?;
        if let Some(bar) = live.bar.take() {
            bar.finish_and_clear();
        }
        let timings = out.join(TIMINGS_FILE);
        let run = RunTimes {
            first_game: first,
            threads,
            wall,
            blocks: &outcome.times,
        };
        append_timings(&timings, run, &schedule, &lineup)
            .with_context(|| format!("{}: cannot write it", timings.display()))?;
        if outcome.stopped == Some(Stopped::Interrupted) {
            live.print_standings();
            return Err(Interrupted {
                done: first + played,
                total,
                out,
            }
            .into());
        }
    }
    eprintln!("{}", rate_line(played, wall, decided_before));
    // The final standings, unless the last periodic ones were of every game.
    if played > 0 && live.reported != live.tally.games() {
        live.print_standings();
    }
    if let Some(tracker) = &live.sprt {
        eprintln!("{}", sprt_line(tracker, total));
    }
    drop(live);
    if let Some(shard) = shard {
        eprintln!(
            "shard {shard} complete: no report of its own; once every shard is, join them \
             with: hoyito merge OUT_DIR SHARD_DIR..."
        );
    } else {
        write_report(&out)?;
    }
    println!("{}", out.join(GAMES_FILE).display());
    Ok(())
}

/// The final line of a run with an SPRT: the report's SPRT figures in one line.
pub fn sprt_line(tracker: &SprtTracker, cap: u64) -> String {
    let s = sprt_summary(tracker, cap);
    format!(
        "SPRT [{}, {}] ({:?} Elo, alpha {}, beta {}): {}: LLR {:.3}, bounds [{:.3}, {:.3}], \
         {} games ({} pairs) used of a cap of {cap}",
        s.elo0,
        s.elo1,
        s.model,
        s.alpha,
        s.beta,
        s.verdict,
        s.llr,
        s.lower_bound,
        s.upper_bound,
        s.games,
        s.pairs
    )
}

/// What the run shows while it plays, and the SPRT that may stop it.
struct Live<'a> {
    /// Every game of the run's slice recorded or about to be, in id order:
    /// its count is the games recorded.
    tally: Tally,
    sprt: Option<SprtTracker>,
    order: &'a [String],
    total: u64,
    /// Periodic standings every this many games; 0 = none.
    every: u64,
    next_report: u64,
    bar: Option<ProgressBar>,
    start: Instant,
    first: u64,
    /// Games tallied when the standings were last printed.
    reported: u64,
}

impl Live<'_> {
    fn print_standings(&mut self) {
        self.reported = self.tally.games();
        let sprt = self.sprt.as_ref().map(|tracker| {
            let config = tracker.sprt().config();
            SprtLine {
                status: tracker.status(),
                elo0: config.elo0,
                elo1: config.elo1,
            }
        });
        let mut text = Vec::new();
        write_standings(&mut text, &self.tally, self.order, self.total, sprt)
            .expect("writing to memory cannot fail");
        let text = String::from_utf8_lossy(&text);
        match &self.bar {
            Some(bar) => bar.suspend(|| eprint!("{text}")),
            None => eprint!("{text}"),
        }
    }
}

impl Watch for Live<'_> {
    /// Always: the tally follows every row, so that the standings printed
    /// at the end or on Ctrl-C count every game recorded.
    fn wants_rows(&self) -> bool {
        true
    }

    fn game(&mut self, row: &GameRow) -> Flow {
        let flow = match self.sprt.as_mut().map(|tracker| tracker.add(row)) {
            Some(SprtDecision::H0 | SprtDecision::H1) => Flow::Stop,
            _ => Flow::Continue,
        };
        self.tally.add(row);
        let done = self.tally.games();
        if self.every > 0 && done >= self.next_report {
            while self.next_report <= done {
                self.next_report += self.every;
            }
            self.report(done);
        }
        flow
    }

    fn written(&mut self, games: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(self.first + games);
        }
    }

    fn interrupt(&self) -> Option<&'static AtomicBool> {
        Some(&STOP)
    }
}

impl Live<'_> {
    /// The progress line (when there is no bar) and the standings after
    /// `done` games of the run.
    fn report(&mut self, done: u64) {
        if self.bar.is_none() {
            let games = done - self.first;
            let secs = self.start.elapsed().as_secs_f64().max(1e-9);
            let rate = games as f64 / secs;
            let eta = (self.total - done.min(self.total)) as f64 / rate.max(1e-9);
            eprintln!(
                "progress: {done}/{} games ({:.1}%), {} games/s, ETA {:.0} s",
                self.total,
                100.0 * done as f64 / self.total.max(1) as f64,
                significant(rate, 3),
                eta
            );
        }
        self.print_standings();
    }
}

/// Statistics and charts after every run: `hoyito report DIR`'s work.
fn write_report(dir: &Path) -> Result<()> {
    let files = write_report_from_csv(dir, None)?;
    eprintln!(
        "report: {} (and {}), {} charts in {}",
        files.html.display(),
        files.report.display(),
        files.charts.len(),
        dir.join(CHARTS).display()
    );
    Ok(())
}

/// `N games in S s (R games/s)`, the rate to three significant figures so that
/// a slow run does not print "0 games/s".
pub fn rate_line(games: u64, wall: Duration, decided_before: bool) -> String {
    let secs = wall.as_secs_f64();
    if decided_before {
        return "nothing left to play: the SPRT was decided".to_string();
    }
    if games == 0 {
        return "nothing left to play: the run is complete".to_string();
    }
    format!(
        "{games} games in {secs:.2} s ({} games/s)",
        significant(games as f64 / secs.max(1e-9), 3)
    )
}

/// A progress bar on standard error, only when it is a terminal.
fn progress_bar(total: u64, done: u64) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(total).with_position(done);
    let style = ProgressStyle::with_template(
        "{bar:40} {pos}/{len} games  {rate}  ETA {eta}  elapsed {elapsed}",
    )
    .expect("the template is valid")
    .with_key(
        "rate",
        |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{} games/s", significant(state.per_sec(), 3));
        },
    );
    bar.set_style(style);
    bar.reset_eta();
    Some(bar)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_line_keeps_three_significant_figures() {
        let line = |games, millis| rate_line(games, Duration::from_millis(millis), false);
        assert_eq!(line(4, 100_000), "4 games in 100.00 s (0.0400 games/s)");
        assert_eq!(line(2, 3_000), "2 games in 3.00 s (0.667 games/s)");
        assert_eq!(line(1_000, 4_000), "1000 games in 4.00 s (250 games/s)");
        assert_eq!(line(0, 1), "nothing left to play: the run is complete");
        assert_eq!(
            rate_line(0, Duration::ZERO, true),
            "nothing left to play: the SPRT was decided"
        );
    }

    #[test]
    fn words_are_quoted_only_when_the_shell_needs_it() {
        assert_eq!(shell_quote("configs/a.toml"), "configs/a.toml");
        assert_eq!(shell_quote("--sprt=0,10"), "--sprt=0,10");
        assert_eq!(shell_quote("my dir"), "'my dir'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
