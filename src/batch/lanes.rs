//! The legal moves of many positions at once, and their chosen moves sown
//! together, for a batch that must return every game's action mask after
//! every ply: every variant, every board up to 2x16.
//!
//! Only simulation shows that a relay sowing ends (RULES.md: an endless
//! sowing is not a legal move), so a mask needs every non-empty hole of the
//! mover sown to its end: about 3.8 holes and 8.5 laps a position in random
//! II 2x6 games, 5.6 holes and 10.7 laps on 2x12, where a random game sows
//! one hole a ply. Followed one hole after another, each sowing's end is a
//! branch the processor cannot foresee, and the laps of one sowing wait on
//! each other. Here the sowings of a whole block of positions advance
//! together instead: each is a *lane* (the board after its pick-up, the
//! seeds in hand, the hole picked up), a round sows one lap of every lane
//! still going, with no branch on the sowing's data, and the lanes that go
//! on are packed to the front for the next round. Measured on random II
//! 2x6 positions: 38 ns a position against 58 ns for the same laps followed
//! hole by hole.
//!
//! In the AVX2 build only the holes whose sowing goes past the laps looked
//! up get lanes: the first two laps of every hole of a position (three in
//! II and III) are looked up at once, two positions an instruction
//! (`first_lap.rs`), and end nine sowings in ten of random II 2x12
//! positions (3.2, 1.2 and 0.55 of 5.6). The others are listed (eight at a
//! time), and their lanes start after their second lap, or after their
//! first where a hand reaches the board's length. A lane that leaves the
//! rounds has its sowing ended; one still going after [`FAST_LAPS`] laps
//! is decided by `long_sowing.rs`. The baseline build lists every
//! non-empty hole. Measured on random positions (steady state, medians of
//! five paired runs), the step before the lookup against the step with
//! the two-lap lookup: II 2x12 11.2 M against 16.9 M plies a second, II
//! 2x6 11.8 M against 14.3 M; two positions an instruction and the third
//! lap then made it 1.08x (II 2x12) and 1.06x (II 2x6).
//!
//! A lane's board is one vector of bytes ([`Bytes`]): 16 for boards of up
//! to 2x8, 32 beyond. A lap is a few table loads and an addition of whole
//! boards (`laps.rs`), with Hoyito I's captures en passant one more masking
//! of the whole board. Where the processor has AVX2 the lanes run a build
//! compiled for it (a 32-byte board is then one vector, not two); the
//! build for the processor's baseline is the fallback, and tests compare
//! the two.
//!
//! The chosen moves of a block are sown the same way ([`LegalLanes::sow`]):
//! one lane a game, whose end (the board after its last lap, the hole and
//! count of the last seed, the laps) the engine's own rules then end
//! ([`LegalLanes::finish`]: the casa and its chain, captures, turn, end).
//! A lane still going after [`FAST_LAPS`] laps (an endless sowing, or a
//! rare long one) is decided exactly by `long_sowing.rs`.

use super::bytes::{simd, Bytes};
#[cfg(target_arch = "x86_64")]
use super::first_lap::{first_laps_avx2, list_undecided_avx2, row_indices};
use super::first_lap::{list_undecided, FirstLaps, LIST};
use super::laps::{lap_index, LapTables, LAP_INDEX};
use super::long_sowing::{long_sowing_ends, State, FAST_LAPS};
use crate::engine::moves::Move;
use crate::engine::position::{MoveEffect, Position};
use crate::engine::rules::{Rules, Variant};
use crate::engine::sowing::{take_casa, MAX_RELAY_LAPS};

/// Positions whose lanes advance together: enough lanes that a round's
/// work outweighs its one unforeseeable branch (about 1,000 lanes of 32
/// bytes on 2x6, in the second-level cache; 64 positions measured slower).
pub(crate) const BLOCK: usize = 256;

/// Bits of a lane's word below its id: the lap tables' index.
const ID_SHIFT: u32 = LAP_INDEX.count_ones();

/// Lanes a block may hold: one a hole of the mover's row (at most 16) for
/// each of its positions.
const MAX_LANES: usize = 16 * BLOCK;

/// A lane's word: the seeds in hand (8 bits), the board index picked up (5
/// bits) and which position and hole it decides (`16 * position + hole`,
/// or the position alone for [`LegalLanes::sow`]). Its low 13 bits are the
/// lap tables' index, and a lap rewrites them alone. (Every lane of a round
/// has sown as many laps as there were rounds.)
#[inline(always)]
fn lane_word(from: usize, hand: u32, id: usize) -> u32 {
    (id as u32) << ID_SHIFT | lap_index(from, hand) as u32
}

/// The word of a lane whose lap left `seeds` (at most 255: no hole holds
/// more) in board index `last`, to be picked up.
#[inline(always)]
fn after_lap(word: u32, seeds: u32, last: usize) -> u32 {
    word & !LAP_INDEX | lap_index(last, seeds) as u32
}

