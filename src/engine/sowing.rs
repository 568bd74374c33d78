//! Relay sowing and captures: the inner loop of every Hoyito move.
//!
//! A move picks up a hole and sows lap after lap (relay sowing) until a lap ends
//! in an empty hole or makes a casa. Relay sowing can cycle forever; RULES.md
//! makes such a move illegal, so the loop detects a repeated sowing state exactly
//! with Brent's cycle-finding algorithm (Brent 1980, "An improved Monte Carlo
//! factorization algorithm"): the state at each relay pick-up is compared with a
//! saved one, so detection costs one 32-byte comparison per lap and no memory.
//!
//! The loop reports what it does to an [`Observer`]; the fast path passes `()`,
//! which compiles to nothing, and replays pass a [`Trace`].

use crate::engine::rules::Variant;
use crate::engine::side::Side;

/// The board: seeds per hole in sowing order, South's row then North's.
pub type Board = [u8; 32];

/// How a capture happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaptureKind {
    /// Hoyito I: a seed that was not the last of its lap made four.
    EnPassant,
    /// The last seed of a lap made four.
    Casa,
    /// Hoyito II: a hole of four just before a captured casa, in sowing order.
    Chain,
}

/// One step of a move, in the order it happened, so that a person can follow
/// relay sowing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// `seeds` seeds picked up from board index `from` and sown from the next hole.
    Lap {
        /// Board index picked up.
        from: u8,
        /// Seeds in hand.
        seeds: u8,
    },
    /// The lap's last seed fell in board index `hole`, which then held `count`.
    LapEnd {
        /// Board index of the last seed.
        hole: u8,
        /// Seeds in that hole after the drop.
        count: u8,
    },
    /// The mover took the four seeds of board index `hole`.
    Capture {
        /// Board index captured.
        hole: u8,
        /// How.
        kind: CaptureKind,
    },
    /// The mover captured and moves again (II, III).
    ExtraMove(Side),
    /// The board held at most four seeds after a capture: `side` took `seeds`, game over.
    LastSeeds {
        /// Who took them.
        side: Side,
        /// How many.
        seeds: u8,
    },
    /// The mover had no legal sowing and passed.
    Pass,
}

/// Receives the steps of a move as they happen.
pub trait Observer {
    /// One step.
    fn step(&mut self, step: Step);
}

impl Observer for () {
    #[inline(always)]
    fn step(&mut self, _: Step) {}
}

/// The steps of one or more moves, for replays and for people.
pub type Trace = Vec<Step>;

impl Observer for Trace {
    fn step(&mut self, step: Step) {
        self.push(step);
    }
}

/// The sowing state that must not repeat: the board after a pick-up, the hole
/// picked up and the seeds in hand.
#[derive(Clone, Copy, PartialEq, Eq)]
struct RelayState {
    board: Board,
    from: usize,
    hand: u8,
}

/// Relays before Brent's cycle detection first saves a sowing state.
const FIRST_SAVE: u32 = 8;

/// Laps after which a relay sowing counts as endless without waiting for its
/// state to repeat. Exact detection can take longer than anyone waits: from
/// the Hoyito III 2x12 position
/// `1,0,6,0,2,1,7,4,3,4,1,7/4,3,2,1,2,9,3,4,3,2,1,10 N 16-0`, North's hole 12
/// sows more than 20 million laps without ending or repeating a state, and an
/// alpha-beta search of the first-player study stalled on it for half an
/// hour. The longest sowing seen to end, over 210,000 random games of every
/// variant and board, took 223 laps (`examples/relay_laps.rs`), so the cap
/// only cuts sowings that exact detection could not decide in practice.
/// RULES.md asks for exact detection; docs/rules-decisions.md says where the engine
/// departs from it.
pub const MAX_RELAY_LAPS: u32 = 1 << 20;

