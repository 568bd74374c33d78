//! What a person sees while a run plays: on a terminal, a progress bar with
//! the standings printed above it every `--report-every` games; elsewhere
//! (a log file, CI), plain progress lines and the same standings, never
//! control characters; and the lines that close a run (its rate, its SPRT).
//! A file of its own because none of it changes what is played or recorded:
//! the run only feeds it rows.
//!
//! Every row recorded is tallied, the rows a resumed run already holds
//! included, so that any standings printed (periodic, final or on Ctrl-C)
//! count the games in `games.csv`; `--report-every 0` only silences the
//! periodic ones. All of it goes to standard error.

use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use hoyito::report::{significant, sprt_summary, write_standings, RunTallies, SprtLine};
use hoyito::session::Follow;
use hoyito::tournament::SprtTracker;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};

use super::interrupt::STOP;

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

/// What the run shows while it plays, from the session's counts of every
/// game of the run's slice recorded (resumed ones included).
pub(super) struct Live<'a> {
    pub(super) order: &'a [String],
    pub(super) total: u64,
    /// Periodic standings every this many games; 0 = none.
    pub(super) every: u64,
    pub(super) next_report: u64,
    pub(super) bar: Option<ProgressBar>,
    pub(super) start: Instant,
    pub(super) first: u64,
    /// Games tallied when the standings were last printed.
    pub(super) reported: u64,
}

impl Live<'_> {
    /// Prints the standings of the games tallied (above the bar, if any).
    pub(super) fn print_standings(&mut self, tallies: &RunTallies) {
        self.reported = tallies.tally().games();
        let sprt = tallies.sprt().map(|tracker| {
            let config = tracker.sprt().config();
            SprtLine {
                status: tracker.status(),
                elo0: config.elo0,
                elo1: config.elo1,
            }
        });
        let mut text = Vec::new();
        write_standings(&mut text, tallies.tally(), self.order, self.total, sprt)
            .expect("writing to memory cannot fail");
        let text = String::from_utf8_lossy(&text);
        match &self.bar {
            Some(bar) => bar.suspend(|| eprint!("{text}")),
            None => eprint!("{text}"),
        }
    }
}

impl Follow for Live<'_> {
    fn game(&mut self, tallies: &RunTallies) {
        let done = tallies.tally().games();
        if self.every > 0 && done >= self.next_report {
            while self.next_report <= done {
                self.next_report += self.every;
            }
            self.report(tallies, done);
        }
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
    fn report(&mut self, tallies: &RunTallies, done: u64) {
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
        self.print_standings(tallies);
    }
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
pub(super) fn progress_bar(total: u64, done: u64) -> Option<ProgressBar> {
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
}
