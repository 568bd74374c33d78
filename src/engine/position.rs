//! The position: board, side to move and captures, cheap to copy, and the moves
//! that change it.
//!
//! A position holds what the notation of RULES.md holds and nothing else; the
//! variant comes with each call, so one position type serves all three games.
//! History-dependent rules (stalled games) live in [`crate::engine::game`].
//!
//! Three levels of the same act, as in cozy-chess: [`Position::play`] checks the
//! move and returns an error, [`Position::play_unchecked`] is the fast path for
//! moves that came from move generation (it still reports endless sowing, which
//! only simulation reveals), and [`Position::play_traced`] records every step.

use std::fmt;

use rand::Rng;
use thiserror::Error;

use crate::engine::bits::nth_set_bit;
use crate::engine::moves::{Move, MoveList};
use crate::engine::rules::{LastFour, Rules, Variant, MAX_HOLES};
use crate::engine::side::{BySide, Side};
use crate::engine::sowing::{self, Board, Observer, Step, Trace};

/// A Hoyito position on a board of two rows of `n` holes. Serialized as its
/// notation.
///
/// Reading a position in the notation of `RULES.md` (South's holes 1..n, then
/// North's, the side to move, the captures) and printing it back:
///
/// ```
/// use hoyito::{BySide, Position, Side};
///
/// let pos: Position = "0,1,2/3,0,5 N 12-8".parse()?;
/// assert_eq!(pos.holes(), 3);
/// assert_eq!(pos.row(Side::North), &[3, 0, 5]);
/// assert_eq!(pos.side_to_move(), Side::North);
/// assert_eq!(pos.captures(), BySide::new(12, 8));
/// assert_eq!(pos.to_string(), "0,1,2/3,0,5 N 12-8");
/// # Ok::<(), hoyito::ParsePositionError>(())
/// ```
///
/// Laid out in field order (`repr(C)`), so that the board starts the
/// position: a copy of a position is stored in 16-byte pieces from its
/// start, and the sowing then loads the board in 16-byte pieces from the
/// board's start. Left to the compiler, the side to move came first and the
/// board one byte later, so each of the sowing's loads straddled two of the
/// copy's stores and waited for both to reach the cache (a load is
/// forwarded from one store only): about 13% of the sowing's time in the
/// search.
#[derive(Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
#[repr(C)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) holes: u8,
    pub(crate) side: Side,
    pub(crate) captures: BySide<u8>,
}

/// What a move did, beyond the new position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MoveEffect {
    /// Seeds the mover captured in casas (a multiple of four).
    pub captured: u8,
    /// The game ended with this move (the last seeds were taken).
    pub game_over: bool,
    /// The mover moves again (II and III after a capture).
    pub extra_move: bool,
    /// Laps sown: 1 when the first lap ended the move, more with relay
    /// sowing, 0 for a pass.
    pub laps: u32,
}

/// Why a move cannot be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum IllegalMove {
    /// The game is over: nothing more can be played.
    #[error("the game is over: no move can be played")]
    GameOver,
    /// Hole number beyond the row.
    #[error("hole {number} is out of range: {side}'s holes are 1..{holes}")]
    OutOfRange {
        /// The number given (1-based).
        number: u8,
        /// Row length.
        holes: u8,
        /// The mover.
        side: Side,
    },
    /// The hole is empty.
    #[error("{side}'s hole {number} is empty")]
    EmptyHole {
        /// The number given (1-based).
        number: u8,
        /// The mover.
        side: Side,
    },
    /// The sowing would repeat a state and never end.
    #[error("{side}'s hole {number}: its sowing never ends, so it is not a legal move")]
    Endless {
        /// The number given (1-based).
        number: u8,
        /// The mover.
        side: Side,
    },
    /// A pass while a sowing move is legal.
    #[error("{side} cannot pass: they have a legal move")]
    PassWithMoves {
        /// The mover.
        side: Side,
    },
}

impl Position {
    /// The start position of `rules`: every hole holds `rules.seeds`, South to move.
    ///
    /// ```
    /// use hoyito::{Position, Rules, Side, Variant};
    ///
    /// let start = Position::start(&Rules::new(Variant::Ii));
    /// assert_eq!(start.to_string(), "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0");
    /// assert_eq!(start.side_to_move(), Side::South);
    /// assert_eq!(start.seeds_on_board(), 48);
    ///
    /// let small = Rules::new(Variant::Ii).with_board(3, 2)?;
    /// assert_eq!(Position::start(&small).to_string(), "2,2,2/2,2,2 S 0-0");
    /// # Ok::<(), hoyito::RulesError>(())
    /// ```
    pub fn start(rules: &Rules) -> Position {
        let mut board = [0u8; 32];
        board[..2 * rules.holes as usize].fill(rules.seeds);
        Position {
            board,
            holes: rules.holes,
            side: Side::South,
            captures: BySide::default(),
        }
    }

