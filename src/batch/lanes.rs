//! The legal moves of many positions at once, for a batch that must return
//! every game's action mask after every ply.
//!
//! Only simulation shows that a relay sowing ends (RULES.md: an endless
//! sowing is not a legal move), so a mask needs every non-empty hole of the
//! mover sown to its end: about 3.8 holes and 8.5 laps a position in random
//! II 2x6 games, where a random game sows one hole a ply. Followed one hole
//! after another, each sowing's end is a branch the processor cannot
//! foresee, and the laps of one sowing wait on each other. Here the sowings
//! of a whole block of positions advance together instead: each is a *lane*
//! (the board after its pick-up, the seeds in hand, the hole picked up), a
//! round sows one lap of every lane still going, with no branch on the
//! sowing's data, and the lanes that go on are packed to the front for the
//! next round. Measured on random II 2x6 positions: 38 ns a position
//! against 58 ns for the same laps followed hole by hole.
//!
//! The chosen moves of a block are sown the same way ([`LegalLanes::sow`]):
//! one lane a game, whose end (the board after its last lap, the hole and
//! count of the last seed, the laps) the engine's own rules then end
//! ([`Sown::play_into`]: the casa and its chain, captures, turn, end).
//! Measured against the engine's sowing hole by hole, the step was 1.09x
//! (best of six paired runs of a scratch program).
//!
//! The laps are the engine's (`src/engine/sowing.rs`) on a board of up to 16 holes
//! held in 16 bytes, a byte a hole, added and masked as one vector
//! ([`Bytes16`]; as a `u128`, two words and a carry, the step was 1.15x
//! slower, eight paired runs): `hand / len` seeds in every hole (the
//! emptied one included), one more in each of the `hand % len` holes after
//! the one picked up. What a lap adds, where its last seed falls and how
//! many seeds it adds there are read from tables indexed by the hole picked
//! up and the seeds in hand (`adds`, `landing`): a lap then waits on one load,
//! not on a division (measured: the step 1.10x to 1.14x, eight and six
//! paired runs). In II and III no capture happens before the lap that
//! ends the move, so whether a sowing ends depends on these counts alone: a
//! lap whose last seed makes its hole hold 1 or 4 ends it. A lane still
//! going after [`FAST_LAPS`] laps (an endless sowing, or a rare long one) is
//! left to the engine, which decides it exactly. Hoyito I, whose captures en
//! passant change the counts during a lap, and boards of more than 16 holes
//! are left to the engine's own move generation.

use crate::engine::moves::Move;
use crate::engine::position::{MoveEffect, Position};
use crate::engine::rules::{Rules, Variant};
use crate::engine::sowing::{take_casa, MAX_RELAY_LAPS};

/// Laps that the lanes follow before a sowing is left to the engine: far
/// more than almost any sowing that ends takes (`examples/relay_laps.rs`
/// saw at most 223 in 210,000 random games; nearly all end within a few).
const FAST_LAPS: u32 = 64;

/// Positions whose lanes advance together: enough lanes that a round's
/// work outweighs its one unforeseeable branch (about 1,000 lanes of 32
/// bytes on 2x6, in the second-level cache; 64 positions measured slower).
pub(crate) const BLOCK: usize = 256;

/// One sowing under way: the board after its last pick-up (a byte a hole),
/// and in one word the seeds in hand (8 bits), the board index picked up
/// (4 bits) and which position and hole it decides (`16 * position + hole`,
/// or the position alone for [`LegalLanes::sow`]): the word's low 12 bits
/// are the lap tables' index, and a lap rewrites them alone. (Every lane
/// of a round has sown as many laps as there were rounds.)
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct Lane {
    board: Bytes16,
    word: u32,
}

/// Sixteen bytes, a byte a hole, added and masked byte by byte: one vector
/// operation each where the processor has 16-byte vectors (as x86-64 and
/// AArch64 all do), where a `u128` takes two words and a carry.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
#[repr(C, align(16))]
struct Bytes16([u8; 16]);

impl Bytes16 {
    #[inline(always)]
    fn from_u128(word: u128) -> Bytes16 {
        Bytes16(word.to_le_bytes())
    }

    #[inline(always)]
    fn to_u128(self) -> u128 {
        u128::from_le_bytes(self.0)
    }

