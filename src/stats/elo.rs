//! A score with its interval, turned into the figures engine testers read:
//! logistic Elo, normalized Elo (nElo) and the likelihood of superiority
//! (LOS), from the pentanomial counts of seat-swapped pairs or, for games
//! without a partner, from wins, draws and losses.
//!
//! The two games of a seat-swapped pair share an opening, so they are not
//! independent: the pair is the unit of sampling. The estimate is the normal
//! approximation on the mean score, with the variance of one unit's mean
//! score measured from the counts, exactly as fastchess and Fishtest do:
//!
//! - Source: fastchess (`Disservin/fastchess`),
//!   `app/src/matchmaking/elo/elo_pentanomial.cpp` and `elo_wdl.cpp`:
//!   `score = sum p_i x_i`, `variance = sum p_i (x_i - score)^2` over the
//!   pair scores `x = 0, 1/4, 1/2, 3/4, 1` (or game scores `0, 1/2, 1`),
//!   `score +- 1.96 sqrt(variance / units)`, Elo of each end of that interval,
//!   `nElo = (score - 0.5) / sqrt(2 variance) * 800 / ln 10` for pairs
//!   (`/ sqrt(variance)` for games), and
//!   `LOS = (1 - erf(-(score - 0.5) / sqrt(2 variance / units))) / 2`.
//! - Source: Fishtest (`official-stockfish/fishtest`),
//!   `server/fishtest/stats/stat_util.py` (`stats`, `get_elo`, `elo`): the
//!   same mean and per-game variance, and the clamp of the score to
//!   `[0.001, 0.999]` before taking its Elo, which we follow so that a
//!   clean sweep reads ±1199.6 Elo instead of infinity.
//!
//! Degenerate counts never put NaN or infinity into `summary.json`: no units
//! gives no estimate (`None`); a score of 0 or 1 gives Elo ±1199.6 (the
//! clamp); zero variance (every unit scored alike) gives a zero-width
//! interval, no nElo (`None`, as it divides by the standard deviation) and a
//! LOS of 0, 0.5 or 1.

use serde::Serialize;

use super::normal::normal_cdf;
use super::pairing::{Pentanomial, Wdl};
use super::wilson::{Proportion, Z95};

/// Normalized Elo per unit of t-value (score minus 0.5, over the standard
/// deviation of one game's score): `800 / ln 10`, as Fishtest's
/// `LLRcalc.nelo_divided_by_nt`.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The score is clamped to `[SCORE_CLAMP, 1 - SCORE_CLAMP]` before its Elo
/// is taken (Fishtest `stat_util.elo`), so Elo stays within ±1199.6.
pub const SCORE_CLAMP: f64 = 1e-3;

/// The logistic Elo difference of an expected score:
/// `-400 log10(1 / score - 1)`, the score first clamped to
/// `[0.001, 0.999]` (Fishtest `stat_util.elo`).
pub fn elo_from_score(score: f64) -> f64 {
    let s = score.clamp(SCORE_CLAMP, 1.0 - SCORE_CLAMP);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of a logistic Elo difference:
/// `1 / (1 + 10^(-elo / 400))` (Fishtest `LLRcalc.L_`).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An estimate with its 95% interval, on a scale that is not a proportion.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    /// The point estimate.
    pub value: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl Interval {
    /// Half the width: the "±" figure fastchess prints after the estimate.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// What one independent sample of a [`ScoreEstimate`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SampleUnit {
    /// A seat-swapped pair of games (pentanomial counts).
    Pair,
    /// A single game (trinomial counts: wins, draws and losses).
    Game,
}

/// One agent's score against another with the figures derived from it, all
/// from the agent's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ScoreEstimate {
    /// What an independent sample is.
    pub unit: SampleUnit,
    /// How many samples (pairs or games).
    pub units: u64,
    /// Games counted (twice the pairs for pentanomial counts).
    pub games: u64,
    /// Mean score per game, draws as half points, with the normal 95%
    /// interval `score +- 1.96 standard_error`, clamped to `[0, 1]`.
    pub score: Proportion,
    /// Variance of one unit's mean score per game: of the pair score divided
    /// by 2 for pairs, of the game score for games (divisor `units`, as
    /// fastchess and Fishtest).
    pub variance: f64,
    /// Standard error of the mean score: `sqrt(variance / units)`.
    pub standard_error: f64,
    /// Logistic Elo difference; the interval is the Elo of each end of the
    /// (unclamped) score interval. Within ±1199.6 (see [`SCORE_CLAMP`]).
    pub elo: Interval,
    /// Normalized Elo, `(score - 0.5) / sd_game * 800 / ln 10` where
    /// `sd_game = sqrt(2 variance)` for pairs and `sqrt(variance)` for games,
    /// with the nElo of each end of the score interval. `None` when the
    /// variance is 0.
    pub nelo: Option<Interval>,
    /// Likelihood of superiority: `Phi((score - 0.5) / standard_error)`, the
    /// probability that the agent is the stronger; 1, 0.5 or 0 when the
    /// standard error is 0.
    pub los: f64,
}