    /// Holes per row.
    #[inline]
    pub fn holes(&self) -> u8 {
        self.holes
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// Seeds captured so far by each side.
    #[inline]
    pub fn captures(&self) -> BySide<u8> {
        self.captures
    }

    /// Seeds per hole in sowing order (`2n` entries: South 1..n, North 1..n).
    #[inline]
    pub fn board(&self) -> &[u8] {
        &self.board[..self.len()]
    }

    /// The row of `side`, from its hole 1 to hole n.
    #[inline]
    pub fn row(&self, side: Side) -> &[u8] {
        let n = self.holes as usize;
        let start = side.index() * n;
        &self.board[start..start + n]
    }

    /// Seeds on the board.
    #[inline]
    pub fn seeds_on_board(&self) -> u32 {
        self.board.iter().map(|&s| s as u32).sum()
    }

    /// Seeds in play: board plus captures.
    pub fn total_seeds(&self) -> u32 {
        self.seeds_on_board() + self.captures.south as u32 + self.captures.north as u32
    }

    /// Whether the game is over. The game ends only by taking the last seeds, so a
    /// finished game is exactly one whose board is empty.
    ///
    /// South's last seed makes a casa of four, the last seeds on the board,
    /// and the game is over:
    ///
    /// ```
    /// use hoyito::{Move, Position, Rules, Variant};
    ///
    /// let rules = Rules::new(Variant::Ii).with_board(2, 1)?;
    /// let pos: Position = "1,3/0,0 S 0-0".parse()?;
    /// assert!(!pos.is_over());
    /// let (end, effect) = pos.play(&rules, Move::Sow(0))?;
    /// assert!(effect.game_over && end.is_over());
    /// assert_eq!(end.to_string(), "0,0/0,0 N 4-0");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn is_over(&self) -> bool {
        self.board == [0u8; 32]
    }

    /// Number of holes on the board (`2n`).
    #[inline]
    pub(crate) fn len(&self) -> usize {
        2 * self.holes as usize
    }

    /// Board index of `side`'s hole `i` (0-based within the row).
    #[inline]
    pub(crate) fn index_of(&self, side: Side, i: u8) -> usize {
        side.index() * self.holes as usize + i as usize
    }

    /// A hash of board and side to move (not captures), for repetition and
    /// transposition tables. Equal positions hash equal; compare positions to be
    /// sure of the converse.
    #[inline]
    pub fn hash_key(&self) -> u64 {
        let mut h = 0x243F_6A88_85A3_08D3u64 ^ self.side as u64;
        for chunk in self.board.chunks_exact(8) {
            let w = u64::from_le_bytes(chunk.try_into().expect("chunks of eight bytes"));
            h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        h
    }

    /// Bit `i` set when the mover's hole `i` holds seeds.
    #[inline]
    pub fn nonempty_mask(&self) -> u32 {
        // Eight holes at a time: the top bit of each byte of `t` is set when that
        // byte is non-zero, and the multiply gathers the eight top bits.
        const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        const GATHER: u64 = 0x0102_0408_1020_4080;
        let n = self.holes as usize;
        let start = self.side.index() * n;
        let mut mask = 0u32;
        for half in 0..2 {
            let at = start + 8 * half;
            let bytes: [u8; 8] = self.board[at..at + 8]
                .try_into()
                .expect("a row starts at most at 16 of 32 bytes");
            let w = u64::from_le_bytes(bytes);
            let t = (((w & LOW7) + LOW7) | w) & !LOW7;
            mask |= (((t >> 7).wrapping_mul(GATHER) >> 56) as u32) << (8 * half);
        }
        mask & ((1u32 << n) - 1)
    }

    /// The legal moves. Every non-empty hole of the mover is simulated, since only
    /// simulation shows endless sowing. A player with no legal sowing has one
    /// move, [`Move::Pass`]; a finished game has none.
    ///
    /// ```
    /// use hoyito::{Move, Position, Rules, Variant};
    ///
    /// let rules = Rules::new(Variant::I);
    /// let start = Position::start(&rules);
    /// let moves: Vec<String> = start.legal_moves(&rules).iter().map(Move::to_string).collect();
    /// assert_eq!(moves, ["1", "2", "3", "4", "5", "6"]);
    ///
    /// // South's row is empty: South's one move is a pass.
    /// let empty: Position = "0,0,0,0,0,0/4,4,4,4,4,4 S 20-4".parse()?;
    /// assert_eq!(empty.legal_moves(&rules).as_slice(), [Move::Pass]);
    /// # Ok::<(), hoyito::ParsePositionError>(())
    /// ```
    pub fn legal_moves(&self, rules: &Rules) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_child(rules, |mv, _, _| list.push(mv));
        list
    }

