//! What a deeper search is worth on a board: the measures of a skill ladder,
//! rungs of one search at growing strength, each played against the rung
//! below it in seat-swapped pairs.
//!
//! - **Steps.** Each adjacent pairing's score for the upper rung, with the
//!   pentanomial 95% interval of the report (`ScoreEstimate`), its Elo, and
//!   the share of pairs that split by seat (each side won one game, or both
//!   drew: fastchess's pentanomial DrawRatio, the pairs that scored 1 point),
//!   with its Wilson interval over pairs.
//! - **Spans.** A run of steps that change one thing (alpha-beta's depth, or
//!   the node or playout budget) is a span: its total Elo, the Elo per step
//!   (rung) and, for budgets, per doubling. In a ladder (a chain of
//!   pairings) the Bradley-Terry fit reproduces every pairing's score, so a
//!   rating difference is the sum of the steps' logits between the two
//!   rungs, and its interval is the delta method's on that sum of
//!   independent steps: `sqrt(sum se_i^2)`, `se_i = se(score_i) /
//!   (score_i (1 - score_i))`. That is the cluster-robust interval of the
//!   report's ratings (`ratings.rs`), which equals the pentanomial interval
//!   carried to the logit scale for each pairing.
//! - **Skill chain.** As Lantz, Isaksen, Jaffe, Nealen and Togelius measure
//!   depth ("Depth in strategic games", AAAI Workshops 2017): how many
//!   successive rungs, from the lowest, each beat the one below at 95% (the
//!   score interval above 1/2); and how many steps of the whole ladder do.
//!
//! A step that won (or lost) every pair has no finite logit; a span through
//! it has no finite Elo and says so. A step whose pairs all scored alike
//! (every pair split, say) has no spread: its standard error is read from
//! the report's interval for it, Wilson's over the pairs.

use serde::Serialize;

use super::elo::{Interval, ScoreEstimate};
use super::outcomes::Pentanomial;
use super::ratings::elo_from_logit;
use super::wilson::{wilson, Proportion, Z95};

/// What one step of a ladder changes between its two rungs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum StepKind {
    /// Alpha-beta's depth, in plies, nothing else.
    Depth {
        /// The lower rung's depth.
        from: u32,
        /// The upper rung's depth.
        to: u32,
    },
    /// Alpha-beta's node budget a move, nothing else.
    Nodes {
        /// The lower rung's nodes.
        from: u64,
        /// The upper rung's nodes.
        to: u64,
    },
    /// MCTS's playouts a move (per legal move where the agents say so),
    /// nothing else.
    Playouts {
        /// The lower rung's playouts.
        from: u64,
        /// The upper rung's playouts.
        to: u64,
    },
    /// Two searches of different kinds or settings: a link that keeps the
    /// ladder on one scale, not a step of one search.
    Link,
}

impl StepKind {
    /// The span a step belongs to: `depth`, `nodes`, `playouts`, or `None`
    /// for a link.
    pub fn part(&self) -> Option<&'static str> {
        match self {
            StepKind::Depth { .. } => Some("depth"),
            StepKind::Nodes { .. } => Some("nodes"),
            StepKind::Playouts { .. } => Some("playouts"),
            StepKind::Link => None,
        }
    }

    /// Doublings of the budget, `log2(to / from)`, for budget steps.
    pub fn doublings(&self) -> Option<f64> {
        match *self {
            StepKind::Nodes { from, to } | StepKind::Playouts { from, to } => {
                Some((to as f64 / from as f64).log2())
            }
            _ => None,
        }
    }
}

/// Whether a step's two rungs are told apart at 95%.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Separation {
    /// The upper rung's score interval lies above 1/2.
    Stronger,
    /// It lies below 1/2: the upper rung is the weaker.
    Weaker,
    /// It holds 1/2.
    Not,
}

