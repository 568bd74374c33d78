//! Hoyito III played in rounds (a match), as RULES.md states it.
//!
//! In rounds 1 and 2 the last seeds go to the capturer; from round 3 on they go
//! to the winner of the previous round **[decision: to the capturer when that
//! round was drawn]**. South moves first in odd rounds and North in even rounds
//! **[decision]**. Each round starts from the start position of the rules.

use serde::{Deserialize, Serialize};

use crate::engine::game::{Game, Outcome};
use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::{LastFour, Rules};
use crate::engine::side::{BySide, Side};

/// The rules and first position of round `round` (1-based) given the previous
/// round's result.
///
/// North opens the even rounds; from round 3 the last seeds go to the
/// previous round's winner:
///
/// ```
/// use hoyito::{round_setup_after, LastFour, Rules, Side, Variant};
///
/// let base = Rules::new(Variant::Iii);
/// let (rules, start) = round_setup_after(&base, 2, Some(Side::South));
/// assert_eq!(start.side_to_move(), Side::North);
/// assert_eq!(rules.last_four, LastFour::Capturer);
///
/// let (rules, start) = round_setup_after(&base, 3, Some(Side::North));
/// assert_eq!(start.side_to_move(), Side::South);
/// assert_eq!(rules.last_four, LastFour::Player(Side::North));
/// ```
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
///
/// A match of four rounds of Hoyito III in which both sides always play their
/// first legal move:
///
/// ```
/// use hoyito::{play_match, BySide, Rules, Variant};
///
/// let result = play_match(&Rules::new(Variant::Iii), 4, |game| game.legal_moves()[0])?;
/// assert_eq!(result.rounds.len(), 4);
/// assert_eq!(result.rounds_won, BySide::new(2, 2));
/// assert_eq!(result.total_seeds, BySide::new(96, 96));
/// assert_eq!(result.rounds[0].scores, BySide::new(32, 16));
/// // Round 3's last four go to North, round 2's winner, not to the capturer.
/// assert_eq!(result.rounds[2].scores, BySide::new(28, 20));
/// # Ok::<(), hoyito::GameError>(())
/// ```
pub fn play_match(
    base: &Rules,
    rounds: u32,
    mut choose: impl FnMut(&Game) -> Move,
) -> Result<MatchResult, crate::engine::game::GameError> {
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
