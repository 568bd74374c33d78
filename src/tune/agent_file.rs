//! The agent file `hoyito tune` writes: the base agent's search (or a depth-4
//! alpha-beta for a base that does not search) with the learned `[eval]`
//! table, under comment lines that say how it was made and how well it
//! predicts held-out results. The text depends on the command and the games
//! alone (no date, no path), so the same command writes the same bytes.

use crate::agents::eval_spec::EvalSpec;
use crate::agents::spec::AgentSpec;
use crate::engine::rules::Rules;
use crate::tune::Tuned;

/// The depth of the alpha-beta agent written for a base that does not search.
pub const DEFAULT_DEPTH: u32 = 4;

/// The base's search with the learned evaluation: an alpha-beta or MCTS base
/// keeps its budget; any other kind becomes alpha-beta to [`DEFAULT_DEPTH`].
pub fn tuned_spec(base: &AgentSpec, tuned: &Tuned) -> AgentSpec {
    let learned = EvalSpec::Learned {
        scale: tuned.scale,
        weights: tuned.weights,
    };
    let mut spec = base.clone();
    match &mut spec {
        AgentSpec::Alphabeta { eval, .. } | AgentSpec::Mcts { eval, .. } => {
            *eval = learned;
            spec
        }
        _ => AgentSpec::Alphabeta {
            depth: Some(DEFAULT_DEPTH),
            nodes: None,
            time_ms: None,
            search: Default::default(),
            eval: learned,
        },
    }
}

/// What the header of the file says besides the numbers of [`Tuned`].
#[derive(Debug, Clone)]
pub struct Provenance<'a> {
    /// The command line that made the file (without `--out`).
    pub command: &'a str,
    /// The base agent's roster name.
    pub base_name: &'a str,
    /// The game.
    pub rules: &'a Rules,
    /// Games played.
    pub games: u32,
}

/// The text of the agent file.
pub fn render(base: &AgentSpec, tuned: &Tuned, how: &Provenance) -> String {
    let spec = tuned_spec(base, tuned);
    let r = how.rules;
    let mut text = format!(
        "# An evaluation learned from games (Texel's tuning method: a logistic model of the\n\
         # game result fitted on features of self-play positions), made by\n\
         #   {command}\n\
         # Hoyito {variant} on 2x{holes}, {seeds} seeds per hole: {games} games of {base} \
         against itself,\n\
         # {train} positions fitted, {held} held out (one game in {hold_out}).\n\
         # Held-out log-loss: material {ml:.4} -> learned {ll:.4}; \
         winner picked: {ma:.1}% -> {la:.1}%.\n\
         # Weights are seeds per unit of each feature (see `Feature` in the docs).\n",
        command = how.command,
        variant = r.variant.name().to_uppercase(),
        holes = r.holes,
        seeds = r.seeds,
        games = how.games,
        base = how.base_name,
        train = tuned.train_positions,
        held = tuned.held_out_positions,
        hold_out = crate::tune::HOLD_OUT,
        ml = tuned.material.log_loss,
        ll = tuned.learned.log_loss,
        ma = 100.0 * tuned.material.accuracy,
        la = 100.0 * tuned.learned.accuracy,
    );
    text += &toml::to_string(&spec).expect("an agent spec serialises");
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::eval_learned::Weights;
    use crate::agents::features::{Feature, FEATURES};
    use crate::engine::rules::Variant;
    use crate::tune::Quality;

    #[test]
    fn the_file_reads_back_as_the_learned_agent() {
        let mut w = [0.0; FEATURES];
        w[Feature::Captures.index()] = 1.0;
        w[Feature::ThreatsOpp.index()] = -0.3125;
        let q = Quality {
            log_loss: 0.5,
            accuracy: 0.75,
        };
        let tuned = Tuned {
            weights: Weights::new(w).unwrap(),
            scale: 3.5,
            train_positions: 80,
            held_out_positions: 20,
            material: q,
            learned: q,
        };
        let rules = Rules::new(Variant::Ii);
        let how = Provenance {
            command: "hoyito tune --agent greedy",
            base_name: "greedy",
            rules: &rules,
            games: 10,
        };
        let text = render(&AgentSpec::Greedy, &tuned, &how);
        assert!(text.contains("#   hoyito tune --agent greedy\n"), "{text}");
        assert!(
            text.contains("log-loss: material 0.5000 -> learned 0.5000"),
            "{text}"
        );
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("t.toml"), &text).unwrap();
        let roster = crate::agents::roster::Roster::load(dir.path()).unwrap();
        let spec = roster.get("t").unwrap().spec.clone();
        assert_eq!(spec, tuned_spec(&AgentSpec::Greedy, &tuned));
        let AgentSpec::Alphabeta { depth, eval, .. } = spec else {
            panic!("{spec:?}");
        };
        assert_eq!(depth, Some(DEFAULT_DEPTH));
        assert_eq!(eval.name(), "learned");
    }
}