    /// Calls `f` with every legal move, the position it leads to and its effect,
    /// simulating each move once. Used by move generation, perft and search.
    #[inline]
    pub fn for_each_child(&self, rules: &Rules, f: impl FnMut(Move, Position, MoveEffect)) {
        self.for_each_child_but(rules, u8::MAX, f);
    }

    /// As [`Position::for_each_child`], without the sowing from the mover's hole
    /// `done` (0-based within the row), a legal move that the caller has
    /// already simulated: a search that tried its table's move first need not
    /// simulate it again. A `done` of 16 or more leaves out nothing.
    #[inline]
    pub fn for_each_child_but(
        &self,
        rules: &Rules,
        done: u8,
        f: impl FnMut(Move, Position, MoveEffect),
    ) {
        /// Each child is made in `scratch` and handed to `f` by value.
        struct Each<F> {
            scratch: Position,
            f: F,
        }
        impl<F: FnMut(Move, Position, MoveEffect)> ChildSink for Each<F> {
            #[inline(always)]
            fn slot(&mut self, parent: &Position) -> &mut Position {
                self.scratch = *parent;
                &mut self.scratch
            }
            #[inline(always)]
            fn keep(&mut self, mv: Move, effect: MoveEffect) {
                (self.f)(mv, self.scratch, effect);
            }
        }
        self.generate_children(rules, done, &mut Each { scratch: *self, f });
    }

    /// The loop of [`Position::for_each_child_but`], making each child in
    /// place, in the sink's slot: a caller that keeps the children (a search
    /// ordering them) then never copies a position that the sowing has just
    /// written, a copy that stalls the processor wherever the sowing's last
    /// stores are narrower than the copy's loads (Hoyito I's laps write
    /// single bytes): a wide load cannot be forwarded from narrow stores
    /// still in flight.
    #[inline]
    pub(crate) fn generate_children<S: ChildSink>(&self, rules: &Rules, done: u8, sink: &mut S) {
        if self.is_over() {
            return;
        }
        let mut mask = self.nonempty_mask();
        // A legal move left out means that the mover does not pass.
        let mut any = false;
        if done < MAX_HOLES {
            debug_assert!(mask >> done & 1 == 1, "the move left out is legal");
            mask &= !(1 << done);
            any = true;
        }
        // Mover and board length from this position, not from each fresh
        // copy, whose stores the reads would wait on.
        let (mover, len) = (self.side, self.len());
        let row = self.index_of(mover, 0);
        let (variant, last_four) = (rules.variant, rules.last_four);
        while mask != 0 {
            let i = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            let slot = sink.slot(self);
            let start = row + i as usize;
            if let Some(effect) =
                slot.sow_from_in_place(variant, mover, start, len, last_four, &mut ())
            {
                any = true;
                sink.keep(Move::Sow(i), effect);
            }
        }
        if !any {
            let (child, effect) = self.pass();
            sink.slot(&child);
            sink.keep(Move::Pass, effect);
        }
    }

    /// Plays a move that move generation produced. Returns `None` for a sowing that never ends.
    ///
    /// The move must be a non-empty hole of the mover or a pass; anything else is
    /// a logic error (checked in debug builds). Always inlined, as the
    /// sowing it wraps: left to the compiler, it stopped inlining it into the
    /// MCTS rollout, which then ran 4% slower.
    #[inline(always)]
    pub fn play_unchecked(&self, rules: &Rules, mv: Move) -> Option<(Position, MoveEffect)> {
        match mv {
            Move::Sow(i) => self.sow_move(rules.variant, i, rules.last_four, &mut ()),
            Move::Pass => Some(self.pass()),
        }
    }

    /// As [`Position::play_unchecked`], changing this position into the next
    /// one; after `None` (a sowing that never ends) the position is
    /// unspecified and must be restored by the caller. A loop that plays
    /// move after move (a rollout) so never copies a position that the
    /// sowing has just written (see [`Position::generate_children`]).
    #[inline(always)]
    pub(crate) fn play_unchecked_in_place(
        &mut self,
        rules: &Rules,
        mv: Move,
    ) -> Option<MoveEffect> {
        self.play_unchecked_in_place_observed(rules, mv, &mut ())
    }

