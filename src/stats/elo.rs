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
//!   same mean and per-game variance. Fishtest clamps the score to
//!   `[0.001, 0.999]` before taking its Elo, so that a clean sweep reads
//!   ±1199.6; we do not, because that figure is not an estimate of anything.
//!
//! At the edges the normal interval is wrong: a clean sweep has variance 0
//! and would read `1.000 [1.000, 1.000]`, and 399 lost pairs with one split
//! give an interval that leaves [0, 1]. Wherever the normal interval does not
//! lie inside [0, 1] (every score 0 or 1 included), the interval is Wilson's
//! on the units instead (see [`super::wilson`]), and nElo, which divides by a
//! standard deviation that the edge makes meaningless, is not given. A score
//! of 0 or 1 has Elo −∞ or +∞, with a one-sided bound from the other end of
//! the interval; `summary.json` writes an infinite figure as the string
//! `"-inf"` or `"inf"` (JSON has no infinity), never as NaN or a clamp.
//! No units gives no estimate (`None`).

use serde::Serialize;

use super::normal::normal_cdf;
use super::outcomes::{Pentanomial, Wdl};
use super::wilson::{wilson, Proportion, Z95};

/// Normalized Elo per unit of t-value (score minus 0.5, over the standard
/// deviation of one game's score): `800 / ln 10`, as Fishtest's
/// `LLRcalc.nelo_divided_by_nt`.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The logistic Elo difference of an expected score:
/// `-400 log10(1 / score - 1)` (Fishtest `stat_util.elo` without its clamp):
/// −∞ at a score of 0 and +∞ at 1.
pub fn elo_from_score(score: f64) -> f64 {
    let s = score.clamp(0.0, 1.0);
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Writes a figure that may be infinite: a number when finite, else the
/// string `"inf"` or `"-inf"` (JSON has no infinity).
fn finite_or_text<S: serde::Serializer>(x: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if x.is_finite() {
        serializer.serialize_f64(*x)
    } else if *x > 0.0 {
        serializer.serialize_str("inf")
    } else {
        serializer.serialize_str("-inf")
    }
}

/// The expected score of a logistic Elo difference:
/// `1 / (1 + 10^(-elo / 400))` (Fishtest `LLRcalc.L_`).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An estimate with its 95% interval, on a scale that is not a proportion;
/// Elo's ends may be infinite (a score interval that reaches 0 or 1).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    /// The point estimate.
    #[serde(serialize_with = "finite_or_text")]
    pub value: f64,
    /// Lower end of the 95% interval.
    #[serde(serialize_with = "finite_or_text")]
    pub low: f64,
    /// Upper end of the 95% interval.
    #[serde(serialize_with = "finite_or_text")]
    pub high: f64,
}

