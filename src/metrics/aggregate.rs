//! The aggregated design metrics: Ludii's set (Ludii `metrics/single/...`;
//! C. Browne, "Automatic Generation and Evaluation of Recombination Games",
//! PhD thesis, QUT 2008, chapter 5) adapted to Hoyito, and Hoyito's own,
//! each a ratio of per-game sums (see [`super::interval`]) over the
//! seat-swapped pairs of a pairing, or of a whole setting.
//!
//! How each differs from Ludii's:
//! - *advantage*: Ludii's AdvantageP1 is the first player's win rate; here
//!   South's mean score minus 0.5 (a draw is half a point), as everywhere in
//!   the report.
//! - *balance*: Ludii's Balance is 1 minus the largest gap between the
//!   players' win rates; for two seats, `1 - |P(South wins) - P(North wins)|`.
//! - *completion*: Ludii's Completion is the share of games with a winner
//!   (not a draw, not a timeout); here the share of games a side won by
//!   play: ended normally (or by a forfeit) and not drawn. A stalled game
//!   is scored by the leftover rule, which Ludii's timeouts have no
//!   counterpart of, so it never counts as completed.
//! - *draws*: Drawishness, the share of drawn games.
//! - *stalls*: Ludii's Timeouts (games stopped by the move limit) are
//!   Hoyito's stalled games, ended by a repetition or the no-capture limit
//!   and scored with the leftover rule; also split by kind.
//! - *duration*: plies per game, passes and extra moves included (each is a
//!   ply).
//! - *decisions*: DecisionMoves, the share of plies with more than one
//!   option; *branching*: BranchingFactor, options per ply (options are
//!   sowable holes, see [`super::measures`]).
//! - *lead changes*: Ludii's LeadChange counts changes of the leader by
//!   state evaluation, per move; here the leader is the side ahead on
//!   captured seeds, and the figure is changes per game.
//! - *drama*: Ludii's Drama measures how far below the leader the eventual
//!   winner fell; here the winner's largest capture deficit, as a share of
//!   the seeds in play, over decisive games.
//! - *decided at*: Ludii's Decisiveness asks when the eventual winner passed
//!   a winning threshold; here the ply after which the winner led on
//!   captures for good, as a share of the game's plies, over decisive games
//!   (1 when the winner won on leftovers or by forfeit).
//! - Not computed: Ludii's Stability (the variance of each player's state
//!   evaluation over a game) needs an evaluation of every position, which
//!   self-play does not record; lead changes, drama and decided-at measure
//!   the same tension from the captured seeds.
//! - Hoyito's own: capture moves per ply, extra moves per ply, relay laps
//!   per sowing move, plies without capture at the end.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::game::Ending;
use crate::rules::Variant;
use crate::tournament::{GameRow, Winner};

use super::interval::{Estimate, RatioSums};
use super::measures::GameMeasures;

/// A family of metrics: one chart and one table each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// Who wins and how: advantage, balance, draws, stalls.
    Outcome,
    /// How long games are and how many choices they hold.
    Length,
    /// How the lead moves.
    Tension,
    /// Hoyito's sowing and captures.
    Hoyito,
}

impl Family {
    /// Every family, in report order.
    pub const ALL: [Family; 4] = [
        Family::Outcome,
        Family::Length,
        Family::Tension,
        Family::Hoyito,
    ];

    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Family::Outcome => "outcome",
            Family::Length => "length",
            Family::Tension => "tension",
            Family::Hoyito => "sowing and captures",
        }
    }
}

/// One aggregated metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// South's mean score minus 0.5.
    Advantage,
    /// `1 - |P(South wins) - P(North wins)|`.
    Balance,
    /// Share of games won by play: not drawn, not stalled (Ludii's
    /// Completion).
    Completion,
    /// Share of drawn games.
    Draws,
    /// Share of stalled games (repetition or no-capture limit).
    Stalls,
    /// Share of games ended by a repetition.
    Repetitions,
    /// Share of games ended by the no-capture limit.
    NoCaptureLimit,
    /// Plies per game.
    Duration,
    /// Share of plies with more than one option.
    Decisions,
    /// Options per ply.
    Branching,
    /// Lead changes per game.
    LeadChanges,
    /// The winner's largest deficit, share of the seeds in play.
    Drama,
    /// The ply after which the winner led for good, share of the game.
    DecidedAt,
    /// Capturing moves per ply.
    CaptureRate,
    /// Extra moves per ply.
    ExtraMoves,
    /// Relay laps per sowing move.
    Laps,
    /// Plies without capture at the end of a game.
    QuietEnd,
}

