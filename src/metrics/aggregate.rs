//! The aggregated design metrics: Ludii's set (Ludii `metrics/single/...`;
//! C. Browne, "Automatic Generation and Evaluation of Recombination Games",
//! PhD thesis, QUT 2008, chapter 5) adapted to Hoyito, and Hoyito's own,
//! each a ratio of per-game sums (see [`super::interval`]) over the
//! seat-swapped pairs of a pairing, or of a whole setting. Pairs are counted
//! exactly as the first-player figures count them: a pair repeated move for
//! move by the same agents in the same seats once, and games that ended
//! inside their random opening not at all.
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
//! - *LeadChange*: Ludii's LeadChange (`metrics/single/stateEvaluation/
//!   LeadChange.java`) is, per game, the changes of the leader over the
//!   game's moves, averaged over games: a rate per move. Here the same
//!   average of per-game rates, the leader being the side ahead on captured
//!   seeds. *Lead changes per game*, the count itself, keeps its own name:
//!   on a bigger board games are longer, so the count can rise while the
//!   rate per move falls.
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

use crate::engine::game::Ending;
use crate::engine::rules::Variant;
use crate::records::game_row::{GameRow, Winner};
use crate::records::moves_hash::{fnv1a, FNV_OFFSET_BASIS};
use crate::stats::distinct::DistinctSet;

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
    /// Ludii's LeadChange: lead changes per ply of a game, averaged over
    /// games.
    LeadChange,
    /// Lead changes per game (a count, not Ludii's rate).
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
const METRICS: usize = 18;

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
        Metric::LeadChange,
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
            LeadChange | LeadChanges | Drama | DecidedAt => Family::Tension,
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

    /// Whether it is a rate per ply that cannot pass 1 (at most one capture,
    /// extra move or lead change a ply): its interval is a share's at the
    /// edges.
    pub fn per_ply_at_most_one(self) -> bool {
        matches!(
            self,
            Metric::CaptureRate | Metric::ExtraMoves | Metric::LeadChange
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
            LeadChange => "LeadChange (per ply)",
            LeadChanges => "lead changes per game",
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
            LeadChange => (
                1.0,
                if row.plies > 0 {
                    f64::from(m.lead_changes) / plies
                } else {
                    0.0
                },
            ),
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

/// A share's interval: the clustered normal one where it lies inside
/// `[0, 1]`; at an edge (a share of none or of all games, or an interval
/// that would leave `[0, 1]`) Wilson's on the clusters, as
/// [`crate::stats::ClusteredMean`] does, never `0.0% [0.0%, 0.0%]`.
fn share_interval(e: Estimate, clusters: u64) -> Estimate {
    if e.se > 0.0 && e.low >= 0.0 && e.high <= 1.0 {
        return e;
    }
    let w = crate::stats::wilson(
        e.value * clusters as f64,
        clusters,
        crate::stats::wilson::Z95,
    );
    Estimate {
        low: w.low,
        high: w.high,
        ..e
    }
}

/// The interval of a figure that is a share once moved by `offset` and
/// scaled by `scale` (advantage: `x + 0.5`; the seats' gap: `(x + 1) / 2`),
/// taken as [`share_interval`] takes it and moved back.
fn shifted_share(e: Estimate, clusters: u64, offset: f64, scale: f64) -> Estimate {
    let to = |x: f64| (x + offset) * scale;
    let back = |x: f64| x / scale - offset;
    let share = share_interval(
        Estimate {
            value: to(e.value),
            low: to(e.low),
            high: to(e.high),
            se: e.se * scale,
        },
        clusters,
    );
    Estimate {
        value: e.value,
        low: back(share.low),
        high: back(share.high),
        se: e.se,
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
    /// Games counted (repeats of a counted pair left out).
    games: u64,
    sums: [RatioSums; METRICS],
    pair: Option<u64>,
    pending: [(f64, f64); METRICS],
    pending_games: u64,
    /// The key of the pair being added: its games' keys mixed in order.
    pending_key: u64,
    /// Keys of the pairs (and lone games) counted so far.
    seen: DistinctSet,
}

/// A game's key within a group: its moves hash, told apart by the agents in
/// each seat, so that a repeat is the same moves by the same agents in the
/// same seats (as [`crate::stats::Tally`] tells repeats apart).
fn game_key(row: &GameRow) -> u64 {
    let seats = fnv1a(
        FNV_OFFSET_BASIS,
        format!("{}\0{}", row.south, row.north).as_bytes(),
    );
    row.moves_hash.0 ^ seats.rotate_left(17)
}

/// Mixes the next game's key into a pair's key (SplitMix64's finaliser of
/// the key so far, plus the game's), so that order matters.
fn mix(key: u64, game: u64) -> u64 {
    let mut z = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)).wrapping_add(game)
}

impl Group {
    /// Adds a game of pair `pair` whose key is `key` (see [`game_key`]).
    fn add(&mut self, pair: u64, key: u64, row: &GameRow, m: &GameMeasures) {
        if self.pair != Some(pair) {
            self.flush();
            self.pair = Some(pair);
        }
        self.pending_games += 1;
        self.pending_key = mix(self.pending_key, key);
        for (k, metric) in Metric::ALL.iter().enumerate() {
            let (x, y) = metric.values(row, m);
            self.pending[k].0 += x;
            self.pending[k].1 += y;
        }
    }

    /// The games counted once the pair being added is flushed.
    fn counted_games(&self) -> u64 {
        let pending_counts = self.pair.is_some() && !self.seen.contains(self.pending_key);
        self.games
            + if pending_counts {
                self.pending_games
            } else {
                0
            }
    }

    /// Counts the pair being added, unless the same pair was counted before
    /// (the first-player figures count each distinct pair once too).
    fn flush(&mut self) {
        if self.pair.take().is_some() && self.seen.insert(self.pending_key) {
            for (sums, (x, y)) in self.sums.iter_mut().zip(self.pending) {
                sums.add(x, y);
            }
            self.games += self.pending_games;
        }
        self.pending = [(0.0, 0.0); METRICS];
        self.pending_games = 0;
        self.pending_key = 0;
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
    /// Games counted: a pair repeated move for move is counted once, and
    /// games that ended inside the opening not at all, as in the
    /// first-player figures.
    pub games: u64,
    /// Distinct seat-swapped pairs (the clusters of every interval).
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

    /// Counts a game and its measures; a game that ended inside its random
    /// opening (no agent moved) is left out, as every agent figure leaves it.
    pub fn add(&mut self, row: &GameRow, m: &GameMeasures) {
        if row.ended_in_opening() {
            return;
        }
        let setting = GroupKey {
            variant: row.variant,
            holes: row.holes,
            pairing: String::new(),
        };
        let pairing = GroupKey {
            pairing: pairing_label(&row.south, &row.north),
            ..setting.clone()
        };
        // The game's key is the same in both groups: hashed once.
        let game = game_key(row);
        for key in [setting, pairing] {
            self.groups
                .entry(key)
                .or_default()
                .add(row.pair_id, game, row, m);
        }
    }

    /// Games counted, the pair still being added included (as
    /// [`BalanceTally::metrics`] counts it): the same total as the settings'
    /// groups of [`BalanceTally::metrics`].
    pub fn games(&self) -> u64 {
        self.groups
            .iter()
            .filter(|(k, _)| k.pairing.is_empty())
            .map(|(_, g)| g.counted_games())
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
                        let clusters = sums.clusters();
                        if metric == Metric::Balance {
                            // The gap P(S) - P(N) in [-1, 1], as a share
                            // in [0, 1] at the edges, then folded.
                            e = Estimate::balance(&shifted_share(e, clusters, 1.0, 0.5));
                        } else if metric == Metric::Advantage {
                            e = shifted_share(e, clusters, 0.5, 1.0);
                        } else if metric.is_share() || metric.per_ply_at_most_one() {
                            e = share_interval(e, clusters);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::wilson;
    use crate::stats::wilson::Z95;
    use crate::tournament::play_scheduled::empty_row;

    #[test]
    fn the_games_counted_include_the_last_pair_of_every_setting() {
        // Two settings of three pairs each, the last pair of each still
        // pending: games() once left both out (2,010 for 2,016 and the like
        // in the reports' "Game-design metrics of N games").
        let mut tally = BalanceTally::new();
        for id in 0..12u64 {
            let mut row = empty_row();
            let holes = if id < 6 { 6 } else { 12 };
            (row.game_id, row.pair_id, row.holes, row.seeds) = (id, id / 2, holes, 4);
            (row.south, row.north) = ("a".to_string(), "a".to_string());
            row.moves_hash = crate::records::moves_hash::MovesHash(id);
            row.plies = 30;
            tally.add(&row, &GameMeasures::default());
        }
        assert_eq!(tally.games(), 12);
        let settings: u64 = (tally.metrics().iter())
            .filter(|g| g.key.pairing.is_empty())
            .map(|g| g.games)
            .sum();
        assert_eq!(tally.games(), settings);
    }

    #[test]
    fn a_repeated_last_pair_is_not_counted_twice() {
        // The pending pair repeats the first one move for move: counted once.
        let mut tally = BalanceTally::new();
        for id in 0..4u64 {
            let mut row = empty_row();
            (row.game_id, row.pair_id, row.holes, row.seeds) = (id, id / 2, 6, 4);
            (row.south, row.north) = ("a".to_string(), "a".to_string());
            row.moves_hash = crate::records::moves_hash::MovesHash(id % 2);
            row.plies = 30;
            tally.add(&row, &GameMeasures::default());
        }
        assert_eq!(tally.games(), 2);
        assert_eq!(tally.metrics()[0].games, 2);
    }

    #[test]
    fn a_share_of_none_gets_a_real_interval() {
        // 300 pairs, no game stalled (reports/board-size read
        // `0.0% [0.0%, 0.0%]`): Wilson's interval on the 300 pairs.
        let mut tally = BalanceTally::new();
        for id in 0..600u64 {
            let mut row = empty_row();
            (row.game_id, row.pair_id, row.holes, row.seeds) = (id, id / 2, 6, 4);
            (row.south, row.north) = ("a".to_string(), "a".to_string());
            row.moves_hash = crate::records::moves_hash::MovesHash(id);
            row.winner = if id % 3 == 0 { Winner::S } else { Winner::N };
            tally.add(&row, &GameMeasures::default());
        }
        let all = &tally.metrics()[0];
        let stalls = all.get(Metric::Stalls).expect("measured");
        assert_eq!((stalls.value, stalls.low), (0.0, 0.0));
        assert_eq!(stalls.high, wilson(0.0, 300, Z95).high);
        assert!(stalls.high > 0.01, "{stalls:?}");
        // A share of all games: Wilson's lower end, not 100% [100%, 100%].
        let completion = all.get(Metric::Completion).expect("measured");
        assert_eq!((completion.value, completion.high), (1.0, 1.0));
        assert_eq!(completion.low, wilson(300.0, 300, Z95).low);
    }

    #[test]
    fn lead_change_is_per_ply_as_ludii_defines_it() {
        // Two games of one pair, 2 lead changes each, in 10 and 20 plies:
        // Ludii's LeadChange averages 2/10 and 2/20 = 0.15; the count per
        // game is 2.
        let mut tally = BalanceTally::new();
        for (id, plies) in [(0u64, 10u32), (1, 20)] {
            let mut row = empty_row();
            (row.game_id, row.pair_id, row.holes, row.seeds, row.plies) = (id, 0, 6, 4, plies);
            (row.south, row.north) = ("a".to_string(), "a".to_string());
            row.moves_hash = crate::records::moves_hash::MovesHash(id);
            let m = GameMeasures {
                lead_changes: 2,
                ..GameMeasures::default()
            };
            tally.add(&row, &m);
        }
        let all = &tally.metrics()[0];
        let rate = all.get(Metric::LeadChange).expect("measured").value;
        assert!((rate - 0.15).abs() < 1e-12, "{rate}");
        assert_eq!(all.get(Metric::LeadChanges).expect("measured").value, 2.0);
    }

    #[test]
    fn repeated_pairs_and_opening_games_count_as_in_the_first_player_figures() {
        // Pair 0 and pair 1 play the same two games; pair 2 ended inside its
        // opening. Only pair 0 is counted.
        let mut tally = BalanceTally::new();
        for id in 0..6u64 {
            let mut row = empty_row();
            (row.game_id, row.pair_id, row.holes, row.seeds, row.plies) = (id, id / 2, 6, 4, 40);
            let (south, north) = if id % 2 == 0 { ("a", "b") } else { ("b", "a") };
            (row.south, row.north) = (south.to_string(), north.to_string());
            row.moves_hash = crate::records::moves_hash::MovesHash(id % 2);
            if id >= 4 {
                (row.opening, row.plies) = ("1 2 3".to_string(), 3);
            }
            tally.add(&row, &GameMeasures::default());
        }
        let all = &tally.metrics()[0];
        assert_eq!((all.games, all.pairs), (2, 1));
    }

    #[test]
    fn an_advantage_every_pair_shares_alike_gets_a_real_interval() {
        // 12 pairs, each won once by each seat: South's advantage is 0 with
        // no variance (reports/strategies read `0.000 [0.000, 0.000]` and a
        // balance of `1.000 [1.000, 1.000]`).
        let mut tally = BalanceTally::new();
        for id in 0..24u64 {
            let mut row = empty_row();
            (row.game_id, row.pair_id, row.holes, row.seeds) = (id, id / 2, 6, 4);
            let (south, north) = if id % 2 == 0 { ("a", "b") } else { ("b", "a") };
            (row.south, row.north) = (south.to_string(), north.to_string());
            row.moves_hash = crate::records::moves_hash::MovesHash(id);
            row.winner = if id % 2 == 0 { Winner::S } else { Winner::N };
            row.plies = 40;
            tally.add(&row, &GameMeasures::default());
        }
        let all = &tally.metrics()[0];
        let advantage = all.get(Metric::Advantage).expect("measured");
        let w = wilson(6.0, 12, Z95);
        assert_eq!(advantage.value, 0.0);
        assert!(
            (advantage.low - (w.low - 0.5)).abs() < 1e-12,
            "{advantage:?}"
        );
        assert!(
            (advantage.high - (w.high - 0.5)).abs() < 1e-12,
            "{advantage:?}"
        );
        let balance = all.get(Metric::Balance).expect("measured");
        assert_eq!((balance.value, balance.high), (1.0, 1.0));
        assert!(balance.low < 0.8, "{balance:?}");
        // Hoyito I has no extra moves: a rate of none still gets Wilson's.
        let extra = all.get(Metric::ExtraMoves).expect("measured");
        assert_eq!((extra.value, extra.low), (0.0, 0.0));
        assert!(extra.high > 0.0);
    }
}
