//! The board after each lap of a move, for the viewer, taken from the
//! engine's own trace of the move ([`Position::play_traced`]).
//!
//! The trace names every pick-up, every last seed and every capture in the
//! order they happened; this module only writes those events onto a copy of
//! the board (a pick-up empties a hole and drops one seed in each following
//! hole, a capture empties a hole), checking each lap's last-seed count
//! against the trace and the final board against the engine's next
//! position. The rules themselves (where a lap ends, what is captured, who
//! moves next) come from the trace, never from here.

use crate::engine::diagram::describe_step;
use crate::engine::position::Position;
use crate::engine::side::{BySide, Side};
use crate::engine::sowing::{CaptureKind, Step};

/// One lap of a move as the viewer shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lap {
    /// Board index picked up.
    pub from: u8,
    /// Seeds in hand.
    pub seeds: u8,
    /// Board index where the lap's last seed fell.
    pub last: u8,
    /// The board after the lap and its captures, in sowing order.
    pub board: Vec<u8>,
    /// Captures made during or at the end of the lap: board index and how.
    pub captures: Vec<(u8, CaptureKind)>,
    /// Captures so far, this lap's included.
    pub stores: BySide<u8>,
    /// The engine's words for the lap's steps.
    pub text: Vec<String>,
}

/// What the trace of one move says beyond its laps.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MoveLaps {
    /// The laps in order (none for a pass).
    pub laps: Vec<Lap>,
    /// The mover moves again.
    pub extra_move: bool,
    /// The last seeds taken at the end of the game: by whom, how many.
    pub last_seeds: Option<(Side, u8)>,
    /// The move was a pass.
    pub pass: bool,
}

/// The trace and the engine disagree: a bug, never bad input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LapMismatch;

