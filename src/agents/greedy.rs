//! The first rung above chance: take the most seeds now, look no further than
//! the end of one's own turn.

use std::collections::HashMap;

use rand::Rng;

use crate::engine::agent_trait::{Agent, AgentRng};
use crate::engine::game::Game;
use crate::engine::moves::{Move, MoveList};
use crate::engine::position::Position;
use crate::engine::rules::Rules;

/// Plays the move that captures the most seeds this turn, ties broken uniformly
/// at random with the game's generator.
///
/// In Hoyito II and III a capture earns another move, so a move's gain is its own
/// capture plus the best gain of the moves it earns, searched exhaustively to the
/// end of the player's turn ([`turn_gain`]); the last seeds taken at the end of
/// the game count too. No parameters. In the rare turns where that search
/// would expand more than [`TURN_SEARCH_LIMIT`] positions (openings of II and III
/// on 2x12, where one turn can take 88 of 96 seeds), the positions met beyond
/// the limit count their own capture only, which keeps every decision within a
/// few milliseconds. Greedy (one-turn lookahead) play is the
/// classic mancala baseline (e.g. Donkers, Uiterwijk & de Voogt 2001, "Mancala
/// games: topics in mathematics and artificial intelligence").
#[derive(Debug, Clone, Default)]
pub struct Greedy;

impl Agent for Greedy {
    fn choose(&mut self, game: &Game, rng: &mut AgentRng) -> Move {
        greedy_move(game.position(), game.rules(), rng)
    }
}

/// The greedy choice in `pos`: a move of the highest [`turn_gain`], drawn at random
/// among ties. `pos` must not be finished.
pub(crate) fn greedy_move(pos: &Position, rules: &Rules, rng: &mut AgentRng) -> Move {
    let me = pos.side_to_move();
    let mut best = MoveList::new();
    let mut best_gain = -1i32;
    let mut memo = TurnSearch::default();
    pos.for_each_child(rules, |mv, child, effect| {
        let mut gain = (child.captures()[me] - pos.captures()[me]) as i32;
        if effect.extra_move {
            gain += memo.gain(&child, rules) as i32;
        }
        if gain > best_gain {
            best_gain = gain;
            best = MoveList::new();
        }
        if gain == best_gain {
            best.push(mv);
        }
    });
    debug_assert!(!best.is_empty(), "greedy_move on a finished game");
    best[rng.random_range(0..best.len())]
}

/// The most seeds the side to move can capture before its turn ends: the best
/// over its moves of the move's capture plus, after an extra move, the best gain
/// of the rest of the turn. Zero for a finished game.
pub fn turn_gain(pos: &Position, rules: &Rules) -> u32 {
    TurnSearch::default().gain(pos, rules)
}

/// Positions one greedy decision may expand before the rest of the turn is
/// counted move by move (see [`Greedy`]).
pub const TURN_SEARCH_LIMIT: usize = 20_000;

/// The search of one turn: the gain of every board met (captures in different
/// orders often reach the same board), within [`TURN_SEARCH_LIMIT`].
#[derive(Default)]
struct TurnSearch {
    memo: HashMap<u64, u32>,
    expanded: usize,
}

impl TurnSearch {
    /// The best gain of the rest of the turn from `pos`; stops early once every
    /// seed on the board is taken.
    fn gain(&mut self, pos: &Position, rules: &Rules) -> u32 {
        let key = pos.hash_key();
        if let Some(&gain) = self.memo.get(&key) {
            return gain;
        }
        self.expanded += 1;
        let deeper = self.expanded < TURN_SEARCH_LIMIT;
        let me = pos.side_to_move();
        let all = pos.seeds_on_board();
        let mut best = 0;
        pos.for_each_child(rules, |_, child, effect| {
            if best == all {
                return;
            }
            let mut gain = (child.captures()[me] - pos.captures()[me]) as u32;
            if effect.extra_move && deeper {
                gain += self.gain(&child, rules);
            }
            best = best.max(gain);
        });
        self.memo.insert(key, best);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Variant;
    use rand::SeedableRng;

    #[test]
    fn greedy_takes_the_capture_and_counts_the_extra_move() {
        // South's hole 6 (1 seed) lands on North's hole 1 (3 seeds): a casa; one
        // seed is left, so South takes it too and the game ends: 5 seeds. Hole 5
        // relays through hole 6 and ends in North's empty hole 2: nothing.
        //      N: 6  5  4  3  2  1
        //         0  0  0  0  0  3
        //         0  0  0  0  1  1
        //      S: 1  2  3  4  5  6
        let rules = Rules::new(Variant::Iii);
        let pos: Position = "0,0,0,0,1,1/3,0,0,0,0,0 S 20-20".parse().unwrap();
        let mut rng = AgentRng::seed_from_u64(3);
        assert_eq!(greedy_move(&pos, &rules, &mut rng), Move::Sow(5));
        assert_eq!(turn_gain(&pos, &rules), 5);
    }
}
