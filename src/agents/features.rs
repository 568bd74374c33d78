//! What a learned evaluation looks at: a few integer features of a position,
//! each seen from the side to move, that say something about who will win a
//! game of Hoyito beyond the seeds already captured.
//!
//! The features exist so that `hoyito tune` can fit their weights to the
//! results of games (see [`crate::tune`]) and alpha-beta and MCTS can score
//! their leaves with them ([`crate::agents::Evaluator::Learned`]). They follow
//! RULES.md:
//! - a casa (a hole brought to exactly 4 by the last seed of a lap) is captured
//!   by the mover on *either* side of the board, so holes at 3 seeds are
//!   targets for whoever reaches them first, and the side to move reaches them
//!   first;
//! - in Hoyito I every seed that makes a hole 4 captures it (en passant); in
//!   Hoyito II the capture of a casa goes on backwards through the holes of 4
//!   before it; in Hoyito III only the casa itself is taken. The threat
//!   features count captures by these variant rules;
//! - a lap that ends in a non-empty hole that it does not make a casa goes on
//!   (relay sowing), so most moves are long and hard to foresee: the cheap
//!   features look at a move's first lap only, the two `hand` features simulate
//!   whole moves.
//!
//! Every feature is an integer computed without allocation; the simulated ones
//! cost one move simulation per hole and are skipped by the evaluator when
//! their weight is zero ([`Feature::simulated`]).

use crate::engine::position::Position;
use crate::engine::rules::Variant;
use crate::engine::side::Side;

/// The number of features.
pub const FEATURES: usize = 12;

/// The features of one position, indexed by [`Feature::index`].
pub type FeatureVector = [i32; FEATURES];

/// One feature of a position, from the point of view of the side to move
/// ("own"; the other side is "opp").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// Own captures minus the opponent's: the material count, and what decides
    /// the game in the end. The learned evaluation is expressed in its unit: its
    /// weight is 1 (see [`crate::tune`]).
    Captures,
    /// Seeds in own row minus seeds in the opponent's row: the seeds each side
    /// can play (and, with `leftover = "own-side"`, the seeds each would get if
    /// the game stalled now).
    RowSeeds,
    /// Own non-empty holes minus the opponent's: the choice of moves (legal
    /// moves but for the rare endless sowing), and the fewer, the sooner a
    /// side runs out of moves and must pass.
    Mobility,
    /// Own holes at exactly 3 seeds: casas waiting for the next seed, in own
    /// row, where own short moves do not reach but the opponent's do.
    ThreesOwn,
    /// The opponent's holes at exactly 3 seeds: casas in the row that own
    /// moves reach first.
    ThreesOpp,
    /// The most seeds the side to move captures in the first lap of one move:
    /// a lap (of fewer seeds than the board has holes) whose last seed makes a
    /// casa; in II with the backward chain of holes made 4; in I every hole of
    /// 3 the lap passes (en passant). A threat it can carry out now.
    ThreatsOwn,
    /// The same for the opponent, were it to move now: what the side to move
    /// must defend against.
    ThreatsOpp,
    /// Seeds that own moves' first sowings drop in the opponent's row, summed
    /// over own holes, minus the same for the opponent: seeds given away, and
    /// casas made or spoilt on the other side.
    Reach,
    /// Own moves whose first lap goes on by relay (it ends in a non-empty hole
    /// without making a casa) minus the opponent's: long, hard to foresee moves.
    Relays,
    /// The most seeds the side to move captures with one whole move (relay
    /// sowing, captures and the last seeds included), by simulation: the
    /// captures in hand.
    HandOwn,
    /// The same for the opponent, were it to move now, by simulation.
    HandOpp,
    /// Always 1: the value of having the move.
    Tempo,
}

