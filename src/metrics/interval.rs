//! A ratio of sums over clusters of games, with an interval that treats the
//! seat-swapped pair, not the game, as the independent sample: the estimator
//! of every aggregated design metric.
//!
//! A metric is `R = sum_g y_g / sum_g x_g` over pairs `g`, where `y_g` and
//! `x_g` are the pair's summed per-game values (a mean over games has
//! `x = 1` per game; a rate per ply has `x` = plies). Its variance is the
//! linearised (delta-method) variance of a ratio estimator under cluster
//! sampling with the small-sample factor `G / (G - 1)`:
//! `V = G / (G - 1) * sum_g (y_g - R x_g)^2 / (sum_g x_g)^2`.
//! Source: W. G. Cochran, "Sampling Techniques", 3rd ed., Wiley 1977,
//! section 6.4 (variance of the ratio estimate) and 9A.2 (clusters of unequal
//! size); the same estimator as `crate::stats::ClusteredMean` (Cameron &
//! Miller 2015, CR1), for real-valued measures. The interval is
//! `R +- 1.96 sqrt(V)`. Five running sums suffice, so memory is O(1) per
//! pairing whatever the number of games: a documented analytic interval in
//! place of a bootstrap, which would have to keep every pair.

use serde::Serialize;

/// The 95% normal quantile used by every interval of the report.
const Z95: f64 = 1.959_963_984_540_054;

/// The share of the squared values below which a sum of squared residuals
/// is rounding residue: the expansion loses about 16 digits of the sums.
const RESIDUE: f64 = 1e-12;

/// The running sums of a clustered ratio.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RatioSums {
    clusters: u64,
    x: f64,
    y: f64,
    xx: f64,
    yy: f64,
    xy: f64,
}

impl RatioSums {
    /// Adds one cluster with summed values `x` (the denominator) and `y`.
    /// A cluster with `x = 0` (a pair with no decisive game, for a metric
    /// over decisive games) still counts as a cluster.
    pub fn add(&mut self, x: f64, y: f64) {
        self.clusters += 1;
        self.x += x;
        self.y += y;
        self.xx += x * x;
        self.yy += y * y;
        self.xy += x * y;
    }

    /// Clusters added.
    pub fn clusters(&self) -> u64 {
        self.clusters
    }

    /// The estimate with its 95% interval; `None` when the denominator is
    /// 0 (nothing to measure). With one cluster the interval is the point.
    pub fn estimate(&self) -> Option<Estimate> {
        if self.x <= 0.0 {
            return None;
        }
        let r = self.y / self.x;
        let g = self.clusters as f64;
        let se = if self.clusters < 2 {
            0.0
        } else {
            // The sum of squared residuals, expanded; where every cluster
            // has the same ratio it is 0 up to rounding (3e-10 on 4 pairs
            // of equal capture rates), which is no spread: counted as 0, so
            // that the estimate has no interval rather than a false one.
            let ss = self.yy - 2.0 * r * self.xy + r * r * self.xx;
            let scale = self.yy + r * r * self.xx;
            let ss = if ss <= RESIDUE * scale { 0.0 } else { ss };
            (g / (g - 1.0) * ss).sqrt() / self.x
        };
        Some(Estimate::normal(r, se))
    }
}

/// A value with its standard error and 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    /// The estimate.
    pub value: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// The standard error.
    pub se: f64,
}

impl Estimate {
    /// `value +- 1.96 se`.
    pub fn normal(value: f64, se: f64) -> Estimate {
        Estimate {
            value,
            low: value - Z95 * se,
            high: value + Z95 * se,
            se,
        }
    }

    /// `b - a` for independent estimates: standard errors add in quadrature.
    pub fn difference(a: &Estimate, b: &Estimate) -> Estimate {
        Estimate::normal(b.value - a.value, a.se.hypot(b.se))
    }