/// Sows the seeds of board index `start` (which must be non-empty) with relay
/// sowing and the captures of `variant`, for a board of `len` holes.
///
/// Returns the seeds captured and the laps sown (1 when the first lap ended
/// the move), or `None` if the sowing never ends (or runs past [`MAX_RELAY_LAPS`]
/// laps), in which case `board` is
/// left in an unspecified state and must be discarded. Never inlined:
/// inlined into its callers' loops (perft, search, the random game loop) it
/// ran 15% slower, measured.
#[inline(never)]
pub(crate) fn sow<O: Observer>(
    board: &mut Board,
    len: usize,
    start: usize,
    variant: Variant,
    obs: &mut O,
) -> Option<(u8, u32)> {
    debug_assert!(board[start] > 0 && len <= 32 && start < len);
    debug_assert!(board.iter().map(|&s| u32::from(s)).sum::<u32>() <= 255);
    match variant {
        Variant::I => sow_laps::<true, false, O>(board, len, start, obs),
        Variant::Ii => sow_laps::<false, true, O>(board, len, start, obs),
        Variant::Iii => sow_laps::<false, false, O>(board, len, start, obs),
    }
}

/// The loop of [`sow`], compiled once per variant: Hoyito I's laps sow
/// `SEED_BY_SEED` with their captures en passant, II and III's add whole
/// boards; II takes the `CHAIN` of fours before a casa. Each way of sowing
/// writes the board its own way (see [`empty_hole`]); one loop for all three
/// variants, choosing at every lap, made Hoyito I's random-game floor 15% to
/// 20% slower.
#[inline(always)]
fn sow_laps<const SEED_BY_SEED: bool, const CHAIN: bool, O: Observer>(
    board: &mut Board,
    len: usize,
    start: usize,
    obs: &mut O,
) -> Option<(u8, u32)> {
    let mut from = start;
    let mut hand = board[start];
    empty_hole::<SEED_BY_SEED>(board, start);
    // Brent's tortoise is first saved after `FIRST_SAVE` relays: almost every
    // move ends sooner and never copies the board, while a cycle is still found
    // exactly (the sowing is eventually periodic from any lap on). The
    // placeholder's `from` matches no hole.
    let mut saved = RelayState {
        board: [0; 32],
        from: usize::MAX,
        hand: 0,
    };
    let mut power: u32 = FIRST_SAVE;
    let mut lap: u32 = 0;
    let mut captured = 0u8;
    let mut laps = 0u32;
    loop {
        laps += 1;
        obs.step(Step::Lap {
            from: from as u8,
            seeds: hand,
        });
        let (last, count) = if SEED_BY_SEED {
            let last = sow_lap_en_passant(board, len, from, hand, &mut captured, obs);
            (last, board[last])
        } else {
            sow_lap(board, len, from, hand)
        };
        debug_assert_eq!(count, board[last]);
        obs.step(Step::LapEnd {
            hole: last as u8,
            count,
        });
        if count == 4 {
            empty_hole::<SEED_BY_SEED>(board, last);
            captured += 4;
            obs.step(Step::Capture {
                hole: last as u8,
                kind: CaptureKind::Casa,
            });
            if CHAIN {
                captured += capture_chain(board, len, last, obs);
            }
            return Some((captured, laps));
        }
        if count == 1 {
            return Some((captured, laps));
        }
        if laps >= MAX_RELAY_LAPS {
            return None;
        }
        hand = count;
        empty_hole::<SEED_BY_SEED>(board, last);
        from = last;
        // Brent: compare with the saved state, move the save at powers of two.
        if saved.hand == hand && saved.from == from && saved.board == *board {
            return None;
        }
        if lap == power {
            saved = RelayState {
                board: *board,
                from,
                hand,
            };
            power *= 2;
            lap = 0;
        }
        lap += 1;
    }
}

/// Bytes `32 - k .. 64 - k` of this table hold ones at indexes `0..k`.
static PREFIX_ONES: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut i = 0;
    while i < 32 {
        table[i] = 1;
        i += 1;
    }
    table
};