    /// Byte-wise sum (no byte overflows: no hole holds more than 255).
    #[inline(always)]
    fn add(self, other: &Bytes16) -> Bytes16 {
        Bytes16(std::array::from_fn(|i| self.0[i].wrapping_add(other.0[i])))
    }

    /// Byte-wise and.
    #[inline(always)]
    fn and(self, other: &Bytes16) -> Bytes16 {
        Bytes16(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }
}

impl Lane {
    /// The sowing of `hand` seeds picked up from board index `from` of
    /// `board` (already emptied), for `id`.
    #[inline(always)]
    fn new(board: Bytes16, hand: u8, from: usize, id: usize) -> Lane {
        Lane {
            board,
            word: (id as u32) << 12 | lap_index(from, u32::from(hand)) as u32,
        }
    }

    /// The lap tables' index of this lane's next lap.
    #[inline(always)]
    fn lap_index(&self) -> usize {
        (self.word & LAP_INDEX) as usize
    }

    /// The seeds in hand.
    fn hand(&self) -> u32 {
        self.word & 0xFF
    }

    /// The board index picked up.
    fn from(&self) -> usize {
        (self.word >> 8 & 15) as usize
    }

    /// Which position and hole this lane decides.
    #[inline(always)]
    fn id(&self) -> usize {
        (self.word >> 12) as usize
    }

    /// The lane after a lap that left `board` and picked up the `seeds`
    /// (at most 255: no hole holds more) at board index `last`.
    #[inline(always)]
    fn after_lap(&self, board: Bytes16, seeds: u32, last: usize) -> Lane {
        Lane {
            board,
            word: self.word & !LAP_INDEX | lap_index(last, seeds) as u32,
        }
    }
}

/// The low bits of a lane's word: the seeds in hand and the board index
/// picked up, the lap tables' index.
const LAP_INDEX: u32 = (1 << 12) - 1;

/// The lap tables' index of a lap of `hand` seeds (at most 255: no hole
/// holds more) picked up from board index `from`: the layout of the tables
/// and of a lane's word alike.
#[inline(always)]
fn lap_index(from: usize, hand: u32) -> usize {
    ((from & 15) << 8 | (hand & 0xFF) as usize) & LAP_INDEX as usize
}

/// What `landing` says of a lap: the board index of its last seed, and the
/// seeds it adds there.
#[inline(always)]
fn land(landing: &[u16; LAP_TABLE], at: usize) -> (usize, u32) {
    let end = landing[at];
    (usize::from(end & 15), u32::from(end >> 8))
}

/// The legal actions of positions of one rules, a block at a time: bit 0
/// the pass, bit `k` the mover's hole `k` (the moves of
/// [`Position::legal_moves`], exactly).
#[derive(Clone)]
pub(crate) struct LegalLanes {
    rules: Rules,
    /// Holes on the board (`2n`).
    len: usize,
    /// Whether the lanes decide (II and III on up to 16 holes); else the
    /// engine's move generation does.
    fast: bool,
    /// `adds[lap_index(from, hand)]`: what a lap of `hand` seeds picked up
    /// from board index `from` adds to the board, byte by byte: `hand /
    /// len` seeds in every hole, one more in each of the `hand % len` holes
    /// after `from`.
    adds: Box<[Bytes16; LAP_TABLE]>,
    /// `landing[lap_index(from, hand)]`: the board index of that lap's last seed
    /// (low 4 bits) and the seeds the lap adds there (high 8 bits). With
    /// `adds`, one index makes a lap: no division on the laps' chain.
    landing: Box<[u16; LAP_TABLE]>,
    /// `clear[i]`: every byte but the `i`-th.
    clear: [Bytes16; 16],
    /// Every bit of the board's `len` bytes.
    on_board: Bytes16,
    lanes: Vec<Lane>,
    /// `ended[16 * position + hole]`: the sowing of that hole ends.
    ended: Vec<u8>,
}

/// A `u128` with one seed in each of its first `k` bytes (`k <= 16`).
const fn first_holes(k: usize) -> u128 {
    if k == 0 {
        0
    } else {
        u128::from_le_bytes([1; 16]) >> (8 * (16 - k))
    }
}

impl LegalLanes {
    /// Lanes for positions of `rules`.
    pub(crate) fn new(rules: &Rules) -> LegalLanes {
        let len = 2 * rules.holes as usize;
        let fast = rules.variant != Variant::I && len <= 16;
        let mut adds = Box::new([Bytes16::default(); LAP_TABLE]);
        let mut landing = Box::new([0u16; LAP_TABLE]);
        if fast {
            for from in 0..len {
                for hand in 0..=255 {
                    let (rounds, rest) = (hand / len, hand % len);
                    let (begin, end) = (from + 1, from + 1 + rest);
                    let lap = first_holes(end.min(len)) - first_holes(begin)
                        + first_holes(end.saturating_sub(len));
                    let every = first_holes(len).wrapping_mul(rounds as u128);
                    let last = (from + rest) % len;
                    let added = rounds + usize::from(rest != 0);
                    let at = lap_index(from, hand as u32);
                    adds[at] = Bytes16::from_u128(every.wrapping_add(lap));
                    landing[at] = (added << 8 | last) as u16;
                }
            }
        }
        LegalLanes {
            rules: *rules,
            len,
            fast,
            adds,
            landing,
            clear: std::array::from_fn(|i| Bytes16::from_u128(!(0xFFu128 << (8 * i)))),
            on_board: Bytes16::from_u128(first_holes(len.min(16)).wrapping_mul(0xFF)),
            lanes: if fast {
                vec![Lane::default(); usize::from(rules.holes) * BLOCK]
            } else {
                Vec::new()
            },
            ended: if fast {
                vec![0; 16 * BLOCK]
            } else {
                Vec::new()
            },
        }
    }