impl Feature {
    /// All features, in index order.
    pub const ALL: [Feature; FEATURES] = [
        Feature::Captures,
        Feature::RowSeeds,
        Feature::Mobility,
        Feature::ThreesOwn,
        Feature::ThreesOpp,
        Feature::ThreatsOwn,
        Feature::ThreatsOpp,
        Feature::Reach,
        Feature::Relays,
        Feature::HandOwn,
        Feature::HandOpp,
        Feature::Tempo,
    ];

    /// Its place in a [`FeatureVector`].
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its name in agent files (the keys of `[eval.weights]`).
    pub fn name(self) -> &'static str {
        match self {
            Feature::Captures => "captures",
            Feature::RowSeeds => "row_seeds",
            Feature::Mobility => "mobility",
            Feature::ThreesOwn => "threes_own",
            Feature::ThreesOpp => "threes_opp",
            Feature::ThreatsOwn => "threats_own",
            Feature::ThreatsOpp => "threats_opp",
            Feature::Reach => "reach",
            Feature::Relays => "relays",
            Feature::HandOwn => "hand_own",
            Feature::HandOpp => "hand_opp",
            Feature::Tempo => "tempo",
        }
    }

    /// The feature called `name`, if any.
    pub fn from_name(name: &str) -> Option<Feature> {
        Feature::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether computing it simulates moves (costly at a search leaf).
    pub fn simulated(self) -> bool {
        matches!(self, Feature::HandOwn | Feature::HandOpp)
    }
}

/// What one side's holes hold, seen through first laps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct SideTerms {
    seeds: i32,
    nonempty: i32,
    threes: i32,
    threat: i32,
    reach: i32,
    relays: i32,
}

/// Seeds of a sowing of `seeds` seeds from hole `k` of a row (0-based) that
/// fall in the other row, on a board of `n` holes per row: the sowing drops
/// one seed in each following hole, `k + 1`, `k + 2`, ... round the board.
#[inline]
fn seeds_across(k: usize, seeds: usize, n: usize) -> i32 {
    let len = 2 * n;
    let (laps, rest) = (seeds / len, seeds % len);
    // Holes k+1 ..= k+rest (unwrapped); the other row is [n, 2n) and [3n, 4n).
    let overlap = |lo: usize, hi: usize| {
        let (a, b) = ((k + 1).max(lo), (k + rest).min(hi));
        b.saturating_sub(a) + usize::from(b >= a)
    };
    let mut count = laps * n;
    if rest > 0 {
        count += overlap(n, len - 1) + overlap(len + n, 2 * len - 1);
    }
    count as i32
}

/// The first-lap terms of `side`'s row, as if `side` were to move.
#[inline]
fn side_terms(pos: &Position, side: Side, variant: Variant) -> SideTerms {
    let board = pos.board();
    let n = pos.holes() as usize;
    let len = 2 * n;
    let start = side.index() * n;
    let mut t = SideTerms::default();
    for k in 0..n {
        let seeds = board[start + k] as usize;
        if seeds == 0 {
            continue;
        }
        t.seeds += seeds as i32;
        t.nonempty += 1;
        t.threes += i32::from(seeds == 3);
        t.reach += seeds_across(k, seeds, n);
        if seeds >= len {
            // The first lap passes its own hole: no simple reading of it.
            continue;
        }
        let at = |back: usize| board[(start + k + seeds - back) % len];
        let landing = at(0);
        let gain = match variant {
            Variant::I => (0..seeds).filter(|&j| at(j) == 3).count() as i32 * 4,
            Variant::Ii if landing == 3 => {
                (0..seeds).take_while(|&j| at(j) == 3).count() as i32 * 4
            }
            Variant::Iii if landing == 3 => 4,
            _ => 0,
        };
        t.threat = t.threat.max(gain);
        t.relays += i32::from(landing != 0 && landing != 3);
    }
    t
}

/// The most seeds `side` captures with one whole move in `pos`, as if it were
/// to move (the last seeds of the game included).
#[inline]
pub fn hand(pos: &Position, side: Side, rules: &crate::engine::rules::Rules) -> i32 {
    let mut p = *pos;
    p.side = side;
    let before = p.captures()[side];
    let mut best = 0;
    p.for_each_child(rules, |_, child, _| {
        best = best.max(i32::from(child.captures()[side] - before));
    });
    best
}