/// Bytes `32 - i .. 64 - i` of this table are all ones but the `i`-th.
static ALL_BUT_ONE: [u8; 64] = {
    let mut table = [0xFFu8; 64];
    table[32] = 0;
    table
};

/// Empties hole `i` (`i < 32`) by masking the whole board rather than by
/// storing one byte. The next lap, the capture count and the caller (the
/// position's hash, its seed count) load the board in wide loads, and a wide
/// load cannot be forwarded from a narrow store still in flight: it waits
/// for the store to reach the cache. That wait was about a fifth of the
/// sowing's time in the search.
#[inline(always)]
fn clear_hole(board: &mut Board, i: usize) {
    debug_assert!(i < 32, "hole {i} is off the board");
    let at = 32 - i;
    let keep: &Board = ALL_BUT_ONE[at..at + 32]
        .try_into()
        .expect("a window of 32 bytes");
    for (b, k) in board.iter_mut().zip(keep) {
        *b &= k;
    }
}

/// Empties hole `i` the way the laps write the board: through a mask of the
/// whole board where they add whole boards (II and III, [`clear_hole`]); by
/// a one-byte store where they sow `SEED_BY_SEED` in one-byte loads and
/// stores (I: a mask there would make a wide load wait on the last lap's
/// narrow stores, and Hoyito I's random-game floor was 15% to 20% slower).
#[inline(always)]
fn empty_hole<const SEED_BY_SEED: bool>(board: &mut Board, i: usize) {
    if SEED_BY_SEED {
        board[i] = 0;
    } else {
        clear_hole(board, i);
    }
}

/// A board with one seed in each hole `0..k` (`k <= 32`).
#[inline(always)]
fn first_holes(k: usize) -> Board {
    let at = 32 - k;
    PREFIX_ONES[at..at + 32]
        .try_into()
        .expect("a window of 32 bytes")
}

/// A board with one seed in each of the `count` holes after `from`, going
/// round a board of `len` holes (`count < len`): what one lap of `count`
/// seeds drops.
#[inline(always)]
fn lap_seeds(len: usize, from: usize, count: usize) -> Board {
    let (begin, end) = (from + 1, from + 1 + count);
    let mut seeds = first_holes(end.min(len));
    let before = first_holes(begin);
    let wrapped = first_holes(end.saturating_sub(len));
    for ((s, b), w) in seeds.iter_mut().zip(before).zip(wrapped) {
        // `begin <= len`: `before` is within the first run, `wrapped` after none of it.
        *s = s.wrapping_sub(b).wrapping_add(w);
    }
    seeds
}

/// Adds `seeds` hole by hole. No hole overflows: a board holds at most 255 seeds.
#[inline(always)]
fn add(board: &mut Board, seeds: &Board) {
    for (b, s) in board.iter_mut().zip(seeds) {
        *b = b.wrapping_add(*s);
    }
}

/// Sows `hand` seeds from the hole after `from`, without captures; returns the
/// board index of the last seed. All holes at once: a lap of `hand` seeds
/// adds `hand / len` to every hole and one more to the `hand % len` holes
/// after `from`.
#[inline(always)]
fn sow_lap(board: &mut Board, len: usize, from: usize, hand: u8) -> (usize, u8) {
    let (rounds, rest) = ((hand as usize / len) as u8, hand as usize % len);
    let last = from + rest;
    let last = if last >= len { last - len } else { last };
    // Read before the lap's stores: the next lap waits on this count.
    let count = board[last]
        .wrapping_add(rounds)
        .wrapping_add(u8::from(rest != 0));
    if rounds > 0 {
        // `rounds` in each of the `len` holes, all holes at once (see
        // [`clear_hole`] for why not hole by hole). No hole overflows: a
        // board holds at most 255 seeds (checked on entry to [`sow`]).
        for (seeds, one) in board.iter_mut().zip(first_holes(len)) {
            *seeds = seeds.wrapping_add(one.wrapping_neg() & rounds);
        }
    }
    add(board, &lap_seeds(len, from, rest));
    (last, count)
}

