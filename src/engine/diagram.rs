//! Boards and move steps drawn for people.
//!
//! The board is drawn as the players see it across the table: North's row on
//! top, read right to left (North's hole 1 is on North's left, which is South's
//! right), South's row below, left to right. Hole labels use the move numbers.

use std::fmt::Write;

use crate::engine::position::Position;
use crate::engine::side::Side;
use crate::engine::sowing::{CaptureKind, Step};

/// The name of board index `index` on a board of `holes` holes per row, as a
/// player would say it: `S3` is South's hole 3.
pub fn hole_name(index: u8, holes: u8) -> String {
    if index < holes {
        format!("S{}", index + 1)
    } else {
        format!("N{}", index - holes + 1)
    }
}

/// The board drawn over several lines, with captures and the side to move.
pub fn diagram(pos: &Position) -> String {
    let n = pos.holes() as usize;
    let caps = pos.captures();
    let mut out = String::new();
    let marker = |side: Side| {
        if pos.is_over() {
            ""
        } else if pos.side_to_move() == side {
            "  <- to move"
        } else {
            ""
        }
    };
    let north: Vec<u8> = pos.row(Side::North).iter().rev().copied().collect();
    let labels = |side: Side, rev: bool| {
        let mut s = String::from("  ");
        for k in 0..n {
            let number = if rev { n - k } else { k + 1 };
            let _ = write!(s, " {:>4}", format!("{}{number}", side.letter()));
        }
        s
    };
    let cells = |row: &[u8]| {
        let mut s = String::from("  ");
        for c in row {
            let _ = write!(s, " [{c:>2}]");
        }
        s
    };
    let _ = writeln!(
        out,
        "  North: {} captured{}",
        caps.north,
        marker(Side::North)
    );
    let _ = writeln!(out, "{}", labels(Side::North, true));
    let _ = writeln!(out, "{}", cells(&north));
    let _ = writeln!(out, "{}", cells(pos.row(Side::South)));
    let _ = writeln!(out, "{}", labels(Side::South, false));
    let _ = write!(
        out,
        "  South: {} captured{}",
        caps.south,
        marker(Side::South)
    );
    if pos.is_over() {
        out.push_str("\n  game over");
    }
    out
}

/// One step of a move in words.
pub fn describe_step(step: &Step, holes: u8) -> String {
    let name = |i: u8| hole_name(i, holes);
    match *step {
        Step::Lap { from, seeds } => format!("pick up {seeds} from {} and sow", name(from)),
        Step::LapEnd { hole, count } => format!("last seed in {} (now {count})", name(hole)),
        Step::Capture { hole, kind } => {
            let how = match kind {
                CaptureKind::EnPassant => "en passant",
                CaptureKind::Casa => "casa",
                CaptureKind::Chain => "chain",
            };
            format!("capture 4 from {} ({how})", name(hole))
        }
        Step::ExtraMove(side) => format!("{side} moves again"),
        Step::LastSeeds { side, seeds } => {
            format!("{side} takes the last {seeds} seed(s): game over")
        }
        Step::Pass => "pass".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn north_row_is_drawn_right_to_left_on_top() {
        let pos: Position = "1,2,3/4,5,6 N 4-8".parse().unwrap();
        let text = diagram(&pos);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  North: 8 captured  <- to move");
        assert_eq!(lines[1], "     N3   N2   N1");
        assert_eq!(lines[2], "   [ 6] [ 5] [ 4]");
        assert_eq!(lines[3], "   [ 1] [ 2] [ 3]");
        assert_eq!(lines[4], "     S1   S2   S3");
        assert_eq!(lines[5], "  South: 4 captured");
        assert_eq!(hole_name(4, 3), "N2");
    }
}
