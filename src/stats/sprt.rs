//! The sequential probability ratio test that stops a two-agent experiment as
//! soon as the answer is known: H0 (the Elo difference is `elo0`) or H1 (it
//! is `elo1`), with error rates `alpha` and `beta`, on the pentanomial counts
//! of seat-swapped pairs.
//!
//! It is the generalized SPRT of Fishtest and fastchess: the log-likelihood
//! ratio of the maximum-likelihood pentanomial distributions whose expected
//! score (logistic model) or t-value (normalized model) is that of `elo0`
//! and of `elo1`, given the observed frequencies.
//!
//! - Source: Fishtest (`official-stockfish/fishtest`),
//!   `server/fishtest/stats/LLRcalc.py`: `regularize` (a zero count becomes
//!   0.001), `results_to_pdf` (pair scores 0, 1/4, .., 1), `secular`,
//!   `MLE_expected`, `MLE_t_value` (10 fixed-point iterations from the
//!   uniform distribution, stopped when no probability moves by 1e-9),
//!   `LLR_logistic` and `LLR_normalized` (`t = sqrt 2 * nElo / (800 / ln 10)`
//!   for pairs); the theory is M. Van den Bergh's notes
//!   "support_MLE_multinomial.pdf" (Proposition 1.1) and
//!   "normalized_elo_practical.pdf" (Section 4.1) on cantate.be/Fishtest.
//!   Fishtest's `brentq` root finder is replaced by bisection to 1e-15 on
//!   the same bracket, which finds the same root.
//! - Source: fastchess (`Disservin/fastchess`),
//!   `app/src/matchmaking/sprt/sprt.cpp`: the same two models, the bounds
//!   `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`, and the decision
//!   `llr >= upper` accepts H1, `llr <= lower` accepts H0. Like fastchess,
//!   and unlike Fishtest's server, no dynamic overshoot correction is made:
//!   the test is checked after every pair, so the overshoot is small.
//!
//! Where Fishtest's fixed-point iteration for the normalized model has no
//! root or does not converge (it raises an error there; it happens for
//! bounds beyond about ±230 nElo), the LLR is Fishtest's closed-form
//! approximation `LLR_normalized_alt` (same notes, Section 4.2) instead.
//! With no complete pair the LLR is 0.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::elo::{score_from_elo, NELO_PER_T};
use super::outcomes::Pentanomial;

/// Which Elo the bounds `elo0` and `elo1` are measured in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtModel {
    /// Normalized Elo (nElo): the score's distance from 0.5 in standard
    /// deviations of a game's score, so the bounds mean the same effort
    /// whatever the draw rate. Fishtest's default.
    #[default]
    Normalized,
    /// Logistic Elo: the expected score is `1 / (1 + 10^(-elo / 400))`.
    Logistic,
}

/// The test as written in an experiment's `[sprt]` table; checked into an
/// [`Sprt`] by [`Sprt::new`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtConfig {
    /// The Elo difference of H0 (in the model's Elo).
    pub elo0: f64,
    /// The Elo difference of H1, greater than `elo0`.
    pub elo1: f64,
    /// The largest chance of accepting H1 when H0 holds; 0.05 if left out.
    #[serde(default = "default_error_rate")]
    pub alpha: f64,
    /// The largest chance of accepting H0 when H1 holds; 0.05 if left out.
    #[serde(default = "default_error_rate")]
    pub beta: f64,
    /// The Elo model of the bounds; normalized if left out.
    #[serde(default)]
    pub model: SprtModel,
}

fn default_error_rate() -> f64 {
    0.05
}

/// The largest magnitude accepted for `elo0` and `elo1`: beyond it the
/// logistic score is within 0.3% of 0 or 1 and the question is not one for a
/// sequential test.
pub const MAX_SPRT_ELO: f64 = 1000.0;

/// Why an [`SprtConfig`] is refused.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum SprtError {
    /// `alpha` is not strictly between 0 and 0.5.
    #[error("alpha must lie strictly between 0 and 0.5, got {0}")]
    Alpha(f64),
    /// `beta` is not strictly between 0 and 0.5.
    #[error("beta must lie strictly between 0 and 0.5, got {0}")]
    Beta(f64),
    /// A bound is not a number within ±[`MAX_SPRT_ELO`].
    #[error("elo0 and elo1 must be numbers within ±1000, got {0}")]
    EloRange(f64),
    /// `elo0` is not below `elo1`.
    #[error("elo0 ({elo0}) must be less than elo1 ({elo1})")]
    EloOrder {
        /// The H0 bound given.
        elo0: f64,
        /// The H1 bound given.
        elo1: f64,
    },
}