/// Hoyito I: sows seed by seed, taking every four made by a seed that is not the
/// lap's last; returns the board index of the last seed. (Seed by seed is
/// faster here than all holes at once and then looking for the fours.)
#[inline(always)]
fn sow_lap_en_passant<O: Observer>(
    board: &mut Board,
    len: usize,
    from: usize,
    hand: u8,
    captured: &mut u8,
    obs: &mut O,
) -> usize {
    let mut pos = from;
    for left in (0..hand).rev() {
        pos += 1;
        if pos == len {
            pos = 0;
        }
        board[pos] += 1;
        if board[pos] == 4 && left > 0 {
            board[pos] = 0;
            *captured += 4;
            obs.step(Step::Capture {
                hole: pos as u8,
                kind: CaptureKind::EnPassant,
            });
        }
    }
    pos
}

/// The end of a II or III sowing whose laps were sown elsewhere (the batch's
/// lanes, `src/batch/lanes.rs`), as [`sow`]'s loop ends it: when its last
/// lap left `count` seeds in hole `last` and they make a casa, the casa is
/// taken, and in Hoyito II the chain of fours before it. The seeds taken.
#[inline]
pub(crate) fn take_casa(
    board: &mut Board,
    len: usize,
    last: usize,
    count: u8,
    variant: Variant,
) -> u8 {
    debug_assert!(variant != Variant::I, "Hoyito I captures during its laps");
    if count != 4 {
        return 0;
    }
    clear_hole(board, last);
    4 + match variant {
        Variant::Ii => capture_chain(board, len, last, &mut ()),
        _ => 0,
    }
}

/// Hoyito II: after the casa at `last`, takes the holes before it in sowing order
/// while they hold exactly four.
#[inline]
fn capture_chain<O: Observer>(board: &mut Board, len: usize, last: usize, obs: &mut O) -> u8 {
    let mut taken = 0u8;
    let mut pos = last;
    loop {
        pos = if pos == 0 { len - 1 } else { pos - 1 };
        if board[pos] != 4 {
            return taken;
        }
        clear_hole(board, pos);
        taken += 4;
        obs.step(Step::Capture {
            hole: pos as u8,
            kind: CaptureKind::Chain,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each hole `i` of the 32, and no other, is emptied by its mask.
    #[test]
    fn a_mask_empties_exactly_its_hole() {
        for i in 0..32 {
            let mut board: Board = std::array::from_fn(|j| j as u8 + 1);
            clear_hole(&mut board, i);
            for (j, &seeds) in board.iter().enumerate() {
                let expected = if j == i { 0 } else { j as u8 + 1 };
                assert_eq!(seeds, expected, "hole {j} after emptying hole {i}");
            }
        }
    }

    /// A lap of any size on any board from 2 to 32 holes, from any hole,
    /// drops its seeds one by one round the board's `len` holes and none
    /// beyond them (rounds included), and ends where the last seed fell.
    #[test]
    fn a_lap_drops_its_seeds_round_the_board_and_nowhere_else() {
        for len in 2..=32usize {
            for from in 0..len {
                for hand in 1..=255u8 {
                    let mut board = [0u8; 32];
                    let (last, count) = sow_lap(&mut board, len, from, hand);
                    let mut expected = [0u8; 32];
                    let mut at = from;
                    for _ in 0..hand {
                        at = (at + 1) % len;
                        expected[at] += 1;
                    }
                    assert_eq!(board, expected, "{hand} seeds after {from} on {len}");
                    assert_eq!(last, at, "{hand} seeds after {from} on {len}");
                    assert_eq!(count, board[last], "{hand} seeds after {from} on {len}");
                }
            }
        }
    }
}
