//! A mean score over games that come in clusters, with an interval that
//! treats the cluster, not the game, as the independent sample.
//!
//! The first-player advantage is South's mean score over games, but the two
//! games of a seat-swapped pair share their opening, and an opening that
//! favours South does so in both: the games of a pair are positively
//! correlated in South's score, and an interval that counts them as
//! independent is too narrow. Here each pair is one cluster.
//!
//! The mean is the ratio estimator `m = sum_g y_g / sum_g n_g` (cluster
//! scores `y_g` over cluster sizes `n_g`), which is least squares of the game
//! scores on a constant, and its variance is the cluster-robust (sandwich)
//! variance with the usual small-sample factor (CR1):
//! `V = G / (G - 1) * sum_g (y_g - m n_g)^2 / N^2` over `G` clusters and `N`
//! games. The interval is `m +- 1.96 sqrt(V)` where it lies inside
//! `[0, 1]`. At the edges (every cluster scored alike, so `V = 0`, or an
//! interval that would leave `[0, 1]`, as a share of none or of all games
//! gives) the normal interval says nothing true, and the interval is
//! Wilson's on the clusters instead: the mean as a proportion of `G`
//! trials, which is conservative (a pair counts as one trial, not two).
//! Source: A. C. Cameron & D. L. Miller, "A Practitioner's Guide to
//! Cluster-Robust Inference", Journal of Human Resources 50 (2015) 317-372,
//! sections II.B-C and VI.A (the factor `G / (G - 1)`; their
//! `(N - 1) / (N - K)` is 1 for the one regressor here). With few clusters
//! they advise a `t(G - 1)` quantile; we keep 1.96 as every other interval in
//! the report does, which is slightly narrow below about 30 pairs.
//!
//! The sum of squared residuals expands into
//! `S_yy - 2 m S_yn + m^2 S_nn`, so five running sums in one streaming pass
//! suffice, O(1) memory per pairing. Scores are counted in half points, so
//! the sums are integers, exact, and the same whatever order accumulators are
//! merged in.

use std::ops::AddAssign;

use serde::{Deserialize, Serialize};

use super::wilson::{wilson, Proportion, Z95};

/// The running sums of a clustered mean score; see the module doc.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClusteredMean {
    /// Clusters added (`G`).
    clusters: u64,
    /// Games in them (`N = sum n_g`).
    games: u64,
    /// Sum of the cluster scores in half points (`sum 2 y_g`).
    half_points: u64,
    /// Sum of the squared cluster scores in half points (`sum (2 y_g)^2`).
    half_points_squared: u64,
    /// Sum of cluster score in half points times cluster size
    /// (`sum 2 y_g n_g`).
    half_points_by_games: u64,
    /// Sum of the squared cluster sizes (`sum n_g^2`).
    games_squared: u64,
}

impl ClusteredMean {
    /// No clusters yet.
    pub fn new() -> ClusteredMean {
        ClusteredMean::default()
    }

    /// Adds one cluster of `games` games that scored `half_points` half
    /// points in all (a win is 2, a draw 1), at most `2 * games`. An empty
    /// cluster is ignored.
    pub fn add_cluster(&mut self, half_points: u64, games: u64) {
        debug_assert!(
            half_points <= 2 * games,
            "a game scores at most 2 half points"
        );
        if games == 0 {
            return;
        }
        self.clusters += 1;
        self.games += games;
        self.half_points += half_points;
        self.half_points_squared += half_points * half_points;
        self.half_points_by_games += half_points * games;
        self.games_squared += games * games;
    }

    /// Clusters added.
    pub fn clusters(&self) -> u64 {
        self.clusters
    }

    /// Games in the clusters.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The mean score per game, draws as half points; 0.5 with no games.
    pub fn mean(&self) -> f64 {
        if self.games == 0 {
            return 0.5;
        }
        self.half_points as f64 / (2.0 * self.games as f64)
    }