    /// Whether these lanes decide positions of `rules`.
    pub(crate) fn is_for(&self, rules: &Rules) -> bool {
        self.rules == *rules
    }

    /// Writes the legal actions of each of `positions` (at most [`BLOCK`],
    /// none finished) into `out`, in order.
    #[inline(never)]
    pub(crate) fn decide<'a>(
        &mut self,
        positions: impl ExactSizeIterator<Item = &'a Position> + Clone,
        out: &mut [u32],
    ) {
        let count = positions.len();
        assert!(count <= BLOCK && out.len() >= count);
        if !self.fast {
            for (pos, legal) in positions.zip(out.iter_mut()) {
                *legal = engine_actions(pos, &self.rules);
            }
            return;
        }
        let len = self.len;
        let n = len / 2;
        // Every hole of the mover's row is written as a lane; only the
        // non-empty ones are kept (the next one overwrites an empty one).
        let mut live = 0usize;
        for (p, pos) in positions.clone().enumerate() {
            let board = self.board_of(pos);
            let row = pos.side_to_move().index() * n;
            for i in 0..n {
                let from = row + i;
                let hand = board.0[from];
                self.lanes[live] = Lane::new(board.and(&self.clear[from]), hand, from, 16 * p + i);
                live += usize::from(hand != 0);
            }
        }
        let ended = &mut self.ended[..16 * count];
        ended.fill(0);
        // The tables are fixed-size and indexed under masks that keep every
        // index in range, so that the round has no bounds checks; locals,
        // so that they stay in registers while the lanes are written.
        let (adds, landing, clear) = (&*self.adds, &*self.landing, &self.clear);
        let lanes = &mut self.lanes[..];
        for _ in 0..FAST_LAPS {
            if live == 0 {
                break;
            }
            let mut going = 0usize;
            for k in 0..live {
                let lane = &lanes[k];
                let (seeds, last, sown) = round_lap(lane, adds, landing);
                let ends = seeds == 1 || seeds == 4;
                ended[lane.id() & (16 * BLOCK - 1)] = u8::from(ends);
                lanes[going] = lane.after_lap(sown.and(&clear[last]), seeds, last);
                going += usize::from(!ends);
            }
            live = going;
        }
        for (chunk, legal) in ended.chunks_exact(16).zip(out.iter_mut()) {
            *legal = gather_bytes(chunk) << 1;
        }
        // Sowings still going after FAST_LAPS laps (nearly all endless):
        // each is followed to its end or to a repeated state.
        for k in 0..live {
            let lane = self.lanes[k];
            if self.long_sowing_ends(&lane) {
                out[lane.id() / 16] |= 2 << (lane.id() % 16);
            }
        }
        for legal in &mut out[..count] {
            if *legal == 0 {
                *legal = 1;
            }
        }
    }
}

