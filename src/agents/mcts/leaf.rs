//! How a new leaf of the tree is scored: a rollout (random or greedy moves, cut
//! at a cap and scored by the evaluation there), or the evaluation of the leaf
//! itself. Rewards are South's, in `[0, 1]`.

use crate::agents::eval_choice::Evaluator;
use crate::agents::eval_margin::{
    limit_reached, outcome_reward, stalled_margin, terminal_margin, Score,
};
use crate::agents::greedy::greedy_move;
use crate::agents::mcts::rollout::RolloutPolicy;
use crate::engine::agent_trait::AgentRng;
use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::Rules;
use crate::engine::side::Side;

/// The margin, in seeds, at which the leaf evaluation of `rollout = "none"`
/// gives a reward of `1 / (1 + e^-1)` ≈ 0.73: one casa (4 seeds).
pub const LEAF_SCALE: f64 = 4.0;

/// The reward of a margin by the logistic `1 / (1 + e^(-margin / LEAF_SCALE))`:
/// ½ at 0, 0.73 at +4, 0.88 at +8, 0.98 at +16. Unlike
/// [`outcome_reward`]'s step at 0 it is smooth, which an evaluation that is only
/// an estimate needs.
#[inline]
pub fn logistic_reward(margin: Score) -> f64 {
    1.0 / (1.0 + (-(margin as f64) / LEAF_SCALE).exp())
}

/// South's reward in a finished or stalled position.
pub(crate) fn end_reward(pos: &Position, rules: &Rules) -> f64 {
    outcome_reward(end_margin(pos, rules), rules.total_seeds())
}

/// South's margin in a finished or stalled position.
pub(crate) fn end_margin(pos: &Position, rules: &Rules) -> Score {
    if pos.is_over() {
        terminal_margin(pos, Side::South)
    } else {
        stalled_margin(pos, rules.stall.leftover, Side::South)
    }
}

/// South's margin by the evaluator.
#[inline]
pub(crate) fn south_margin(evaluator: &Evaluator, pos: &Position, rules: &Rules) -> Score {
    let margin = evaluator.evaluate(pos, rules);
    if pos.side_to_move() == Side::South {
        margin
    } else {
        -margin
    }
}

/// Scores a non-terminal leaf for South: by a rollout from it, or by the
/// evaluator directly (`RolloutPolicy::None`). `record` hears every move of the
/// rollout with the side that played it (RAVE's all-moves-as-first statistics).
#[allow(clippy::too_many_arguments)]
pub(crate) fn leaf_reward(
    policy: RolloutPolicy,
    cap: u32,
    evaluator: &Evaluator,
    mut pos: Position,
    mut since: u32,
    rules: &Rules,
    rng: &mut AgentRng,
    mut record: impl FnMut(Side, Move),
) -> f64 {
    if policy == RolloutPolicy::None {
        return logistic_reward(south_margin(evaluator, &pos, rules));
    }
    for _ in 0..cap {
        if pos.is_over() || limit_reached(rules, since) {
            return end_reward(&pos, rules);
        }
        let side = pos.side_to_move();
        let (mv, effect) = match policy {
            RolloutPolicy::Greedy => {
                let mv = greedy_move(&pos, rules, rng);
                let effect = pos
                    .play_unchecked_in_place(rules, mv)
                    .expect("the greedy move is legal");
                (mv, effect)
            }
            _ => pos.play_random_in_place(rules, pos.nonempty_mask(), rng),
        };
        record(side, mv);
        since = if effect.captured > 0 { 0 } else { since + 1 };
    }
    if pos.is_over() || limit_reached(rules, since) {
        return end_reward(&pos, rules);
    }
    outcome_reward(south_margin(evaluator, &pos, rules), rules.total_seeds())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_logistic_is_a_half_at_zero_and_symmetric() {
        assert_eq!(logistic_reward(0), 0.5);
        // 1 / (1 + e^-1) = 0.7310585786
        assert!((logistic_reward(4) - 0.731_058_578_6).abs() < 1e-9);
        assert!((logistic_reward(4) + logistic_reward(-4) - 1.0).abs() < 1e-12);
        assert!(logistic_reward(16) > 0.98);
    }
}
