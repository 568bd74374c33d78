//! The scoring every searching agent shares, so that alpha-beta and MCTS agree on
//! what a position is worth and both know how games end.
//!
//! Scores are seed margins from one side's point of view. A finished game scores
//! its true final margin (captures, the last seeds included). A game that the
//! stall rules end scores the margin that the rules' `leftover` policy gives
//! ([`crate::stalled_scores`]). A position inside a search has no true value; it
//! is scored by the margin the game would have if it were stalled right there:
//! the capture difference, plus the seeds on the board as `leftover` would hand
//! them out (nothing with `none`, each row to its owner with `own-side`, an even
//! split, which cancels, with `split`). That is the material count of mancala
//! programs, made consistent with the end of a stalled game. A learned
//! evaluation ([`crate::agents::LearnedEval`]) scores such positions by the
//! weighted features that `hoyito tune` fitted instead, in the same unit; the
//! searches hold either as an [`crate::agents::Evaluator`].

use crate::engine::game::{stalled_scores, Game};
use crate::engine::position::Position;
use crate::engine::rules::{Leftover, Rules};
use crate::engine::side::Side;

/// A margin in seeds, from one side's point of view.
pub type Score = i32;

/// The final margin of `side` in a finished game (board empty).
#[inline]
pub fn terminal_margin(pos: &Position, side: Side) -> Score {
    let c = pos.captures();
    c[side] as Score - c[side.opponent()] as Score
}

/// The margin of `side` if the game were stalled in `pos` under `leftover`.
#[inline]
pub fn stalled_margin(pos: &Position, leftover: Leftover, side: Side) -> Score {
    let s = stalled_scores(pos, leftover);
    s[side] as Score - s[side.opponent()] as Score
}

/// The static evaluation of `pos` for the side to move: the true margin of a
/// finished game, else the margin if the game were stalled now.
#[inline]
pub fn evaluate(pos: &Position, rules: &Rules) -> Score {
    let side = pos.side_to_move();
    if pos.is_over() {
        terminal_margin(pos, side)
    } else {
        stalled_margin(pos, rules.stall.leftover, side)
    }
}

/// The reward in `[0, 1]` of a result with margin `margin` out of `total` seeds,
/// for Monte Carlo search: 0.9 for the win, draw or loss (1, ½, 0) and 0.1 for the
/// margin scaled to `[0, 1]`, so that among wins the bigger one is preferred.
#[inline]
pub fn outcome_reward(margin: Score, total: u32) -> f64 {
    let wdl = match margin.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    };
    let scaled = 0.5 + 0.5 * (margin as f64 / total.max(1) as f64);
    0.9 * wdl + 0.1 * scaled.clamp(0.0, 1.0)
}

/// What the stall rules need from a game's history: plies since the last capture
/// and the positions (by hash key) seen since then, so that a search can tell a
/// stalled line from one that goes on.
#[derive(Debug, Clone, Default)]
pub struct StallTracker {
    since_capture: u32,
    keys: Vec<u64>,
}

impl StallTracker {
    /// Replays `game` to find its plies and positions since the last capture.
    pub fn of(game: &Game) -> StallTracker {
        let rules = game.rules();
        let mut pos = *game.start();
        let mut tracker = StallTracker {
            since_capture: 0,
            keys: vec![pos.hash_key()],
        };
        for &mv in game.moves() {
            let (next, effect) = pos
                .play_unchecked(rules, mv)
                .expect("a game's moves were checked when they were played");
            pos = next;
            if effect.captured > 0 {
                tracker.since_capture = 0;
                tracker.keys.clear();
            } else {
                tracker.since_capture += 1;
            }
            tracker.keys.push(pos.hash_key());
        }
        tracker
    }

    /// Plies played since the last capture.
    pub fn since_capture(&self) -> u32 {
        self.since_capture
    }

    /// Whether a position with this hash key occurred since the last capture.
    pub fn seen(&self, key: u64) -> bool {
        self.keys.contains(&key)
    }
}

/// Whether `since` plies without a capture reach the rules' limit (the game
/// then ends as stalled; see `Game`).
#[inline]
pub(crate) fn limit_reached(rules: &Rules, since: u32) -> bool {
    let limit = rules.stall.no_capture_limit;
    limit > 0 && since >= limit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Variant;

    #[test]
    fn finished_and_stalled_games_score_their_margins() {
        let rules = Rules::new(Variant::Ii);
        let over: Position = "0,0,0,0,0,0/0,0,0,0,0,0 N 28-20".parse().unwrap();
        assert_eq!(evaluate(&over, &rules), -8);
        assert_eq!(terminal_margin(&over, Side::South), 8);
        let stalled: Position = "2,0,0,0,0,3/1,0,0,0,0,2 S 20-20".parse().unwrap();
        assert_eq!(evaluate(&stalled, &rules), 0);
        assert_eq!(stalled_margin(&stalled, Leftover::OwnSide, Side::South), 2);
        assert_eq!(stalled_margin(&stalled, Leftover::Split, Side::North), 0);
    }

    #[test]
    fn rewards_order_results() {
        assert!(outcome_reward(8, 48) > outcome_reward(2, 48));
        assert!(outcome_reward(2, 48) > outcome_reward(0, 48));
        assert_eq!(outcome_reward(0, 48), 0.5);
        assert!(outcome_reward(-2, 48) < 0.1);
    }

    #[test]
    fn the_tracker_counts_plies_since_the_last_capture() {
        let rules = Rules::new(Variant::Ii);
        let mut game = Game::new(rules);
        let tracker = StallTracker::of(&game);
        assert_eq!(tracker.since_capture(), 0);
        assert!(tracker.seen(game.position().hash_key()));
        let mut rng = <crate::engine::agent_trait::AgentRng as rand::SeedableRng>::seed_from_u64(1);
        for _ in 0..3 {
            game.play_random(&mut rng);
        }
        let tracker = StallTracker::of(&game);
        assert!(tracker.since_capture() <= 3);
        assert!(tracker.seen(game.position().hash_key()));
    }
}
