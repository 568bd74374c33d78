//! What a learner sees of a position, the same for one game and for a
//! batch: the board from the mover's side and the legal actions as a mask.
//!
//! Observation (length `2n + 2`): the mover's row, holes `1..n` in sowing
//! order, then the opponent's row the same way, then the mover's captures
//! and the opponent's. Seen so, a position is the same to whichever side
//! moves. Mask (length `n + 1`): index 0 is the pass, index `k` the hole `k`.

use crate::position::Position;
use crate::side::Side;

/// The length of an observation on `2 x holes`.
pub fn observation_len(holes: usize) -> usize {
    2 * holes + 2
}

/// Writes the observation of `pos` into `out` (`observation_len` long).
#[inline]
pub fn write_observation(pos: &Position, out: &mut [f32]) {
    write_observation_from(pos, pos.side_to_move(), out);
}

/// Writes the observation of `pos` as `me` sees it into `out`.
#[inline]
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

/// Writes the mask of the action bits `actions` (bit 0 the pass, bit `k`
/// the hole `k`) into `out` (`holes + 1` long).
#[inline]
pub fn write_action_mask(actions: u32, out: &mut [bool]) {
    for (k, slot) in out.iter_mut().enumerate() {
        *slot = actions >> k & 1 == 1;
    }
}