/// One step of a ladder: the upper rung against the lower.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// The upper (stronger by design) rung.
    pub upper: String,
    /// The rung below it.
    pub lower: String,
    /// What the step changes.
    #[serde(flatten)]
    pub kind: StepKind,
    /// Distinct complete seat-swapped pairs counted.
    pub pairs: u64,
    /// Their pair scores for the upper rung: 0, 1/2, 1, 3/2 and 2 points.
    pub pentanomial: Pentanomial,
    /// Games counted by the estimate.
    pub games: u64,
    /// The upper rung's score, with the report's 95% interval.
    pub score: Proportion,
    /// The Elo difference, with the Elo of each end of the score interval.
    pub elo: Interval,
    /// The share of pairs that split by seat (scored 1 point of 2: a win
    /// each, or two draws), with its Wilson 95% interval over pairs.
    pub split: Proportion,
    /// Whether the rungs are told apart at 95%.
    pub told_apart: Separation,
    /// The logit of the score and its standard error (delta method); `None`
    /// at an edge.
    #[serde(skip)]
    pub logit: Option<(f64, f64)>,
}

impl Step {
    /// The step from a pairing's pentanomial counts (the upper rung's point
    /// of view) and its estimate.
    pub fn new(
        upper: &str,
        lower: &str,
        kind: StepKind,
        pentanomial: &Pentanomial,
        estimate: &ScoreEstimate,
    ) -> Step {
        let pairs: u64 = pentanomial.0.iter().sum();
        let s = estimate.score.value;
        let told_apart = if estimate.score.low > 0.5 {
            Separation::Stronger
        } else if estimate.score.high < 0.5 {
            Separation::Weaker
        } else {
            Separation::Not
        };
        let logit_of = |p: f64| (p / (1.0 - p)).ln();
        let (low, high) = (estimate.score.low, estimate.score.high);
        let logit = if s <= 0.0 || s >= 1.0 {
            None
        } else if !estimate.edge {
            Some((logit_of(s), estimate.standard_error / (s * (1.0 - s))))
        } else if low > 0.0 && high < 1.0 {
            // Every pair scored alike (no spread): the report's interval is
            // Wilson's, and the standard error is read from its ends.
            Some((logit_of(s), (logit_of(high) - logit_of(low)) / (2.0 * Z95)))
        } else {
            None
        };
        Step {
            upper: upper.to_string(),
            lower: lower.to_string(),
            kind,
            pairs,
            pentanomial: *pentanomial,
            games: estimate.games,
            score: estimate.score,
            elo: estimate.elo,
            split: wilson(pentanomial.0[2] as f64, pairs, Z95),
            told_apart,
            logit,
        }
    }
}

/// A run of steps that change one thing, from its lowest rung to its top.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Span {
    /// `depth`, `nodes` or `playouts`.
    pub part: &'static str,
    /// Its lowest rung.
    pub from: String,
    /// Its top rung.
    pub to: String,
    /// How many steps (rungs gained).
    pub steps: usize,
    /// Doublings of the budget from its lowest rung to its top (budgets only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doublings: Option<f64>,
    /// The Elo from its lowest rung to its top, with the 95% interval;
    /// `None` when a step sits at an edge.
    pub elo: Option<Interval>,
    /// The Elo per step (rung), with its interval.
    pub per_step: Option<Interval>,
    /// The Elo per doubling of the budget, with its interval (budgets only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_doubling: Option<Interval>,
    /// The Elo per step over the lower half of its steps (the first
    /// `ceil(steps / 2)`), and over the upper half: whether the gain grows or
    /// shrinks with strength. `None` with one step, or through an edge.
    pub lower_half: Option<Interval>,
    /// The Elo per step over the upper half of its steps.
    pub upper_half: Option<Interval>,
    /// Where the halves meet: the top rung of the lower half.
    pub middle: String,
    /// The share of its pairs that split by seat, pooled over its steps,
    /// with its Wilson 95% interval.
    pub split: Proportion,
    /// Whether its top step still tells its rungs apart at 95%: the search
    /// had not stopped gaining where the ladder ends.
    pub still_gaining: bool,
}

/// The Elo of a sum of independent steps' logits, with its 95% interval;
/// `None` if a step has no finite logit.
pub fn summed_elo(steps: &[Step]) -> Option<Interval> {
    let mut sum = 0.0;
    let mut variance = 0.0;
    for step in steps {
        let (logit, se) = step.logit?;
        sum += logit;
        variance += se * se;
    }
    let half = Z95 * variance.sqrt();
    Some(Interval {
        value: elo_from_logit(sum),
        low: elo_from_logit(sum - half),
        high: elo_from_logit(sum + half),
    })
}

fn scaled(interval: Interval, by: f64) -> Interval {
    Interval {
        value: interval.value / by,
        low: interval.low / by,
        high: interval.high / by,
    }
}

