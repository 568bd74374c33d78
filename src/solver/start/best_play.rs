//! Perfect play read from a solved start: the value of each first move, the
//! moves that keep the start's value, and a principal variation that makes
//! progress where a value must be forced through cycles (each inner move to
//! a position whose value was final in an earlier sweep).

use super::solve::StartSolve;
use crate::engine::game::{Game, Outcome};
use crate::engine::moves::Move;
use crate::engine::position::{MoveEffect, Position};
use crate::solver::retrograde::move_value;

impl StartSolve {
    /// The value for the mover of the move from `pos` to `child`: a capture's
    /// seeds plus (or minus) the value of where it leads, or minus the
    /// child's value for an inner move; `i8::MIN` where the child is unknown.
    fn move_value_of(&self, pos: &Position, child: &Position, effect: MoveEffect) -> i8 {
        if effect.captured > 0 {
            move_value(pos, child, &|c: &Position| self.value(c).unwrap_or(i8::MIN))
        } else {
            self.value(child).map(|v| -v).unwrap_or(i8::MIN)
        }
    }

    /// A game from the start under perfect play by both sides that realises
    /// the start's value, played by the rules' [`Game`] (its stall rules
    /// included), with its outcome. Each side plays a move of the position's
    /// value; where that value is not 0 and no capture realises it, a move to
    /// a position whose value was final in an earlier sweep, so that play
    /// makes progress where "any move of the same value" could cycle. A
    /// value of 0 with no capture of value 0 is held by inner moves of value
    /// 0, and the game then ends stalled. The game's margin for the side that
    /// moved first equals the start's value (tests replay it).
    pub fn principal_variation(&self) -> (Vec<Move>, Option<Outcome>) {
        let mut game = Game::from_position(self.rules, self.start);
        while !game.is_over() {
            let pos = *game.position();
            let Some((value, when)) = self.lookup(&pos) else {
                break;
            };
            let mut exit_choice = None;
            let mut inner_choice = None;
            pos.for_each_child(&self.rules, |mv, child, effect| {
                if effect.captured > 0 {
                    let here = self.move_value_of(&pos, &child, effect);
                    if here == value && exit_choice.is_none() {
                        exit_choice = Some(mv);
                    }
                } else if let Some((cv, cwhen)) = self.lookup(&child) {
                    if -cv == value && (value == 0 || cwhen < when) && inner_choice.is_none() {
                        inner_choice = Some(mv);
                    }
                }
            });
            let Some(mv) = exit_choice.or(inner_choice) else {
                break;
            };
            if game.play(mv).is_err() {
                break;
            }
        }
        (game.moves().to_vec(), game.outcome())
    }

    /// The moves from the start that keep its value (best play).
    pub fn best_moves(&self) -> Vec<Move> {
        let value = self.start_value();
        self.first_moves()
            .into_iter()
            .filter(|&(_, v)| Some(v) == value)
            .map(|(mv, _)| mv)
            .collect()
    }

    /// The value of each first move from the start, for its mover.
    pub fn first_moves(&self) -> Vec<(Move, i8)> {
        let mut out = Vec::new();
        let pos = self.start;
        pos.for_each_child(&self.rules, |mv, child, effect| {
            out.push((mv, self.move_value_of(&pos, &child, effect)));
        });
        out
    }
}
