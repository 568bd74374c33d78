//! Which evaluation a searching agent scores its leaves with, as data: the
//! `[eval]` table of an agent file. It exists apart from the agents so that
//! alpha-beta and MCTS read and build the same evaluations, and so that
//! `hoyito tune` can write the evaluation it learned into an agent file.

use serde::{Deserialize, Serialize};

use crate::agents::evaluation::Evaluator;

/// An evaluation, as written in agent files (`[eval]`, tagged by `kind`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum EvalSpec {
    /// The material count of [`crate::agents::evaluate`] (the default): the
    /// margin if the game were stalled at the leaf.
    #[default]
    Material,
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
        }
    }

    /// The evaluator this spec describes.
    pub fn build(&self) -> Evaluator {
        match self {
            EvalSpec::Material => Evaluator::Material,
        }
    }

    /// A short name for one-line descriptions (`material`).
    pub fn name(&self) -> &'static str {
        match self {
            EvalSpec::Material => "material",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_is_the_default_and_reads_by_kind() {
        let spec: EvalSpec = toml::from_str("kind = \"material\"").unwrap();
        assert_eq!(spec, EvalSpec::default());
        assert!(spec.is_material());
        assert_eq!(spec.build(), Evaluator::Material);
        assert!(toml::from_str::<EvalSpec>("kind = \"oracle\"").is_err());
    }
}