/// Which position and hole a lane's word decides.
#[inline(always)]
fn id_of(word: u32) -> usize {
    (word >> ID_SHIFT) as usize
}

/// The lap `(seeds, last, sown)` of the lane of `word` ([`LapTables::lap`]),
/// written as lane `going` of `boards` and `words` (kept there when its
/// sowing goes on: the next lane written overwrites it otherwise); `record`
/// hears of it, with no branch on its data: the lane's word, the seeds in
/// the hole of its last seed, that hole, the board sown (that hole not yet
/// picked up), and whether the sowing ended. Returns `going` for the next
/// lane.
#[inline(always)]
fn keep_lap<const N: usize>(
    tables: &LapTables<N>,
    (seeds, last, sown): (u32, usize, Bytes<N>),
    word: u32,
    boards: &mut [Bytes<N>; MAX_LANES],
    words: &mut [u32; MAX_LANES],
    going: usize,
    record: &mut impl FnMut(u32, u32, usize, Bytes<N>, bool),
) -> usize {
    let ends = seeds == 1 || seeds == 4;
    record(word, seeds, last, sown, ends);
    let at = going & (MAX_LANES - 1);
    boards[at] = tables.pick_up(sown, last);
    words[at] = after_lap(word, seeds, last);
    going + usize::from(!ends)
}

/// One round: a lap of each of the first `live` lanes ([`keep_lap`]),
/// those whose sowing goes on packed to the front (how many, returned).
/// The arrays are fixed-size and indexed under masks that keep every
/// index in range, so that a round checks no bounds.
#[inline(always)]
fn round<const N: usize, const EN_PASSANT: bool>(
    tables: &LapTables<N>,
    boards: &mut [Bytes<N>; MAX_LANES],
    words: &mut [u32; MAX_LANES],
    live: usize,
    mut record: impl FnMut(u32, u32, usize, Bytes<N>, bool),
) -> usize {
    let mut going = 0usize;
    for k in 0..live {
        let k = k & (MAX_LANES - 1);
        let word = words[k];
        let lap = tables.lap::<EN_PASSANT>(&boards[k], word as usize);
        going = keep_lap(tables, lap, word, boards, words, going, &mut record);
    }
    going
}

/// The lanes of the holes listed in `undecided` (`(16 * position + hole)
/// << 5 | board index`) of the boards `firsts` (a position's each): those
/// with `second[16 * position + hole]`, the count of their second lap's
/// last hole ([`FirstLaps`](super::first_lap::FirstLaps)), written after
/// their first two laps, the others after their first lap if their sowing
/// goes on; packed to the front (how many, returned).
#[inline(always)]
fn first_round<const N: usize, const EN_PASSANT: bool>(
    tables: &LapTables<N>,
    firsts: &[Bytes<N>; BLOCK],
    undecided: &[u32],
    second: &[u8; MAX_LANES],
    boards: &mut [Bytes<N>; MAX_LANES],
    words: &mut [u32; MAX_LANES],
) -> usize {
    let mut going = 0usize;
    for &entry in undecided {
        let (id, from) = ((entry >> 5) as usize, (entry & 31) as usize);
        let board = &firsts[(id / 16) & (BLOCK - 1)];
        let hand = u32::from(board.0[from & (N - 1)]);
        let seeds = second[id & (MAX_LANES - 1)];
        if seeds != 0 {
            let (lane, last) = tables.two_laps::<EN_PASSANT>(board, from, hand);
            let at = going & (MAX_LANES - 1);
            boards[at] = lane;
            words[at] = lane_word(last, u32::from(seeds), id);
            going += 1;
        } else {
            let word = lane_word(from, hand, id);
            let lap = tables.first_lap::<EN_PASSANT>(board, from, word as usize);
            going = keep_lap(
                tables,
                lap,
                word,
                boards,
                words,
                going,
                &mut |_, _, _, _, _| {},
            );
        }
    }
    going
}

/// A chosen move's sowing, sown by the lanes: the board after its last lap
/// (a byte a hole, the last hole holding `count`), the hole of the last
/// seed, the seeds there, the laps.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct Sown<const N: usize> {
    board: Bytes<N>,
    last: u32,
    count: u32,
    laps: u32,
}

impl<const N: usize> Sown<N> {
    /// The sowing that ended with `board`, `count` seeds in its last hole
    /// `last`, after `laps` laps.
    #[inline(always)]
    fn new(board: Bytes<N>, last: usize, count: u32, laps: u32) -> Sown<N> {
        Sown {
            board,
            last: last as u32,
            count,
            laps,
        }
    }
}

