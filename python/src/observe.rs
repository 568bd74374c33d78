//! What a learner sees of one game, as `VectorGame` shows every game of a
//! batch: the observation is the library's (`hoyito::batch`: the mover's
//! row, the opponent's, the mover's captures and the opponent's), and the
//! mask of a move list has index 0 for the pass and `k` for the hole `k`,
//! int8 as Gymnasium's and PettingZoo's masks are (1 legal, 0 not).

use hoyito::{Move, MoveList, Side};

pub use hoyito::batch::{observation_len, write_observation_from};

/// Writes the mask of `moves` into `out` (`holes + 1` long), clearing it first.
pub fn write_mask(moves: &MoveList, out: &mut [i8]) {
    out.fill(0);
    for &mv in moves {
        match mv {
            Move::Pass => out[0] = 1,
            Move::Sow(i) => out[i as usize + 1] = 1,
        }
    }
}

/// The side as Python numbers it: South 0, North 1.
pub fn side_number(side: Side) -> u8 {
    side.index() as u8
}
