//! `hoyito tune`: an evaluation learned from games instead of set by hand.
//!
//! The base agent plays games against itself ([`sample`]); every position is
//! described by the features of [`crate::Feature`] and labelled with the
//! game's result for the side to move; a logistic model of the result is fitted
//! on four fifths of the games ([`fit`], Texel's tuning method) and measured on
//! the other fifth, against the material count fitted the same way; the
//! weights are rewritten in seeds (the capture difference weighs exactly 1)
//! and written into an agent file ([`agent_file`]).
//!
//! The split is by game (game `g` is held out when `g % 5 == 4`), so that no
//! position of a held-out game, nor its neighbour, is fitted on.

pub mod agent_file;
pub mod fit;
pub mod sample;

use thiserror::Error;

use crate::agents::eval_learned::Weights;
use crate::agents::features::{Feature, FEATURES};
use crate::agents::spec::AgentSpec;
use crate::engine::game_loop::PlayError;
use crate::engine::rules::Rules;

pub use fit::FitError;
pub use sample::Sample;

/// Games per held-out game: game `g` is held out when `g % HOLD_OUT == HOLD_OUT - 1`.
pub const HOLD_OUT: u32 = 5;

/// What to tune.
#[derive(Debug, Clone)]
pub struct TuneSettings {
    /// The agent whose self-play games give the positions.
    pub base: AgentSpec,
    /// The game.
    pub rules: Rules,
    /// Games to play, at least [`HOLD_OUT`].
    pub games: u32,
    /// Master seed.
    pub seed: u64,
}

/// How well a model predicts the held-out results.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quality {
    /// Mean log-loss (natural log) of the predicted results.
    pub log_loss: f64,
    /// Share of decided positions whose winner it picks.
    pub accuracy: f64,
}

/// What tuning found.
#[derive(Debug, Clone, PartialEq)]
pub struct Tuned {
    /// The learned weights, in seeds per unit of each feature (captures = 1),
    /// rounded to 4 decimals.
    pub weights: Weights,
    /// Seeds of evaluation that make the odds of winning `e` to 1, rounded to
    /// 3 decimals.
    pub scale: f64,
    /// Positions fitted on.
    pub train_positions: usize,
    /// Positions held out.
    pub held_out_positions: usize,
    /// The material count (its scale fitted on the same positions), held out.
    pub material: Quality,
    /// The learned evaluation, held out.
    pub learned: Quality,
}

/// Why tuning failed.
#[derive(Debug, Error)]
pub enum TuneError {
    /// Fewer games than one held-out game needs.
    #[error("--games {0} is too few: at least {HOLD_OUT} (one game in {HOLD_OUT} is held out)")]
    TooFewGames(u32),
    /// The base agent played an illegal move.
    #[error("the base agent broke the rules in self-play")]
    Play(#[from] Box<PlayError>),
    /// The fit failed.
    #[error(transparent)]
    Fit(#[from] FitError),
    /// The fit found captured seeds worth nothing (or less), so its weights
    /// cannot be put in seeds.
    #[error(
        "the fit gives the capture difference no positive weight ({0:.6}), so the evaluation \
         cannot be put in seeds: play more games or use a stronger base agent"
    )]
    NoMaterial(f64),
    /// A weight in seeds is out of range.
    #[error("the learned {0}: play more games")]
    Weight(String),
}

fn round_to(x: f64, decimals: i32) -> f64 {
    let k = 10f64.powi(decimals);
    (x * k).round() / k
}

/// Plays the games and fits the weights. Games are played on the current
/// rayon pool; the result does not depend on its size.
pub fn tune(settings: &TuneSettings) -> Result<Tuned, TuneError> {
    if settings.games < HOLD_OUT {
        return Err(TuneError::TooFewGames(settings.games));
    }
    let samples = sample::samples(
        &settings.base,
        &settings.rules,
        settings.seed,
        settings.games,
    )?;
    fit_samples(&samples)
}

/// Fits the weights on the training games of `samples` and measures them on
/// the held-out games.
pub fn fit_samples(samples: &[Sample]) -> Result<Tuned, TuneError> {
    let held = |s: &Sample| s.game % HOLD_OUT == HOLD_OUT - 1;
    let (test, train): (Vec<&Sample>, Vec<&Sample>) = samples.iter().partition(|s| held(s));
    let rows = |set: &[&Sample]| -> Vec<Vec<f64>> {
        set.iter()
            .map(|s| s.features.iter().map(|&x| f64::from(x)).collect())
            .collect()
    };
    let materials = |set: &[&Sample]| -> Vec<Vec<f64>> {
        set.iter().map(|s| vec![f64::from(s.material)]).collect()
    };
    let labels = |set: &[&Sample]| -> Vec<f64> { set.iter().map(|s| s.result).collect() };
    let (train_rows, train_labels) = (rows(&train), labels(&train));
    let beta = fit::fit_logistic(&train_rows, &train_labels)?;
    let anchor = beta[Feature::Captures.index()];
    if anchor.is_nan() || anchor <= 1e-9 {
        return Err(TuneError::NoMaterial(anchor));
    }
    let mut seeds = [0.0; FEATURES];
    for f in Feature::ALL {
        seeds[f.index()] = round_to(beta[f.index()] / anchor, 4);
    }
    let weights = Weights::new(seeds).map_err(TuneError::Weight)?;
    let scale = round_to(1.0 / anchor, 3).max(0.001);
    let model: Vec<f64> = seeds.iter().map(|w| w / scale).collect();
    let material_beta = fit::fit_logistic(&materials(&train), &train_labels)?;
    let (test_rows, test_materials, test_labels) = (rows(&test), materials(&test), labels(&test));
    Ok(Tuned {
        weights,
        scale,
        train_positions: train.len(),
        held_out_positions: test.len(),
        material: Quality {
            log_loss: fit::log_loss(&test_materials, &test_labels, &material_beta),
            accuracy: fit::accuracy(&test_materials, &test_labels, &material_beta),
        },
        learned: Quality {
            log_loss: fit::log_loss(&test_rows, &test_labels, &model),
            accuracy: fit::accuracy(&test_rows, &test_labels, &model),
        },
    })
}