    /// `b - a` for two independent shares, from their own intervals by
    /// Newcombe's hybrid score method (R. G. Newcombe, "Interval estimation
    /// for the difference between independent proportions", Statistics in
    /// Medicine 17 (1998), method 10): the distances to each end added in
    /// quadrature. Where the shares' intervals are Wilson's (a count of none
    /// or of all) the difference gets a real interval, never `[0, 0]`.
    pub fn share_difference(a: &Estimate, b: &Estimate) -> Estimate {
        let d = b.value - a.value;
        Estimate {
            value: d,
            low: d - (b.value - b.low).hypot(a.high - a.value),
            high: d + (b.high - b.value).hypot(a.value - a.low),
            se: a.se.hypot(b.se),
        }
    }

    /// Ludii's Balance from the estimate `d` of P(South wins) - P(North
    /// wins): `1 - |d|`, its interval the image of `d`'s (1 at most, reached
    /// when `d`'s interval holds 0).
    pub fn balance(d: &Estimate) -> Estimate {
        let (lo, hi) = (d.low.abs(), d.high.abs());
        let far = lo.max(hi);
        let near = if d.low <= 0.0 && d.high >= 0.0 {
            0.0
        } else {
            lo.min(hi)
        };
        Estimate {
            value: 1.0 - d.value.abs(),
            low: (1.0 - far).max(0.0),
            high: 1.0 - near,
            se: d.se,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clusters_with_one_ratio_have_no_spread() {
        // Four pairs with the same capture rate (1 capture in 13 plies) but
        // different lengths, as III 2x6 from the start had: the expanded
        // residuals leave about 5e-13, a standard error near 6e-10, and
        // the report printed `0.077 [0.077, 0.077]`.
        let mut s = RatioSums::default();
        for (plies, captures) in [(104.0, 8.0), (156.0, 12.0), (364.0, 28.0), (572.0, 44.0)] {
            s.add(plies, captures);
        }
        let e = s.estimate().unwrap();
        assert_eq!(e.se, 0.0, "{e:?}");
        assert_eq!((e.low, e.high), (e.value, e.value));
    }

    #[test]
    fn the_ratio_and_its_interval_match_a_hand_computation() {
        // Three pairs: (x, y) = (2, 1), (2, 2), (2, 0): R = 3 / 6 = 0.5.
        let mut s = RatioSums::default();
        for (x, y) in [(2.0, 1.0), (2.0, 2.0), (2.0, 0.0)] {
            s.add(x, y);
        }
        let e = s.estimate().unwrap();
        assert_eq!(e.value, 0.5);
        // Residuals y - R x: 0, 1, -1; V = 3/2 * 2 / 36 = 1/12.
        assert!((e.se - (1.0f64 / 12.0).sqrt()).abs() < 1e-12);
        assert!((e.high - 0.5 - Z95 * e.se).abs() < 1e-12);
        assert_eq!(RatioSums::default().estimate(), None);
    }

    #[test]
    fn balance_folds_the_interval_at_zero() {
        let b = Estimate::balance(&Estimate {
            value: 0.1,
            low: -0.05,
            high: 0.25,
            se: 0.0,
        });
        assert!((b.value - 0.9).abs() < 1e-12);
        assert!((b.low - 0.75).abs() < 1e-12);
        assert_eq!(b.high, 1.0);
        let b = Estimate::balance(&Estimate {
            value: -0.2,
            low: -0.3,
            high: -0.1,
            se: 0.0,
        });
        assert!((b.low - 0.7).abs() < 1e-12 && (b.high - 0.9).abs() < 1e-12);
    }

    #[test]
    fn a_difference_of_two_shares_of_none_is_not_zero_width() {
        let none = Estimate {
            value: 0.0,
            low: 0.0,
            high: 0.003,
            se: 0.0,
        };
        let d = Estimate::share_difference(&none, &none);
        assert_eq!(d.value, 0.0);
        assert!(
            (d.low + 0.003).abs() < 1e-12 && (d.high - 0.003).abs() < 1e-12,
            "{d:?}"
        );
    }
}
