//! What a person types at the prompt, read and checked before anything is
//! played, so that a bad entry is refused with its reason and asked again
//! instead of ending the game.

use thiserror::Error;

use crate::engine::game::Game;
use crate::engine::moves::Move;
use crate::engine::position::IllegalMove;

/// One entry at the prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// A legal move.
    Move(Move),
    /// Take back the person's last move and the replies to it.
    Undo,
    /// Ask the hint agent for a move.
    Hint,
    /// Stop the game here.
    Quit,
    /// List the commands.
    Help,
}

/// Why an entry is refused; the message says what would be accepted.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EntryError {
    /// Nothing but spaces.
    #[error("nothing entered: type a hole number, pass, undo, hint, quit or help")]
    Blank,
    /// Neither a number nor a command.
    #[error("{0:?} is not a number: type a hole number, pass, undo, hint, quit or help")]
    NotANumber(String),
    /// A hole number beyond the row.
    #[error("hole {number} is out of range: your holes are 1..{holes}")]
    OutOfRange {
        /// The number typed.
        number: u64,
        /// Holes per row.
        holes: u8,
    },
    /// The hole is empty.
    #[error("your hole {0} is empty")]
    EmptyHole(u8),
    /// The hole's relay sowing would never end.
    #[error("your hole {0}: its sowing never ends, so it is not a legal move")]
    Endless(u8),
    /// A pass while a sowing is legal.
    #[error("you cannot pass: you have a legal move")]
    PassWithMoves,
    /// The game has ended.
    #[error("the game is over: no move can be played")]
    GameOver,
}

/// Reads `text` as an entry for the side to move in `game`, checking a move
/// against the rules.
pub fn read_entry(text: &str, game: &Game) -> Result<Entry, EntryError> {
    let text = text.trim();
    let command = match text.to_ascii_lowercase().as_str() {
        "" => return Err(EntryError::Blank),
        "undo" | "u" => Some(Entry::Undo),
        "hint" | "h" => Some(Entry::Hint),
        "quit" | "q" | "exit" => Some(Entry::Quit),
        "help" | "?" => Some(Entry::Help),
        _ => None,
    };
    if let Some(command) = command {
        return Ok(command);
    }
    if game.is_over() {
        return Err(EntryError::GameOver);
    }
    let mv = if text.eq_ignore_ascii_case("pass") {
        Move::Pass
    } else if text.bytes().all(|b| b.is_ascii_digit()) {
        let holes = game.position().holes();
        // Every digit string is a number; one too long for u64 is out of range too.
        let number = text.parse::<u64>().unwrap_or(u64::MAX);
        if !(1..=u64::from(holes)).contains(&number) {
            return Err(EntryError::OutOfRange { number, holes });
        }
        Move::Sow(number as u8 - 1)
    } else {
        return Err(EntryError::NotANumber(text.to_string()));
    };
    match game.position().play(game.rules(), mv) {
        Ok(_) => Ok(Entry::Move(mv)),
        Err(IllegalMove::EmptyHole { number, .. }) => Err(EntryError::EmptyHole(number)),
        Err(IllegalMove::Endless { number, .. }) => Err(EntryError::Endless(number)),
        Err(IllegalMove::PassWithMoves { .. }) => Err(EntryError::PassWithMoves),
        Err(IllegalMove::GameOver) => Err(EntryError::GameOver),
        Err(IllegalMove::OutOfRange { number, holes, .. }) => Err(EntryError::OutOfRange {
            number: number.into(),
            holes,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::position::Position;
    use crate::engine::rules::{Rules, Variant};

    fn game(pos: &str) -> Game {
        let pos: Position = pos.parse().unwrap();
        let rules = Rules {
            holes: pos.holes(),
            ..Rules::new(Variant::Ii)
        };
        Game::from_position(rules, pos)
    }

    #[test]
    fn commands_and_moves_are_read() {
        let g = game("4,4,4/4,4,4 S 0-0");
        assert_eq!(read_entry(" 2 ", &g), Ok(Entry::Move(Move::Sow(1))));
        assert_eq!(read_entry("UNDO", &g), Ok(Entry::Undo));
        assert_eq!(read_entry("hint", &g), Ok(Entry::Hint));
        assert_eq!(read_entry("q", &g), Ok(Entry::Quit));
        assert_eq!(read_entry("?", &g), Ok(Entry::Help));
    }

    #[test]
    fn every_bad_entry_names_its_reason() {
        let g = game("0,1,2/3,0,1 S 0-0");
        assert_eq!(read_entry("", &g), Err(EntryError::Blank));
        assert_eq!(read_entry("x", &g), Err(EntryError::NotANumber("x".into())));
        assert_eq!(
            read_entry("-1", &g),
            Err(EntryError::NotANumber("-1".into()))
        );
        assert_eq!(
            read_entry("4", &g),
            Err(EntryError::OutOfRange {
                number: 4,
                holes: 3
            })
        );
        assert_eq!(
            read_entry("99999999999999999999999", &g),
            Err(EntryError::OutOfRange {
                number: u64::MAX,
                holes: 3
            })
        );
        assert_eq!(read_entry("1", &g), Err(EntryError::EmptyHole(1)));
        assert_eq!(read_entry("pass", &g), Err(EntryError::PassWithMoves));
        assert_eq!(
            read_entry("4", &g).unwrap_err().to_string(),
            "hole 4 is out of range: your holes are 1..3"
        );
        assert_eq!(read_entry("3", &g), Ok(Entry::Move(Move::Sow(2))));
        // RULES.md's endless example (tests/rules.rs): South's hole 2 cycles.
        let g = game("1,3/1,0 S 0-0");
        assert_eq!(read_entry("2", &g), Err(EntryError::Endless(2)));
    }

    #[test]
    fn a_finished_game_refuses_moves_but_not_commands() {
        let g = game("0,0,0/0,0,0 S 24-24");
        assert!(g.is_over());
        assert_eq!(read_entry("1", &g), Err(EntryError::GameOver));
        assert_eq!(read_entry("undo", &g), Ok(Entry::Undo));
    }
}