/// The cheap features of `pos` (all but the simulated ones, which are left
/// 0), from the side to move's point of view.
#[inline]
pub fn cheap_features(pos: &Position, variant: Variant) -> FeatureVector {
    let me = pos.side_to_move();
    let caps = pos.captures();
    let (mine, theirs) = (i32::from(caps[me]), i32::from(caps[me.opponent()]));
    let lead = mine - theirs;
    let own = side_terms(pos, me, variant);
    let opp = side_terms(pos, me.opponent(), variant);
    let mut f = [0; FEATURES];
    f[Feature::Captures.index()] = lead;
    f[Feature::RowSeeds.index()] = own.seeds - opp.seeds;
    f[Feature::Mobility.index()] = own.nonempty - opp.nonempty;
    f[Feature::ThreesOwn.index()] = own.threes;
    f[Feature::ThreesOpp.index()] = opp.threes;
    f[Feature::ThreatsOwn.index()] = own.threat;
    f[Feature::ThreatsOpp.index()] = opp.threat;
    f[Feature::Reach.index()] = own.reach - opp.reach;
    f[Feature::Relays.index()] = own.relays - opp.relays;
    f[Feature::Tempo.index()] = 1;
    f
}

/// Every feature of `pos` from the side to move's point of view.
pub fn features(pos: &Position, rules: &crate::engine::rules::Rules) -> FeatureVector {
    let mut f = cheap_features(pos, rules.variant);
    let me = pos.side_to_move();
    f[Feature::HandOwn.index()] = hand(pos, me, rules);
    f[Feature::HandOpp.index()] = hand(pos, me.opponent(), rules);
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Rules;

    fn get(f: &FeatureVector, feature: Feature) -> i32 {
        f[feature.index()]
    }

    #[test]
    fn names_are_distinct_and_read_back() {
        for (i, f) in Feature::ALL.into_iter().enumerate() {
            assert_eq!(f.index(), i);
            assert_eq!(Feature::from_name(f.name()), Some(f));
        }
        assert_eq!(Feature::from_name("material"), None);
    }

    #[test]
    fn seeds_across_counts_the_other_row() {
        // 2x6, hole 5 (0-based 4) with 3 seeds: holes 6, N1, N2: two across.
        assert_eq!(seeds_across(4, 3, 6), 2);
        assert_eq!(seeds_across(0, 5, 6), 0);
        // 14 seeds from hole 1: one whole lap (6 across) then holes 2..=3.
        assert_eq!(seeds_across(0, 14, 6), 6);
        // 12 seeds from hole 6: holes N1..N6, S1..S6: six across.
        assert_eq!(seeds_across(5, 12, 6), 6);
        // 11 seeds from hole 6: N1..N6 then S1..S5 = 6 across.
        assert_eq!(seeds_across(5, 11, 6), 6);
    }

    /// South to move in Hoyito II:
    /// ```text
    ///      N: 6  5  4  3  2  1
    ///         0  2  0  0  3  3        captures S 10, N 6
    ///         1  0  3  0  2  0
    ///      S: 1  2  3  4  5  6
    /// ```
    /// South's hole 5 (2 seeds) sows 6 and N1: N1 becomes 4, a casa; the chain
    /// stops at hole 6, which holds 1: 4 seeds. South's hole 1 (1 seed) ends in
    /// the empty hole 2. South's hole 3 (3 seeds) ends in the empty hole 6. North's hole 1 (3 seeds) sows N2, N3, N4: N4 empty, ends;
    /// North's hole 2 (3 seeds): N3, N4, N5: N5 holds 2, relay. North's hole 5
    /// (2 seeds): N6, S1: S1 holds 1, relay.
    #[test]
    fn hand_worked_features_of_a_hoyito_ii_position() {
        let rules = Rules::new(Variant::Ii);
        let pos: Position = "1,0,3,0,2,0/3,3,0,0,2,0 S 10-6".parse().unwrap();
        let f = features(&pos, &rules);
        assert_eq!(get(&f, Feature::Captures), 4);
        assert_eq!(get(&f, Feature::RowSeeds), 6 - 8);
        assert_eq!(get(&f, Feature::Mobility), 3 - 3);
        assert_eq!(get(&f, Feature::ThreesOwn), 1);
        assert_eq!(get(&f, Feature::ThreesOpp), 2);
        assert_eq!(get(&f, Feature::ThreatsOwn), 4);
        assert_eq!(get(&f, Feature::ThreatsOpp), 0);
        // South: hole 5 drops 1 across (N1); hole 3 none; hole 1 none.
        // North: N5 drops 1 in S1; N1, N2 none.
        assert_eq!(get(&f, Feature::Reach), 1 - 1);
        // South: hole 5 lands on N1 (casa), hole 3 on 6 (empty), hole 1 on 2
        // (empty): no relay. North: N2 -> N5 (2), N5 -> S1 (1): two relays.
        assert_eq!(get(&f, Feature::Relays), -2);
        assert_eq!(get(&f, Feature::HandOwn), 4);
        // North's hole 5 sows N6 and S1 (1 -> 2): relay from S1 to S2 and S3,
        // which held 3: a casa, found only by simulation.
        assert_eq!(get(&f, Feature::HandOpp), 4);
        assert_eq!(get(&f, Feature::Tempo), 1);
        assert_eq!(cheap_features(&pos, Variant::Ii)[..9], f[..9]);
    }

    /// The same rows, variant by variant: a lap of 3 from South's hole 4
    /// passing holes of 3.
    /// ```text
    ///      N: 6  5  4  3  2  1
    ///         0  0  0  0  1  3
    ///         0  0  0  3  3  3
    ///      S: 1  2  3  4  5  6
    /// ```
    /// South's hole 4 (3 seeds) sows 5, 6, N1: all three were 3. In I all
    /// three are taken en passant (12); in II the casa N1 and the chain 6, 5
    /// (12); in III the casa N1 only (4).
    #[test]
    fn threats_follow_each_variants_capture_rule() {
        let pos: Position = "0,0,0,3,3,3/3,1,0,0,0,0 S 0-0".parse().unwrap();
        let threat = |v| get(&cheap_features(&pos, v), Feature::ThreatsOwn);
        assert_eq!(threat(Variant::I), 12);
        assert_eq!(threat(Variant::Ii), 12);
        assert_eq!(threat(Variant::Iii), 4);
        assert_eq!(
            get(&cheap_features(&pos, Variant::Ii), Feature::ThreesOwn),
            3
        );
    }

    #[test]
    fn the_features_flip_with_the_side_to_move() {
        let rules = Rules::new(Variant::Iii);
        let south: Position = "1,0,3,0,2,0/3,3,0,0,2,0 S 10-6".parse().unwrap();
        let north: Position = "3,3,0,0,2,0/1,0,3,0,2,0 N 6-10".parse().unwrap();
        assert_eq!(features(&south, &rules), features(&north, &rules));
    }

    #[test]
    fn hand_simulates_relay_sowing() {
        // South's hole 1 (2 seeds) sows holes 2 (1 -> 2) and 3 (2 -> 3): the
        // last seed falls in a hole that now holds 3, so the sowing goes on
        // from hole 3 with 3 seeds: holes 4, 5 and 6, which held 3: a casa
        // (4 seeds). No first lap makes a casa.
        let rules = Rules::new(Variant::Iii);
        let pos: Position = "2,1,2,0,0,3/1,1,1,1,1,1 S 0-0".parse().unwrap();
        let f = features(&pos, &rules);
        assert_eq!(get(&f, Feature::ThreatsOwn), 0);
        assert_eq!(get(&f, Feature::HandOwn), 4);
    }
}