/// What the test says after the pairs counted so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SprtDecision {
    /// H0 accepted: the difference is `elo0` or less; stop.
    H0,
    /// H1 accepted: the difference is `elo1` or more; stop.
    H1,
    /// Neither bound reached: play on (or inconclusive at the cap).
    #[serde(rename = "continue")]
    Continue,
}

/// The state of the test on some pentanomial counts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SprtStatus {
    /// The log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// `ln(beta / (1 - alpha))`: at or below it H0 is accepted.
    pub lower_bound: f64,
    /// `ln((1 - beta) / alpha)`: at or above it H1 is accepted.
    pub upper_bound: f64,
    /// Complete pairs counted.
    pub pairs: u64,
    /// The decision.
    pub decision: SprtDecision,
}

/// A checked SPRT: the bounds are ordered and the error rates sensible.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    config: SprtConfig,
}

impl Sprt {
    /// Checks a configuration: `alpha` and `beta` strictly between 0 and
    /// 0.5, `elo0 < elo1`, both within ±1000.
    pub fn new(config: SprtConfig) -> Result<Sprt, SprtError> {
        let in_range = |rate: f64| rate > 0.0 && rate < 0.5;
        if !in_range(config.alpha) {
            return Err(SprtError::Alpha(config.alpha));
        }
        if !in_range(config.beta) {
            return Err(SprtError::Beta(config.beta));
        }
        for elo in [config.elo0, config.elo1] {
            if elo.is_nan() || elo.abs() > MAX_SPRT_ELO {
                return Err(SprtError::EloRange(elo));
            }
        }
        if config.elo0 >= config.elo1 {
            return Err(SprtError::EloOrder {
                elo0: config.elo0,
                elo1: config.elo1,
            });
        }
        Ok(Sprt { config })
    }

    /// The configuration it was made from.
    pub fn config(&self) -> SprtConfig {
        self.config
    }

    /// `ln(beta / (1 - alpha))`.
    pub fn lower_bound(&self) -> f64 {
        (self.config.beta / (1.0 - self.config.alpha)).ln()
    }

    /// `ln((1 - beta) / alpha)`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.config.beta) / self.config.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 on `pairs`, from the point
    /// of view of the agent whose Elo difference is tested.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        let SprtConfig {
            elo0, elo1, model, ..
        } = self.config;
        match model {
            SprtModel::Logistic => llr_logistic(elo0, elo1, pairs),
            SprtModel::Normalized => llr_normalized(elo0, elo1, pairs),
        }
    }

    /// The test's state and decision on `pairs`.
    pub fn status(&self, pairs: &Pentanomial) -> SprtStatus {
        let llr = self.llr(pairs);
        let (lower_bound, upper_bound) = (self.lower_bound(), self.upper_bound());
        let decision = if llr >= upper_bound {
            SprtDecision::H1
        } else if llr <= lower_bound {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        };
        SprtStatus {
            llr,
            lower_bound,
            upper_bound,
            pairs: pairs.pairs(),
            decision,
        }
    }
}

/// A discrete distribution: (value, probability) couples.
type Pdf = Vec<(f64, f64)>;

/// Fishtest `results_to_pdf` after `regularize`: the number of pairs (zero
/// counts taken as 0.001) and the empirical distribution of the pair score
/// over 2 (0, 1/4, 1/2, 3/4, 1).
fn results_to_pdf(pairs: &Pentanomial) -> (f64, Pdf) {
    let counts = pairs.0.map(|n| if n == 0 { 1e-3 } else { n as f64 });
    let total: f64 = counts.iter().sum();
    let last = (counts.len() - 1) as f64;
    let pdf = counts
        .iter()
        .enumerate()
        .map(|(i, &n)| (i as f64 / last, n / total))
        .collect();
    (total, pdf)
}

/// Fishtest `stats`: mean and variance of a distribution.
fn mean_variance(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mean: f64 = pdf.iter().map(|&(a, p)| a * p).sum();
    let variance = pdf.iter().map(|&(a, p)| p * (a - mean).powi(2)).sum();
    (mean, variance)
}

