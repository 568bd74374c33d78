//! The columns that a run in rounds (Hoyito III matches, `rules.rounds > 1`)
//! adds to each row of `games.csv`: which match and round the game is, and
//! who the end rule gave the last seeds to.
//!
//! They are written only when matches have more than one round, after the
//! usual columns, so that every `games.csv` of single games stays byte for
//! byte what it was, and every reader of [`GameRow`] (which ignores unknown
//! columns) reads a run in rounds as plain games. The last-seeds columns are
//! what the report needs to say how often the round rule (from round 3 the
//! last seeds go to the previous round's winner, RULES.md) decided a round:
//! the engine's result alone does not say who got them.

use serde::{Deserialize, Serialize};

use crate::engine::game::{Ending, Game};
use crate::engine::rules::LastFour;
use crate::engine::side::Side;

use super::play_scheduled::empty_row;
use super::schedule::ScheduledGame;
use crate::records::game_row::GameRow;

/// A seat as written in the round columns: `S` or `N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SideLetter {
    /// South.
    S,
    /// North.
    N,
}

impl SideLetter {
    /// The seat of a side.
    pub fn of(side: Side) -> SideLetter {
        match side {
            Side::South => SideLetter::S,
            Side::North => SideLetter::N,
        }
    }

    /// The side of a seat.
    pub fn side(self) -> Side {
        match self {
            SideLetter::S => Side::South,
            SideLetter::N => Side::North,
        }
    }
}

/// The columns a run in rounds adds to a row of `games.csv`, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundColumns {
    /// The match: `2 * match pair + seat` (the two matches of a seat-swapped
    /// pair are `2m` and `2m + 1`).
    pub match_id: u64,
    /// The round in its match, from 1.
    pub round: u32,
    /// The seeds left on the board when a capture ended the round, which the
    /// end rule gave away (the "last four"); 0 when none were left or the
    /// round ended otherwise (stalled, forfeit).
    pub last_seeds: u8,
    /// Who got them (empty when `last_seeds` is 0).
    pub last_to: Option<SideLetter>,
    /// Who made the capture that ended the round (empty when it ended
    /// otherwise).
    pub last_capturer: Option<SideLetter>,
}

impl RoundColumns {
    /// The columns of a finished round: the last seeds are found by replaying
    /// the round to its last move (a few microseconds).
    pub fn of(scheduled: &ScheduledGame, game: &Game) -> RoundColumns {
        let mut columns = RoundColumns {
            match_id: scheduled.match_id,
            round: scheduled.match_round,
            last_seeds: 0,
            last_to: None,
            last_capturer: None,
        };
        let ended_normally = game.outcome().is_some_and(|o| o.ending == Ending::Normal);
        let Some((&last, before)) = game.moves().split_last() else {
            return columns;
        };
        if !ended_normally {
            return columns;
        }
        let rules = game.rules();
        let mut position = *game.start();
        for &mv in before {
            position = position
                .play(rules, mv)
                .expect("a finished game's moves replay")
                .0;
        }
        let (end, effect) = position
            .play(rules, last)
            .expect("a finished game's moves replay");
        if effect.captured == 0 || !effect.game_over {
            return columns;
        }
        let mover = position.side_to_move();
        let total = |p: &crate::engine::position::Position| {
            let c = p.captures();
            u32::from(c.south) + u32::from(c.north)
        };
        let left = total(&end) - total(&position) - u32::from(effect.captured);
        columns.last_capturer = Some(SideLetter::of(mover));
        if left > 0 {
            columns.last_seeds = left as u8;
            columns.last_to = Some(SideLetter::of(match rules.last_four {
                LastFour::Capturer => mover,
                LastFour::Player(side) => side,
            }));
        }
        columns
    }
}

/// One row of `games.csv` in a run in rounds, as read back: the usual
/// columns and the round columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundRow {
    /// The usual columns.
    pub game: GameRow,
    /// The columns of the round.
    pub round: RoundColumns,
}

/// The header line of `games.csv` (with its newline) for matches of
/// `rounds` rounds: the usual columns, then the round columns when
/// `rounds > 1`.
pub fn games_header(rounds: u32) -> Vec<u8> {
    let mut header = csv_header();
    if rounds > 1 {
        header.pop();
        header.extend_from_slice(b",match_id,round,last_seeds,last_to,last_capturer\n");
    }
    header
}

/// The header line of `games.csv` (with its newline), taken from the row type
/// itself so that it cannot drift from the columns.
pub fn csv_header() -> Vec<u8> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer
        .serialize(empty_row())
        .expect("a row serialises to memory");
    let bytes = writer.into_inner().expect("flushing to memory cannot fail");
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .expect("the csv writer ends the header with a newline");
    bytes[..=end].to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::play_scheduled::empty_row;

    #[test]
    fn a_row_and_its_round_columns_serialise_as_one_record_under_the_header() {
        let mut writer = csv::Writer::from_writer(Vec::new());
        let columns = RoundColumns {
            match_id: 3,
            round: 4,
            last_seeds: 4,
            last_to: Some(SideLetter::N),
            last_capturer: Some(SideLetter::S),
        };
        writer.serialize((empty_row(), columns)).unwrap();
        let text = String::from_utf8(writer.into_inner().unwrap()).unwrap();
        let mut lines = text.lines();
        assert_eq!(
            format!("{}\n", lines.next().unwrap()).into_bytes(),
            games_header(2)
        );
        assert!(lines.next().unwrap().ends_with(",3,4,4,N,S"));
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let headers = reader.headers().unwrap().clone();
        let record = reader.records().next().unwrap().unwrap();
        let row: GameRow = record.deserialize(Some(&headers)).unwrap();
        let back: RoundColumns = record.deserialize(Some(&headers)).unwrap();
        assert_eq!((row, back), (empty_row(), columns));
        assert_eq!(games_header(1), super::csv_header());
    }
}
