//! A game: positions joined by moves, with the history-dependent rules that a
//! single position cannot know (stalled games) and the result.
//!
//! The stall rules of RULES.md end a game that nobody can finish: the third
//! occurrence of a position (board and side to move) since the last capture, or
//! `no_capture_limit` plies without a capture. Repetitions are found exactly: a
//! hash narrows the search, a full comparison decides.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::board_key::{self, KeyKeeper, LapSums};
use crate::engine::forfeit::ForfeitReason;
use crate::engine::moves::{Move, MoveList};
use crate::engine::position::{IllegalMove, MoveEffect, Position};
use crate::engine::repetition::{History, Repetitions};
use crate::engine::rules::{Leftover, Rules};
use crate::engine::side::{BySide, Side};
use crate::engine::sowing::Trace;

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    /// The last seeds were taken after a capture.
    Normal,
    /// A position occurred for the third time since the last capture.
    Repetition,
    /// `no_capture_limit` plies passed without a capture.
    NoCaptureLimit,
    /// The side to move forfeited: its agent's process crashed or exited.
    ForfeitCrash,
    /// The side to move forfeited: its agent did not answer in time.
    ForfeitTimeout,
    /// The side to move forfeited: its agent wrote a line that is not the protocol.
    ForfeitProtocol,
    /// The side to move forfeited: its agent named a move that is not legal.
    ForfeitIllegal,
    /// Adjudicated by the endgame tables (an experiment's `[adjudication]
    /// tablebase`): few enough seeds were left for the tables, and the
    /// scores are the captures so far plus the rest of a perfect game.
    Tablebase,
    /// Adjudicated as decided (`[adjudication] decided`): one side had
    /// captured more than half of all seeds, so the winner could no longer
    /// change; the scores are the captures so far, and the margin is a lower
    /// bound on the one play would have reached.
    Decided,
}

impl Ending {
    /// The name used in records and reports.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Normal => "normal",
            Ending::Repetition => "repetition",
            Ending::NoCaptureLimit => "no-capture-limit",
            Ending::ForfeitCrash => "forfeit-crash",
            Ending::ForfeitTimeout => "forfeit-timeout",
            Ending::ForfeitProtocol => "forfeit-protocol",
            Ending::ForfeitIllegal => "forfeit-illegal",
            Ending::Tablebase => "tablebase",
            Ending::Decided => "decided",
        }
    }

    /// The ending of a game lost by forfeit for `reason`.
    pub fn forfeit(reason: ForfeitReason) -> Ending {
        match reason {
            ForfeitReason::Crash => Ending::ForfeitCrash,
            ForfeitReason::Timeout => Ending::ForfeitTimeout,
            ForfeitReason::Protocol => Ending::ForfeitProtocol,
            ForfeitReason::Illegal => Ending::ForfeitIllegal,
        }
    }

    /// Whether the game was ended by adjudication ([`Ending::Tablebase`] or
    /// [`Ending::Decided`]) rather than by the rules or a forfeit.
    pub fn is_adjudication(self) -> bool {
        matches!(self, Ending::Tablebase | Ending::Decided)
    }

    /// The forfeit reason, for a game lost by forfeit.
    pub fn forfeit_reason(self) -> Option<ForfeitReason> {
        match self {
            Ending::ForfeitCrash => Some(ForfeitReason::Crash),
            Ending::ForfeitTimeout => Some(ForfeitReason::Timeout),
            Ending::ForfeitProtocol => Some(ForfeitReason::Protocol),
            Ending::ForfeitIllegal => Some(ForfeitReason::Illegal),
            _ => None,
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// Final seeds of each side: captures, plus leftovers of a stalled game as the
    /// `leftover` policy gives them.
    pub scores: BySide<u8>,
    /// The side with more seeds, or `None` for a draw.
    pub winner: Option<Side>,
    /// How the game ended.
    pub ending: Ending,
    /// Plies played (passes included).
    pub plies: u32,
}

impl Outcome {
    pub(crate) fn new(scores: BySide<u8>, ending: Ending, plies: u32) -> Outcome {
        let winner = match scores.south.cmp(&scores.north) {
            std::cmp::Ordering::Greater => Some(Side::South),
            std::cmp::Ordering::Less => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        };
        Outcome {
            scores,
            winner,
            ending,
            plies,
        }
    }
}

/// A move that cannot be played in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum GameError {
    /// The move breaks the rules.
    #[error("illegal move {mv} at ply {ply}: {reason}")]
    Illegal {
        /// The move.
        mv: Move,
        /// Plies played before it.
        ply: u32,
        /// Why.
        reason: IllegalMove,
    },
    /// The game already ended as stalled.
    #[error("the game is over ({0}): no move can be played")]
    Stalled(Ending),
}