/// The lanes of one rules on a board held in `N` bytes.
#[derive(Clone)]
pub(crate) struct Lanes<const N: usize> {
    rules: Rules,
    tables: LapTables<N>,
    /// Hoyito I: seeds are taken en passant.
    en_passant: bool,
    /// Whether the AVX2 build runs.
    simd: bool,
    /// The sowings under way, a lane each: the board after its last
    /// pick-up, a byte a hole (apart from the words: a lane's board and
    /// word in one struct took 64 bytes on the wider boards, where they
    /// take 36 so).
    boards: Box<[Bytes<N>; MAX_LANES]>,
    /// Each lane's word ([`lane_word`]).
    words: Box<[u32; MAX_LANES]>,
    /// The boards of a block's positions being decided, a byte a hole.
    firsts: Box<[Bytes<N>; BLOCK]>,
    /// `second[16 * position + hole]`: the count of the last hole of that
    /// sowing's second lap, where the lanes start after it
    /// ([`FirstLaps`](super::first_lap::FirstLaps)); 0 otherwise.
    second: Box<[u8; MAX_LANES]>,
    /// The holes of a block's positions whose first laps left them
    /// undecided: `(16 * position + hole) << 5 | board index`.
    undecided: Box<[u32; LIST]>,
    /// A block's chosen moves, sown.
    sown: Vec<Sown<N>>,
}

/// The legal actions of positions of one rules, a block at a time: bit 0
/// the pass, bit `k` the mover's hole `k` (the moves of
/// [`Position::legal_moves`], exactly); and their chosen moves, played.
#[derive(Clone)]
pub(crate) enum LegalLanes {
    /// Boards of up to 2x8.
    Narrow(Box<Lanes<16>>),
    /// Boards of up to 2x16.
    Wide(Box<Lanes<32>>),
}

/// Runs `$body` with `$lanes` bound to the lanes of either width.
macro_rules! either {
    ($self:expr, $lanes:ident => $body:expr) => {
        match $self {
            LegalLanes::Narrow($lanes) => $body,
            LegalLanes::Wide($lanes) => $body,
        }
    };
}

impl LegalLanes {
    /// Lanes for positions of `rules`, in the AVX2 build where it runs.
    pub(crate) fn new(rules: &Rules) -> LegalLanes {
        LegalLanes::with_simd(rules, simd())
    }

    /// Lanes for positions of `rules`, in the AVX2 build if `simd` (which
    /// must then be available: [`simd`]) or the baseline build.
    pub(crate) fn with_simd(rules: &Rules, simd: bool) -> LegalLanes {
        if 2 * usize::from(rules.holes) <= 16 {
            LegalLanes::Narrow(Box::new(Lanes::new(rules, simd)))
        } else {
            LegalLanes::Wide(Box::new(Lanes::new(rules, simd)))
        }
    }

    /// Whether these lanes decide positions of `rules`.
    pub(crate) fn is_for(&self, rules: &Rules) -> bool {
        either!(self, lanes => lanes.rules == *rules)
    }

    /// Writes the legal actions of each of `positions` (at most [`BLOCK`],
    /// none finished) into `out`, in order.
    pub(crate) fn decide<'a>(
        &mut self,
        positions: impl ExactSizeIterator<Item = &'a Position> + Clone,
        out: &mut [u32],
    ) {
        either!(self, lanes => lanes.decide(positions, out))
    }

    /// Sows the chosen move of each of `positions` (at most [`BLOCK`], none
    /// finished), `actions[p]` being position `p`'s (a legal action: 0 the
    /// pass, which is not sown, `k` the mover's hole `k`); keeps each
    /// sowing's end for [`LegalLanes::finish`].
    pub(crate) fn sow<'a>(
        &mut self,
        positions: impl ExactSizeIterator<Item = &'a Position>,
        actions: &[i64],
    ) {
        either!(self, lanes => lanes.sow(positions, actions))
    }

    /// Plays into each of `positions` (those just given to
    /// [`LegalLanes::sow`], in order) its action's sowing, then the casa
    /// and its chain, the captures, the turn and the end by the engine's
    /// own rules; writes each move's effect into `effects`.
    pub(crate) fn finish<'a>(
        &self,
        positions: impl Iterator<Item = &'a mut Position>,
        actions: &[i64],
        effects: &mut [MoveEffect],
    ) {
        either!(self, lanes => lanes.finish(positions, actions, effects))
    }
}

