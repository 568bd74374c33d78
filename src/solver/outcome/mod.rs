//! Who wins under perfect play, where the exact margin is out of reach.
//!
//! A win/loss question needs far less than a margin: once one side holds
//! more than half of all seeds, who wins can no longer change, where an
//! exact value must play on to the last seed. [`dfpn`] answers questions
//! "is South's final margin at least t?" by proof-number search over the
//! game's graph, with the tables as exact leaves; two of them give the
//! outcome for South (win: margin ≥ 1; draw: ≥ 0 but not ≥ 1; loss: not
//! ≥ 0). Each answer is written as a [`certificate`] that [`mod@verify`]
//! checks with the move generator and the tables alone; [`checkpoint`]
//! keeps a long search's table on disk so that it resumes after a kill, and
//! [`transposition`] keeps that table within a memory budget.

pub mod certificate;
pub mod checkpoint;
pub mod dfpn;
pub mod transposition;
pub mod verify;

use std::fmt;

use crate::engine::position::Position;
use crate::engine::side::Side;

pub use certificate::{Certificate, CertificateError, Extractor};
pub use dfpn::{Limits, Progress, Prover, Verdict};
pub use verify::{verify, Refused, Verified};

/// The outcome for South under perfect play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// South wins (margin ≥ 1).
    Win,
    /// Neither wins (margin 0).
    Draw,
    /// South loses (margin ≤ −1).
    Loss,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Win => "W",
            Outcome::Draw => "D",
            Outcome::Loss => "L",
        })
    }
}

/// One question asked and how it was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answer {
    /// South's final margin is at least this...
    pub target: i32,
    /// ...or not, or not yet known.
    pub verdict: Verdict,
}

/// What a run of the outcome search settled.
#[derive(Debug, Clone, PartialEq)]
pub struct OutcomeSearch {
    /// The outcome, once both answers needed are in.
    pub outcome: Option<Outcome>,
    /// The questions asked, in order.
    pub answers: Vec<Answer>,
    /// Proved bounds on South's margin (`None`: unbounded so far).
    pub lower: Option<i32>,
    /// Proved upper bound.
    pub upper: Option<i32>,
}

impl OutcomeSearch {
    /// The search of `answers`, with the bounds they prove.
    pub fn new(outcome: Option<Outcome>, answers: Vec<Answer>) -> OutcomeSearch {
        let (lower, upper) = OutcomeSearch::bounds(&answers);
        OutcomeSearch {
            outcome,
            answers,
            lower,
            upper,
        }
    }

    fn bounds(answers: &[Answer]) -> (Option<i32>, Option<i32>) {
        let mut lower = None;
        let mut upper = None;
        for a in answers {
            match a.verdict {
                Verdict::Proved => lower = Some(lower.map_or(a.target, |l: i32| l.max(a.target))),
                Verdict::Disproved => {
                    upper = Some(upper.map_or(a.target - 1, |u: i32| u.min(a.target - 1)))
                }
                Verdict::Open { .. } => {}
            }
        }
        (lower, upper)
    }
}

/// Asks "South wins?" then, if not, "South does not lose?", and returns the
/// outcome once known. `ask` runs one question (so that the caller can
/// report and save around it); it stops at the first open answer.
pub fn settle_outcome(mut ask: impl FnMut(i32) -> Verdict) -> OutcomeSearch {
    let mut answers = Vec::new();
    let first = ask(1);
    answers.push(Answer {
        target: 1,
        verdict: first,
    });
    let outcome = match first {
        Verdict::Proved => Some(Outcome::Win),
        Verdict::Open { .. } => None,
        Verdict::Disproved => {
            let second = ask(0);
            answers.push(Answer {
                target: 0,
                verdict: second,
            });
            match second {
                Verdict::Proved => Some(Outcome::Draw),
                Verdict::Disproved => Some(Outcome::Loss),
                Verdict::Open { .. } => None,
            }
        }
    };
    OutcomeSearch::new(outcome, answers)
}

/// The certificate of an answer: South's proof when proved, North's when
/// disproved (North's margin at least `1 - target`).
pub fn certify(prover: &mut Prover<'_>, root: &Position, answer: &Answer) -> Option<Certificate> {
    let proved = match answer.verdict {
        Verdict::Proved => true,
        Verdict::Disproved => false,
        Verdict::Open { .. } => return None,
    };
    let rules = *prover.rules();
    Extractor::new(prover, answer.target, proved).extract(&rules, root)
}

/// The file name of a certificate: `hoyito-ii-2x7-south-at-least-1.proof`.
pub fn certificate_name(cert: &Certificate) -> String {
    let side = match cert.prover {
        Side::South => "south",
        Side::North => "north",
    };
    let after = if cert.after.is_empty() {
        String::new()
    } else {
        format!("-after-{}", certificate::line_text(&cert.after, "-"))
    };
    format!(
        "hoyito-{}-2x{}{after}-{side}-at-least-{}.proof",
        cert.variant.name(),
        cert.holes,
        cert.target
    )
    .replace("at-least--", "at-least-minus-")
}
