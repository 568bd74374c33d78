//! What a report counts of a run's rows, kept as the rows come.
//!
//! A report is drawn from counts over every row (standings, the balance of the
//! per-game measures, the games `report.html` carries, the SPRT), not from the
//! rows themselves. `hoyito report` fills these counts by reading `games.csv`
//! and `metrics.csv`; a run fills them on its writer thread as it writes each
//! row (reading 200,000 rows back and counting them again took a fifth of a
//! run of random games), so that the end of a run only draws and writes.
//! Either way the counts are the same, row for row, and so is every byte of
//! the report (`tests/report_from_run.rs`).

use crate::metrics::aggregate::BalanceTally;
use crate::metrics::measures::GameMeasures;
use crate::records::game_row::GameRow;
use crate::stats::sprt::{Sprt, SprtDecision};
use crate::stats::tally::Tally;
use crate::tournament::config::experiment::Experiment;
use crate::tournament::schedule::Schedule;
use crate::tournament::sprt_watch::SprtTracker;

use super::error::ReportError;
use super::html::pick::GamePicker;

/// The counts a report is drawn from, one row at a time in id order.
#[derive(Debug)]
pub struct RunTallies {
    pub(super) tally: Tally,
    pub(super) balance: BalanceTally,
    pub(super) picker: GamePicker,
    /// The experiment's SPRT and the games its schedule plans (the cap).
    pub(super) sprt: Option<(SprtTracker, u64)>,
    /// Rows added without their measures though the run records them: the
    /// balance is then not every game's, and the report must be drawn from
    /// the files ([`RunTallies::from_memory`] is false).
    partial: bool,
}

impl RunTallies {
    /// Empty counts for the rows of `experiment` (none: a directory without
    /// `experiment.toml`), keeping the games of `asked` for `report.html`.
    pub fn new(experiment: Option<&Experiment>, asked: &[u64]) -> Result<RunTallies, ReportError> {
        let sprt = match experiment.and_then(|e| e.sprt.map(|c| (e, c))) {
            Some((e, config)) => {
                let sprt = Sprt::new(config).map_err(|err| ReportError::Sprt {
                    message: err.to_string(),
                })?;
                Some((
                    SprtTracker::new(sprt, &e.tournament.agents[0]),
                    Schedule::new(e).len(),
                ))
            }
            None => None,
        };
        Ok(RunTallies {
            tally: Tally::new(),
            balance: BalanceTally::new(),
            picker: GamePicker::new(asked),
            sprt,
            partial: false,
        })
    }

    /// Counts the next row, with its measures when `metrics.csv` holds them.
    /// Returns the SPRT's verdict after it, when the experiment has one.
    pub fn add(&mut self, row: &GameRow, measures: Option<&GameMeasures>) -> Option<SprtDecision> {
        if let Some(measures) = measures {
            self.balance.add(row, measures);
        }
        self.tally.add(row);
        self.picker.add(row);
        self.sprt.as_mut().map(|(tracker, _)| tracker.add(row))
    }

    /// Counts a row recorded before this process started (a resumed run),
    /// read from `games.csv` alone: the standings and the SPRT carry on, but
    /// the report is then drawn from the files.
    pub fn add_recorded(&mut self, row: &GameRow) {
        self.partial = true;
        self.add(row, None);
    }

    /// Whether every row was counted with everything the report needs, so
    /// that it may be drawn from these counts instead of the files.
    pub fn from_memory(&self) -> bool {
        !self.partial
    }

    /// The standings' counts.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// The SPRT, when the experiment has one.
    pub fn sprt(&self) -> Option<&SprtTracker> {
        self.sprt.as_ref().map(|(tracker, _)| tracker)
    }
}