/// A game in progress or finished.
///
/// Playing moves from the standard start; a game keeps its moves, its
/// position and, once over, its [`Outcome`]. There is no undo: to take moves
/// back, keep a clone.
///
/// ```
/// use hoyito::{Game, Move, Rules, Side, Variant};
///
/// let mut game = Game::new(Rules::new(Variant::Ii));
/// let before = game.clone();
/// let effect = game.play(Move::Sow(5))?;
/// assert_eq!(effect.captured, 0);
/// assert_eq!(game.moves(), [Move::Sow(5)]);
/// assert_eq!(game.position().side_to_move(), Side::North);
/// assert!(!game.is_over() && game.outcome().is_none());
///
/// game = before;
/// assert_eq!(game.plies(), 0);
/// # Ok::<(), hoyito::GameError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Game {
    rules: Rules,
    start: Position,
    position: Position,
    moves: Vec<Move>,
    /// The positions since the last capture, counted.
    recent: Repetitions,
    /// The key of the current board (`src/engine/board_key.rs`), kept up to date by
    /// the random moves' sowing and computed again after any other move.
    board_key: u64,
    outcome: Option<Outcome>,
    /// What the last move did (the default before any).
    last_effect: MoveEffect,
    /// The mover's non-empty holes before the last move (0 before any).
    last_sowable: u32,
}