impl LegalLanes {
    /// The board of `pos` (up to 16 holes), a byte a hole: its first 16
    /// bytes at once, those past the board masked off (a copy of `len`
    /// bytes was a call to `memcpy`).
    #[inline(always)]
    fn board_of(&self, pos: &Position) -> Bytes16 {
        let first: [u8; 16] = pos.board[..16].try_into().expect("16 bytes");
        Bytes16(first).and(&self.on_board)
    }
}

/// One lap of a round ([`LegalLanes::decide`], [`LegalLanes::sow`]): the
/// lap of [`LegalLanes::lap`] with no branch, the count read from the lane
/// in memory (written a round ago); the seeds in the hole of the last seed,
/// that hole, and the board sown, that hole not yet picked up. The tables
/// come as the caller's locals, so that they stay in registers.
#[inline(always)]
fn round_lap(
    lane: &Lane,
    adds: &[Bytes16; LAP_TABLE],
    landing: &[u16; LAP_TABLE],
) -> (u32, usize, Bytes16) {
    let at = lane.lap_index();
    let (last, added) = land(landing, at);
    let seeds = u32::from(lane.board.0[last]) + added;
    let sown = lane.board.add(&adds[at]);
    (seeds, last, sown)
}

/// Entries of the lap tables: a hand of up to 255 seeds from each of 16
/// board indices.
const LAP_TABLE: usize = 16 * 256;

/// A chosen move's sowing, sown by the lanes: the board after its last lap
/// (a byte a hole), the hole of the last seed, the seeds there, the laps.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
pub(crate) struct Sown {
    board: Bytes16,
    last: u32,
    count: u32,
    laps: u32,
}

impl Sown {
    /// Plays this sowing, of the move of `pos`'s mover, into `pos`: the
    /// board its laps left, then the casa and its chain, the captures, the
    /// turn and the end, by the engine's own rules (`take_casa`,
    /// [`Position::end_sowing`]).
    #[inline]
    pub(crate) fn play_into(self, pos: &mut Position, rules: &Rules) -> MoveEffect {
        let len = pos.len();
        pos.board[..16].copy_from_slice(&self.board.0);
        let captured = take_casa(
            &mut pos.board,
            len,
            self.last as usize,
            self.count as u8,
            rules.variant,
        );
        let mover = pos.side_to_move();
        pos.end_sowing(
            rules.variant,
            mover,
            captured,
            self.laps,
            rules.last_four,
            &mut (),
        )
    }
}

impl LegalLanes {
    /// Whether these lanes sow chosen moves ([`LegalLanes::sow`]): II and
    /// III on up to 16 holes.
    pub(crate) fn sows(&self) -> bool {
        self.fast
    }

    /// Sows the chosen move of each of `positions` (at most [`BLOCK`], none
    /// finished), `actions[p]` being position `p`'s (a legal action: 0 the
    /// pass, which is not sown, `k` the mover's hole `k`), as lanes that
    /// advance together as [`LegalLanes::decide`]'s do; writes each sowing's
    /// end into `out[p]`. Only for lanes that [`LegalLanes::sows`].
    pub(crate) fn sow<'a>(
        &mut self,
        positions: impl ExactSizeIterator<Item = &'a Position>,
        actions: &[i64],
        out: &mut [Sown],
    ) {
        assert!(self.fast && positions.len() <= BLOCK);
        let n = self.len / 2;
        let mut live = 0usize;
        for (p, (pos, &action)) in positions.zip(actions).enumerate() {
            let board = self.board_of(pos);
            // A pass's lane is written and not kept.
            let from = (pos.side_to_move().index() * n + action as usize).wrapping_sub(1) & 15;
            self.lanes[live] = Lane::new(board.and(&self.clear[from]), board.0[from], from, p);
            live += usize::from(action != 0);
        }
        let (adds, landing, clear) = (&*self.adds, &*self.landing, &self.clear);
        let lanes = &mut self.lanes[..];
        for laps in 1..=MAX_RELAY_LAPS {
            if live == 0 {
                break;
            }
            let mut going = 0usize;
            for k in 0..live {
                let lane = &lanes[k];
                // Where the lap ends the sowing, its board before the last
                // hole is picked up (`take_casa` takes a casa).
                let (seeds, last, sown) = round_lap(lane, adds, landing);
                let ends = seeds == 1 || seeds == 4;
                out[lane.id() & (BLOCK - 1)] = Sown {
                    board: sown,
                    last: last as u32,
                    count: seeds,
                    laps,
                };
                lanes[going] = lane.after_lap(sown.and(&clear[last]), seeds, last);
                going += usize::from(!ends);
            }
            live = going;
        }
        assert_eq!(live, 0, "a legal action's sowing ends");
    }
}