    /// The sum of squared cluster residuals `sum_g (y_g - m n_g)^2`, in
    /// points squared. Computed exactly in integers as
    /// `(N^2 S_YY - 2 Y N S_Yn + Y^2 S_nn) / (4 N^2)` with `Y` in half
    /// points, falling back to floating point past 128 bits.
    fn squared_residuals(&self) -> f64 {
        let n = u128::from(self.games);
        let y = u128::from(self.half_points);
        let exact = (|| {
            let plus = n
                .checked_mul(n)?
                .checked_mul(u128::from(self.half_points_squared))?
                .checked_add(
                    y.checked_mul(y)?
                        .checked_mul(u128::from(self.games_squared))?,
                )?;
            let minus = y
                .checked_mul(n)?
                .checked_mul(u128::from(self.half_points_by_games))?
                .checked_mul(2)?;
            // A sum of squares times N^2: never negative.
            Some(plus.saturating_sub(minus) as f64)
        })();
        let n = n as f64;
        match exact {
            Some(numerator) => numerator / (4.0 * n * n),
            None => {
                let m = self.mean();
                let residuals = self.half_points_squared as f64 / 4.0
                    - m * self.half_points_by_games as f64
                    + m * m * self.games_squared as f64;
                residuals.max(0.0)
            }
        }
    }

    /// The cluster-robust (CR1) standard error of the mean; `None` with
    /// fewer than two clusters, where it cannot be estimated.
    pub fn standard_error(&self) -> Option<f64> {
        if self.clusters < 2 {
            return None;
        }
        let g = self.clusters as f64;
        let n = self.games as f64;
        let variance = g / (g - 1.0) * self.squared_residuals() / (n * n);
        Some(variance.sqrt())
    }

    /// The mean with its 95% cluster-robust interval, or Wilson's on the
    /// clusters at an edge (see the module's documentation); the
    /// uninformative `[0, 1]` with fewer than two clusters.
    pub fn interval(&self) -> Proportion {
        let value = self.mean();
        match self.standard_error() {
            Some(se) => {
                let (low, high) = (value - Z95 * se, value + Z95 * se);
                if se > 0.0 && low >= 0.0 && high <= 1.0 {
                    Proportion { value, low, high }
                } else {
                    Proportion {
                        value,
                        ..wilson(value * self.clusters as f64, self.clusters, Z95)
                    }
                }
            }
            None => Proportion {
                value,
                low: 0.0,
                high: 1.0,
            },
        }
    }
}