impl<const N: usize> Lanes<N> {
    /// Lanes for positions of `rules` on a board of up to `N` holes.
    fn new(rules: &Rules, simd: bool) -> Lanes<N> {
        assert!(!simd || super::bytes::avx2(), "AVX2 asked for without it");
        let holes = usize::from(rules.holes);
        assert!(holes <= 16, "at most 16 lanes a position");
        Lanes {
            rules: *rules,
            tables: LapTables::new(2 * holes),
            en_passant: rules.variant == Variant::I,
            simd,
            boards: vec![Bytes::default(); MAX_LANES]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("MAX_LANES boards")),
            words: Box::new([0; MAX_LANES]),
            firsts: vec![Bytes::default(); BLOCK]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("BLOCK boards")),
            second: Box::new([0; MAX_LANES]),
            undecided: Box::new([0; LIST]),
            sown: vec![Sown::default(); BLOCK],
        }
    }

    /// [`LegalLanes::decide`], in the build that runs.
    fn decide<'a>(
        &mut self,
        positions: impl ExactSizeIterator<Item = &'a Position> + Clone,
        out: &mut [u32],
    ) {
        #[cfg(target_arch = "x86_64")]
        if self.simd {
            // SAFETY: `simd` is set only where the processor has AVX2
            // (checked in `Lanes::new`).
            return unsafe { self.decide_avx2(positions, out) };
        }
        self.decide_base(positions, out)
    }

    /// [`LegalLanes::decide`] compiled for AVX2.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    #[inline(never)]
    unsafe fn decide_avx2<'a>(
        &mut self,
        positions: impl ExactSizeIterator<Item = &'a Position> + Clone,
        out: &mut [u32],
    ) {
        self.decide_with::<true>(positions, out)
    }

    /// [`LegalLanes::decide`] compiled for the processor's baseline.
    #[inline(never)]
    fn decide_base<'a>(
        &mut self,
        positions: impl ExactSizeIterator<Item = &'a Position> + Clone,
        out: &mut [u32],
    ) {
        self.decide_with::<false>(positions, out)
    }

    /// [`LegalLanes::decide`], inlined into each build (`SIMD` in the AVX2
    /// build).
    #[inline(always)]
    fn decide_with<'a, const SIMD: bool>(
        &mut self,
        positions: impl ExactSizeIterator<Item = &'a Position> + Clone,
        out: &mut [u32],
    ) {
        let count = positions.len();
        assert!(count <= BLOCK && out.len() >= count);
        let (len, n) = (self.tables.len, self.tables.len / 2);
        let Lanes {
            tables,
            boards,
            words,
            firsts,
            second,
            undecided,
            en_passant,
            ..
        } = self;
        let en_passant = *en_passant;
        let (boards, words) = (&mut **boards, &mut **words);
        let (firsts, second, undecided) = (&mut **firsts, &mut **second, &mut **undecided);
        // Each position's first laps, all holes at once: the holes they
        // leave undecided are listed (every hole is written, only those are
        // kept), and only those get lanes.
        let mut listed = 0usize;
        // Keeps position `p`'s first laps `laps`, its mover's row from
        // board index `row`.
        let mut keep = |p: usize, row: usize, laps: FirstLaps, listed: usize| {
            // A listed hole is legal until its lane is found still going
            // after FAST_LAPS laps (below).
            out[p] = (laps.ended | laps.undecided) << 1;
            second[(16 * p) & (MAX_LANES - 1)..][..16].copy_from_slice(&laps.second);
            let entry = ((16 * p) << 5 | row) as u32;
            match SIMD {
                // SAFETY: the AVX2 build runs only where the processor has
                // AVX2 and POPCNT (`Lanes::decide`); at most 16 entries a
                // position are listed, and the list has room for 16 more.
                #[cfg(target_arch = "x86_64")]
                true => unsafe { list_undecided_avx2(entry, laps.undecided, n, undecided, listed) },
                _ => list_undecided(entry, laps.undecided, n, undecided, listed),
            }
        };
        match SIMD {
            #[cfg(target_arch = "x86_64")]
            true => {
                // The positions two at a time, a pair's rows side by side.
                let mut rows = [[0u8; 32]; 4];
                for (k, rows) in rows.iter_mut().enumerate() {
                    rows[..16].copy_from_slice(&row_indices(k / 2 * n, n));
                    rows[16..].copy_from_slice(&row_indices(k % 2 * n, n));
                }
                let mut sides = [0usize; BLOCK];
                for (p, pos) in positions.enumerate() {
                    firsts[p & (BLOCK - 1)] = Bytes::of_board(&pos.board).and(&tables.on_board);
                    sides[p & (BLOCK - 1)] = pos.side_to_move().index();
                }
                for p in (0..count).step_by(2) {
                    // An odd last position is paired with itself.
                    let q = (p + 1).min(count - 1);
                    let (a, b) = (p & (BLOCK - 1), q & (BLOCK - 1));
                    let (boards, holes) =
                        ([&firsts[a], &firsts[b]], &rows[2 * sides[a] + sides[b]]);
                    // SAFETY: as above.
                    let [first, next] = unsafe { first_laps_avx2(boards, holes, len, en_passant) };
                    listed = keep(p, sides[a] * n, first, listed);
                    if q > p {
                        listed = keep(q, sides[b] * n, next, listed);
                    }
                }
            }
            _ => {
                // The baseline build has no byte shuffle: every non-empty hole
                // is listed, and sown from its first lap (a lookup one hole
                // after another cost that build half its speed: its branches
                // cannot be foreseen).
                for (p, pos) in positions.enumerate() {
                    firsts[p & (BLOCK - 1)] = Bytes::of_board(&pos.board).and(&tables.on_board);
                    let laps = FirstLaps {
                        ended: 0,
                        undecided: pos.nonempty_mask(),
                        second: [0; 16],
                    };
                    listed = keep(p, pos.side_to_move().index() * n, laps, listed);
                }
            }
        }
        let undecided = &undecided[..listed];
        let mut live = match en_passant {
            true => first_round::<N, true>(tables, firsts, undecided, second, boards, words),
            false => first_round::<N, false>(tables, firsts, undecided, second, boards, words),
        };
        for _ in 1..FAST_LAPS {
            if live == 0 {
                break;
            }
            let record = |_, _, _, _, _| {};
            live = match en_passant {
                true => round::<N, true>(tables, boards, words, live, record),
                false => round::<N, false>(tables, boards, words, live, record),
            };
        }
        // Sowings still going after FAST_LAPS laps (nearly all endless):
        // each is followed to its end or to a repeated state.
        for k in 0..live {
            let (board, word) = (&self.boards[k], self.words[k]);
            let state = self.state_of(board, word);
            let ends = match self.en_passant {
                true => long_sowing_ends::<N, true>(&self.tables, state),
                false => long_sowing_ends::<N, false>(&self.tables, state),
            };
            let id = id_of(word);
            if !ends {
                out[id / 16] &= !(2 << (id % 16));
            }
        }
        for legal in &mut out[..count] {
            if *legal == 0 {
                *legal = 1;
            }
        }
    }

    /// The sowing state of the lane of `board` and `word`.
    fn state_of(&self, lane: &Bytes<N>, word: u32) -> State {
        let mut board = [0; 32];
        board[..N].copy_from_slice(&lane.0);
        State {
            board,
            hand: word & 0xFF,
            from: (word >> 8 & 31) as usize,
            len: self.tables.len as u8,
            en_passant: self.en_passant,
        }
    }

    /// [`LegalLanes::sow`], in the build that runs.
    fn sow<'a>(&mut self, positions: impl ExactSizeIterator<Item = &'a Position>, actions: &[i64]) {
        #[cfg(target_arch = "x86_64")]
        if self.simd {
            // SAFETY: as in `Lanes::decide`.
            return unsafe { self.sow_avx2(positions, actions) };
        }
        self.sow_base(positions, actions)
    }

    /// [`LegalLanes::sow`] compiled for AVX2.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    #[inline(never)]
    unsafe fn sow_avx2<'a>(
        &mut self,
        positions: impl ExactSizeIterator<Item = &'a Position>,
        actions: &[i64],
    ) {
        self.sow_with(positions, actions)
    }

    /// [`LegalLanes::sow`] compiled for the processor's baseline.
    #[inline(never)]
    fn sow_base<'a>(
        &mut self,
        positions: impl ExactSizeIterator<Item = &'a Position>,
        actions: &[i64],
    ) {
        self.sow_with(positions, actions)
    }

    /// [`LegalLanes::sow`], inlined into each build.
    #[inline(always)]
    fn sow_with<'a>(
        &mut self,
        positions: impl ExactSizeIterator<Item = &'a Position>,
        actions: &[i64],
    ) {
        assert!(positions.len() <= BLOCK);
        let n = self.tables.len / 2;
        let Lanes {
            tables,
            boards,
            words,
            sown: out,
            en_passant,
            ..
        } = self;
        let en_passant = *en_passant;
        let (boards, words) = (&mut **boards, &mut **words);
        let mut live = 0usize;
        for (p, (pos, &action)) in positions.zip(actions).enumerate() {
            let board = Bytes::of_board(&pos.board).and(&tables.on_board);
            // A pass's lane is written and not kept.
            let from = (pos.side_to_move().index() * n + action as usize).wrapping_sub(1) & (N - 1);
            let at = live & (MAX_LANES - 1);
            boards[at] = tables.pick_up(board, from);
            // The hand is read from the position in memory, not from the
            // board in registers (whose bytes would wait on a store).
            words[at] = lane_word(from, u32::from(pos.board[from]), p);
            live += usize::from(action != 0);
        }
        for laps in 1..=MAX_RELAY_LAPS {
            if live == 0 {
                break;
            }
            live = match en_passant {
                true => {
                    round::<N, true>(tables, boards, words, live, |word, seeds, last, sown, _| {
                        let board = tables.settle(sown, last, seeds);
                        out[id_of(word) & (BLOCK - 1)] = Sown::new(board, last, seeds, laps);
                    })
                }
                false => {
                    round::<N, false>(tables, boards, words, live, |word, seeds, last, sown, _| {
                        out[id_of(word) & (BLOCK - 1)] = Sown::new(sown, last, seeds, laps);
                    })
                }
            };
        }
        assert_eq!(live, 0, "a legal action's sowing ends");
    }

    /// [`LegalLanes::finish`].
    #[inline]
    fn finish<'a>(
        &self,
        positions: impl Iterator<Item = &'a mut Position>,
        actions: &[i64],
        effects: &mut [MoveEffect],
    ) {
        let rules = &self.rules;
        for (((pos, &action), effect), sown) in positions.zip(actions).zip(effects).zip(&self.sown)
        {
            *effect = match action {
                0 => pos
                    .play_unchecked_in_place(rules, Move::Pass)
                    .expect("a pass ends"),
                _ => self.play_into(sown, pos),
            };
        }
    }

    /// Plays `sown`, the sowing of the move of `pos`'s mover, into `pos`:
    /// the board its laps left, then the casa (and in Hoyito II its chain),
    /// the captures, the turn and the end, by the engine's own rules
    /// (`take_casa`, [`Position::end_sowing`]).
    #[inline(always)]
    fn play_into(&self, sown: &Sown<N>, pos: &mut Position) -> MoveEffect {
        let len = self.tables.len;
        let last = sown.last as usize;
        let captured = if self.en_passant {
            // The seeds taken en passant are those the laps left off the
            // board; a casa takes four more.
            let before = pos.seeds_on_board();
            let casa = sown.count == 4;
            let board = if casa {
                self.tables.pick_up(sown.board, last)
            } else {
                sown.board
            };
            pos.board[..N].copy_from_slice(&board.0);
            (before - board.total()) as u8
        } else {
            pos.board[..N].copy_from_slice(&sown.board.0);
            take_casa(
                &mut pos.board,
                len,
                last,
                sown.count as u8,
                self.rules.variant,
            )
        };
        let mover = pos.side_to_move();
        pos.end_sowing(
            self.rules.variant,
            mover,
            captured,
            sown.laps,
            self.rules.last_four,
            &mut (),
        )
    }
}