impl LegalLanes {
    /// One lap of `hand` seeds picked up from board index `from` of
    /// `board`: the seeds in the hole of the last seed, that hole, and the
    /// board with that hole emptied (picked up, if the sowing goes on). The
    /// count is read from the board before the lap (the lap adds a known
    /// number to that hole), so the next lap waits on the count alone.
    #[inline(always)]
    fn lap(&self, board: u128, hand: u32, from: usize) -> (u32, usize, u128) {
        let at = lap_index(from, hand);
        let (last, added) = land(&self.landing, at);
        let seeds = u32::from((board >> (8 * last)) as u8) + added;
        let board = board.wrapping_add(self.adds[at].to_u128());
        (seeds, last, board & self.clear[last].to_u128())
    }

    /// Whether the sowing of `lane`, still going after [`FAST_LAPS`] laps,
    /// ends, exactly as the engine decides it (`src/engine/sowing.rs`): a lap
    /// whose last seed makes 1 or 4 ends it; a sowing state (board, seeds
    /// in hand, hole picked up) that comes back never ends, nor does one
    /// still going after [`MAX_RELAY_LAPS`] laps. A sowing either ends or
    /// comes back to a state (the states are finitely many), so whether it
    /// ends within [`MAX_RELAY_LAPS`] laps is the sowing's, whatever finds
    /// it.
    ///
    /// Endless sowings of random 2x6 games go round cycles of up to
    /// 150,000 laps and more, and Brent's method (the engine's: a state
    /// saved at powers of two) sees one after up to three turns of it. So
    /// the states whose hash falls in one in [`SPARSE`] are also kept, and
    /// a kept state seen again ends the search after little more than one
    /// turn (Brent's method still finds the short cycles, which may hold
    /// no kept state). The kept states of a sowing found endless are
    /// remembered by the thread ([`ENDLESS`]): any sowing on a board of the
    /// same length that reaches one of them never ends either, and the
    /// sowings of later positions often fall into a cycle seen before. A
    /// sowing cut at [`MAX_RELAY_LAPS`] laps is never remembered.
    #[cold]
    #[inline(never)]
    fn long_sowing_ends(&self, lane: &Lane) -> bool {
        self.long_sowing_ends_within(lane, MAX_RELAY_LAPS, SPARSE)
    }