impl ScoreEstimate {
    /// The estimate from the pentanomial counts of seat-swapped pairs (the
    /// headline figures of a pairing); `None` when no pair is complete.
    pub fn from_pentanomial(pairs: &Pentanomial) -> Option<ScoreEstimate> {
        let counts: Vec<(f64, u64)> = pairs
            .0
            .iter()
            .enumerate()
            .map(|(k, &n)| (k as f64 / 4.0, n))
            .collect();
        estimate(SampleUnit::Pair, &counts)
    }

    /// The estimate from wins, draws and losses, each game taken as
    /// independent (games without a seat-swapped partner); `None` when no
    /// game was played.
    pub fn from_wdl(wdl: &Wdl) -> Option<ScoreEstimate> {
        let counts = [(0.0, wdl.losses), (0.5, wdl.draws), (1.0, wdl.wins)];
        estimate(SampleUnit::Game, &counts)
    }
}

/// The estimate from the counts of each mean score per game that one unit
/// can have.
fn estimate(unit: SampleUnit, counts: &[(f64, u64)]) -> Option<ScoreEstimate> {
    let units: u64 = counts.iter().map(|&(_, n)| n).sum();
    if units == 0 {
        return None;
    }
    let n = units as f64;
    let score = counts.iter().map(|&(x, c)| x * c as f64).sum::<f64>() / n;
    let variance = counts
        .iter()
        .map(|&(x, c)| c as f64 * (x - score).powi(2))
        .sum::<f64>()
        / n;
    let standard_error = (variance / n).sqrt();
    let (low, high) = (score - Z95 * standard_error, score + Z95 * standard_error);
    let games_per_unit = match unit {
        SampleUnit::Pair => 2,
        SampleUnit::Game => 1,
    };
    // The standard deviation of one game's score, as fastchess's
    // `scoreToNeloDiff`: a pair's mean of two games has half the variance.
    let sd_game = (games_per_unit as f64 * variance).sqrt();
    let nelo = (sd_game > 0.0).then(|| {
        let nelo = |s: f64| (s - 0.5) / sd_game * NELO_PER_T;
        Interval {
            value: nelo(score),
            low: nelo(low),
            high: nelo(high),
        }
    });
    let los = if standard_error > 0.0 {
        normal_cdf((score - 0.5) / standard_error)
    } else if score > 0.5 {
        1.0
    } else if score < 0.5 {
        0.0
    } else {
        0.5
    };
    Some(ScoreEstimate {
        unit,
        units,
        games: units * games_per_unit,
        score: Proportion {
            value: score,
            low: low.clamp(0.0, 1.0),
            high: high.clamp(0.0, 1.0),
        },
        variance,
        standard_error,
        elo: Interval {
            value: elo_from_score(score),
            low: elo_from_score(low),
            high: elo_from_score(high),
        },
        nelo,
        los,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() < tolerance
    }

    #[test]
    fn pentanomial_by_hand() {
        // 10 pairs [1, 2, 3, 3, 1]: pair scores x = 0, .25, .5, .75, 1.
        // score = (0 + 2*.25 + 3*.5 + 3*.75 + 1) / 10 = 5.25 / 10 = 0.525.
        // variance = (1*.525^2 + 2*.275^2 + 3*.025^2 + 3*.225^2 + 1*.475^2)/10
        //          = (.275625 + .15125 + .001875 + .151875 + .225625) / 10
        //          = 0.080625.
        // se = sqrt(0.080625 / 10) = 0.0897914..., 1.96 se = 0.1759880...
        // score interval [0.3490120, 0.7009880].
        // Elo(0.525) = -400 log10(1/0.525 - 1) = 17.3863...
        // nElo = 0.025 / sqrt(2 * 0.080625) * 347.4355855 = 21.6304...
        // LOS = Phi(0.025 / 0.0897914) = Phi(0.278424) = 0.609656...
        let e = ScoreEstimate::from_pentanomial(&Pentanomial([1, 2, 3, 3, 1])).expect("pairs");
        assert_eq!((e.unit, e.units, e.games), (SampleUnit::Pair, 10, 20));
        assert!(close(e.score.value, 0.525, 1e-12));
        assert!(close(e.variance, 0.080625, 1e-12));
        assert!(close(e.standard_error, 0.089_791_424, 1e-8));
        assert!(close(e.score.low, 0.349_012_0, 1e-6), "{e:?}");
        assert!(close(e.score.high, 0.700_988_0, 1e-6), "{e:?}");
        assert!(close(e.elo.value, 17.386_278, 1e-5), "{e:?}");
        assert!(close(e.elo.low, elo_from_score(e.score.low), 1e-9));
        let nelo = e.nelo.expect("variance is positive");
        assert!(close(nelo.value, 21.630_395, 1e-5), "{nelo:?}");
        assert!(close(e.los, 0.609_656, 1e-5), "{e:?}");
    }

    #[test]
    fn wdl_by_hand() {
        // 6 wins, 2 draws, 2 losses: score = 7/10 = 0.7;
        // variance = (6 * .09 + 2 * .04 + 2 * .49) / 10 = 1.6 / 10 = 0.16;
        // se = sqrt(0.016) = 0.1264911; nElo = 0.2 / 0.4 * 347.4356 = 173.7178.
        let e = ScoreEstimate::from_wdl(&Wdl {
            wins: 6,
            draws: 2,
            losses: 2,
        })
        .expect("games");
        assert_eq!((e.unit, e.units, e.games), (SampleUnit::Game, 10, 10));
        assert!(close(e.score.value, 0.7, 1e-12));
        assert!(close(e.variance, 0.16, 1e-12));
        assert!(close(e.standard_error, 0.126_491_1, 1e-7));
        let nelo = e.nelo.expect("variance is positive");
        assert!(close(nelo.value, 173.717_793, 1e-5), "{nelo:?}");
        // Elo(0.7) = 400 log10(7/3) = 147.1907.
        assert!(close(e.elo.value, 147.190_714, 1e-5), "{e:?}");
    }

    #[test]
    fn degenerate_counts_stay_finite() {
        assert!(ScoreEstimate::from_pentanomial(&Pentanomial([0; 5])).is_none());
        assert!(ScoreEstimate::from_wdl(&Wdl::default()).is_none());
        // A clean sweep: variance 0, Elo at the clamp, LOS 1, no nElo.
        let sweep = ScoreEstimate::from_pentanomial(&Pentanomial([0, 0, 0, 0, 7])).expect("pairs");
        let cap = 400.0 * 999f64.log10();
        assert_eq!(sweep.variance, 0.0);
        assert_eq!((sweep.score.low, sweep.score.high), (1.0, 1.0));
        assert!(close(sweep.elo.value, cap, 1e-9) && close(sweep.elo.low, cap, 1e-9));
        assert_eq!((sweep.nelo, sweep.los), (None, 1.0));
        // Every pair split: score 0.5 exactly, LOS 0.5.
        let even = ScoreEstimate::from_pentanomial(&Pentanomial([0, 0, 9, 0, 0])).expect("pairs");
        assert_eq!((even.elo.value, even.los, even.nelo), (0.0, 0.5, None));
        let lost = ScoreEstimate::from_wdl(&Wdl {
            wins: 0,
            draws: 0,
            losses: 3,
        })
        .expect("games");
        assert!(close(lost.elo.value, -cap, 1e-9) && lost.los == 0.0);
        let json = serde_json::to_string(&sweep).expect("serializes");
        assert!(!json.contains("NaN") && !json.contains("inf"), "{json}");
    }

    #[test]
    fn elo_and_score_invert_each_other() {
        for elo in [-600.0, -35.5, 0.0, 10.0, 400.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
        assert_eq!(score_from_elo(400.0), 1.0 / 1.1);
    }
}
