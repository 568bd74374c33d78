//! A learned evaluation: a weighted sum of the [`crate::agents::Feature`]s of a
//! position, in seeds, with weights that `hoyito tune` fitted to the results of
//! games and wrote into an agent file.
//!
//! It lives apart from [`crate::agents::Evaluator`] so that the fast integer
//! form (what a search calls at every leaf) and the weights as written (what a
//! file holds) are one type with one check.
//!
//! Units. The weights are seeds per unit of each feature, anchored on the
//! capture difference, whose weight the tuner makes exactly 1: the fitted
//! logistic model `P(win) = 1 / (1 + exp(-x))` with `x = Σ βf·f` is rewritten as
//! `x = (Σ wf·f) / scale` with `wf = βf / βcaptures` and `scale = 1 / βcaptures`,
//! so the sum `Σ wf·f` is a margin in seeds, comparable with the true margin
//! of a finished game, and `scale` says how many seeds of that margin make
//! the odds of winning `e` to 1. (Texel's tuning method does the same with a
//! fixed scaling constant `K` on centipawns; Peter Österlund, chessprogramming
//! wiki, "Texel's Tuning Method".)
//!
//! Speed. The weights are held in fixed point (1/1024 seed, in 32 bits: at
//! most ±[`MAX_WEIGHT`] × 1024) and the sum is
//! taken in 64-bit integers, rounded to whole seeds at the end (a [`Score`] is a
//! whole number of seeds); the simulated features are computed only when one
//! of them has a non-zero weight.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::agents::eval_margin::Score;
use crate::agents::features::{cheap_features, hand, Feature, FEATURES};
use crate::engine::position::Position;
use crate::engine::rules::Rules;

/// The largest weight accepted, in seeds per unit of a feature.
pub const MAX_WEIGHT: f64 = 1000.0;

/// Fixed-point units per seed of the integer weights.
const ONE: i64 = 1024;

/// One weight per feature, in seeds per unit of the feature; written in agent
/// files as a table keyed by feature name, where a missing feature weighs 0.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(try_from = "BTreeMap<String, f64>", into = "BTreeMap<String, f64>")]
pub struct Weights([f64; FEATURES]);

impl Weights {
    /// Weights from one value per feature, in [`Feature::ALL`] order; refuses
    /// a value that is not finite or beyond ±[`MAX_WEIGHT`], naming the feature.
    pub fn new(values: [f64; FEATURES]) -> Result<Weights, String> {
        for f in Feature::ALL {
            let w = values[f.index()];
            if !(w.is_finite() && w.abs() <= MAX_WEIGHT) {
                return Err(format!(
                    "weights.{} = {w} is out of range: allowed a number from -{MAX_WEIGHT} \
                     to {MAX_WEIGHT}",
                    f.name()
                ));
            }
        }
        Ok(Weights(values))
    }

    /// The weight of `feature`.
    pub fn get(&self, feature: Feature) -> f64 {
        self.0[feature.index()]
    }

    /// All weights, in [`Feature::ALL`] order.
    pub fn values(&self) -> [f64; FEATURES] {
        self.0
    }
}

impl TryFrom<BTreeMap<String, f64>> for Weights {
    type Error = String;

    fn try_from(map: BTreeMap<String, f64>) -> Result<Weights, String> {
        let mut values = [0.0; FEATURES];
        for (name, &w) in &map {
            let Some(f) = Feature::from_name(name) else {
                let known: Vec<&str> = Feature::ALL.iter().map(|f| f.name()).collect();
                return Err(format!(
                    "weights.{name} is not a feature: the features are {}",
                    known.join(", ")
                ));
            };
            values[f.index()] = w;
        }
        Weights::new(values)
    }
}

impl From<Weights> for BTreeMap<String, f64> {
    fn from(w: Weights) -> BTreeMap<String, f64> {
        Feature::ALL
            .iter()
            .map(|f| (f.name().to_string(), w.get(*f)))
            .collect()
    }
}

/// The learned evaluation in its fast form.
#[derive(Debug, Clone, PartialEq)]
pub struct LearnedEval {
    weights: Weights,
    fixed: [i32; FEATURES],
    simulated: bool,
}

impl LearnedEval {
    /// The evaluation with these weights.
    pub fn new(weights: Weights) -> LearnedEval {
        let mut fixed = [0; FEATURES];
        for f in Feature::ALL {
            fixed[f.index()] = (weights.get(f) * ONE as f64).round() as i32;
        }
        let simulated = Feature::ALL
            .iter()
            .any(|f| f.simulated() && fixed[f.index()] != 0);
        LearnedEval {
            weights,
            fixed,
            simulated,
        }
    }

    /// The weights it was built from.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The weighted sum of the features of `pos` (not finished) for its side
    /// to move, rounded to whole seeds and kept within ± the seeds in play.
    #[inline]
    pub fn score(&self, pos: &Position, rules: &Rules) -> Score {
        let mut f = cheap_features(pos, rules.variant);
        if self.simulated {
            let me = pos.side_to_move();
            f[Feature::HandOwn.index()] = hand(pos, me, rules);
            f[Feature::HandOpp.index()] = hand(pos, me.opponent(), rules);
        }
        let sum: i64 = f
            .iter()
            .zip(&self.fixed)
            .map(|(&x, &w)| i64::from(x) * i64::from(w))
            .sum();
        let total = i64::from(pos.total_seeds());
        ((sum + ONE / 2).div_euclid(ONE)).clamp(-total, total) as Score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Variant;

    fn weights(pairs: &[(Feature, f64)]) -> Weights {
        let mut v = [0.0; FEATURES];
        for &(f, w) in pairs {
            v[f.index()] = w;
        }
        Weights::new(v).unwrap()
    }

    #[test]
    fn the_score_is_the_weighted_sum_rounded_to_seeds() {
        let rules = Rules::new(Variant::Ii);
        // Captures +4, threes_opp 2, tempo 1 (see the features' hand-worked
        // position): 4 + 0.5 * 2 + 0.75 = 5.75, rounded to 6.
        let pos: Position = "1,0,3,0,2,0/3,3,0,0,2,0 S 10-6".parse().unwrap();
        let eval = LearnedEval::new(weights(&[
            (Feature::Captures, 1.0),
            (Feature::ThreesOpp, 0.5),
            (Feature::Tempo, 0.75),
        ]));
        assert_eq!(eval.score(&pos, &rules), 6);
        // The simulated features count only when weighted: hand_opp is 4.
        let eval = LearnedEval::new(weights(&[(Feature::HandOpp, -0.5)]));
        assert_eq!(eval.score(&pos, &rules), -2);
        // Scores stay within the seeds in play (30).
        let eval = LearnedEval::new(weights(&[(Feature::Tempo, 999.0)]));
        assert_eq!(eval.score(&pos, &rules), 30);
    }

    #[test]
    fn weights_name_the_bad_key() {
        let mut map = BTreeMap::new();
        map.insert("captures".to_string(), 1.0);
        assert_eq!(
            Weights::try_from(map.clone())
                .unwrap()
                .get(Feature::Captures),
            1.0
        );
        map.insert("seeds_in_pocket".to_string(), 1.0);
        let err = Weights::try_from(map).unwrap_err();
        assert!(
            err.starts_with("weights.seeds_in_pocket is not a feature"),
            "{err}"
        );
        let err = Weights::new([f64::NAN; FEATURES]).unwrap_err();
        assert!(err.starts_with("weights.captures = NaN"), "{err}");
    }
}
