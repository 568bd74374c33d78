//! Sowings that the lanes hand on after [`FAST_LAPS`] laps: nearly all are
//! endless, and each is followed here to its end or to a repeated state,
//! exactly as the engine decides it (`src/engine/sowing.rs`).
//!
//! A lap whose last seed makes 1 or 4 ends the sowing; a sowing state
//! (board, seeds in hand, hole picked up) that comes back never ends, nor
//! does one still going after [`MAX_RELAY_LAPS`] laps. A sowing either ends
//! or comes back to a state (the states are finitely many), so whether it
//! ends within [`MAX_RELAY_LAPS`] laps is the sowing's, whatever finds it.
//!
//! Endless sowings of random 2x6 games go round cycles of up to 150,000
//! laps and more, and Brent's method (the engine's: a state saved at powers
//! of two) sees one after up to three turns of it. So the states whose hash
//! falls in one in [`SPARSE`] are also kept, and a kept state seen again
//! ends the search after little more than one turn (Brent's method still
//! finds the short cycles, which may hold no kept state). The kept states
//! of a sowing found endless are remembered by the thread ([`ENDLESS`]):
//! any sowing of the same board length and way of sowing that reaches one
//! of them never ends either, and the sowings of later positions often
//! fall into a cycle seen before. A sowing cut at [`MAX_RELAY_LAPS`] laps
//! is never remembered.

use std::cell::RefCell;
use std::collections::HashSet;

use super::bytes::Bytes;
use super::laps::{lap_index, LapTables};
use crate::engine::sowing::MAX_RELAY_LAPS;

/// Laps that the lanes follow before a sowing is handed on here: far more
/// than almost any sowing that ends takes (`examples/relay_laps.rs` saw at
/// most 223 in 210,000 random games; nearly all end within a few).
pub(super) const FAST_LAPS: u32 = 64;

/// One state in this many is kept by [`long_sowing_ends`].
const SPARSE: u64 = 1 << 8;

/// States remembered by a thread before it forgets them all and starts
/// again (about 20 MB of hash set).
const MAX_ENDLESS: usize = 1 << 18;

thread_local! {
    /// Kept states of sowings found endless on this thread: states that
    /// never end, whatever position's sowing reaches them.
    static ENDLESS: RefCell<HashSet<State>> = RefCell::default();
}

/// A sowing's state at a pick-up: the board (a byte a hole), the seeds in
/// hand, the board index picked up, the board's length and whether seeds
/// are taken en passant (the same bytes sow otherwise on another board, or
/// in Hoyito I).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct State {
    pub(super) board: [u8; 32],
    pub(super) hand: u32,
    pub(super) from: usize,
    pub(super) len: u8,
    pub(super) en_passant: bool,
}

impl State {
    /// Whether this is one of the one in `sparse` states kept.
    #[inline(always)]
    fn is_sparse(&self, sparse: u64) -> bool {
        let word = |k: usize| {
            u64::from_le_bytes(
                self.board[8 * k..8 * k + 8]
                    .try_into()
                    .expect("eight bytes"),
            )
        };
        let mixed = word(0)
            ^ word(1).rotate_left(29)
            ^ word(2).rotate_left(13)
            ^ word(3).rotate_left(47)
            ^ (u64::from(self.hand) << 48
                | (self.from as u64) << 16
                | u64::from(self.len) << 8
                | u64::from(self.en_passant));
        mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) < u64::MAX / sparse
    }
}

/// Whether the sowing in `state`, still going after [`FAST_LAPS`] laps,
/// ends, exactly as the engine decides it.
#[cold]
#[inline(never)]
pub(super) fn long_sowing_ends<const N: usize, const EN_PASSANT: bool>(
    tables: &LapTables<N>,
    state: State,
) -> bool {
    long_sowing_ends_within::<N, EN_PASSANT>(tables, state, MAX_RELAY_LAPS, SPARSE)
}

/// As [`long_sowing_ends`], with the engine's cap of laps made `cap` and
/// one state in `sparse` kept (tests make the cap too small to see a
/// cycle, and keep every state); a sowing still going at a smaller cap
/// counts as ending (`true`), so that only a repeated or remembered state
/// says `false`.
pub(super) fn long_sowing_ends_within<const N: usize, const EN_PASSANT: bool>(
    tables: &LapTables<N>,
    mut state: State,
    cap: u32,
    sparse: u64,
) -> bool {
    debug_assert_eq!(
        (usize::from(state.len), state.en_passant),
        (tables.len, EN_PASSANT)
    );
    let mut saved = state;
    let (mut power, mut since) = (1u32, 0u32);
    let mut kept = Vec::new();
    let mut board = Bytes::<N>::of_board(&state.board);
    for laps in FAST_LAPS + 1.. {
        let (seeds, last, sown) =
            tables.lap::<EN_PASSANT>(&board, lap_index(state.from, state.hand));
        if seeds == 1 || seeds == 4 {
            return true;
        }
        if laps >= cap {
            return cap < MAX_RELAY_LAPS;
        }
        board = tables.pick_up(sown, last);
        state.board[..N].copy_from_slice(&board.0);
        state.hand = seeds;
        state.from = last;
        let cycled = if state == saved {
            true
        } else if state.is_sparse(sparse) {
            if ENDLESS.with(|endless| endless.borrow().contains(&state)) {
                return false;
            }
            let again = kept.contains(&state);
            kept.push(state);
            again
        } else {
            false
        };
        if cycled {
            ENDLESS.with(|endless| {
                let mut endless = endless.borrow_mut();
                if endless.len() + kept.len() > MAX_ENDLESS {
                    endless.clear();
                }
                endless.extend(kept);
            });
            return false;
        }
        since += 1;
        if since == power {
            (saved, power, since) = (state, 2 * power, 0);
        }
    }
    unreachable!("the laps end at MAX_RELAY_LAPS")
}

/// Files `states` as endless (tests).
#[cfg(test)]
pub(super) fn remember(states: impl IntoIterator<Item = State>) {
    ENDLESS.with(|endless| endless.borrow_mut().extend(states));
}

/// States this thread remembers (tests).
#[cfg(test)]
pub(super) fn remembered() -> usize {
    ENDLESS.with(|endless| endless.borrow().len())
}

/// Forgets every remembered state (tests).
#[cfg(test)]
pub(super) fn forget() {
    ENDLESS.with(|endless| endless.borrow_mut().clear());
}
