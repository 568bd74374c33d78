//! One run of an experiment into a results directory, the same for every
//! caller: `hoyito run`, `hoyito match` and the Python package's
//! `hoyito.run` and `hoyito.match` all go through it, so that every check,
//! every file and every byte of a run is the same whoever started it.
//!
//! A session has three steps:
//! - [`Session::prepare`] makes every check before a byte is written (the
//!   shard, the tables, the adjudicator, the SPRT, threads, memory and disk,
//!   the settings of a directory resumed) and opens the results directory;
//!   what a person should know comes back as [`Session::warnings`];
//! - [`Session::play`] plays the games left (a [`Follow`] sees them as they
//!   are recorded and may stop them) and appends the run's timings;
//! - [`Session::finish`] writes the report (none for a shard).
//!
//! The caller shows what it likes of it: the CLI prints the warnings, a
//! progress bar and the standings; Python returns the summary.
//!
//! ```
//! use hoyito::session::{RunPlan, Session};
//! use hoyito::tournament::Experiment;
//! use hoyito::Roster;
//!
//! let text = r#"
//!     name = "doc-session"
//!     seed = 3
//!     games = 4
//!     [rules]
//!     variants = ["ii"]
//!     holes = [4]
//!     [tournament]
//!     format = "round-robin"
//!     agents = ["random", "greedy"]
//! "#;
//! let mut experiment = Experiment::parse(text, "doc.toml")?;
//! experiment.round_to_pairs();
//! experiment.resolve_agents("doc.toml", || Ok(Roster::builtin()))?;
//! let dir = std::env::temp_dir().join(format!("hoyito-doc-session-{}", std::process::id()));
//!
//! let mut session = Session::prepare(RunPlan::new(experiment, "doc.toml", Some(dir.clone()), None))?;
//! let played = session.play(&mut ())?;
//! assert_eq!((played.games, played.stopped), (4, None));
//! assert_eq!(session.tallies().tally().games(), 4);
//! let report = session.finish()?.expect("a whole run has a report");
//! assert!(report.summary.exists());
//! std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod follow;
mod plan;
mod prepare;
mod settings_diff;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::records::run_files::TIMINGS_FILE;
use crate::report::run_tallies::RunTallies;
use crate::report::{write_report_from_csv, write_report_from_tallies, ReportFiles};
use crate::tournament::adjudication::Adjudicator;
use crate::tournament::config::experiment::Experiment;
use crate::tournament::lineup::Lineup;
use crate::tournament::run_dir::RunDir;
use crate::tournament::runner::{run_games, GameForfeit, Stopped, Work};
use crate::tournament::schedule::Schedule;
use crate::tournament::shard::Shard;
use crate::tournament::sprt_watch::SprtTracker;
use crate::tournament::timings::{append_timings, RunTimes};

pub use error::{Cause, SessionError};
pub use follow::Follow;
pub use plan::RunPlan;

use follow::Tallying;

/// A run checked and its directory open, ready to play.
pub struct Session {
    experiment: Experiment,
    source: String,
    out: PathBuf,
    shard: Option<Shard>,
    lineup: Lineup,
    adjudicator: Option<Adjudicator>,
    schedule: Schedule,
    run_dir: RunDir,
    /// Games in the run's slice.
    total: u64,
    threads: usize,
    human: bool,
    warnings: Vec<String>,
    /// Every game of the slice recorded so far, and the SPRT.
    tallies: RunTallies,
}

/// What [`Session::play`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct Played {
    /// Games written by this call.
    pub games: u64,
    /// Its wall time.
    pub wall: Duration,
    /// Set when it ended before the slice's last game: an SPRT decision
    /// ([`Stopped::ByWatcher`]) or the interrupt flag.
    pub stopped: Option<Stopped>,
    /// The games written that an agent forfeited, in id order.
    pub forfeits: Vec<GameForfeit>,
}

