//! Ludii's SkillTrace: how far a game keeps rewarding more search, from a
//! ladder of UCT agents in which each level doubles the playouts of the one
//! below.
//!
//! As `metrics/designer/SkillTrace.java` computes it (Stephenson and
//! Soemers, Ludii): at level `k` (0, 1, ..) the stronger UCT plays the
//! weaker, and its mean result `r_k` is counted with a win 1, a draw 0 and
//! a loss −1 (`2 score − 1`). A least-squares line through `(k, r_k)` is
//! read at `x = L + 1` for `L` levels (Ludii reads it at `numMatches + 1`),
//! clamped to `[0, 1]`: the result the next levels are heading for, `y`.
//! Then `SkillTrace = y + (1 − y) · A / L`, with `A` the sum of
//! `max(r_k, 0)`. A game in which doubled search keeps winning scores near
//! 1; one in which it stops mattering, near 0.
//!
//! Ludii gives no interval. Here it is a percentile bootstrap over the
//! seat-swapped pairs: each level's pairs are drawn again with replacement
//! from its pentanomial counts, `BOOTSTRAP` times, from a ChaCha generator
//! with a fixed seed, so the interval is reproducible.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::elo::Interval;
use super::outcomes::Pentanomial;

/// Bootstrap samples of the interval.
pub const BOOTSTRAP: usize = 2000;

/// The SkillTrace of a ladder of doubling UCT levels.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillTrace {
    /// The metric, with its 95% percentile-bootstrap interval.
    pub value: Interval,
    /// Each level's mean result of the stronger side (win 1, draw 0, loss −1),
    /// from its pairs.
    pub results: Vec<f64>,
    /// The fitted line's slope, per level.
    pub slope: f64,
    /// The fitted line read at `levels + 1`, clamped to `[0, 1]`.
    pub heading: f64,
    /// Pairs per level.
    pub pairs: Vec<u64>,
}

/// The mean result (win 1, draw 0, loss −1) of a level's pairs: a pair's
/// points `k / 2` of 2 make a mean result `k / 2 − 1` per game.
fn mean_result(counts: &[u64; 5]) -> f64 {
    let pairs: u64 = counts.iter().sum();
    if pairs == 0 {
        return 0.0;
    }
    let total: f64 = counts
        .iter()
        .enumerate()
        .map(|(k, &n)| (k as f64 / 2.0 - 1.0) * n as f64)
        .sum();
    total / pairs as f64
}

/// Ludii's formula over the levels' results: the line's slope, where it
/// heads, and the metric.
pub fn skill_trace_of(results: &[f64]) -> (f64, f64, f64) {
    let n = results.len() as f64;
    if results.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let mean_x = (n - 1.0) / 2.0;
    let mean_y = results.iter().sum::<f64>() / n;
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for (k, &y) in results.iter().enumerate() {
        let dx = k as f64 - mean_x;
        sxy += dx * (y - mean_y);
        sxx += dx * dx;
    }
    let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    let heading = (mean_y + slope * (n + 1.0 - mean_x)).clamp(0.0, 1.0);
    let area: f64 = results.iter().map(|r| r.max(0.0)).sum();
    (slope, heading, heading + (1.0 - heading) * area / n)
}

/// The SkillTrace of levels given weakest first, each by its pentanomial
/// counts from the stronger side's point of view; `None` without a level or
/// with a level of no pair.
pub fn skill_trace(levels: &[Pentanomial], seed: u64) -> Option<SkillTrace> {
    if levels.is_empty() || levels.iter().any(|l| l.0.iter().sum::<u64>() == 0) {
        return None;
    }
    let results: Vec<f64> = levels.iter().map(|l| mean_result(&l.0)).collect();
    let (slope, heading, value) = skill_trace_of(&results);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut samples = Vec::with_capacity(BOOTSTRAP);
    let mut drawn = vec![0.0; levels.len()];
    for _ in 0..BOOTSTRAP {
        for (level, out) in levels.iter().zip(drawn.iter_mut()) {
            let pairs: u64 = level.0.iter().sum();
            let mut counts = [0u64; 5];
            for _ in 0..pairs {
                let mut pick = rng.random_range(0..pairs);
                let cell = level
                    .0
                    .iter()
                    .position(|&n| {
                        if pick < n {
                            true
                        } else {
                            pick -= n;
                            false
                        }
                    })
                    .expect("pick < pairs");
                counts[cell] += 1;
            }
            *out = mean_result(&counts);
        }
        samples.push(skill_trace_of(&drawn).2);
    }
    samples.sort_by(f64::total_cmp);
    let at = |q: f64| samples[((q * (BOOTSTRAP - 1) as f64).round() as usize).min(BOOTSTRAP - 1)];
    Some(SkillTrace {
        value: Interval {
            value,
            low: at(0.025),
            high: at(0.975),
        },
        results,
        slope,
        heading,
        pairs: levels.iter().map(|l| l.0.iter().sum()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ludii's arithmetic on a worked case: results 0.8, 0.6, 0.4, 0.2 fit
    /// the line 0.8 − 0.2 k, which at k = 5 is −0.2, clamped to 0; the
    /// metric is then the mean positive result, 0.5.
    #[test]
    fn a_falling_trace_is_its_mean_positive_result() {
        let (slope, heading, value) = skill_trace_of(&[0.8, 0.6, 0.4, 0.2]);
        assert!((slope + 0.2).abs() < 1e-12);
        assert_eq!(heading, 0.0);
        assert!((value - 0.5).abs() < 1e-12);
    }

    /// A flat trace at 0.5 heads for 0.5: `0.5 + 0.5 × 0.5 = 0.75`; levels
    /// that lose count as 0 in the area, and a rising trace is clamped at 1.
    #[test]
    fn a_flat_trace_heads_for_its_level_and_losses_add_nothing() {
        let (_, heading, value) = skill_trace_of(&[0.5, 0.5, 0.5]);
        assert!((heading - 0.5).abs() < 1e-12);
        assert!((value - 0.75).abs() < 1e-12);
        let (_, _, with_losses) = skill_trace_of(&[-0.5, 0.5, 1.5]);
        assert_eq!(with_losses, 1.0);
    }

    /// A level's result is (wins − losses) / games: 10 pairs won twice and
    /// 10 split make 0.5; the bootstrap brackets the value, is the same
    /// from the same seed, and is a point when no pair varies.
    #[test]
    fn levels_count_wins_minus_losses_and_the_bootstrap_brackets_the_value() {
        let level = Pentanomial([0, 0, 10, 0, 10]);
        assert!((mean_result(&level.0) - 0.5).abs() < 1e-12);
        let levels = [
            Pentanomial([5, 10, 40, 20, 25]),
            Pentanomial([10, 10, 50, 15, 15]),
            Pentanomial([15, 15, 40, 15, 15]),
        ];
        let trace = skill_trace(&levels, 7).expect("levels");
        assert!(trace.value.low < trace.value.value && trace.value.value < trace.value.high);
        assert_eq!(skill_trace(&levels, 7), Some(trace));
        let fixed = skill_trace(&[Pentanomial([0, 0, 0, 0, 9]); 3], 1).expect("levels");
        assert_eq!(fixed.value.low, fixed.value.high);
        assert_eq!(fixed.value.value, 1.0);
        assert!(skill_trace(&[Pentanomial::default()], 1).is_none());
    }
}