impl Interval {
    /// Half the width: the "±" figure fastchess prints after the estimate
    /// (infinite when an end is).
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// The figure as text with `decimals` decimals: `12.3 +/- 4.5` when the
    /// interval is symmetric enough to be read so, else `12.3 [8.0, 16.9]`;
    /// an infinite estimate gives its one-sided bound, `+inf (>= 512.3)`.
    pub fn text(&self, decimals: usize) -> String {
        let num = |x: f64| {
            if x == f64::INFINITY {
                "+inf".to_string()
            } else if x == f64::NEG_INFINITY {
                "-inf".to_string()
            } else {
                let text = format!("{x:.decimals$}");
                // No "-0.0": a figure that rounds to zero is zero.
                if text
                    .trim_start_matches('-')
                    .chars()
                    .all(|c| c == '0' || c == '.')
                {
                    text.trim_start_matches('-').to_string()
                } else {
                    text
                }
            }
        };
        if self.value == f64::INFINITY {
            format!("+inf (>= {})", num(self.low))
        } else if self.value == f64::NEG_INFINITY {
            format!("-inf (<= {})", num(self.high))
        } else if self.low.is_finite() && self.high.is_finite() {
            let (below, above) = (self.value - self.low, self.high - self.value);
            if (below - above).abs() <= 0.05 * below.max(above) {
                format!("{} +/- {}", num(self.value), num(self.half_width()))
            } else {
                format!(
                    "{} [{}, {}]",
                    num(self.value),
                    num(self.low),
                    num(self.high)
                )
            }
        } else {
            format!(
                "{} [{}, {}]",
                num(self.value),
                num(self.low),
                num(self.high)
            )
        }
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
    /// interval `score +- 1.96 standard_error`, or Wilson's on the units
    /// where the normal one does not lie inside `[0, 1]` (see `edge`).
    pub score: Proportion,
    /// Variance of one unit's mean score per game: of the pair score divided
    /// by 2 for pairs, of the game score for games (divisor `units`, as
    /// fastchess and Fishtest).
    pub variance: f64,
    /// Standard error of the mean score: `sqrt(variance / units)`.
    pub standard_error: f64,
    /// Whether the score sits at an edge: the normal interval would leave
    /// `[0, 1]` (a score of 0 or 1 included), so the interval is Wilson's
    /// and there is no nElo.
    pub edge: bool,
    /// Logistic Elo difference; the interval is the Elo of each end of the
    /// score interval. −∞ or +∞ at a score of 0 or 1.
    pub elo: Interval,
    /// Normalized Elo, `(score - 0.5) / sd_game * 800 / ln 10` where
    /// `sd_game = sqrt(2 variance)` for pairs and `sqrt(variance)` for games,
    /// with the nElo of each end of the score interval. `None` at an edge
    /// (`edge`) or when the variance is 0.
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
    let (normal_low, normal_high) = (score - Z95 * standard_error, score + Z95 * standard_error);
    let edge = variance == 0.0 || normal_low < 0.0 || normal_high > 1.0;
    let (low, high) = if edge {
        let w = wilson(score * n, units, Z95);
        (w.low, w.high)
    } else {
        (normal_low, normal_high)
    };
    let games_per_unit = match unit {
        SampleUnit::Pair => 2,
        SampleUnit::Game => 1,
    };
    // The standard deviation of one game's score, as fastchess's
    // `scoreToNeloDiff`: a pair's mean of two games has half the variance.
    let sd_game = (games_per_unit as f64 * variance).sqrt();
    let nelo = (!edge).then(|| {
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
            low,
            high,
        },
        variance,
        standard_error,
        edge,
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
    fn edges_get_real_intervals_and_infinite_elo() {
        assert!(ScoreEstimate::from_pentanomial(&Pentanomial([0; 5])).is_none());
        assert!(ScoreEstimate::from_wdl(&Wdl::default()).is_none());
        // A clean sweep of 7 pairs: Wilson's interval on 7 units, Elo +inf
        // with its one-sided bound, LOS 1, no nElo; never 1199.6 +/- 0.
        let sweep = ScoreEstimate::from_pentanomial(&Pentanomial([0, 0, 0, 0, 7])).expect("pairs");
        let w = wilson(7.0, 7, Z95);
        assert!(sweep.edge && sweep.variance == 0.0);
        assert_eq!((sweep.score.low, sweep.score.high), (w.low, 1.0));
        assert!(sweep.score.low < 0.7, "{sweep:?}");
        assert_eq!(sweep.elo.value, f64::INFINITY);
        assert!(close(sweep.elo.low, elo_from_score(w.low), 1e-9));
        assert_eq!((sweep.nelo, sweep.los), (None, 1.0));
        assert_eq!(
            sweep.elo.text(1),
            format!("+inf (>= {:.1})", elo_from_score(w.low))
        );
        let json = serde_json::to_string(&sweep).expect("serializes");
        assert!(json.contains(r#""value":"inf""#), "{json}");
        assert!(
            !json.contains("NaN") && json.contains(r#""nelo":null"#),
            "{json}"
        );
        // 399 lost pairs and one split (reports/default, random vs greedy):
        // the normal interval leaves [0, 1], so Wilson's, and no nElo
        // (was -9827 [-9851, -9803]).
        let lopsided =
            ScoreEstimate::from_pentanomial(&Pentanomial([399, 1, 0, 0, 0])).expect("pairs");
        assert!(lopsided.edge && lopsided.nelo.is_none());
        assert!(
            lopsided.score.low > 0.0 && lopsided.score.high < 0.02,
            "{lopsided:?}"
        );
        assert!(lopsided.elo.value.is_finite() && lopsided.elo.value < -1100.0);
        // Every pair split: score 0.5 exactly, LOS 0.5, a real interval.
        let even = ScoreEstimate::from_pentanomial(&Pentanomial([0, 0, 9, 0, 0])).expect("pairs");
        assert_eq!((even.elo.value, even.los, even.nelo), (0.0, 0.5, None));
        assert!(even.score.low < 0.5 && even.score.high > 0.5);
        let lost = ScoreEstimate::from_wdl(&Wdl {
            wins: 0,
            draws: 0,
            losses: 3,
        })
        .expect("games");
        assert_eq!(lost.elo.value, f64::NEG_INFINITY);
        assert!(lost.elo.high.is_finite() && lost.los == 0.0);
        assert!(
            lost.elo.text(0).starts_with("-inf (<= "),
            "{}",
            lost.elo.text(0)
        );
    }

    #[test]
    fn interval_text() {
        let symmetric = Interval {
            value: 12.34,
            low: 8.0,
            high: 16.68,
        };
        assert_eq!(symmetric.text(1), "12.3 +/- 4.3");
        let skewed = Interval {
            value: -0.01,
            low: -30.0,
            high: 2.0,
        };
        assert_eq!(skewed.text(1), "0.0 [-30.0, 2.0]");
    }

    #[test]
    fn elo_and_score_invert_each_other() {
        for elo in [-600.0, -35.5, 0.0, 10.0, 400.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
        assert_eq!(score_from_elo(400.0), 1.0 / 1.1);
    }
}
