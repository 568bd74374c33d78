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

/// The legal actions of `pos` under `rules` as bits: bit 0 the pass, bit
/// `k` the hole `k` (the moves of [`Position::legal_moves`], exactly); 0
/// once the game is over.
///
/// Only simulation shows that a relay sowing never ends, so the engine
/// simulates every non-empty hole, making each child position. The mask
/// needs only whether each sowing ends, and in II and III that depends on
/// the laps' counts alone: no capture happens before the lap that ends the
/// move (one whose last seed makes its hole hold 1, or 4, a casa). So on
/// boards of up to 16 holes the laps are followed on the board held in one
/// `u128` ([`relay_ends`]); a sowing still going after [`FAST_LAPS`] laps
/// (an endless one, or a rare long one) is left to the engine, which
/// decides it exactly. On larger boards a sowing whose first lap ends the
/// move is settled by arithmetic ([`first_lap_ends`]) and the others are
/// simulated by the engine; in I, whose captures en passant change the
/// counts during a lap, the engine simulates every hole. The batch returns
/// a mask after every ply, and this is most of its cost.
#[inline]
pub fn legal_actions(pos: &Position, rules: &Rules) -> u32 {
    if pos.is_over() {
        return 0;
    }
    let n = pos.holes() as usize;
    let len = 2 * n;
    let row = pos.side_to_move().index() * n;
    let board = pos.board();
    let engine_ends = |i: usize| pos.play_unchecked(rules, Move::Sow(i as u8)).is_some();
    let mut mask = pos.nonempty_mask();
    let mut legal = 0u32;
    if rules.variant != Variant::I && len <= 16 {
        let mut bytes = [0u8; 16];
        bytes[..len].copy_from_slice(&board[..len]);
        let packed = u128::from_le_bytes(bytes);
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            if relay_ends(packed, len, row + i).unwrap_or_else(|| engine_ends(i)) {
                legal |= 2 << i;
            }
        }
    } else {
        let arithmetic = rules.variant != Variant::I;
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            if (arithmetic && first_lap_ends(board, row + i, len)) || engine_ends(i) {
                legal |= 2 << i;
            }
        }
    }
    if legal == 0 {
        legal = 1;
    }
    legal
}

/// Laps that [`relay_ends`] follows before it leaves a sowing to the engine:
/// far more than almost any sowing that ends takes (the engine's
/// `sowing.rs` saw at most 223 in 210,000 random games, nearly all end
/// within a few).
const FAST_LAPS: u32 = 64;

/// One seed in each of the first `k` bytes (holes), `k` = 0..=16.
const PREFIX_ONES: [u128; 17] = {
    let ones = u128::from_le_bytes([1; 16]);
    let mut table = [0u128; 17];
    let mut k = 1;
    while k <= 16 {
        table[k] = ones >> (8 * (16 - k));
        k += 1;
    }
    table
};

/// Whether the relay sowing of II or III from board index `start` ends, on
/// a board of `len <= 16` holes packed one byte a hole into `board`
/// (sowing order, as [`Position::board`]): `Some(true)` when a lap's last
/// seed makes its hole hold 1 or 4 within [`FAST_LAPS`] laps, `None` when
/// the sowing is still going then. Each lap is the engine's (`sowing.rs`):
/// `hand / len` seeds in every hole, the emptied one included, one more in
/// each of the `hand % len` holes after the hole picked up, and a relay
/// picks up the last hole. No hole overflows: a board holds at most 255
/// seeds, so byte-wise sums never carry.
#[inline(always)]
fn relay_ends(mut board: u128, len: usize, start: usize) -> Option<bool> {
    debug_assert!(len <= 16 && start < len);
    let every = PREFIX_ONES[len];
    let mut from = start;
    let mut hand = usize::from((board >> (8 * from)) as u8);
    board &= !(0xFFu128 << (8 * from));
    for _ in 0..FAST_LAPS {
        let (rounds, rest) = if hand < len {
            (0, hand)
        } else {
            (hand / len, hand % len)
        };
        let last = match from + rest {
            last if last >= len => last - len,
            last => last,
        };
        let count = usize::from((board >> (8 * last)) as u8) + rounds + usize::from(rest != 0);
        if count == 1 || count == 4 {
            return Some(true);
        }
        let (begin, end) = (from + 1, from + 1 + rest);
        let lap =
            PREFIX_ONES[end.min(len)] - PREFIX_ONES[begin] + PREFIX_ONES[end.saturating_sub(len)];
        board = (board + every * rounds as u128 + lap) & !(0xFFu128 << (8 * last));
        hand = count;
        from = last;
    }
    None
}

/// Writes the mask of the action bits `actions` ([`legal_actions`]) into
/// `out` (`holes + 1` long).
#[inline]
pub fn write_action_mask(actions: u32, out: &mut [bool]) {
    for (k, slot) in out.iter_mut().enumerate() {
        *slot = actions >> k & 1 == 1;
    }
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