    /// As [`LegalLanes::long_sowing_ends`], with the engine's cap of laps
    /// made `cap` and one state in `sparse` kept (tests make the cap too
    /// small to see a cycle, and keep every state); a sowing still going
    /// at a smaller cap counts as ending (`true`), so that only a repeated
    /// or remembered state says `false`.
    fn long_sowing_ends_within(&self, lane: &Lane, cap: u32, sparse: u64) -> bool {
        let len = self.len as u8;
        let mut state = State {
            board: lane.board.to_u128(),
            hand: lane.hand(),
            from: lane.from(),
            len,
        };
        let mut saved = state;
        let (mut power, mut since) = (1u32, 0u32);
        let mut kept = Vec::new();
        for laps in FAST_LAPS + 1.. {
            let (seeds, last, next) = self.lap(state.board, state.hand, state.from);
            if seeds == 1 || seeds == 4 {
                return true;
            }
            if laps >= cap {
                return cap < MAX_RELAY_LAPS;
            }
            state = State {
                board: next,
                hand: seeds,
                from: last,
                len,
            };
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
}

/// A sowing's state at a pick-up: the board (a byte a hole), the seeds in
/// hand, the board index picked up, and the board's length (the same bytes
/// sow otherwise on another board).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct State {
    board: u128,
    hand: u32,
    from: usize,
    len: u8,
}

impl State {
    /// Whether this is one of the one in `sparse` states kept.
    #[inline(always)]
    fn is_sparse(&self, sparse: u64) -> bool {
        let word = (self.board as u64)
            ^ ((self.board >> 64) as u64).rotate_left(29)
            ^ (u64::from(self.hand) << 48 | (self.from as u64) << 8 | u64::from(self.len)) << 8;
        word.wrapping_mul(0x9E37_79B9_7F4A_7C15) < u64::MAX / sparse
    }
}

/// One state in this many is kept by [`LegalLanes::long_sowing_ends`].
const SPARSE: u64 = 1 << 8;

/// States remembered by a thread before it forgets them all and starts
/// again (about 17 MB of hash set).
const MAX_ENDLESS: usize = 1 << 18;

thread_local! {
    /// Kept states of sowings found endless on this thread: states that
    /// never end, whatever position's sowing reaches them.
    static ENDLESS: std::cell::RefCell<std::collections::HashSet<State>> =
        std::cell::RefCell::default();
}

/// Bit `k` set when byte `k` of the 16 is non-zero (each byte 0 or 1).
#[inline]
fn gather_bytes(bytes: &[u8]) -> u32 {
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let word = u128::from_le_bytes(bytes.try_into().expect("16 bytes"));
    let (lo, hi) = (word as u64, (word >> 64) as u64);
    // Each byte is 0 or 1: the multiply sums byte k into bit 56 + k.
    ((lo.wrapping_mul(GATHER) >> 56) as u32) | (((hi.wrapping_mul(GATHER) >> 56) as u32) << 8)
}

/// The legal actions of `pos` by the engine's own move generation.
pub(crate) fn engine_actions(pos: &Position, rules: &Rules) -> u32 {
    pos.legal_moves(rules)
        .iter()
        .map(|&mv| match mv {
            Move::Pass => 1,
            Move::Sow(i) => 2 << i,
        })
        .fold(0, |a, b| a | b)
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::engine::game::Game;

    /// A lap by the tables is a lap sown seed by seed: for every board of
    /// the lanes, hole picked up and hand of up to 255 seeds, the seeds it
    /// adds to each hole, the hole of its last seed and the count there.
    #[test]
    fn the_lap_tables_sow_seed_by_seed() {
        for holes in 2..=8u32 {
            let rules = Rules::new(Variant::Ii).with_board(holes, 1).unwrap();
            let lanes = LegalLanes::new(&rules);
            let len = 2 * holes as usize;
            // A board with a different count in each hole, the one picked
            // up emptied, as a lane holds it.
            let board: [u8; 16] = std::array::from_fn(|i| if i < len { 3 * i as u8 } else { 0 });
            for from in 0..len {
                for hand in 1..=255u32 {
                    let mut sown = board;
                    sown[from] = 0;
                    let mut at = from;
                    for _ in 0..hand {
                        at = (at + 1) % len;
                        sown[at] += 1;
                    }
                    let mut picked = board;
                    picked[from] = 0;
                    let (seeds, last, next) = lanes.lap(u128::from_le_bytes(picked), hand, from);
                    assert_eq!(
                        (last, seeds),
                        (at, u32::from(sown[at])),
                        "{hand} from {from}"
                    );
                    sown[at] = 0;
                    assert_eq!(
                        next,
                        u128::from_le_bytes(sown),
                        "{hand} from {from} on {len}"
                    );
                    let lane = Lane::new(Bytes16(picked), hand as u8, from, 0);
                    let (seeds_r, last_r, sown_r) = round_lap(&lane, &lanes.adds, &lanes.landing);
                    assert_eq!(
                        (seeds_r, last_r, sown_r.and(&lanes.clear[last_r]).to_u128()),
                        (seeds, last, next)
                    );
                }
            }
        }
    }

    /// Each byte's bit, and no other.
    #[test]
    fn gathering_bytes_keeps_each_bit() {
        for k in 0..16 {
            let mut bytes = [0u8; 16];
            bytes[k] = 1;
            assert_eq!(gather_bytes(&bytes), 1 << k);
        }
        assert_eq!(gather_bytes(&[1; 16]), 0xFFFF);
    }

    /// The lanes give the engine's legal moves on positions of random games
    /// of every variant and board (the engine's generation on I and boards
    /// over 16 holes), blocks of every size, passes and endless sowings
    /// (left to the engine after [`FAST_LAPS`] laps) included: boards with
    /// many seeds a hole make them common.
    #[test]
    fn the_lanes_give_the_engines_legal_moves() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut endless = 0;
        let mut passes = 0;
        for variant in [Variant::I, Variant::Ii, Variant::Iii] {
            for holes in [2u32, 3, 4, 5, 6, 7, 8, 9, 12] {
                for seeds in [1u32, 3, 4, 7] {
                    let Ok(rules) = Rules::new(variant).with_board(holes, seeds) else {
                        continue;
                    };
                    let mut lanes = LegalLanes::new(&rules);
                    let mut positions = Vec::new();
                    for _ in 0..30 {
                        let mut game = Game::new(rules);
                        while !game.is_over() {
                            positions.push(*game.position());
                            game.play_random(&mut rng);
                        }
                    }
                    let mut at = 0;
                    while at < positions.len() {
                        let size = rng.random_range(1..=BLOCK).min(positions.len() - at);
                        let block = &positions[at..at + size];
                        let mut out = vec![0u32; size];
                        lanes.decide(block.iter(), &mut out);
                        for (pos, &legal) in block.iter().zip(&out) {
                            let expected = engine_actions(pos, &rules);
                            assert_eq!(legal, expected, "{pos} ({variant:?})");
                            if lanes.fast {
                                endless += (pos.nonempty_mask() << 1 & !legal).count_ones();
                            }
                            passes += u32::from(legal == 1);
                        }
                        at += size;
                    }
                }
            }
        }
        assert!(
            endless > 0 && passes > 0,
            "{endless} endless, {passes} passes"
        );
    }