impl AddAssign for ClusteredMean {
    fn add_assign(&mut self, other: ClusteredMean) {
        self.clusters += other.clusters;
        self.games += other.games;
        self.half_points += other.half_points;
        self.half_points_squared += other.half_points_squared;
        self.half_points_by_games += other.half_points_by_games;
        self.games_squared += other.games_squared;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn four_pairs_by_hand() {
        // South's points in four pairs of two games: 2, 1, 1.5, 0.5.
        // N = 8 games, 5 points: m = 0.625; residuals y - 2m = 0.75, -0.25,
        // 0.25, -0.75; squares sum to 1.25;
        // V = 4/3 * 1.25 / 64 = 0.026041666..., se = 0.16137431...
        // 1.96 se = 0.31628...: [0.30871, 0.94129].
        let mut m = ClusteredMean::new();
        for half_points in [4, 2, 3, 1] {
            m.add_cluster(half_points, 2);
        }
        assert_eq!((m.clusters(), m.games()), (4, 8));
        assert!(close(m.mean(), 0.625));
        let se = m.standard_error().expect("four clusters");
        assert!(close(se * se, 1.25 / 48.0), "{se}");
        let p = m.interval();
        assert!(close(p.low, 0.625 - Z95 * (1.25f64 / 48.0).sqrt()), "{p:?}");
        assert!((p.low - 0.30871).abs() < 1e-5 && (p.high - 0.94129).abs() < 1e-5);
    }

    #[test]
    fn unequal_clusters_match_the_textbook_sum() {
        // Second implementation: the residual sum taken cluster by cluster.
        let clusters: [(u64, u64); 6] = [(3, 2), (0, 1), (6, 3), (2, 2), (5, 4), (1, 1)];
        let mut m = ClusteredMean::new();
        clusters.iter().for_each(|&(y, n)| m.add_cluster(y, n));
        let n: f64 = clusters.iter().map(|&(_, n)| n as f64).sum();
        let mean = clusters.iter().map(|&(y, _)| y as f64 / 2.0).sum::<f64>() / n;
        let residuals: f64 = clusters
            .iter()
            .map(|&(y, size)| (y as f64 / 2.0 - mean * size as f64).powi(2))
            .sum();
        let want = (6.0 / 5.0 * residuals / (n * n)).sqrt();
        assert!(close(m.mean(), mean));
        assert!(close(m.standard_error().expect("six clusters"), want));
    }

    #[test]
    fn merging_is_adding_clusters() {
        let (mut a, mut b, mut all) = (
            ClusteredMean::new(),
            ClusteredMean::new(),
            ClusteredMean::new(),
        );
        for (i, y) in [4u64, 0, 2, 3, 1, 2, 4].into_iter().enumerate() {
            if i % 2 == 0 {
                a.add_cluster(y, 2)
            } else {
                b.add_cluster(y, 2)
            }
            all.add_cluster(y, 2);
        }
        a += b;
        assert_eq!(a, all);
    }

    #[test]
    fn correlated_pairs_widen_the_interval() {
        // Every pair is won by South twice or lost twice: the pairs vary as
        // much as the games, so the clustered se is sqrt 2 times the
        // independent-games se sqrt(p (1 - p) / N) (times sqrt(G / (G - 1))).
        let mut m = ClusteredMean::new();
        for y in [4, 0, 4, 0, 4, 0, 4, 4] {
            m.add_cluster(y, 2);
        }
        // South scores 10 of 16: p = 0.625.
        let independent = (0.625f64 * 0.375 / 16.0).sqrt();
        let se = m.standard_error().expect("clusters");
        assert!(close(se, independent * (2.0f64 * 8.0 / 7.0).sqrt()), "{se}");
    }

    #[test]
    fn too_few_clusters_are_uninformative() {
        let empty = ClusteredMean::new().interval();
        assert_eq!((empty.value, empty.low, empty.high), (0.5, 0.0, 1.0));
        let mut one = ClusteredMean::new();
        one.add_cluster(3, 2);
        one.add_cluster(0, 0);
        assert_eq!(one.clusters(), 1);
        assert_eq!(one.standard_error(), None);
        let p = one.interval();
        assert_eq!((p.value, p.low, p.high), (0.75, 0.0, 1.0));
        // All clusters alike: zero standard error, but a real interval.
        let mut same = ClusteredMean::new();
        (0..5).for_each(|_| same.add_cluster(2, 2));
        assert_eq!(same.standard_error(), Some(0.0));
        let p = same.interval();
        assert!(p.low < 0.5 && p.high > 0.5, "{p:?}");
    }

    #[test]
    fn a_share_of_none_gets_wilsons_interval_on_the_clusters() {
        // 73 clusters that all scored 0 (reports/default: `0.000 [0.000,
        // 0.000] (73 games)`): Wilson's [0, 1.96^2 / (73 + 1.96^2)].
        let mut none = ClusteredMean::new();
        (0..73).for_each(|_| none.add_cluster(0, 1));
        let p = none.interval();
        assert_eq!((p.value, p.low), (0.0, 0.0));
        assert!(close(p.high, Z95 * Z95 / (73.0 + Z95 * Z95)), "{p:?}");
        // One win in 40 pairs: the normal interval would leave [0, 1].
        let mut rare = ClusteredMean::new();
        rare.add_cluster(1, 2);
        (0..39).for_each(|_| rare.add_cluster(0, 2));
        let p = rare.interval();
        assert_eq!(
            p,
            Proportion {
                value: 1.0 / 160.0,
                ..wilson(40.0 / 160.0, 40, Z95)
            }
        );
        assert!(p.low > 0.0);
    }
}
