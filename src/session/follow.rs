//! What a caller follows of a session while its games play: the counts as
//! each game is recorded, the games written, and a flag that stops the run.
//! The session keeps the counts itself (its report and its SPRT are drawn
//! from them); a follower only shows them: the CLI's progress bar and
//! standings, the Python package's progress callback and its signals.

use std::sync::atomic::AtomicBool;

use crate::metrics::measures::GameMeasures;
use crate::records::game_row::GameRow;
use crate::report::run_tallies::RunTallies;
use crate::stats::sprt::SprtDecision;
use crate::tournament::runner::{Flow, Watch};

/// Follows a session's games as they are recorded. Every method has a
/// default that does nothing, so `&mut ()` follows nothing.
pub trait Follow {
    /// A game was counted (in id order, every game recorded by the run's
    /// slice, the ones a resumed run found included in `tallies`).
    fn game(&mut self, _tallies: &RunTallies) {}

    /// Games written so far by this call, after each write.
    fn written(&mut self, _games: u64) {}

    /// Called about every tenth of a second while no game is written (see
    /// [`Watch::idle`]).
    fn idle(&mut self) {}

    /// A flag that, once set, ends the run as soon as the games being
    /// played are done (see [`Watch::interrupt`]).
    fn interrupt(&self) -> Option<&'static AtomicBool> {
        None
    }
}

impl Follow for () {}

/// The runner's watcher in a session: counts every row (which may stop the
/// run at an SPRT decision), then tells the follower.
pub(super) struct Tallying<'a, F: Follow + ?Sized> {
    pub(super) tallies: &'a mut RunTallies,
    pub(super) follow: &'a mut F,
}

impl<F: Follow + ?Sized> Watch for Tallying<'_, F> {
    fn wants_rows(&self) -> bool {
        true
    }

    fn game(&mut self, row: &GameRow, measures: Option<&GameMeasures>) -> Flow {
        let flow = match self.tallies.add(row, measures) {
            Some(SprtDecision::H0 | SprtDecision::H1) => Flow::Stop,
            _ => Flow::Continue,
        };
        self.follow.game(self.tallies);
        flow
    }

    fn written(&mut self, games: u64) {
        self.follow.written(games);
    }

    fn idle(&mut self) {
        self.follow.idle();
    }

    fn interrupt(&self) -> Option<&'static AtomicBool> {
        self.follow.interrupt()
    }
}