    /// As [`Position::play_unchecked_in_place`], reporting the sowing's steps
    /// to `obs` (a pass reports none).
    #[inline(always)]
    pub(crate) fn play_unchecked_in_place_observed<O: Observer>(
        &mut self,
        rules: &Rules,
        mv: Move,
        obs: &mut O,
    ) -> Option<MoveEffect> {
        match mv {
            Move::Sow(i) => self.sow_in_place(rules.variant, i, rules.last_four, obs),
            Move::Pass => {
                let (next, effect) = self.pass();
                *self = next;
                Some(effect)
            }
        }
    }

    /// Plays a uniform random legal move in place and returns it with its
    /// effect: random non-empty holes, drawn with `rng`, until one whose
    /// sowing ends (uniform over the legal moves), else a pass. `mask` is
    /// [`Position::nonempty_mask`], read by the caller (before this call
    /// copies the position to undo an endless sowing: read from the fresh
    /// copy, it waited on the copy's stores). The one draw of the game loop,
    /// the MCTS rollouts and the bench's floor.
    #[inline(always)]
    pub(crate) fn play_random_in_place<R: Rng + ?Sized>(
        &mut self,
        rules: &Rules,
        mask: u32,
        rng: &mut R,
    ) -> (Move, MoveEffect) {
        self.play_random_in_place_observed(rules, mask, rng, &mut ())
    }

    /// As [`Position::play_random_in_place`], reporting the sowing steps of
    /// the move played to `obs` (a sowing found endless is taken back from
    /// `obs` too, as from the position).
    #[inline(always)]
    pub(crate) fn play_random_in_place_observed<R: Rng + ?Sized, O: Observer + Copy>(
        &mut self,
        rules: &Rules,
        mut mask: u32,
        rng: &mut R,
        obs: &mut O,
    ) -> (Move, MoveEffect) {
        debug_assert_eq!(mask, self.nonempty_mask());
        let before = *self;
        let heard = *obs;
        while mask != 0 {
            let i = nth_set_bit(mask, rng.random_range(0..mask.count_ones()));
            let mv = Move::Sow(i as u8);
            if let Some(effect) = self.play_unchecked_in_place_observed(rules, mv, obs) {
                return (mv, effect);
            }
            *self = before;
            *obs = heard;
            mask &= !(1 << i);
        }
        let effect = self
            .play_unchecked_in_place_observed(rules, Move::Pass, obs)
            .expect("a pass always ends");
        (Move::Pass, effect)
    }

