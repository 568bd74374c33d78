//! The board and the moves as a person at the board sees them.
//!
//! [`crate::engine::diagram`] draws the board from South's chair for replays. A person
//! playing North sits on the other side, so here the board is drawn from the
//! chair of the side given: that side's row at the bottom, read left to right
//! (its hole 1 on its left), the opponent's row on top, right to left, which is
//! the order the seeds travel. Hole labels are the names the step lines use
//! (`S3` is South's hole 3), so a person can follow relay sowing lap by lap.

use std::fmt::Write;

use crate::engine::diagram::describe_step;
use crate::engine::game::{Game, Outcome};
use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::side::{BySide, Side};
use crate::engine::sowing::Step;

/// The board seen from `me`'s chair, with the players' names and captures, and
/// who is to move.
///
/// ```text
///   North (greedy): 0 captured
///      N6   N5   N4   N3   N2   N1
///    [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]
///    [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]
///      S1   S2   S3   S4   S5   S6
///   South (you): 0 captured  <- to move
/// ```
pub fn board_view(pos: &Position, me: Side, names: &BySide<String>) -> String {
    let n = pos.holes() as usize;
    let them = me.opponent();
    let header = |side: Side| {
        let to_move = if !pos.is_over() && pos.side_to_move() == side {
            "  <- to move"
        } else {
            ""
        };
        format!(
            "  {side} ({}): {} captured{to_move}",
            names[side],
            pos.captures()[side]
        )
    };
    let labels = |side: Side, numbers: &mut dyn Iterator<Item = usize>| {
        let mut s = String::from("  ");
        for k in numbers {
            let _ = write!(s, " {:>4}", format!("{}{k}", side.letter()));
        }
        s
    };
    let cells = |row: &mut dyn Iterator<Item = &u8>| {
        let mut s = String::from("  ");
        for c in row {
            let _ = write!(s, " [{c:>2}]");
        }
        s
    };
    let mut out = String::new();
    let _ = writeln!(out, "{}", header(them));
    let _ = writeln!(out, "{}", labels(them, &mut (1..=n).rev()));
    let _ = writeln!(out, "{}", cells(&mut pos.row(them).iter().rev()));
    let _ = writeln!(out, "{}", cells(&mut pos.row(me).iter()));
    let _ = writeln!(out, "{}", labels(me, &mut (1..=n)));
    let _ = write!(out, "{}", header(me));
    out
}

/// A move and its steps, one line each: who played what, every lap with where
/// its last seed fell, every capture, and the position it led to.
pub fn move_lines(side: Side, name: &str, mv: Move, steps: &[Step], after: &Position) -> String {
    let mut out = format!("{side} ({name}) plays {mv}:\n");
    for step in steps {
        let _ = writeln!(out, "    {}", describe_step(step, after.holes()));
    }
    let _ = write!(out, "    -> {after}");
    out
}

/// The legal moves as typed: `1 2 5` or `pass`.
pub fn legal_list(game: &Game) -> String {
    let moves: Vec<String> = game.legal_moves().iter().map(Move::to_string).collect();
    moves.join(" ")
}

/// The moves of a game as the tokens of RULES.md, separated by spaces.
pub fn move_text(moves: &[Move]) -> String {
    let tokens: Vec<String> = moves.iter().map(Move::to_string).collect();
    tokens.join(" ")
}

/// The `hoyito apply` command line that plays the game's moves from its start
/// and prints the position it reached.
pub fn apply_line(game: &Game) -> String {
    let mut line = format!(
        "hoyito apply --variant {} --position \"{}\"",
        game.rules().variant,
        game.start()
    );
    for mv in game.moves() {
        let _ = write!(line, " {mv}");
    }
    line
}

/// The result in words, naming the players: `South (you) wins 26-22 (normal,
/// 57 plies)`.
pub fn result_line(outcome: &Outcome, names: &BySide<String>) -> String {
    let score = format!("{}-{}", outcome.scores.south, outcome.scores.north);
    let how = format!("({}, {} plies)", outcome.ending, outcome.plies);
    match outcome.winner {
        Some(side) => format!("{side} ({}) wins {score} {how}", names[side]),
        None => format!("draw {score} {how}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{Rules, Variant};

    fn names() -> BySide<String> {
        BySide::new("you".to_string(), "greedy".to_string())
    }

    #[test]
    fn south_sees_its_row_at_the_bottom() {
        let pos: Position = "1,2,3/4,5,6 N 4-8".parse().unwrap();
        let text = board_view(&pos, Side::South, &names());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  North (greedy): 8 captured  <- to move");
        assert_eq!(lines[1], "     N3   N2   N1");
        assert_eq!(lines[2], "   [ 6] [ 5] [ 4]");
        assert_eq!(lines[3], "   [ 1] [ 2] [ 3]");
        assert_eq!(lines[4], "     S1   S2   S3");
        assert_eq!(lines[5], "  South (you): 4 captured");
    }

    #[test]
    fn north_sees_its_row_at_the_bottom() {
        let pos: Position = "1,2,3/4,5,6 N 4-8".parse().unwrap();
        let text = board_view(&pos, Side::North, &names());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  South (you): 4 captured");
        assert_eq!(lines[1], "     S3   S2   S1");
        assert_eq!(lines[2], "   [ 3] [ 2] [ 1]");
        assert_eq!(lines[3], "   [ 4] [ 5] [ 6]");
        assert_eq!(lines[4], "     N1   N2   N3");
        assert_eq!(lines[5], "  North (greedy): 8 captured  <- to move");
    }

    #[test]
    fn apply_line_and_result_name_everything() {
        let mut game = Game::new(Rules::new(Variant::Ii));
        game.play(Move::Sow(2)).unwrap();
        assert_eq!(
            apply_line(&game),
            "hoyito apply --variant ii --position \"4,4,4,4,4,4/4,4,4,4,4,4 S 0-0\" 3"
        );
        assert_eq!(move_text(game.moves()), "3");
        let outcome = Outcome {
            scores: BySide::new(20, 28),
            winner: Some(Side::North),
            ending: crate::engine::game::Ending::Normal,
            plies: 41,
        };
        assert_eq!(
            result_line(&outcome, &names()),
            "North (greedy) wins 20-28 (normal, 41 plies)"
        );
    }
}
