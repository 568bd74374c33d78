//! Which evaluation a searching agent scores its leaves with, as data: the
//! `[eval]` table of an agent file. It exists apart from the agents so that
//! alpha-beta and MCTS read and build the same evaluations, and so that
//! `hoyito tune` can write the evaluation it learned into an agent file.
//!
//! ```toml
//! [eval]
//! kind = "learned"
//! scale = 3.2           # seeds of margin for odds of e to 1 (informative)
//! [eval.weights]        # seeds per unit of each feature; missing ones are 0
//! captures = 1.0
//! threats_opp = -0.45
//! ```

use serde::{Deserialize, Serialize};

use crate::agents::eval_choice::Evaluator;
use crate::agents::eval_learned::{LearnedEval, Weights};

/// An evaluation, as written in agent files (`[eval]`, tagged by `kind`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum EvalSpec {
    /// The material count of [`crate::agents::evaluate`] (the default): the
    /// margin if the game were stalled at the leaf.
    #[default]
    Material,
    /// A weighted sum of the features of [`crate::agents::Feature`], in seeds
    /// ([`LearnedEval`]), as `hoyito tune` writes it.
    Learned {
        /// The logistic scale of the fit, in seeds: a margin of `scale` seeds
        /// by this evaluation makes the odds of winning `e` to 1
        /// (`P(win) = 1 / (1 + exp(-eval / scale))`). It does not change the
        /// evaluation; Monte Carlo search may use it to turn a margin into a
        /// reward. Default 4.
        #[serde(default = "default_scale")]
        scale: f64,
        /// Seeds per unit of each feature, keyed by feature name; a feature
        /// left out weighs 0, an unknown name is an error.
        weights: Weights,
    },
}

fn default_scale() -> f64 {
    4.0
}

impl EvalSpec {
    /// Whether this is the default, which agent files leave out.
    pub fn is_material(&self) -> bool {
        matches!(self, EvalSpec::Material)
    }

    /// Checks the values types cannot check; the message names the field.
    pub fn validate(&self) -> Result<(), String> {
        match self {
            EvalSpec::Material => Ok(()),
            EvalSpec::Learned { scale, weights } => {
                if !(scale.is_finite() && *scale > 0.0) {
                    return Err(format!(
                        "scale = {scale} is out of range: allowed a finite number above 0"
                    ));
                }
                Weights::new(weights.values()).map(|_| ())
            }
        }
    }

    /// The evaluator this spec describes.
    pub fn build(&self) -> Evaluator {
        match self {
            EvalSpec::Material => Evaluator::Material,
            EvalSpec::Learned { weights, .. } => Evaluator::Learned(LearnedEval::new(*weights)),
        }
    }

    /// A short name for one-line descriptions (`material`, `learned`).
    pub fn name(&self) -> &'static str {
        match self {
            EvalSpec::Material => "material",
            EvalSpec::Learned { .. } => "learned",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::features::Feature;

    #[test]
    fn material_is_the_default_and_reads_by_kind() {
        let spec: EvalSpec = toml::from_str("kind = \"material\"").unwrap();
        assert_eq!(spec, EvalSpec::default());
        assert!(spec.is_material());
        assert_eq!(spec.build(), Evaluator::Material);
        assert!(toml::from_str::<EvalSpec>("kind = \"oracle\"").is_err());
    }

    #[test]
    fn learned_weights_round_trip_through_toml() {
        let text =
            "kind = \"learned\"\nscale = 2.5\n[weights]\ncaptures = 1.0\nthreats_opp = -0.25\n";
        let spec: EvalSpec = toml::from_str(text).unwrap();
        let EvalSpec::Learned { scale, weights } = &spec else {
            panic!("{spec:?}");
        };
        assert_eq!(*scale, 2.5);
        assert_eq!(weights.get(Feature::ThreatsOpp), -0.25);
        assert_eq!(weights.get(Feature::Mobility), 0.0);
        assert!(spec.validate().is_ok());
        assert_eq!(spec.name(), "learned");
        let written = toml::to_string(&spec).unwrap();
        assert_eq!(toml::from_str::<EvalSpec>(&written).unwrap(), spec);
        // Every feature is written, missing ones as 0.
        assert!(written.contains("mobility = 0.0"), "{written}");
        assert!(matches!(spec.build(), Evaluator::Learned(_)));
    }

    #[test]
    fn unknown_features_and_bad_values_are_refused_by_name() {
        let err = toml::from_str::<EvalSpec>("kind = \"learned\"\n[weights]\nseedz = 1.0\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("weights.seedz is not a feature"), "{err}");
        let err = toml::from_str::<EvalSpec>("kind = \"learned\"\n[weights]\nreach = inf\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("weights.reach = inf is out of range"), "{err}");
        let spec: EvalSpec =
            toml::from_str("kind = \"learned\"\nscale = 0.0\n[weights]\ncaptures = 1\n").unwrap();
        assert!(spec.validate().unwrap_err().starts_with("scale = 0"));
        assert!(toml::from_str::<EvalSpec>("kind = \"learned\"\nscale = 1.0\n").is_err());
    }
}
