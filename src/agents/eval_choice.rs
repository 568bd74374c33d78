//! The choice of leaf evaluation a search holds: the material margin of
//! `eval_margin` or the learned weights of `eval_learned`, picked by an
//! agent's `eval` key. Above both, so that neither needs the other.

use crate::agents::eval_learned::LearnedEval;
use crate::agents::eval_margin::{evaluate, terminal_margin, Score};
use crate::engine::position::Position;
use crate::engine::rules::Rules;

/// How a search scores a position where it stops (a leaf that is not the end
/// of the game). Built from an [`crate::agents::EvalSpec`]; alpha-beta and MCTS
/// hold one each.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Evaluator {
    /// [`evaluate`]: the margin if the game were stalled now.
    #[default]
    Material,
    /// A weighted sum of features, learned from games ([`LearnedEval`]).
    Learned(LearnedEval),
}

impl Evaluator {
    /// The score of `pos` for its side to move, a margin in seeds; a finished
    /// game scores its true margin whatever the evaluator.
    #[inline]
    pub fn evaluate(&self, pos: &Position, rules: &Rules) -> Score {
        match self {
            Evaluator::Material => evaluate(pos, rules),
            Evaluator::Learned(_) if pos.is_over() => terminal_margin(pos, pos.side_to_move()),
            Evaluator::Learned(learned) => learned.score(pos, rules),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::eval_learned::Weights;
    use crate::agents::features::{Feature, FEATURES};
    use crate::engine::game::Game;
    use crate::engine::rules::Variant;

    #[test]
    fn a_finished_game_scores_its_true_margin_under_the_learned_evaluation() {
        let rules = Rules::new(Variant::Iii);
        let mut w = [0.0; FEATURES];
        w[Feature::Tempo.index()] = 7.0;
        w[Feature::Captures.index()] = 3.0;
        let learned = Evaluator::Learned(LearnedEval::new(Weights::new(w).unwrap()));
        let over: Position = "0,0,0,0,0,0/0,0,0,0,0,0 N 28-20".parse().unwrap();
        assert_eq!(learned.evaluate(&over, &rules), -8);
        // Every position of random games that ends: the last one scores the
        // margin the game's outcome gives.
        for seed in 0..20 {
            let mut game = Game::new(rules);
            let mut rng =
                <crate::engine::agent_trait::AgentRng as rand::SeedableRng>::seed_from_u64(seed);
            while !game.is_over() {
                game.play_random(&mut rng);
            }
            let pos = game.position();
            if pos.is_over() {
                let me = pos.side_to_move();
                let s = game.outcome().unwrap().scores;
                let margin = s[me] as Score - s[me.opponent()] as Score;
                assert_eq!(learned.evaluate(pos, &rules), margin);
            } else {
                // Not finished: 3 * captures + 7, clamped to the seeds in play.
                assert_ne!(learned.evaluate(pos, &rules), evaluate(pos, &rules));
            }
        }
    }
}