/// The metrics' count.
const METRICS: usize = 17;

impl Metric {
    /// Every metric, in report order.
    pub const ALL: [Metric; METRICS] = [
        Metric::Advantage,
        Metric::Balance,
        Metric::Completion,
        Metric::Draws,
        Metric::Stalls,
        Metric::Repetitions,
        Metric::NoCaptureLimit,
        Metric::Duration,
        Metric::Decisions,
        Metric::Branching,
        Metric::LeadChanges,
        Metric::Drama,
        Metric::DecidedAt,
        Metric::CaptureRate,
        Metric::ExtraMoves,
        Metric::Laps,
        Metric::QuietEnd,
    ];

    /// Its family.
    pub fn family(self) -> Family {
        use Metric::*;
        match self {
            Advantage | Balance | Completion | Draws | Stalls | Repetitions | NoCaptureLimit => {
                Family::Outcome
            }
            Duration | Decisions | Branching => Family::Length,
            LeadChanges | Drama | DecidedAt => Family::Tension,
            CaptureRate | ExtraMoves | Laps | QuietEnd => Family::Hoyito,
        }
    }

    /// Whether it is a share, between 0 and 1, whose interval is clamped
    /// to that range.
    pub fn is_share(self) -> bool {
        use Metric::*;
        matches!(
            self,
            Completion
                | Draws
                | Stalls
                | Repetitions
                | NoCaptureLimit
                | Decisions
                | Drama
                | DecidedAt
        )
    }

    /// Whether it is drawn on its family's chart (the stall kinds are not:
    /// the chart shows all stalls).
    pub fn charted(self) -> bool {
        !matches!(self, Metric::Repetitions | Metric::NoCaptureLimit)
    }

    /// Its name in the report.
    pub fn label(self) -> &'static str {
        use Metric::*;
        match self {
            Advantage => "advantage",
            Balance => "balance",
            Completion => "completion",
            Draws => "draws",
            Stalls => "stalls",
            Repetitions => "repetition stalls",
            NoCaptureLimit => "no-capture stalls",
            Duration => "duration (plies)",
            Decisions => "decision share",
            Branching => "branching",
            LeadChanges => "lead changes",
            Drama => "drama",
            DecidedAt => "decided at",
            CaptureRate => "captures per ply",
            ExtraMoves => "extra moves per ply",
            Laps => "laps per sowing",
            QuietEnd => "plies since capture at end",
        }
    }

    /// The per-game (denominator, numerator) of the metric; Balance carries
    /// `P(South wins) - P(North wins)`, folded at the end.
    fn values(self, row: &GameRow, m: &GameMeasures) -> (f64, f64) {
        use Metric::*;
        let plies = f64::from(row.plies);
        let decisive = row.winner != Winner::Draw;
        let one = |b: bool| if b { 1.0 } else { 0.0 };
        let seeds = 2.0 * f64::from(row.holes) * f64::from(row.seeds);
        match self {
            Advantage => (1.0, row.winner.south_score() - 0.5),
            Balance => (
                1.0,
                one(row.winner == Winner::S) - one(row.winner == Winner::N),
            ),
            Completion => (
                1.0,
                one(decisive && !matches!(row.ending, Ending::Repetition | Ending::NoCaptureLimit)),
            ),
            Draws => (1.0, one(!decisive)),
            Stalls => (
                1.0,
                one(matches!(
                    row.ending,
                    Ending::Repetition | Ending::NoCaptureLimit
                )),
            ),
            Repetitions => (1.0, one(row.ending == Ending::Repetition)),
            NoCaptureLimit => (1.0, one(row.ending == Ending::NoCaptureLimit)),
            Duration => (1.0, plies),
            Decisions => (plies, f64::from(m.decisions)),
            Branching => (plies, f64::from(m.options)),
            LeadChanges => (1.0, f64::from(m.lead_changes)),
            Drama => (one(decisive), one(decisive) * f64::from(m.drama) / seeds),
            DecidedAt => (
                one(decisive && row.plies > 0),
                if decisive && row.plies > 0 {
                    f64::from(m.decided) / plies
                } else {
                    0.0
                },
            ),
            CaptureRate => (plies, f64::from(m.captures)),
            ExtraMoves => (plies, f64::from(m.extra_moves)),
            Laps => (plies - f64::from(m.passes), f64::from(m.laps)),
            QuietEnd => (1.0, f64::from(m.since_capture)),
        }
    }
}

