//! The SPRT of a run in its report: which hypothesis was accepted, on what
//! log-likelihood ratio against which bounds, after how many games, so that a
//! reader of `report.md` or `summary.json` sees why the run stopped where it
//! did. Computed from `games.csv` by the same [`SprtTracker`] that stopped
//! the run, so report and run cannot disagree.
//!
//! The score beside the verdict is computed from the very pairs the test
//! counted (every pair up to the deciding one, repeats included), not the
//! report's distinct pairs, and it is flagged: a test that stops when its
//! statistic crosses a bound stops more often after a run of luck, so the
//! estimate at the stop is biased away from the hypotheses' middle and its
//! interval does not hold 95% (optional stopping; Fishtest marks such
//! estimates the same way and offers no fixed-sample interval for them).

use std::io::{self, Write};

use serde::Serialize;

use crate::stats::elo::ScoreEstimate;
use crate::stats::sprt::{SprtDecision, SprtModel};
use crate::tournament::sprt_watch::SprtTracker;

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
    /// The tested agent's score over the pairs the test counted, with the
    /// fixed-sample interval that optional stopping makes too narrow.
    pub estimate: Option<ScoreEstimate>,
    /// Whether the test stopped on a bound, so the estimate is biased.
    pub stopped_early: bool,
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
        estimate: ScoreEstimate::from_pentanomial(&tracker.pairs()),
        stopped_early: status.decision != SprtDecision::Continue,
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
    )?;
    if let Some(e) = &s.estimate {
        writeln!(
            out,
            "{}'s score over the same {} pairs: {:.3} [{:.3}, {:.3}], Elo {}.{}\n",
            s.agent,
            s.pairs,
            e.score.value,
            e.score.low,
            e.score.high,
            e.elo.text(1),
            if s.stopped_early {
                " **Biased by optional stopping**: the test stopped when its statistic crossed \
                 a bound, which it does more readily after a run of luck, so this estimate leans \
                 away from the middle of the hypotheses and its interval holds less than 95%. \
                 The pairings' tables below count the distinct pairs of every game played."
            } else {
                ""
            }
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::game_row::Winner;
    use crate::stats::sprt::{Sprt, SprtConfig};
    use crate::tournament::play_scheduled::empty_row;

    #[test]
    fn the_estimate_counts_the_tests_pairs_and_is_flagged() {
        let sprt = Sprt::new(SprtConfig {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Logistic,
        })
        .expect("a valid test");
        let mut tracker = SprtTracker::new(sprt, "a");
        // a wins 3 pairs in 4 and splits the fourth, the last pair repeating
        // the first move for move (the report's distinct count would drop
        // it; the test counts it).
        let mut id = 0;
        while !tracker.is_decided() {
            for seat in 0..2 {
                let mut row = empty_row();
                (row.game_id, row.pair_id) = (id, id / 2);
                let swapped = seat == 1;
                let (south, north) = if swapped { ("b", "a") } else { ("a", "b") };
                (row.south, row.north) = (south.to_string(), north.to_string());
                let a_wins = (id / 2) % 4 != 3 || seat == 0;
                row.winner = match (a_wins, swapped) {
                    (true, false) | (false, true) => Winner::S,
                    _ => Winner::N,
                };
                row.moves_hash = crate::records::moves_hash::MovesHash(id % 4);
                tracker.add(&row);
                id += 1;
            }
        }
        let s = sprt_summary(&tracker, 100_000);
        let e = s.estimate.expect("pairs");
        assert_eq!(e.units, s.pairs);
        assert!(s.stopped_early && s.pairs > 0);
        let mut text = Vec::new();
        write_sprt(&mut text, &s).expect("writing to memory");
        let text = String::from_utf8(text).expect("utf-8");
        assert!(
            text.contains(&format!("over the same {} pairs", s.pairs)),
            "{text}"
        );
        assert!(text.contains("Biased by optional stopping"), "{text}");
    }
}
