//! A game record: the rules, the first position and the moves, enough to replay
//! a game move by move and to check it on the way.

use serde::{Deserialize, Serialize};

use crate::engine::game::{Game, GameError};
use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::Rules;

/// What it takes to replay a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The rules the game was played under.
    pub rules: Rules,
    /// The first position.
    pub start: Position,
    /// The moves, passes included.
    pub moves: Vec<Move>,
}

impl GameRecord {
    /// The record of a game so far.
    pub fn of(game: &Game) -> GameRecord {
        GameRecord {
            rules: *game.rules(),
            start: *game.start(),
            moves: game.moves().to_vec(),
        }
    }

    /// Replays the record, calling `each` after every move with the game so far,
    /// and returns the finished game. An illegal move is an error naming it.
    pub fn replay(&self, mut each: impl FnMut(&Game)) -> Result<Game, GameError> {
        let mut game = Game::from_position(self.rules, self.start);
        for &mv in &self.moves {
            game.play(mv)?;
            each(&game);
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Variant;
    use rand::SeedableRng;

    #[test]
    fn a_random_game_replays_to_the_same_end_and_round_trips_as_json_free_toml() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut game = Game::new(Rules::new(Variant::Ii));
        while !game.is_over() {
            game.play_random(&mut rng);
        }
        let record = GameRecord::of(&game);
        let mut seen = 0;
        let replayed = record.replay(|_| seen += 1).unwrap();
        assert_eq!(seen, game.moves().len());
        assert_eq!(replayed.outcome(), game.outcome());
        assert_eq!(replayed.position(), game.position());
        let text = toml::to_string(&record).unwrap();
        let back: GameRecord = toml::from_str(&text).unwrap();
        assert_eq!(back, record);
    }

    #[test]
    fn an_illegal_move_in_a_record_is_refused() {
        let record = GameRecord {
            rules: Rules::new(Variant::I),
            start: "0,4,4,4,4,4/4,4,4,4,4,4 S 0-0".parse().unwrap(),
            moves: vec![Move::Sow(0)],
        };
        let err = record.replay(|_| {}).unwrap_err();
        assert!(err.to_string().contains("hole 1 is empty"), "{err}");
    }
}