/// The laps of the move from `before` whose steps are `trace`, ending in
/// `after` (the engine's position after the move).
pub fn move_laps(
    before: &Position,
    after: &Position,
    trace: &[Step],
) -> Result<MoveLaps, LapMismatch> {
    let mover = before.side_to_move();
    let mut board = before.board().to_vec();
    let len = board.len();
    let mut stores = before.captures();
    let mut out = MoveLaps::default();
    let mut i = 0;
    while i < trace.len() {
        let step = trace[i];
        i += 1;
        match step {
            Step::Lap { from, seeds } => {
                let mut lap = Lap {
                    from,
                    seeds,
                    last: from,
                    board: Vec::new(),
                    captures: Vec::new(),
                    stores,
                    text: vec![describe_step(&step, before.holes())],
                };
                // The en-passant captures of this lap, in the order the
                // engine made them, come before its `LapEnd`.
                let end = trace[i..]
                    .iter()
                    .position(|s| matches!(s, Step::LapEnd { .. }))
                    .map(|k| i + k)
                    .ok_or(LapMismatch)?;
                let mut passing = trace[i..end].iter().peekable();
                let mut at = from as usize;
                *board.get_mut(at).ok_or(LapMismatch)? = 0;
                for _ in 0..seeds {
                    at = (at + 1) % len;
                    board[at] += 1;
                    if let Some(Step::Capture { hole, kind }) = passing.peek() {
                        if *hole as usize == at && board[at] == 4 {
                            board[at] = 0;
                            stores[mover] += 4;
                            lap.captures.push((*hole, *kind));
                            lap.text.push(describe_step(&trace[i], before.holes()));
                            passing.next();
                            i += 1;
                        }
                    }
                }
                if passing.next().is_some() {
                    return Err(LapMismatch);
                }
                let Step::LapEnd { hole, count } = trace[end] else {
                    return Err(LapMismatch);
                };
                if hole as usize != at || board[at] != count {
                    return Err(LapMismatch);
                }
                lap.last = hole;
                lap.text.push(describe_step(&trace[end], before.holes()));
                i = end + 1;
                // The casa and its chain belong to the lap that made them.
                while let Some(&Step::Capture { hole, kind }) = trace.get(i) {
                    *board.get_mut(hole as usize).ok_or(LapMismatch)? = 0;
                    stores[mover] += 4;
                    lap.captures.push((hole, kind));
                    lap.text.push(describe_step(&trace[i], before.holes()));
                    i += 1;
                }
                lap.board = board.clone();
                lap.stores = stores;
                out.laps.push(lap);
            }
            Step::LastSeeds { side, seeds } => {
                board.fill(0);
                stores[side] += seeds;
                out.last_seeds = Some((side, seeds));
            }
            Step::ExtraMove(_) => out.extra_move = true,
            Step::Pass => out.pass = true,
            Step::LapEnd { .. } | Step::Capture { .. } => return Err(LapMismatch),
        }
    }
    if board != after.board() || stores != after.captures() {
        return Err(LapMismatch);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::engine::game::Game;
    use crate::engine::rules::{Rules, Variant};
    use crate::engine::sowing::Trace;

    /// Every move of random games on every variant and several boards: the
    /// laps rebuilt from the trace end on the engine's next position, and
    /// each lap's last-seed count agrees with the trace.
    #[test]
    fn laps_end_on_the_engines_position_in_random_games() {
        let mut rng = ChaCha8Rng::seed_from_u64(14);
        let mut laps = 0;
        for variant in [Variant::I, Variant::Ii, Variant::Iii] {
            for holes in [2, 4, 6, 12, 16] {
                let rules = Rules {
                    holes,
                    ..Rules::new(variant)
                };
                for _ in 0..20 {
                    let mut game = Game::new(rules);
                    while !game.is_over() {
                        let before = *game.position();
                        let moves = game.legal_moves();
                        let pick = rand::Rng::random_range(&mut rng, 0..moves.len());
                        let mv = moves.as_slice()[pick];
                        let mut trace = Trace::new();
                        game.play_traced(mv, &mut trace).expect("legal");
                        let got = move_laps(&before, game.position(), &trace)
                            .expect("the laps agree with the engine");
                        laps += got.laps.len();
                        if let Some(last) = got.laps.last() {
                            assert!(
                                got.last_seeds.is_some() || last.board == game.position().board()
                            );
                        }
                    }
                }
            }
        }
        assert!(laps > 10_000, "only {laps} laps checked");
    }

    /// Hoyito II, 2x3: South sows hole 3 (2 seeds) into N1 and N2; N2 then
    /// holds 4, a casa, and N1 (4 too) goes with it in the chain.
    ///
    /// ```text
    ///   before:  N [0 3 3]      after:  N [0 0 0]
    ///            S [5 5 2]              S [5 5 0]   South 8, moves again
    /// ```
    #[test]
    fn a_chain_capture_is_one_lap_with_two_captures() {
        let rules = Rules {
            holes: 3,
            ..Rules::new(Variant::Ii)
        };
        let before: Position = "5,5,2/3,3,0 S 0-0".parse().expect("position");
        let mut trace = Trace::new();
        let (after, _) = before
            .play_traced(&rules, crate::engine::moves::Move::Sow(2), &mut trace)
            .expect("legal");
        let got = move_laps(&before, &after, &trace).expect("agrees");
        assert_eq!(got.laps.len(), 1);
        let lap = &got.laps[0];
        assert_eq!((lap.from, lap.seeds, lap.last), (2, 2, 4));
        assert_eq!(lap.board, vec![5, 5, 0, 0, 0, 0]);
        assert_eq!(
            lap.captures,
            vec![(4, CaptureKind::Casa), (3, CaptureKind::Chain)]
        );
        assert_eq!(lap.stores.south, 8);
        assert!(got.extra_move);
    }

    #[test]
    fn a_trace_that_does_not_match_the_positions_is_refused() {
        let before: Position = "1,1,2/3,2,0 S 0-0".parse().expect("position");
        let trace = [
            Step::Lap { from: 2, seeds: 2 },
            Step::LapEnd { hole: 4, count: 3 },
        ];
        assert_eq!(move_laps(&before, &before, &trace), Err(LapMismatch));
    }
}