impl Session {
    /// The experiment.
    pub fn experiment(&self) -> &Experiment {
        &self.experiment
    }

    /// What errors call the experiment's source.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The results directory.
    pub fn out(&self) -> &Path {
        &self.out
    }

    /// The slice played (`None`: the whole run).
    pub fn shard(&self) -> Option<Shard> {
        self.shard
    }

    /// The agents, by index.
    pub fn lineup(&self) -> &Lineup {
        &self.lineup
    }

    /// Games in the run's slice.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Games recorded before this session (a resumed run).
    pub fn first(&self) -> u64 {
        self.run_dir.done
    }

    /// When the directory held a shorter run of this experiment, its games
    /// per pairing, per variant, per board (the run is extended).
    pub fn extended_from(&self) -> Option<u64> {
        self.run_dir.extended_from
    }

    /// Worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Whether a person takes a seat (one game at a time, at a prompt).
    pub fn has_human(&self) -> bool {
        self.human
    }

    /// What the caller should show before the games: each names the
    /// experiment's source.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Every game of the slice recorded so far and the SPRT, if any.
    pub fn tallies(&self) -> &RunTallies {
        &self.tallies
    }

    /// Whether the SPRT was decided before this session played a game.
    pub fn decided(&self) -> bool {
        self.tallies.sprt().is_some_and(SprtTracker::is_decided)
    }

    /// Plays the games left, unless the SPRT is already decided, with
    /// `follow` seeing each as it is recorded, and appends this call's
    /// timings to `timings.csv`.
    pub fn play(&mut self, follow: &mut (impl Follow + ?Sized)) -> Result<Played, SessionError> {
        let first = self.first();
        let mut played = Played {
            games: 0,
            wall: Duration::ZERO,
            stopped: None,
            forfeits: Vec::new(),
        };
        if first >= self.total || self.decided() {
            return Ok(played);
        }
        let work = Work {
            schedule: &self.schedule,
            lineup: &self.lineup,
            adjudicator: self.adjudicator.as_ref(),
        };
        let start = Instant::now();
        let ids = self
            .shard
            .unwrap_or(Shard::WHOLE)
            .ids(&self.schedule, first);
        let mut watch = Tallying {
            tallies: &mut self.tallies,
            follow,
        };
        let outcome = run_games(work, ids, self.threads, self.run_dir.sinks(), &mut watch)
            .map_err(|e| SessionError::step(format!("running into {}", self.out.display()), e))?;
        played.wall = start.elapsed();
        played.games = outcome.written;
        self.run_dir.record_written(first + played.games)?;
        let timings = self.out.join(TIMINGS_FILE);
        let run = RunTimes {
            first_game: first,
            threads: self.threads,
            wall: played.wall,
            blocks: &outcome.times,
        };
        append_timings(&timings, run, &self.schedule, &self.lineup).map_err(|e| {
            SessionError::step(format!("{}: cannot write it", timings.display()), e)
        })?;
        played.stopped = outcome.stopped;
        played.forfeits = outcome.forfeits;
        Ok(played)
    }

    /// Writes the report (statistics and charts: `hoyito report DIR`'s
    /// work), unless the session plays a shard, whose directory has none
    /// of its own. The report is drawn from the counts the session kept
    /// when it saw every row (reading 200,000 rows back costs a fifth of a
    /// run of random games), else (a resumed run) from the files.
    pub fn finish(self) -> Result<Option<ReportFiles>, SessionError> {
        let Session {
            out,
            shard,
            tallies,
            run_dir,
            ..
        } = self;
        if shard.is_some() {
            return Ok(None);
        }
        let files = match tallies.from_memory() {
            true => write_report_from_tallies(&out, tallies)?,
            false => write_report_from_csv(&out, None)?,
        };
        // The directory stays locked until its report is written.
        drop(run_dir);
        Ok(Some(files))
    }
}

#[cfg(test)]
mod tests;