    /// Plays `mv` after checking it, under `rules` (variant and last-four option).
    ///
    /// Returns the new position (this one is left as it was) and what the
    /// move did, or why the move is illegal:
    ///
    /// ```
    /// use hoyito::{IllegalMove, Move, Position, Rules, Side, Variant};
    ///
    /// let rules = Rules::new(Variant::Ii);
    /// let start = Position::start(&rules);
    /// let (next, effect) = start.play(&rules, Move::Sow(0))?;
    /// assert_eq!(next.to_string(), "2,7,1,6,1,6/6,6,0,1,6,6 N 0-0");
    /// // Five laps of relay sowing, no casa: North moves next.
    /// assert_eq!((effect.laps, effect.captured, effect.extra_move), (5, 0, false));
    /// assert_eq!(start.to_string(), "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0");
    ///
    /// let empty = "0,4,4,4,4,4/4,4,4,4,4,4 S 0-0".parse::<Position>()?;
    /// assert_eq!(
    ///     empty.play(&rules, Move::Sow(0)),
    ///     Err(IllegalMove::EmptyHole { number: 1, side: Side::South })
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&self, rules: &Rules, mv: Move) -> Result<(Position, MoveEffect), IllegalMove> {
        self.play_observed(rules, mv, &mut ())
    }

    /// As [`Position::play`], and records every step of the move in `trace`.
    pub fn play_traced(
        &self,
        rules: &Rules,
        mv: Move,
        trace: &mut Trace,
    ) -> Result<(Position, MoveEffect), IllegalMove> {
        self.play_observed(rules, mv, trace)
    }

    fn play_observed<O: Observer>(
        &self,
        rules: &Rules,
        mv: Move,
        obs: &mut O,
    ) -> Result<(Position, MoveEffect), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let side = self.side;
        match mv {
            Move::Pass => {
                if self.legal_moves(rules).as_slice() != [Move::Pass] {
                    return Err(IllegalMove::PassWithMoves { side });
                }
                obs.step(Step::Pass);
                Ok(self.pass())
            }
            Move::Sow(i) => {
                let number = i + 1;
                if i >= self.holes {
                    let holes = self.holes;
                    return Err(IllegalMove::OutOfRange {
                        number,
                        holes,
                        side,
                    });
                }
                if self.row(side)[i as usize] == 0 {
                    return Err(IllegalMove::EmptyHole { number, side });
                }
                self.sow_move(rules.variant, i, rules.last_four, obs)
                    .ok_or(IllegalMove::Endless { number, side })
            }
        }
    }

    /// The position after a pass.
    #[inline]
    fn pass(&self) -> (Position, MoveEffect) {
        let mut next = *self;
        next.side = self.side.opponent();
        (next, MoveEffect::default())
    }

    /// Sows the mover's hole `i` and applies captures, the end of the game and
    /// the turn rules, into a new position.
    #[inline(always)]
    fn sow_move<O: Observer>(
        &self,
        variant: Variant,
        i: u8,
        last_four: LastFour,
        obs: &mut O,
    ) -> Option<(Position, MoveEffect)> {
        let mut next = *self;
        let effect = next.sow_in_place(variant, i, last_four, obs)?;
        Some((next, effect))
    }

    /// As [`Position::sow_move`], changing this position into the next one;
    /// `None` for a sowing that never ends, with the position left
    /// unspecified. Always inlined: it is the engine's hot path, and a call
    /// across crates (the binary's game loop) otherwise costs a few percent.
    #[inline(always)]
    fn sow_in_place<O: Observer>(
        &mut self,
        variant: Variant,
        i: u8,
        last_four: LastFour,
        obs: &mut O,
    ) -> Option<MoveEffect> {
        let mover = self.side;
        let (start, len) = (self.index_of(mover, i), self.len());
        self.sow_from_in_place(variant, mover, start, len, last_four, obs)
    }

    /// As [`Position::sow_in_place`] for the mover `mover` (who must be
    /// this position's), from board index `start`, on a board of `len`
    /// holes: what a caller that knows them passes rather than have them
    /// read back from a position it has just copied.
    #[inline(always)]
    fn sow_from_in_place<O: Observer>(
        &mut self,
        variant: Variant,
        mover: Side,
        start: usize,
        len: usize,
        last_four: LastFour,
        obs: &mut O,
    ) -> Option<MoveEffect> {
        debug_assert!(mover == self.side && len == self.len());
        let (captured, laps) = sowing::sow(&mut self.board, len, start, variant, obs)?;
        Some(self.end_sowing(variant, mover, captured, laps, last_four, obs))
    }

    /// Ends the move of `mover` whose sowing (`laps` laps, `captured` seeds
    /// taken) has left this position's board: the captures, the turn, the
    /// last seeds when the board is nearly empty, the extra move. For the
    /// engine's sowing above, and for the batch's lanes, which sow the laps
    /// of many positions at once (`src/batch/lanes.rs`).
    #[inline(always)]
    pub(crate) fn end_sowing<O: Observer>(
        &mut self,
        variant: Variant,
        mover: Side,
        captured: u8,
        laps: u32,
        last_four: LastFour,
        obs: &mut O,
    ) -> MoveEffect {
        let mut effect = MoveEffect {
            captured,
            laps,
            ..MoveEffect::default()
        };
        self.captures[mover] += captured;
        self.side = mover.opponent();
        if captured > 0 {
            let left = self.seeds_on_board();
            if left <= 4 {
                let taker = match last_four {
                    LastFour::Capturer => mover,
                    LastFour::Player(side) => side,
                };
                self.captures[taker] += left as u8;
                self.board = [0; 32];
                effect.game_over = true;
                obs.step(Step::LastSeeds {
                    side: taker,
                    seeds: left as u8,
                });
            } else if variant.has_extra_move() {
                self.side = mover;
                effect.extra_move = true;
                obs.step(Step::ExtraMove(mover));
            }
        }
        effect
    }
}

/// Where [`Position::generate_children`] makes the children: each is sown in
/// place into `slot()`, and `keep` hears of those that are legal moves (an
/// endless sowing leaves the slot to be written again).
pub(crate) trait ChildSink {
    /// Where the next child is made, holding a copy of `parent` to sow from.
    fn slot(&mut self, parent: &Position) -> &mut Position;
    /// The slot holds the child reached by `mv`, with its effect.
    fn keep(&mut self, mv: Move, effect: MoveEffect);
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
