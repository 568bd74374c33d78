//! The SPRT of a run in its report: which hypothesis was accepted, on what
//! log-likelihood ratio against which bounds, after how many games, so that a
//! reader of `report.md` or `summary.json` sees why the run stopped where it
//! did. Computed from `games.csv` by the same [`SprtTracker`] that stopped
//! the run, so report and run cannot disagree.

use std::io::{self, Write};

use serde::Serialize;

use crate::stats::{SprtDecision, SprtModel};
use crate::tournament::SprtTracker;

/// An SPRT's outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SprtSummary {
    /// The agent tested (H1: it is at least `elo1` stronger).
    pub agent: String,
    /// H0's Elo difference.
    pub elo0: f64,
    /// H1's Elo difference.
    pub elo1: f64,
    /// The largest chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The largest chance of accepting H0 when H1 holds.
    pub beta: f64,
    /// The Elo of the bounds.
    pub model: SprtModel,
    /// `H0`, `H1`, or `continue` (no bound reached).
    pub decision: SprtDecision,
    /// In words: "H1 accepted", "H0 accepted", "inconclusive at the cap" or
    /// "not decided yet".
    pub verdict: String,
    /// The log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// At or below it, H0 is accepted.
    pub lower_bound: f64,
    /// At or above it, H1 is accepted.
    pub upper_bound: f64,
    /// Games the test used (up to the deciding pair).
    pub games: u64,
    /// Complete pairs the test used.
    pub pairs: u64,
    /// The experiment's cap on games.
    pub cap: u64,
}

/// The summary of `tracker` after every game of a run that plans `cap` games.
pub fn sprt_summary(tracker: &SprtTracker, cap: u64) -> SprtSummary {
    let status = tracker.status();
    let config = tracker.sprt().config();
    let verdict = match status.decision {
        SprtDecision::H1 => "H1 accepted",
        SprtDecision::H0 => "H0 accepted",
        SprtDecision::Continue if tracker.games() >= cap => "inconclusive at the cap",
        SprtDecision::Continue => "not decided yet (the run is incomplete)",
    };
    SprtSummary {
        agent: tracker.agent().to_string(),
        elo0: config.elo0,
        elo1: config.elo1,
        alpha: config.alpha,
        beta: config.beta,
        model: config.model,
        decision: status.decision,
        verdict: verdict.to_string(),
        llr: status.llr,
        lower_bound: status.lower_bound,
        upper_bound: status.upper_bound,
        games: tracker.games(),
        pairs: status.pairs,
        cap,
    }
}

/// The report's SPRT section.
pub fn write_sprt(out: &mut impl Write, s: &SprtSummary) -> io::Result<()> {
    let model = match s.model {
        SprtModel::Normalized => "normalized Elo",
        SprtModel::Logistic => "logistic Elo",
    };
    writeln!(out, "## SPRT\n")?;
    writeln!(
        out,
        "H0: {} is at most {} stronger; H1: at least {} ({model}; alpha {}, beta {}).\n",
        s.agent, s.elo0, s.elo1, s.alpha, s.beta
    )?;
    writeln!(
        out,
        "**{}**: LLR {:.3} with bounds [{:.3}, {:.3}], after {} games ({} complete pairs) of \
         a cap of {}. The generalized SPRT on pentanomial pair counts, as Fishtest computes it \
         (`LLRcalc.py`), decided pair by pair in game-id order; games played beyond the deciding \
         pair were discarded.\n",
        s.verdict, s.llr, s.lower_bound, s.upper_bound, s.games, s.pairs, s.cap
    )
}
