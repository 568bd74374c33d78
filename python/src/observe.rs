//! What a learner sees of a position, the same for one game and for a
//! batch: the board from the mover's side and the legal actions as a mask.
//!
//! Observation (length `2n + 2`): the mover's row, holes `1..n` in sowing
//! order, then the opponent's row the same way, then the mover's captures
//! and the opponent's. Seen so, a position is the same to whichever side
//! moves. Mask (length `n + 1`): index 0 is the pass, index `k` the hole `k`.

use hoyito::{Move, MoveList, Position, Rules, Side, Variant};

/// The length of an observation on `2 x holes`.
pub fn observation_len(holes: usize) -> usize {
    2 * holes + 2
}

/// Writes the observation of `pos` into `out` (`observation_len` long).
pub fn write_observation(pos: &Position, out: &mut [f32]) {
    write_observation_from(pos, pos.side_to_move(), out);
}

/// Writes the observation of `pos` as `me` sees it into `out`.
pub fn write_observation_from(pos: &Position, me: Side, out: &mut [f32]) {
    let n = pos.holes() as usize;
    let other = me.opponent();
    for (slot, &seeds) in out[..n].iter_mut().zip(pos.row(me)) {
        *slot = f32::from(seeds);
    }
    for (slot, &seeds) in out[n..2 * n].iter_mut().zip(pos.row(other)) {
        *slot = f32::from(seeds);
    }
    let captures = pos.captures();
    out[2 * n] = f32::from(captures[me]);
    out[2 * n + 1] = f32::from(captures[other]);
}

/// Writes the mask of `moves` into `out` (`holes + 1` long), clearing it first.
pub fn write_mask(moves: &MoveList, out: &mut [bool]) {
    out.fill(false);
    for &mv in moves {
        match mv {
            Move::Pass => out[0] = true,
            Move::Sow(i) => out[i as usize + 1] = true,
        }
    }
}

/// The side as Python numbers it: South 0, North 1.
pub fn side_number(side: Side) -> u8 {
    side.index() as u8
}

/// The legal moves of `pos` under `rules`, exactly as
/// [`Position::legal_moves`] gives them, with fewer sowings simulated.
///
/// Only simulation shows that a relay sowing never ends, so the engine
/// simulates every non-empty hole. In II and III a sowing whose first lap
/// ends in an empty hole (it then holds 1) or makes a casa (it then holds 4)
/// ends with that lap, which arithmetic shows without sowing; only the
/// others are simulated. (In I, captures en passant change the counts
/// during the lap: every hole is simulated.) The batch keeps a mask per ply,
/// and this is most of its cost.
pub fn legal_moves(pos: &Position, rules: &Rules) -> MoveList {
    let mut list = MoveList::new();
    if pos.is_over() {
        return list;
    }
    let n = pos.holes() as usize;
    let len = 2 * n;
    let row = pos.side_to_move().index() * n;
    let board = pos.board();
    let arithmetic = rules.variant != Variant::I;
    let mut mask = pos.nonempty_mask();
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        let start = row + i;
        let ends = arithmetic && first_lap_ends(board, start, len);
        if ends || pos.play_unchecked(rules, Move::Sow(i as u8)).is_some() {
            list.push(Move::Sow(i as u8));
        }
    }
    if list.is_empty() {
        list.push(Move::Pass);
    }
    list
}

/// Whether the first lap of a sowing from board index `start` ends the move
/// in II or III: its last seed makes its hole hold 1 or 4.
fn first_lap_ends(board: &[u8], start: usize, len: usize) -> bool {
    let seeds = board[start] as usize;
    // The lap drops seed k (1..=seeds) in the hole k places after `start`,
    // wrapping round the board, the emptied hole included.
    let last = (start + seeds) % len;
    let offset = (seeds - 1) % len + 1;
    let received = (seeds - offset) / len + 1;
    let before = if last == start {
        0
    } else {
        board[last] as usize
    };
    matches!(before + received, 1 | 4)
}