impl Game {
    /// A new game from the start position of `rules`.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(rules, Position::start(&rules))
    }

    /// A game from a given position.
    pub fn from_position(rules: Rules, start: Position) -> Game {
        let board_key = board_key::of_position(&start);
        let mut recent = Repetitions::new(&start);
        let history = History {
            rules: &rules,
            moves: &[],
        };
        recent.record(&start, board_key, history);
        let mut game = Game {
            rules,
            start,
            position: start,
            moves: Vec::with_capacity(128),
            recent,
            board_key,
            outcome: None,
            last_effect: MoveEffect::default(),
            last_sowable: 0,
        };
        if start.is_over() {
            game.outcome = Some(Outcome::new(start.captures(), Ending::Normal, 0));
        }
        game
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The first position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played, passes included.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plies played.
    pub fn plies(&self) -> u32 {
        self.moves.len() as u32
    }

    /// The result, once the game is over.
    ///
    /// From a hand-set position on 2x2, South's one move makes a casa of the
    /// last four seeds and wins 4-0:
    ///
    /// ```
    /// use hoyito::{BySide, Ending, Game, Move, Rules, Side, Variant};
    ///
    /// let rules = Rules::new(Variant::Iii).with_board(2, 1)?;
    /// let mut game = Game::from_position(rules, "1,3/0,0 S 0-0".parse()?);
    /// assert_eq!(game.outcome(), None);
    /// game.play(Move::Sow(0))?;
    ///
    /// let outcome = game.outcome().expect("the last seeds were taken");
    /// assert_eq!(outcome.scores, BySide::new(4, 0));
    /// assert_eq!(outcome.winner, Some(Side::South));
    /// assert_eq!((outcome.ending, outcome.plies), (Ending::Normal, 1));
    /// assert!(game.legal_moves().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// What the last move did: captures, extra move, laps sown (the
    /// default, all zero, before the first move). Kept for the per-game
    /// measures of `crate::metrics`, which see every move of the fast path.
    pub fn last_effect(&self) -> MoveEffect {
        self.last_effect
    }

    /// How many holes the mover of the last move could sow from, endless or
    /// not (its non-empty holes; 0 before the first move and for a pass from
    /// an empty row): the options a ply had for the measures of
    /// `crate::metrics`, known to the fast path without a second count.
    pub fn last_sowable(&self) -> u32 {
        self.last_sowable
    }

    /// Whether the game is over (finished or stalled).
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Ends the game by forfeit of the side to move: the other side wins
    /// whatever the captures, which are recorded as they stand (no leftover
    /// goes to anyone). Does nothing to a game that is already over.
    pub fn forfeit(&mut self, reason: ForfeitReason) {
        if self.outcome.is_some() {
            return;
        }
        let loser = self.position.side_to_move();
        self.outcome = Some(Outcome {
            scores: self.position.captures(),
            winner: Some(loser.opponent()),
            ending: Ending::forfeit(reason),
            plies: self.plies(),
        });
    }

    /// Ends the game by adjudication ([`Ending::Tablebase`] or
    /// [`Ending::Decided`]) with these final scores, where it stands: no
    /// move is played. Does nothing to a game that is already over.
    pub fn adjudicate(&mut self, ending: Ending, scores: BySide<u8>) {
        debug_assert!(ending.is_adjudication());
        if self.outcome.is_some() {
            return;
        }
        self.outcome = Some(Outcome::new(scores, ending, self.plies()));
    }

    /// Whether the game was ended by adjudication rather than played out.
    pub fn adjudicated(&self) -> bool {
        self.outcome.is_some_and(|o| o.ending.is_adjudication())
    }

    /// The legal moves now; none once the game is over.
    pub fn legal_moves(&self) -> MoveList {
        if self.is_over() {
            return MoveList::new();
        }
        self.position.legal_moves(&self.rules)
    }

    /// Plays a move after checking it.
    ///
    /// An illegal move is refused with the reason, and the game is left as
    /// it was:
    ///
    /// ```
    /// use hoyito::{Game, GameError, IllegalMove, Move, Rules, Side, Variant};
    ///
    /// let mut game = Game::new(Rules::new(Variant::I));
    /// let seven = Move::hole(7).expect("a hole number of 1..16");
    /// let err = game.play(seven).unwrap_err();
    /// let reason = IllegalMove::OutOfRange { number: 7, holes: 6, side: Side::South };
    /// assert_eq!(err, GameError::Illegal { mv: seven, ply: 0, reason });
    /// assert_eq!(
    ///     err.to_string(),
    ///     "illegal move 7 at ply 0: hole 7 is out of range: South's holes are 1..6"
    /// );
    /// assert!(matches!(game.play(Move::Pass), Err(GameError::Illegal { .. })));
    /// assert_eq!(game.plies(), 0);
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<MoveEffect, GameError> {
        self.play_observed(mv, None)
    }

    /// Plays a move and records its steps in `trace`.
    pub fn play_traced(&mut self, mv: Move, trace: &mut Trace) -> Result<MoveEffect, GameError> {
        self.play_observed(mv, Some(trace))
    }

    fn play_observed(
        &mut self,
        mv: Move,
        trace: Option<&mut Trace>,
    ) -> Result<MoveEffect, GameError> {
        if let Some(outcome) = self.outcome {
            if outcome.ending != Ending::Normal {
                return Err(GameError::Stalled(outcome.ending));
            }
        }
        let played = match trace {
            Some(trace) => self.position.play_traced(&self.rules, mv, trace),
            None => self.position.play(&self.rules, mv),
        };
        let (next, effect) = played.map_err(|reason| GameError::Illegal {
            mv,
            ply: self.plies(),
            reason,
        })?;
        self.last_sowable = self.position.nonempty_mask().count_ones();
        self.advance(mv, next, effect);
        Ok(effect)
    }

    /// Plays a uniformly random legal move with `rng` and returns it. Simulates
    /// the non-empty holes in random order and plays the first that ends, which is
    /// uniform over the legal moves.
    ///
    /// # Panics
    /// If the game is over.
    pub fn play_random<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Move {
        assert!(!self.is_over(), "play_random on a finished game");
        let mask = self.position.nonempty_mask();
        self.last_sowable = mask.count_ones();
        // Played in place: the position is not copied after the sowing has
        // just written it (see `Position::generate_children`);
        // the board's key follows the sowing.
        let sums = LapSums::of(self.position.len());
        let mut keeper = KeyKeeper::new(self.board_key, sums);
        let (mv, effect) =
            self.position
                .play_random_in_place_observed(&self.rules, mask, rng, &mut keeper);
        self.board_key = keeper.key;
        self.after_move(mv, effect);
        mv
    }

    /// Records a legal move and its result, and applies the end and stall rules.
    pub(crate) fn advance(&mut self, mv: Move, next: Position, effect: MoveEffect) {
        self.position = next;
        self.board_key = board_key::of_position(&next);
        self.after_move(mv, effect);
    }

    /// As [`Game::advance`], with the position already changed to the one
    /// after `mv`.
    #[inline(always)]
    fn after_move(&mut self, mv: Move, effect: MoveEffect) {
        self.moves.push(mv);
        self.last_effect = effect;
        let plies = self.plies();
        if effect.game_over {
            self.outcome = Some(Outcome::new(
                self.position.captures(),
                Ending::Normal,
                plies,
            ));
            return;
        }
        if effect.captured > 0 {
            self.recent.clear(&self.position);
        }
        let stall = self.rules.stall;
        debug_assert_eq!(
            self.board_key,
            board_key::of_position(&self.position),
            "the kept key is the board's"
        );
        let history = History {
            rules: &self.rules,
            moves: &self.moves,
        };
        let seen = self.recent.record(&self.position, self.board_key, history);
        if effect.captured > 0 {
            return;
        }
        let ending = if stall.repetitions > 0 && seen >= stall.repetitions {
            Ending::Repetition
        } else if stall.no_capture_limit > 0 && self.recent.len() as u32 > stall.no_capture_limit {
            Ending::NoCaptureLimit
        } else {
            return;
        };
        self.outcome = Some(Outcome::new(
            stalled_scores(&self.position, stall.leftover),
            ending,
            plies,
        ));
    }
}

/// Final scores of a game stalled in `pos` under the `leftover` policy.
pub fn stalled_scores(pos: &Position, leftover: Leftover) -> BySide<u8> {
    let mut scores = pos.captures();
    match leftover {
        Leftover::None => {}
        Leftover::OwnSide => {
            for side in Side::BOTH {
                scores[side] += pos.row(side).iter().sum::<u8>();
            }
        }
        Leftover::Split => {
            let half = (pos.seeds_on_board() / 2) as u8;
            scores.south += half;
            scores.north += half;
        }
    }
    scores
}