    /// Every legal move of positions from random II and III games on 2x2
    /// to 2x8, sown by the lanes a random block at a time and ended by
    /// [`Sown::play_into`], gives the engine's position and effect (laps,
    /// captures, extra move, end), passes among the actions; a move of 78
    /// laps is among them.
    #[test]
    fn the_lanes_sow_as_the_engine_sows() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let (mut chains, mut ends, mut extra, mut moves) = (0, 0, 0, 0);
        for variant in [Variant::Ii, Variant::Iii] {
            for holes in 2u32..=8 {
                for seeds in [1u32, 3, 4, 7] {
                    let Ok(rules) = Rules::new(variant).with_board(holes, seeds) else {
                        continue;
                    };
                    let mut lanes = LegalLanes::new(&rules);
                    assert!(lanes.sows());
                    let mut plays = Vec::new();
                    for _ in 0..20 {
                        let mut game = Game::new(rules);
                        while !game.is_over() {
                            let pos = *game.position();
                            for &mv in pos.legal_moves(&rules).iter() {
                                let action = match mv {
                                    Move::Pass => 0,
                                    Move::Sow(i) => i64::from(i) + 1,
                                };
                                plays.push((pos, action, mv));
                            }
                            game.play_random(&mut rng);
                        }
                    }
                    if holes == 6 {
                        let long = "1,1,2,1,0,1/6,0,6,0,6,0 N 16-8".parse().unwrap();
                        plays.push((long, 1, Move::Sow(0)));
                    }
                    let mut at = 0;
                    while at < plays.len() {
                        let size = rng.random_range(1..=BLOCK).min(plays.len() - at);
                        let block = &plays[at..at + size];
                        let actions: Vec<i64> = block.iter().map(|p| p.1).collect();
                        let mut out = vec![Sown::default(); size];
                        lanes.sow(block.iter().map(|p| &p.0), &actions, &mut out);
                        for (&(pos, action, mv), sown) in block.iter().zip(&out) {
                            let expected = pos.play(&rules, mv).unwrap();
                            let mut played = pos;
                            let effect = match action {
                                0 => played.play_unchecked_in_place(&rules, mv).unwrap(),
                                _ => sown.play_into(&mut played, &rules),
                            };
                            assert_eq!((played, effect), expected, "{pos} {mv:?} ({variant:?})");
                            chains += u32::from(effect.captured > 4);
                            ends += u32::from(effect.game_over);
                            extra += u32::from(effect.extra_move);
                            moves += u32::from(effect.laps == 78);
                        }
                        at += size;
                    }
                }
            }
        }
        assert!(
            chains > 0 && ends > 0 && extra > 0 && moves > 0,
            "{chains} chains, {ends} ends, {extra} extra moves, {moves} of 78 laps"
        );
    }

    /// Sowings that go on past [`FAST_LAPS`] laps, from random II 2x6
    /// games: one that ends after 78 laps, endless ones whose cycles are
    /// 59, 3,139 and 153,944 laps long. Each is decided as the engine
    /// decides it, the first time and again (then from the states the
    /// thread remembers).
    #[test]
    fn long_sowings_are_decided_as_the_engine_decides_them() {
        let rules = Rules::new(Variant::Ii).with_board(6, 4).unwrap();
        let mut lanes = LegalLanes::new(&rules);
        for (text, hole, ends) in [
            ("1,1,2,1,0,1/6,0,6,0,6,0 N 16-8", 1, true),
            ("0,1,0,2,1,3/1,0,2,1,0,1 S 32-4", 6, false),
            ("0,7,3,1,3,4/1,0,4,0,4,1 S 12-8", 3, false),
            ("1,13,4,1,2,1/3,2,9,3,1,0 N 0-8", 4, false),
        ] {
            let pos: Position = text.parse().unwrap();
            let engine = engine_actions(&pos, &rules);
            assert_eq!(
                engine >> hole & 1 == 1,
                ends,
                "{text}: the engine's verdict"
            );
            for _ in 0..2 {
                let mut out = [0u32];
                lanes.decide([pos].iter(), &mut out);
                assert_eq!(out[0], engine, "{text}");
            }
        }
        assert!(ENDLESS.with(|endless| endless.borrow().len()) > 0);
    }

    /// The lane of the mover's hole at board index `from` of `pos`, on a
    /// board of up to 16 holes.
    fn lane_of(lanes: &LegalLanes, pos: &Position, from: usize) -> Lane {
        let mut bytes = [0u8; 16];
        bytes[..lanes.len].copy_from_slice(&pos.board()[..lanes.len]);
        Lane::new(Bytes16(bytes).and(&lanes.clear[from]), bytes[from], from, 0)
    }

    /// The states a thread remembers are those of one board length: the
    /// same bytes on another board never decide a sowing (a memo that
    /// ignores the board's length would let them). Here every state
    /// of a 2x6 sowing that ends after 78 laps is filed as a 2x8 board's
    /// endless one, and every state is looked up.
    #[test]
    fn remembered_states_decide_only_boards_of_their_length() {
        let rules = Rules::new(Variant::Ii).with_board(6, 4).unwrap();
        let lanes = LegalLanes::new(&rules);
        let pos: Position = "1,1,2,1,0,1/6,0,6,0,6,0 N 16-8".parse().unwrap();
        let lane = lane_of(&lanes, &pos, 6);
        let mut state = State {
            board: lane.board.to_u128(),
            hand: lane.hand(),
            from: 6,
            len: 8,
        };
        let mut foreign = Vec::new();
        for _ in 0..77 {
            let (seeds, last, next) = lanes.lap(state.board, state.hand, state.from);
            state = State {
                board: next,
                hand: seeds,
                from: last,
                len: 8,
            };
            foreign.push(state);
        }
        ENDLESS.with(|endless| endless.borrow_mut().extend(foreign.iter().copied()));
        assert!(lanes.long_sowing_ends_within(&lane, MAX_RELAY_LAPS, 1));
        assert_eq!(
            engine_actions(&pos, &rules) >> 1 & 1,
            1,
            "the engine agrees"
        );
        ENDLESS.with(|endless| endless.borrow_mut().clear());
    }

    /// The remembered states of an endless sowing decide it again: with a
    /// cap of laps too small for Brent's method or the kept states to see
    /// its cycle (3,139 laps), only the memo can.
    #[test]
    fn an_endless_sowing_met_before_is_decided_by_the_memo() {
        let rules = Rules::new(Variant::Ii).with_board(6, 4).unwrap();
        let mut lanes = LegalLanes::new(&rules);
        let pos: Position = "0,7,3,1,3,4/1,0,4,0,4,1 S 12-8".parse().unwrap();
        let lane = lane_of(&lanes, &pos, 2);
        ENDLESS.with(|endless| endless.borrow_mut().clear());
        assert!(
            lanes.long_sowing_ends_within(&lane, 3_000, SPARSE),
            "3,000 laps alone decide nothing (the test's premise)"
        );
        let mut out = [0u32];
        lanes.decide([pos].iter(), &mut out);
        assert_eq!(out[0], engine_actions(&pos, &rules));
        assert_eq!(out[0] >> 3 & 1, 0, "South's hole 3 is endless");
        assert!(
            !lanes.long_sowing_ends_within(&lane, 3_000, SPARSE),
            "the memo decides"
        );
    }
}