/// Fishtest `secular`: the root `x` of `sum_i p_i a_i / (1 + x a_i) = 0` in
/// `(-1 / max a, -1 / min a)`, where the left side falls from +inf to -inf.
/// `None` when the values do not straddle zero.
fn secular(pdf: &[(f64, f64)]) -> Option<f64> {
    let v = pdf.iter().map(|&(a, _)| a).fold(f64::INFINITY, f64::min);
    let w = pdf
        .iter()
        .map(|&(a, _)| a)
        .fold(f64::NEG_INFINITY, f64::max);
    if v.is_nan() || w.is_nan() || v * w >= 0.0 {
        return None;
    }
    let f = |x: f64| -> f64 { pdf.iter().map(|&(a, p)| p * a / (1.0 + x * a)).sum() };
    let (mut low, mut high) = (-1.0 / w, -1.0 / v);
    // Brackets are a few units wide: 1e-15 is the root to double precision
    // in about 55 halvings (Fishtest's brentq stops at 2e-12).
    while high - low > 1e-15 {
        let mid = 0.5 * (low + high);
        if mid <= low || mid >= high {
            break;
        }
        if f(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    Some(0.5 * (low + high))
}

/// Fishtest `MLE_expected`: the distribution on the same values that is most
/// likely given `pdfhat` among those with expectation `s`.
fn mle_expected(pdfhat: &[(f64, f64)], s: f64) -> Option<Pdf> {
    let shifted: Pdf = pdfhat.iter().map(|&(a, p)| (a - s, p)).collect();
    let x = secular(&shifted)?;
    Some(
        pdfhat
            .iter()
            .map(|&(a, p)| (a, p / (1.0 + x * (a - s))))
            .collect(),
    )
}

/// Fishtest `MLE_t_value`: the distribution most likely given `pdfhat` among
/// those with t-value `(mean - reference) / sd` equal to `t`. `None` where
/// Fishtest raises an error (no root, or no convergence to 1e-5).
fn mle_t_value(pdfhat: &[(f64, f64)], reference: f64, t: f64) -> Option<Pdf> {
    let n = pdfhat.len() as f64;
    let mut pdf: Pdf = pdfhat.iter().map(|&(a, _)| (a, 1.0 / n)).collect();
    for _ in 0..10 {
        let (mu, var) = mean_variance(&pdf);
        let sigma = var.sqrt();
        let phi: Pdf = pdfhat
            .iter()
            .map(|&(a, p)| {
                let spread = 1.0 + ((mu - a) / sigma).powi(2);
                (a - reference - t * sigma * spread / 2.0, p)
            })
            .collect();
        let x = secular(&phi)?;
        let next: Pdf = pdfhat
            .iter()
            .zip(&phi)
            .map(|(&(a, p), &(phi_i, _))| (a, p / (1.0 + x * phi_i)))
            .collect();
        let change = pdf
            .iter()
            .zip(&next)
            .map(|(old, new)| (old.1 - new.1).abs())
            .fold(0.0, f64::max);
        pdf = next;
        if change < 1e-9 {
            break;
        }
    }
    let (mu, var) = mean_variance(&pdf);
    ((t - (mu - reference) / var.sqrt()).abs() < 1e-5).then_some(pdf)
}

/// Fishtest `LLR` times the number of pairs: `N sum_i phat_i ln(p1_i / p0_i)`.
fn scaled_llr(total: f64, pdfhat: &[(f64, f64)], p0: &[(f64, f64)], p1: &[(f64, f64)]) -> f64 {
    let mean: f64 = pdfhat
        .iter()
        .zip(p0.iter().zip(p1))
        .map(|(&(_, p), (&(_, q0), &(_, q1)))| p * (q1.ln() - q0.ln()))
        .sum();
    total * mean
}

/// The generalized LLR of H1 (logistic Elo `elo1`) against H0 (`elo0`) on
/// pentanomial counts: Fishtest `LLR_logistic`. 0 with no pairs.
pub fn llr_logistic(elo0: f64, elo1: f64, pairs: &Pentanomial) -> f64 {
    if pairs.pairs() == 0 {
        return 0.0;
    }
    let (total, pdf) = results_to_pdf(pairs);
    let fitted = (
        mle_expected(&pdf, score_from_elo(elo0)),
        mle_expected(&pdf, score_from_elo(elo1)),
    );
    match fitted {
        (Some(p0), Some(p1)) => scaled_llr(total, &pdf, &p0, &p1),
        // Only when a score is 0 or 1 to double precision (|elo| > 6000).
        _ => 0.0,
    }
}

/// The generalized LLR of H1 (normalized Elo `nelo1`) against H0 (`nelo0`)
/// on pentanomial counts: Fishtest `LLR_normalized`, or its closed-form
/// approximation `LLR_normalized_alt` where the exact fit fails. 0 with no
/// pairs.
pub fn llr_normalized(nelo0: f64, nelo1: f64, pairs: &Pentanomial) -> f64 {
    if pairs.pairs() == 0 {
        return 0.0;
    }
    let (total, pdf) = results_to_pdf(pairs);
    // Pairs: the t-value of the pair score is sqrt 2 times a game's.
    let t = |nelo: f64| nelo / NELO_PER_T * std::f64::consts::SQRT_2;
    let fitted = (
        mle_t_value(&pdf, 0.5, t(nelo0)),
        mle_t_value(&pdf, 0.5, t(nelo1)),
    );
    match fitted {
        (Some(p0), Some(p1)) => Some(scaled_llr(total, &pdf, &p0, &p1)),
        _ => None,
    }
    .filter(|llr| llr.is_finite())
    .unwrap_or_else(|| llr_normalized_approximate(nelo0, nelo1, total, &pdf))
}

/// Fishtest `LLR_normalized_alt` for pairs:
/// `games / 2 * ln((1 + (nt - nt0)^2) / (1 + (nt - nt1)^2))` with
/// `nt = (mean - 0.5) / sqrt(2 variance)` and `games = 2 pairs`.
fn llr_normalized_approximate(nelo0: f64, nelo1: f64, total: f64, pdf: &[(f64, f64)]) -> f64 {
    let (mu, var) = mean_variance(pdf);
    let nt = (mu - 0.5) / (2.0 * var).sqrt();
    let (nt0, nt1) = (nelo0 / NELO_PER_T, nelo1 / NELO_PER_T);
    total * ((1.0 + (nt - nt0).powi(2)) / (1.0 + (nt - nt1).powi(2))).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
        Sprt::new(SprtConfig {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        })
        .expect("valid")
    }

    // Reference values: Fishtest's own `LLRcalc.py`, copied verbatim from
    // official-stockfish/fishtest `server/fishtest/stats/LLRcalc.py` at
    // commit b8eecff220b562a0dc2c4e68d1fa02521e06d72c, run under Python 3.11
    // with scipy 1.17.1 by this script:
    //     import LLRcalc
    //     for model, r, e0, e1 in cases:
    //         f = LLRcalc.LLR_logistic if model == "logistic" \
    //             else LLRcalc.LLR_normalized
    //         print(model, r, e0, e1, repr(f(e0, e1, r)))
    // The first two logistic counts and the first normalized one are the
    // examples in Fishtest's `stat_util.py`.
    const LOGISTIC: [([u64; 5], f64, f64, f64); 5] = [
        (
            [10789, 19328, 33806, 19402, 10543],
            -3.0,
            1.0,
            2.131_067_811_794_080_7,
        ),
        (
            [39, 2226, 31451, 2412, 40],
            0.2,
            0.9,
            2.162_542_580_048_359_3,
        ),
        ([3, 10, 20, 14, 5], 0.0, 10.0, 0.348_122_212_952_381_66),
        ([0, 5, 12, 8, 2], 0.0, 5.0, 0.278_390_722_883_827_2),
        ([40, 30, 20, 10, 0], -10.0, 10.0, -5.756_231_527_213_391),
    ];
    const NORMALIZED: [([u64; 5], f64, f64, f64); 5] = [
        (
            [39, 2226, 31451, 2412, 40],
            0.764,
            3.439,
            2.162_940_869_584_568,
        ),
        (
            [10789, 19328, 33806, 19402, 10543],
            0.0,
            2.0,
            -6.070_429_067_588_585,
        ),
        ([3, 10, 20, 14, 5], 0.0, 10.0, 0.270_371_758_834_991_2),
        ([0, 5, 12, 8, 2], 0.0, 5.0, 0.166_968_453_486_913_83),
        ([40, 30, 20, 10, 0], -10.0, 10.0, -5.755_822_679_546_633),
    ];

    #[test]
    fn logistic_llr_matches_fishtest() {
        for (counts, elo0, elo1, want) in LOGISTIC {
            let got = llr_logistic(elo0, elo1, &Pentanomial(counts));
            assert!((got - want).abs() < 1e-6, "{counts:?}: {got} vs {want}");
        }
    }

    #[test]
    fn normalized_llr_matches_fishtest() {
        for (counts, elo0, elo1, want) in NORMALIZED {
            let got = llr_normalized(elo0, elo1, &Pentanomial(counts));
            assert!((got - want).abs() < 1e-6, "{counts:?}: {got} vs {want}");
        }
        // Every pair split 1-1, nearly no variance: Fishtest still converges
        // (LLR_normalized(0, 10, [0, 0, 1000, 0, 0]) = -1.6478779934022174).
        let split = llr_normalized(0.0, 10.0, &Pentanomial([0, 0, 1000, 0, 0]));
        assert!((split - -1.647_877_993_402_217_4).abs() < 1e-6, "{split}");
    }

    #[test]
    fn normalized_falls_back_to_fishtest_approximation() {
        // Fishtest's LLR_normalized(0, 300, [3, 10, 20, 14, 5]) raises
        // "secular equation requires support straddling zero";
        // LLR_normalized_alt(0, 300, ...) = -22.999314255893324.
        let got = llr_normalized(0.0, 300.0, &Pentanomial([3, 10, 20, 14, 5]));
        assert!((got - -22.999_314_255_893_324).abs() < 1e-9, "{got}");
    }

    #[test]
    fn bounds_and_decisions() {
        // ln(0.05 / 0.95) = -2.9444389791664403.
        let test = sprt(0.0, 50.0, SprtModel::Logistic);
        assert!((test.lower_bound() - -2.944_438_979_166_440_3).abs() < 1e-15);
        assert!((test.upper_bound() - 2.944_438_979_166_440_3).abs() < 1e-15);
        let none = test.status(&Pentanomial::default());
        assert_eq!(
            (none.llr, none.pairs, none.decision),
            (0.0, 0, SprtDecision::Continue)
        );
        // Fishtest: LLR_logistic(0, 50, [2, 10, 20, 30, 20]) = 8.457310073665212,
        // LLR_logistic(0, 50, [20, 30, 20, 10, 2]) = -11.143445534652015.
        let won = test.status(&Pentanomial([2, 10, 20, 30, 20]));
        assert!((won.llr - 8.457_310_073_665_212).abs() < 1e-6, "{won:?}");
        assert_eq!((won.pairs, won.decision), (82, SprtDecision::H1));
        let lost = test.status(&Pentanomial([20, 30, 20, 10, 2]));
        assert!(
            (lost.llr - -11.143_445_534_652_015).abs() < 1e-6,
            "{lost:?}"
        );
        assert_eq!(lost.decision, SprtDecision::H0);
        let few = sprt(0.0, 5.0, SprtModel::Normalized).status(&Pentanomial([0, 1, 1, 1, 0]));
        assert_eq!(few.decision, SprtDecision::Continue, "{few:?}");
        // Seen from the other agent, the same pairs test -5 against 0 Elo
        // and the evidence changes sign.
        let mirrored = llr_logistic(-5.0, 0.0, &Pentanomial([40, 20, 5, 0, 0]));
        let direct = llr_logistic(0.0, 5.0, &Pentanomial([0, 0, 5, 20, 40]));
        assert!((mirrored + direct).abs() < 1e-9, "{mirrored} {direct}");
    }

    #[test]
    fn config_is_checked() {
        let ok = SprtConfig {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Normalized,
        };
        assert!(Sprt::new(ok).is_ok());
        let bad = |change: fn(&mut SprtConfig)| {
            let mut config = ok;
            change(&mut config);
            Sprt::new(config).expect_err("refused")
        };
        assert_eq!(bad(|c| c.alpha = 0.5), SprtError::Alpha(0.5));
        assert_eq!(bad(|c| c.beta = 0.0), SprtError::Beta(0.0));
        assert_eq!(
            bad(|c| c.elo1 = 0.0),
            SprtError::EloOrder {
                elo0: 0.0,
                elo1: 0.0
            }
        );
        assert!(matches!(bad(|c| c.elo0 = f64::NAN), SprtError::EloRange(_)));
        assert_eq!(bad(|c| c.elo1 = 2000.0), SprtError::EloRange(2000.0));
    }

    #[test]
    fn config_reads_from_toml() {
        let config: SprtConfig =
            toml::from_str("elo0 = 0.0\nelo1 = 10.0\nmodel = \"logistic\"").expect("parses");
        assert_eq!((config.alpha, config.beta), (0.05, 0.05));
        assert_eq!(config.model, SprtModel::Logistic);
        let typo = toml::from_str::<SprtConfig>("elo0 = 0.0\nelo1 = 10.0\nalhpa = 0.1");
        assert!(typo.is_err());
        let model = toml::from_str::<SprtConfig>("elo0 = 0.0\nelo1 = 1.0\nmodel = \"bayes\"");
        assert!(model.is_err());
    }
}