/// The spans of a ladder's steps: each maximal run of consecutive steps of
/// one part (links end a span).
pub fn spans(steps: &[Step]) -> Vec<Span> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < steps.len() {
        let Some(part) = steps[start].kind.part() else {
            start += 1;
            continue;
        };
        let mut end = start + 1;
        while end < steps.len() && steps[end].kind.part() == Some(part) {
            end += 1;
        }
        let run = &steps[start..end];
        let elo = summed_elo(run);
        let doublings = run.iter().map(|s| s.kind.doublings()).sum::<Option<f64>>();
        let half = run.len().div_ceil(2);
        let per_step_of = |steps: &[Step]| summed_elo(steps).map(|e| scaled(e, steps.len() as f64));
        let (lower_half, upper_half) = if run.len() > 1 {
            (per_step_of(&run[..half]), per_step_of(&run[half..]))
        } else {
            (None, None)
        };
        let split_pairs: f64 = run.iter().map(|s| s.split.value * s.pairs as f64).sum();
        let pairs: u64 = run.iter().map(|s| s.pairs).sum();
        out.push(Span {
            part,
            from: run[0].lower.clone(),
            to: run[run.len() - 1].upper.clone(),
            steps: run.len(),
            doublings,
            elo,
            per_step: elo.map(|e| scaled(e, run.len() as f64)),
            per_doubling: elo.zip(doublings).map(|(e, d)| scaled(e, d)),
            lower_half,
            upper_half,
            middle: run[half - 1].upper.clone(),
            split: wilson(split_pairs.round(), pairs, Z95),
            still_gaining: run[run.len() - 1].told_apart == Separation::Stronger,
        });
        start = end;
    }
    out
}

