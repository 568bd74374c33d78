//! The per-game measures of game design, counted move by move as a game is
//! played, from what the engine already knows (the position before the move,
//! the move, the position after it and [`Game::last_effect`]), so that
//! recording them costs a few additions per ply and never a second
//! simulation.
//!
//! They are the raw material of Ludii's metrics (Ludii `metrics/single/...`;
//! C. Browne, "Automatic Generation and Evaluation of Recombination Games",
//! PhD thesis, QUT 2008, chapter 5), adapted to Hoyito: the score is the seeds
//! each side has captured, so "who leads" is a comparison of captures, not an
//! evaluation; a pass is a ply with one option; an extra move is the mover's
//! next ply. See `crate::metrics::aggregate` for the metrics themselves.
//!
//! One adaptation is forced by cost: the *options* of a ply are the mover's
//! sowable holes (its non-empty holes, 1 for a pass), not its legal moves. The
//! two differ only by sowings that would be endless, which only a full
//! simulation of every hole can find, and that would double the cost of a
//! random game. Endless sowings are rare; the exact case that matters, a
//! player whose every sowing is endless and who must pass with seeds in hand,
//! is counted (`endless_passes`).

use crate::engine::game::Game;
use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::side::{BySide, Side};

/// The measures of one finished game: one row of `metrics.csv`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameMeasures {
    /// Plies with more than one option (Ludii's decision moves).
    pub decisions: u32,
    /// Options summed over all plies (the branching factor's numerator).
    pub options: u32,
    /// Moves that captured at least one casa.
    pub captures: u32,
    /// Seeds captured by moves, the last four included, leftovers of a
    /// stalled game not.
    pub seeds_captured: u32,
    /// Moves that gave the mover another move (II and III).
    pub extra_moves: u32,
    /// Passes.
    pub passes: u32,
    /// Passes made with seeds in the row: every sowing refused as endless.
    pub endless_passes: u32,
    /// Laps sown, summed over sowing moves (1 per move without relay).
    pub laps: u32,
    /// Times the side ahead on captures changed (a tie in between does not
    /// count as a change: ahead, level, ahead again is none).
    pub lead_changes: u32,
    /// The largest capture deficit the winner overcame, in seeds (0 for a
    /// draw or a winner never behind).
    pub drama: u32,
    /// The ply after which the winner led on captures to the end; the game's
    /// plies for a draw, or when the winner did not lead on captures at the
    /// end (a stalled game won on leftovers, a forfeit).
    pub decided: u32,
    /// Plies since the last capture at the end (all plies when none).
    pub since_capture: u32,
}

/// Counts the measures of a game as it is played; see the module doc.
///
/// Who leads changes only when captures do, so the lead is looked at only
/// then; the plies in between, when nothing about the lead can change, cost
/// one comparison of the captures.
#[derive(Debug, Clone, Default)]
pub struct MeasureRecorder {
    counts: GameMeasures,
    /// The side last strictly ahead on captures.
    leader: Option<Side>,
    /// The side strictly ahead now.
    ahead: Option<Side>,
    /// The captures last looked at.
    captures: BySide<u8>,
    /// Each side's largest deficit so far.
    deficit: BySide<u32>,
    /// Each side's last ply count at which it was not strictly ahead, as of
    /// the last look (the plies since then kept `ahead`).
    not_ahead: BySide<u32>,
    plies: u32,
}

impl MeasureRecorder {
    /// A recorder for a new game (from a start position with level captures;
    /// see [`MeasureRecorder::start`] for any other).
    pub fn new() -> MeasureRecorder {
        MeasureRecorder::default()
    }

    /// Starts again for a game from `start`.
    pub fn start(&mut self, start: &Position) {
        *self = MeasureRecorder::default();
        self.look(start.captures());
    }

    /// Records the move `mv` that led to `after`. What the position before
    /// it held that the measures need, the recorder knows: its captures are
    /// those last looked at, and the mover is the side to move after it
    /// (after an extra move) or the other. So the game loop need not copy
    /// each position before its move.
    #[inline]
    pub fn record(&mut self, mv: Move, after: &Game) {
        let c = &mut self.counts;
        let holes = after.last_sowable();
        let options = holes.max(1);
        c.options += options;
        c.decisions += u32::from(options > 1);
        self.plies += 1;
        let effect = after.last_effect();
        match mv {
            Move::Pass => {
                c.passes += 1;
                c.endless_passes += u32::from(holes > 0);
            }
            Move::Sow(_) => c.laps += effect.laps,
        }
        if effect.captured > 0 {
            let next = after.position().side_to_move();
            let mover = if effect.extra_move {
                next
            } else {
                next.opponent()
            };
            c.captures += 1;
            c.seeds_captured +=
                u32::from(after.position().captures()[mover]) - u32::from(self.captures[mover]);
            c.since_capture = 0;
        } else {
            c.since_capture += 1;
        }
        c.extra_moves += u32::from(effect.extra_move);
        let captures = after.position().captures();
        if captures != self.captures {
            // The plies since the last look kept its lead.
            self.not_ahead = self.not_ahead_until(self.plies - 1);
            self.look(captures);
        }
    }

    /// Updates the lead, deficits and last-not-ahead plies for `captures`.
    fn look(&mut self, captures: BySide<u8>) {
        self.captures = captures;
        let (s, n) = (u32::from(captures.south), u32::from(captures.north));
        let ahead = match s.cmp(&n) {
            std::cmp::Ordering::Greater => Some(Side::South),
            std::cmp::Ordering::Less => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        };
        if let Some(side) = ahead {
            if self.leader.is_some_and(|l| l != side) {
                self.counts.lead_changes += 1;
            }
            self.leader = Some(side);
        }
        self.deficit.south = self.deficit.south.max(n.saturating_sub(s));
        self.deficit.north = self.deficit.north.max(s.saturating_sub(n));
        self.ahead = ahead;
        self.not_ahead = self.not_ahead_until(self.plies);
    }

    /// The last-not-ahead plies if the current lead held until ply `ply`.
    fn not_ahead_until(&self, ply: u32) -> BySide<u32> {
        let mut not_ahead = self.not_ahead;
        for side in Side::BOTH {
            if self.ahead != Some(side) {
                not_ahead[side] = ply;
            }
        }
        not_ahead
    }

    /// The measures of the finished game (`winner` from its outcome).
    pub fn finish(&self, winner: Option<Side>) -> GameMeasures {
        let mut m = self.counts;
        let not_ahead = self.not_ahead_until(self.plies);
        match winner {
            Some(side) => {
                m.drama = self.deficit[side];
                // Not ahead at the last ply: the lead was never taken for good.
                m.decided = (not_ahead[side] + 1).min(self.plies);
            }
            None => m.decided = self.plies,
        }
        m
    }
}
