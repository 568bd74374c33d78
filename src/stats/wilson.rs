//! The Wilson score interval for a proportion: unlike the normal ("Wald")
//! interval it stays inside [0, 1] and keeps its coverage near 0 and 1 and
//! for small samples, which is where lopsided pairings and short runs live.
//!
//! Source: E. B. Wilson, "Probable inference, the law of succession, and
//! statistical inference", JASA 22 (1927) 209-212; see also Brown, Cai &
//! DasGupta, "Interval estimation for a binomial proportion", Statistical
//! Science 16 (2001).

use serde::Serialize;

/// The standard normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Proportion {
    /// The point estimate.
    pub value: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl Proportion {
    /// The same estimate and interval moved by `delta` (first-player advantage
    /// is South's score minus 0.5).
    pub fn shifted(self, delta: f64) -> Proportion {
        Proportion {
            value: self.value + delta,
            low: self.low + delta,
            high: self.high + delta,
        }
    }
}

/// The proportion `successes / trials` with its Wilson interval at normal
/// quantile `z`. `successes` may be fractional: a score with draws as half
/// points is treated as a proportion of `trials` games, which is slightly
/// conservative because draws lower the variance. With no trials the estimate
/// is the uninformative 0.5 in [0, 1].
pub fn wilson(successes: f64, trials: u64, z: f64) -> Proportion {
    if trials == 0 {
        return Proportion {
            value: 0.5,
            low: 0.0,
            high: 1.0,
        };
    }
    let n = trials as f64;
    let p = (successes / n).clamp(0.0, 1.0);
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At p = 0 and 1 the bound is 0 or 1 exactly (not a rounding residue).
    Proportion {
        value: p,
        low: if p <= 0.0 {
            0.0
        } else {
            (centre - half).max(0.0)
        },
        high: if p >= 1.0 {
            1.0
        } else {
            (centre + half).min(1.0)
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-5
    }

    #[test]
    fn half_of_ten() {
        // Textbook value: 5 of 10 gives [0.2366, 0.7634].
        let p = wilson(5.0, 10, Z95);
        assert!(close(p.low, 0.2366) && close(p.high, 0.7634), "{p:?}");
    }

    #[test]
    fn none_and_all_stay_inside_the_unit_interval() {
        let none = wilson(0.0, 10, Z95);
        assert!(none.low == 0.0 && close(none.high, 0.2775), "{none:?}");
        let all = wilson(10.0, 10, Z95);
        assert!(close(all.low, 0.7225) && close(all.high, 1.0), "{all:?}");
    }

    #[test]
    fn no_trials_is_uninformative() {
        let p = wilson(0.0, 0, Z95);
        assert_eq!((p.value, p.low, p.high), (0.5, 0.0, 1.0));
    }
}