/// The skill chain: how many rungs, from the lowest, each beat the one
/// below at 95% (the lowest counts as one), and how many steps of the
/// whole ladder tell their rungs apart that way.
pub fn skill_chain(steps: &[Step]) -> (usize, usize) {
    let chain = 1 + steps
        .iter()
        .take_while(|s| s.told_apart == Separation::Stronger)
        .count();
    let apart = steps
        .iter()
        .filter(|s| s.told_apart == Separation::Stronger)
        .count();
    (chain, apart)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(kind: StepKind, counts: [u64; 5]) -> Step {
        let penta = Pentanomial(counts);
        let estimate = ScoreEstimate::from_pentanomial(&penta).expect("pairs");
        Step::new("up", "down", kind, &penta, &estimate)
    }

    const DEPTH: StepKind = StepKind::Depth { from: 1, to: 2 };

    /// A step's split share is the 1-point pairs over all pairs, and its
    /// separation follows the score interval: 60 of 100 pairs won both
    /// games is told apart, an even split is not, a lost one is inverted.
    #[test]
    fn a_step_counts_its_split_pairs_and_says_whether_it_tells_rungs_apart() {
        let strong = step(DEPTH, [5, 5, 20, 10, 60]);
        assert!((strong.split.value - 0.2).abs() < 1e-12);
        assert!(strong.split.low < 0.2 && strong.split.high > 0.2);
        assert_eq!(strong.told_apart, Separation::Stronger);
        assert_eq!(
            step(DEPTH, [10, 10, 60, 10, 10]).told_apart,
            Separation::Not
        );
        assert_eq!(
            step(DEPTH, [60, 10, 20, 5, 5]).told_apart,
            Separation::Weaker
        );
    }

    /// One step's summed Elo is its own logit on the Elo scale, and two
    /// independent steps add their logits and their variances: the
    /// interval of the sum is narrower than the sum of the intervals.
    #[test]
    fn steps_add_their_logits_and_their_variances() {
        let a = step(DEPTH, [10, 20, 40, 20, 30]);
        let (la, sa) = a.logit.expect("finite");
        let one = summed_elo(std::slice::from_ref(&a)).expect("finite");
        assert!(
            (one.value - a.elo.value).abs() < 1e-9,
            "{one:?} {:?}",
            a.elo
        );
        let b = step(DEPTH, [5, 15, 40, 25, 35]);
        let (lb, sb) = b.logit.expect("finite");
        let two = summed_elo(&[a.clone(), b.clone()]).expect("finite");
        assert!((two.value - elo_from_logit(la + lb)).abs() < 1e-9);
        let half = elo_from_logit(Z95 * (sa * sa + sb * sb).sqrt());
        assert!((two.high - two.value - half).abs() < 1e-9);
        let one_b = summed_elo(std::slice::from_ref(&b)).expect("finite");
        assert!(two.high - two.low < (one.high - one.low) + (one_b.high - one_b.low));
    }

    /// A step whose every pair split has Elo 0 and the width of the
    /// report's Wilson interval, not a point.
    #[test]
    fn a_step_without_spread_keeps_the_reports_interval() {
        let split = step(DEPTH, [0, 0, 50, 0, 0]);
        let (logit, se) = split.logit.expect("finite");
        assert_eq!(logit, 0.0);
        let half = (split.score.high / (1.0 - split.score.high)).ln();
        assert!((se * Z95 - half).abs() < 1e-9 && se > 0.0);
        let spans = spans(&[split]);
        let elo = spans[0].elo.expect("finite");
        assert!(elo.low < 0.0 && elo.high > 0.0);
    }

    /// A sweep has no finite logit, so a span through it has no Elo.
    #[test]
    fn a_span_through_a_sweep_has_no_finite_elo() {
        let sweep = step(DEPTH, [0, 0, 0, 0, 50]);
        assert!(sweep.logit.is_none());
        let spans = spans(&[step(DEPTH, [10, 20, 40, 20, 30]), sweep]);
        assert_eq!(spans.len(), 1);
        assert!(spans[0].elo.is_none() && spans[0].per_step.is_none());
        assert!(spans[0].still_gaining);
    }

    /// Links split a ladder into spans; a budget span counts its doublings
    /// (10k to 1M nodes: log2 100) and divides its Elo by them; the chain
    /// stops at the first step not told apart and the count goes on.
    #[test]
    fn links_split_spans_and_the_chain_stops_at_the_first_tie() {
        let even = [10, 10, 60, 10, 10];
        let won = [5, 5, 20, 10, 60];
        let steps = vec![
            step(StepKind::Depth { from: 1, to: 2 }, won),
            step(StepKind::Depth { from: 2, to: 3 }, even),
            step(StepKind::Link, won),
            step(
                StepKind::Nodes {
                    from: 10_000,
                    to: 100_000,
                },
                won,
            ),
            step(
                StepKind::Nodes {
                    from: 100_000,
                    to: 1_000_000,
                },
                even,
            ),
        ];
        let spans = spans(&steps);
        assert_eq!(spans.len(), 2);
        assert_eq!((spans[0].part, spans[0].steps), ("depth", 2));
        assert!(!spans[0].still_gaining);
        let nodes = &spans[1];
        assert_eq!(nodes.part, "nodes");
        let d = nodes.doublings.expect("a budget");
        assert!((d - 100f64.log2()).abs() < 1e-12);
        let (total, per) = (
            nodes.elo.expect("finite"),
            nodes.per_doubling.expect("finite"),
        );
        assert!((per.value * d - total.value).abs() < 1e-9);
        assert!((nodes.per_step.expect("finite").value * 2.0 - total.value).abs() < 1e-9);
        assert_eq!(skill_chain(&steps), (2, 3));
    }

    /// The halves of a span: three steps split 2 + 1, each half's Elo per
    /// step from its own steps; the split share pools the steps' pairs.
    #[test]
    fn a_span_gives_the_gain_of_its_lower_and_upper_halves() {
        let steps = vec![
            step(StepKind::Depth { from: 1, to: 2 }, [5, 5, 20, 10, 60]),
            step(StepKind::Depth { from: 2, to: 3 }, [10, 20, 40, 20, 30]),
            step(StepKind::Depth { from: 3, to: 4 }, [10, 10, 60, 10, 10]),
        ];
        let span = &spans(&steps)[0];
        let lower = summed_elo(&steps[..2]).expect("finite").value / 2.0;
        let upper = summed_elo(&steps[2..]).expect("finite").value;
        assert!((span.lower_half.expect("two steps").value - lower).abs() < 1e-9);
        assert!((span.upper_half.expect("one step").value - upper).abs() < 1e-9);
        assert_eq!(span.middle, "up");
        assert!((span.split.value - 120.0 / 320.0).abs() < 1e-12);
        assert!(spans(&steps[..1])[0].lower_half.is_none());
    }
}