/// Where a group of games belongs: a setting and a pairing, or the whole
/// setting (`pairing` empty).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct GroupKey {
    /// Which Hoyito.
    pub variant: Variant,
    /// Holes per row.
    pub holes: u8,
    /// `a` for self-play, `a vs b` (names sorted) otherwise; empty for
    /// every game of the setting.
    pub pairing: String,
}

/// The sums of one group, with the pair being added.
#[derive(Debug, Clone, Default)]
struct Group {
    games: u64,
    sums: [RatioSums; METRICS],
    pair: Option<u64>,
    pending: [(f64, f64); METRICS],
}

impl Group {
    fn add(&mut self, pair: u64, row: &GameRow, m: &GameMeasures) {
        if self.pair != Some(pair) {
            self.flush();
            self.pair = Some(pair);
        }
        self.games += 1;
        for (k, metric) in Metric::ALL.iter().enumerate() {
            let (x, y) = metric.values(row, m);
            self.pending[k].0 += x;
            self.pending[k].1 += y;
        }
    }

    fn flush(&mut self) {
        if self.pair.take().is_some() {
            for (sums, (x, y)) in self.sums.iter_mut().zip(self.pending) {
                sums.add(x, y);
            }
            self.pending = [(0.0, 0.0); METRICS];
        }
    }
}

/// The design metrics of a run, counted game by game in id order; memory is
/// one group per setting and pairing.
#[derive(Debug, Clone, Default)]
pub struct BalanceTally {
    groups: BTreeMap<GroupKey, Group>,
}

/// The metrics of one group.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupMetrics {
    /// The group.
    #[serde(flatten)]
    pub key: GroupKey,
    /// Games counted.
    pub games: u64,
    /// Seat-swapped pairs (the clusters of every interval).
    pub pairs: u64,
    /// Each metric measured, in [`Metric::ALL`] order.
    pub metrics: BTreeMap<Metric, Estimate>,
}

impl GroupMetrics {
    /// The estimate of `metric`, if measured.
    pub fn get(&self, metric: Metric) -> Option<&Estimate> {
        self.metrics.get(&metric)
    }
}

/// The label of a pairing: the agent for self-play, else both names sorted.
pub fn pairing_label(south: &str, north: &str) -> String {
    match south.cmp(north) {
        std::cmp::Ordering::Equal => south.to_string(),
        std::cmp::Ordering::Less => format!("{south} vs {north}"),
        std::cmp::Ordering::Greater => format!("{north} vs {south}"),
    }
}

impl BalanceTally {
    /// Nothing counted.
    pub fn new() -> BalanceTally {
        BalanceTally::default()
    }

    /// Counts a game and its measures.
    pub fn add(&mut self, row: &GameRow, m: &GameMeasures) {
        let setting = GroupKey {
            variant: row.variant,
            holes: row.holes,
            pairing: String::new(),
        };
        let pairing = GroupKey {
            pairing: pairing_label(&row.south, &row.north),
            ..setting.clone()
        };
        for key in [setting, pairing] {
            self.groups.entry(key).or_default().add(row.pair_id, row, m);
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.groups
            .iter()
            .filter(|(k, _)| k.pairing.is_empty())
            .map(|(_, g)| g.games)
            .sum()
    }

    /// The metrics of every group: per setting (variant, then board), the
    /// whole setting first, then each pairing by name.
    pub fn metrics(&self) -> Vec<GroupMetrics> {
        self.groups
            .iter()
            .map(|(key, group)| {
                let mut group = group.clone();
                group.flush();
                let metrics = Metric::ALL
                    .iter()
                    .zip(&group.sums)
                    .filter_map(|(&metric, sums)| {
                        let mut e = sums.estimate()?;
                        if metric == Metric::Balance {
                            e = Estimate::balance(&e);
                        } else if metric.is_share() {
                            e.low = e.low.max(0.0);
                            e.high = e.high.min(1.0);
                        } else if metric != Metric::Advantage {
                            // Counts and rates: never below zero.
                            e.low = e.low.max(0.0);
                        }
                        Some((metric, e))
                    })
                    .collect();
                GroupMetrics {
                    key: key.clone(),
                    games: group.games,
                    pairs: group.sums[0].clusters(),
                    metrics,
                }
            })
            .collect()
    }
}
