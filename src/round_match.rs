//! Hoyito III played in rounds (a match), as RULES.md states it.
//!
//! In rounds 1 and 2 the last seeds go to the capturer; from round 3 on they go
//! to the winner of the previous round **[decision: to the capturer when that
//! round was drawn]**. South moves first in odd rounds and North in even rounds
//! **[decision]**. Each round starts from the start position of the rules.

use serde::{Deserialize, Serialize};

use crate::game::{Game, Outcome};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{LastFour, Rules};
use crate::side::{BySide, Side};

/// The rules and first position of round `round` (1-based) given the previous
/// round's result.
pub fn round_setup(base: &Rules, round: u32, previous: Option<&Outcome>) -> (Rules, Position) {
    round_setup_after(base, round, previous.and_then(|o| o.winner))
}

/// [`round_setup`] given only the previous round's winner (`None` for a
/// drawn round, or in round 1): what a record of the round says.
pub fn round_setup_after(
    base: &Rules,
    round: u32,
    previous_winner: Option<Side>,
) -> (Rules, Position) {
    let last_four = match previous_winner {
        Some(winner) if round >= 3 => LastFour::Player(winner),
        _ => LastFour::Capturer,
    };
    let rules = Rules { last_four, ..*base };
    let mut start = Position::start(&rules);
    if round % 2 == 0 {
        start.side = Side::North;
    }
    (rules, start)
}

/// The result of a match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchResult {
    /// Each round's outcome, in order.
    pub rounds: Vec<Outcome>,
    /// Rounds won by each side.
    pub rounds_won: BySide<u32>,
    /// Seeds won by each side over all rounds.
    pub total_seeds: BySide<u32>,
}

/// Plays `rounds` rounds, asking `choose` for every move. `choose` must return a
/// legal move of the game it is given; the first illegal one ends the match with
/// the game's error.
pub fn play_match(
    base: &Rules,
    rounds: u32,
    mut choose: impl FnMut(&Game) -> Move,
) -> Result<MatchResult, crate::game::GameError> {
    let mut result = MatchResult {
        rounds: Vec::new(),
        rounds_won: BySide::default(),
        total_seeds: BySide::default(),
    };
    for round in 1..=rounds {
        let (rules, start) = round_setup(base, round, result.rounds.last());
        let mut game = Game::from_position(rules, start);
        while game.outcome().is_none() {
            let mv = choose(&game);
            game.play(mv)?;
        }
        let outcome = game.outcome().expect("the loop ends with an outcome");
        if let Some(winner) = outcome.winner {
            result.rounds_won[winner] += 1;
        }
        for side in Side::BOTH {
            result.total_seeds[side] += outcome.scores[side] as u32;
        }
        result.rounds.push(outcome);
    }
    Ok(result)
}