/// The legal actions of `pos` by the engine's own move generation.
#[cfg(test)]
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

    use super::super::bytes::avx2;
    use super::super::long_sowing::{forget, long_sowing_ends_within, remember, remembered};
    use super::*;
    use crate::engine::game::Game;
    use crate::engine::rules::{MAX_HOLES, MIN_HOLES};
    use crate::engine::sowing::{CaptureKind, Step};

    /// The builds of the lanes a test compares: the baseline, and AVX2
    /// where the processor has it.
    fn builds() -> Vec<bool> {
        if avx2() {
            vec![false, true]
        } else {
            vec![false]
        }
    }

    /// Positions of random games of `rules` (`games` of them, whole).
    fn random_positions(rules: Rules, games: usize, rng: &mut ChaCha8Rng) -> Vec<Position> {
        let mut positions = Vec::new();
        for _ in 0..games {
            let mut game = Game::new(rules);
            while !game.is_over() {
                positions.push(*game.position());
                game.play_random(rng);
            }
        }
        positions
    }

    /// The lanes give the engine's legal moves on positions of random
    /// games of every variant and every board from 2x2 to 2x16, in both
    /// builds, blocks of every size, passes and endless sowings (left to
    /// `long_sowing.rs` after [`FAST_LAPS`] laps) included: boards with
    /// many seeds a hole make them common.
    #[test]
    fn the_lanes_give_the_engines_legal_moves() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut endless = [0u32; 3];
        let mut passes = [0u32; 3];
        for (v, variant) in [Variant::I, Variant::Ii, Variant::Iii]
            .into_iter()
            .enumerate()
        {
            for holes in MIN_HOLES..=MAX_HOLES {
                for seeds in [1u32, 3, 4, 7] {
                    let Ok(rules) = Rules::new(variant).with_board(holes.into(), seeds) else {
                        continue;
                    };
                    let games = if holes > 10 { 4 } else { 12 };
                    let positions = random_positions(rules, games, &mut rng);
                    for simd in builds() {
                        let mut lanes = LegalLanes::with_simd(&rules, simd);
                        let mut at = 0;
                        while at < positions.len() {
                            let size = rng.random_range(1..=BLOCK).min(positions.len() - at);
                            let block = &positions[at..at + size];
                            let mut out = vec![0u32; size];
                            lanes.decide(block.iter(), &mut out);
                            for (pos, &legal) in block.iter().zip(&out) {
                                let expected = engine_actions(pos, &rules);
                                assert_eq!(legal, expected, "{pos} ({variant:?}, simd {simd})");
                                endless[v] += (pos.nonempty_mask() << 1 & !legal).count_ones();
                                passes[v] += u32::from(legal == 1);
                            }
                            at += size;
                        }
                    }
                }
            }
        }
        assert!(
            endless.iter().all(|&e| e > 0) && passes.iter().all(|&p| p > 0),
            "{endless:?} endless, {passes:?} passes"
        );
    }

    /// Every legal move of positions from random games of every variant on
    /// 2x2 to 2x16, sown by the lanes a random block at a time in both
    /// builds and finished by [`LegalLanes::finish`], gives the engine's
    /// position and effect (laps, captures en passant, casas and chains,
    /// extra move, end), passes among the actions; a move of 78 laps is
    /// among them.
    #[test]
    fn the_lanes_sow_as_the_engine_sows() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let (mut chains, mut ends, mut extra, mut long, mut en_passant) = (0, 0, 0, 0, 0);
        for variant in [Variant::I, Variant::Ii, Variant::Iii] {
            for holes in MIN_HOLES..=MAX_HOLES {
                for seeds in [1u32, 3, 4, 7] {
                    let Ok(rules) = Rules::new(variant).with_board(holes.into(), seeds) else {
                        continue;
                    };
                    let games = if holes > 10 { 3 } else { 8 };
                    let mut plays = Vec::new();
                    for pos in random_positions(rules, games, &mut rng) {
                        for &mv in pos.legal_moves(&rules).iter() {
                            let action = match mv {
                                Move::Pass => 0,
                                Move::Sow(i) => i64::from(i) + 1,
                            };
                            plays.push((pos, action, mv));
                        }
                    }
                    if holes == 6 && variant != Variant::I {
                        let long = "1,1,2,1,0,1/6,0,6,0,6,0 N 16-8".parse().unwrap();
                        plays.push((long, 1, Move::Sow(0)));
                    }
                    for simd in builds() {
                        let mut lanes = LegalLanes::with_simd(&rules, simd);
                        let mut at = 0;
                        while at < plays.len() {
                            let size = rng.random_range(1..=BLOCK).min(plays.len() - at);
                            let block = &plays[at..at + size];
                            let actions: Vec<i64> = block.iter().map(|p| p.1).collect();
                            lanes.sow(block.iter().map(|p| &p.0), &actions);
                            let mut played: Vec<Position> = block.iter().map(|p| p.0).collect();
                            let mut effects = vec![MoveEffect::default(); size];
                            lanes.finish(played.iter_mut(), &actions, &mut effects);
                            for ((&(pos, _, mv), after), &effect) in
                                block.iter().zip(&played).zip(&effects)
                            {
                                let expected = pos.play(&rules, mv).unwrap();
                                assert_eq!(
                                    (*after, effect),
                                    expected,
                                    "{pos} {mv:?} ({variant:?}, simd {simd})"
                                );
                                chains += u32::from(variant == Variant::Ii && effect.captured > 4);
                                if variant == Variant::I && effect.captured > 0 {
                                    let mut trace = Vec::new();
                                    pos.play_traced(&rules, mv, &mut trace).unwrap();
                                    en_passant += u32::from(trace.iter().any(|step| {
                                        matches!(
                                            step,
                                            Step::Capture {
                                                kind: CaptureKind::EnPassant,
                                                ..
                                            }
                                        )
                                    }));
                                }
                                ends += u32::from(effect.game_over);
                                extra += u32::from(effect.extra_move);
                                long += u32::from(effect.laps == 78);
                            }
                            at += size;
                        }
                    }
                }
            }
        }
        assert!(
            chains > 0 && ends > 0 && extra > 0 && long > 0 && en_passant > 0,
            "{chains} chains, {ends} ends, {extra} extra moves, {long} of 78 laps, \
             {en_passant} with captures en passant"
        );
    }

    /// The AVX2 build of the lanes decides and sows as the baseline build
    /// does, on the same blocks (skipped where the processor has no AVX2):
    /// the baseline is the oracle of the vector build, on 2x6 and 2x12 of
    /// every variant.
    #[test]
    fn the_avx2_lanes_match_the_baseline_lanes() {
        if !avx2() {
            eprintln!("no AVX2 here: nothing to compare");
            return;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        for variant in [Variant::I, Variant::Ii, Variant::Iii] {
            for holes in [6u32, 12, 16] {
                let rules = Rules::new(variant).with_board(holes, 4).unwrap();
                let positions = random_positions(rules, 20, &mut rng);
                let mut base = LegalLanes::with_simd(&rules, false);
                let mut vector = LegalLanes::with_simd(&rules, true);
                for block in positions.chunks(BLOCK) {
                    let (mut a, mut b) = (vec![0; block.len()], vec![0; block.len()]);
                    base.decide(block.iter(), &mut a);
                    vector.decide(block.iter(), &mut b);
                    assert_eq!(a, b, "{variant:?} 2x{holes}");
                    let actions: Vec<i64> = a
                        .iter()
                        .map(|&legal| i64::from(31 - legal.leading_zeros()))
                        .collect();
                    base.sow(block.iter(), &actions);
                    vector.sow(block.iter(), &actions);
                    let (mut pa, mut pb) = (block.to_vec(), block.to_vec());
                    let (mut ea, mut eb) = (
                        vec![MoveEffect::default(); block.len()],
                        vec![MoveEffect::default(); block.len()],
                    );
                    base.finish(pa.iter_mut(), &actions, &mut ea);
                    vector.finish(pb.iter_mut(), &actions, &mut eb);
                    assert_eq!((pa, ea), (pb, eb), "{variant:?} 2x{holes}");
                }
            }
        }
    }

    /// Sowings that go on past [`FAST_LAPS`] laps, from random II 2x6
    /// games: one that ends after 78 laps, endless ones whose cycles are
    /// 59, 3,139 and 153,944 laps long. Each is decided as the engine
    /// decides it, the first time and again (then from the states the
    /// thread remembers), in both builds.
    #[test]
    fn long_sowings_are_decided_as_the_engine_decides_them() {
        let rules = Rules::new(Variant::Ii).with_board(6, 4).unwrap();
        for simd in builds() {
            let mut lanes = LegalLanes::with_simd(&rules, simd);
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
        }
        assert!(remembered() > 0);
    }

    /// The state of the sowing of `pos`'s board index `from`, picked up.
    fn state_at(pos: &Position, from: usize, en_passant: bool) -> State {
        let mut board = pos.board;
        let hand = u32::from(board[from]);
        board[from] = 0;
        State {
            board,
            hand,
            from,
            len: pos.len() as u8,
            en_passant,
        }
    }

    /// The states a thread remembers are those of one board length and
    /// one way of sowing: the same bytes on another board, or sown with
    /// captures en passant, never decide a sowing (a memo that ignores
    /// either would let them). Here every state of a II 2x6 sowing that
    /// ends after 78 laps is filed as a 2x8 board's endless one and as a
    /// Hoyito I one, and every state is looked up.
    #[test]
    fn remembered_states_decide_only_sowings_of_their_kind() {
        let tables = LapTables::<16>::new(12);
        let pos: Position = "1,1,2,1,0,1/6,0,6,0,6,0 N 16-8".parse().unwrap();
        let start = state_at(&pos, 6, false);
        let mut board = Bytes::<16>::of_board(&start.board);
        let (mut hand, mut from) = (start.hand, start.from);
        let mut foreign = Vec::new();
        for _ in 0..77 {
            let (seeds, last, sown) = tables.lap::<false>(&board, lap_index(from, hand));
            board = tables.pick_up(sown, last);
            (hand, from) = (seeds, last);
            let mut bytes = [0; 32];
            bytes[..16].copy_from_slice(&board.0);
            for (len, en_passant) in [(16, false), (12, true)] {
                foreign.push(State {
                    board: bytes,
                    hand,
                    from,
                    len,
                    en_passant,
                });
            }
        }
        remember(foreign);
        assert!(long_sowing_ends_within::<16, false>(
            &tables,
            start,
            MAX_RELAY_LAPS,
            1
        ));
        assert_eq!(
            engine_actions(&pos, &Rules::new(Variant::Ii)) >> 1 & 1,
            1,
            "the engine agrees"
        );
        forget();
    }

    /// The remembered states of an endless sowing decide it again: with a
    /// cap of laps too small for Brent's method or the kept states to see
    /// its cycle (3,139 laps), only the memo can.
    #[test]
    fn an_endless_sowing_met_before_is_decided_by_the_memo() {
        let rules = Rules::new(Variant::Ii).with_board(6, 4).unwrap();
        let tables = LapTables::<16>::new(12);
        let mut lanes = LegalLanes::with_simd(&rules, false);
        let pos: Position = "0,7,3,1,3,4/1,0,4,0,4,1 S 12-8".parse().unwrap();
        let state = state_at(&pos, 2, false);
        forget();
        assert!(
            long_sowing_ends_within::<16, false>(&tables, state, 3_000, 1 << 8),
            "3,000 laps alone decide nothing (the test's premise)"
        );
        let mut out = [0u32];
        lanes.decide([pos].iter(), &mut out);
        assert_eq!(out[0], engine_actions(&pos, &rules));
        assert_eq!(out[0] >> 3 & 1, 0, "South's hole 3 is endless");
        assert!(
            !long_sowing_ends_within::<16, false>(&tables, state, 3_000, 1 << 8),
            "the memo decides"
        );
    }
}
