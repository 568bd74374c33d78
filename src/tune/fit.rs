//! Logistic regression of game results on features, by Newton's method, and
//! the measures of how well a model predicts results.
//!
//! Source: the Texel tuning method (Peter Österlund; chessprogramming wiki,
//! "Texel's Tuning Method") fits an evaluation's weights so that
//! `1 / (1 + exp(-K · eval))` predicts the results of game positions. Here the
//! evaluation is linear in the features, so that fit is a logistic regression
//! with fractional labels (1, ½, 0), solved by Newton's method (iteratively
//! reweighted least squares; e.g. Hastie, Tibshirani & Friedman, "The Elements
//! of Statistical Learning", 2nd ed., §4.4.1) with a small ridge penalty that
//! keeps nearly collinear features (a threat seen in the first lap and in the
//! whole move) from drifting apart.
//!
//! Deterministic: every sum runs over the samples in their given order, on one
//! thread.

use thiserror::Error;

/// Why a fit failed.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum FitError {
    /// No samples to fit on.
    #[error("no positions to fit on: play more games")]
    NoSamples,
    /// Newton's step could not be solved (a singular system).
    #[error("the fit is singular: the positions do not tell the features apart; play more games")]
    Singular,
}

/// The ridge penalty per sample on every weight.
const RIDGE: f64 = 1e-4;
/// Newton iterations at most.
const MAX_ITERATIONS: usize = 100;

/// The logistic function.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The mean log-loss (cross-entropy, natural log) of predicting `y` by
/// `sigmoid(w · x)` over the rows.
pub fn log_loss(rows: &[Vec<f64>], labels: &[f64], w: &[f64]) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    let total: f64 = rows
        .iter()
        .zip(labels)
        .map(|(x, &y)| {
            let z = dot(x, w);
            // log(1 + e^z) - y z, computed without overflow.
            let softplus = if z > 0.0 {
                z + (-z).exp().ln_1p()
            } else {
                z.exp().ln_1p()
            };
            softplus - y * z
        })
        .sum();
    total / rows.len() as f64
}

/// The share of rows of decided results (labels 0 or 1) whose winner the
/// model picks (`w · x` of the winner's sign); a prediction of exactly 0
/// counts a half.
pub fn accuracy(rows: &[Vec<f64>], labels: &[f64], w: &[f64]) -> f64 {
    let mut right = 0.0;
    let mut decided = 0usize;
    for (x, &y) in rows.iter().zip(labels) {
        if y == 0.5 {
            continue;
        }
        decided += 1;
        let z = dot(x, w);
        right += if z == 0.0 {
            0.5
        } else if (z > 0.0) == (y > 0.5) {
            1.0
        } else {
            0.0
        };
    }
    if decided == 0 {
        0.0
    } else {
        right / decided as f64
    }
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col].clone();
        for row in col + 1..n {
            let factor = a[row][col] / pivot_row[col];
            for (x, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= factor * p;
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// The weights `w` that minimise the mean log-loss of `sigmoid(w · x)` against
/// the labels, plus a ridge penalty of `RIDGE / 2 · |w|²`, by Newton's method
/// with step halving.
pub fn fit_logistic(rows: &[Vec<f64>], labels: &[f64]) -> Result<Vec<f64>, FitError> {
    let Some(first) = rows.first() else {
        return Err(FitError::NoSamples);
    };
    let d = first.len();
    let n = rows.len() as f64;
    let objective = |w: &[f64]| log_loss(rows, labels, w) + 0.5 * RIDGE * dot(w, w);
    let mut w = vec![0.0; d];
    let mut current = objective(&w);
    for _ in 0..MAX_ITERATIONS {
        let mut grad: Vec<f64> = w.iter().map(|wi| RIDGE * wi).collect();
        let mut hess = vec![vec![0.0; d]; d];
        for (i, row) in hess.iter_mut().enumerate() {
            row[i] = RIDGE;
        }
        for (x, &y) in rows.iter().zip(labels) {
            let p = sigmoid(dot(x, &w));
            let (r, s) = ((p - y) / n, p * (1.0 - p) / n);
            for i in 0..d {
                grad[i] += r * x[i];
                for j in 0..d {
                    hess[i][j] += s * x[i] * x[j];
                }
            }
        }
        let step = solve(hess, grad).ok_or(FitError::Singular)?;
        let mut t = 1.0;
        let mut next: Vec<f64>;
        let mut value;
        loop {
            next = w.iter().zip(&step).map(|(wi, si)| wi - t * si).collect();
            value = objective(&next);
            if value <= current || t < 1e-6 {
                break;
            }
            t *= 0.5;
        }
        let moved = step.iter().map(|s| (t * s).abs()).fold(0.0, f64::max);
        w = next;
        let gain = current - value;
        current = value;
        if moved < 1e-10 || gain.abs() < 1e-14 {
            break;
        }
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_fit_recovers_known_weights_from_synthetic_data() {
        // Labels drawn from a known model: y ~ Bernoulli(sigmoid(0.5 a - 0.25 b + 0.3)).
        let truth = [0.5, -0.25, 0.3];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut rows = Vec::new();
        let mut labels = Vec::new();
        for _ in 0..40_000 {
            let x = vec![
                rng.random_range(-8..=8) as f64,
                rng.random_range(0..=6) as f64,
                1.0,
            ];
            let p = sigmoid(dot(&x, &truth));
            labels.push(if rng.random::<f64>() < p { 1.0 } else { 0.0 });
            rows.push(x);
        }
        let w = fit_logistic(&rows, &labels).unwrap();
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 0.03, "{w:?}");
        }
        // The true model predicts better than none.
        assert!(log_loss(&rows, &labels, &w) < log_loss(&rows, &labels, &[0.0; 3]));
        assert_eq!(fit_logistic(&rows, &labels).unwrap(), w);
    }

    #[test]
    fn loss_and_accuracy_by_hand() {
        let rows = vec![vec![1.0], vec![-2.0], vec![0.0], vec![3.0]];
        let labels = [1.0, 1.0, 0.5, 0.0];
        // At w = 0 every prediction is ½: log-loss ln 2.
        assert!((log_loss(&rows, &labels, &[0.0]) - std::f64::consts::LN_2).abs() < 1e-12);
        // w = 1: decided rows 1 (right), 2 (wrong), 4 (wrong): 1/3.
        assert!((accuracy(&rows, &labels, &[1.0]) - 1.0 / 3.0).abs() < 1e-12);
        // w = 1, row 1: ln(1 + e^-1) = 0.31326; row 2: ln(1 + e^2) = 2.12693;
        // row 3: ln 2 = 0.69315; row 4: ln(1 + e^3) = 3.04859. Mean 1.54548.
        assert!((log_loss(&rows, &labels, &[1.0]) - 1.545_482).abs() < 1e-5);
        assert_eq!(fit_logistic(&[], &[]), Err(FitError::NoSamples));
    }
}
