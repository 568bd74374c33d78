//! A batch's step: every game plays its action and keeps it, a block of
//! games at a time, then the block's legal actions are decided together and
//! its rows written; the blocks split across a rayon pool when the step
//! runs on one.

use std::cell::RefCell;

use rand_chacha::ChaCha8Rng;

use super::lanes::{LegalLanes, BLOCK};
use super::observation::{observation_len, write_rows};
use super::{move_of_action, Setup, Slot, StepRows};
use crate::engine::position::MoveEffect;
use crate::engine::rules::Rules;

/// A run of consecutive games of a batch: the games, their generators of
/// openings, their legal actions.
pub(super) struct Games<'a> {
    pub(super) slots: &'a mut [Slot],
    pub(super) rngs: &'a mut [ChaCha8Rng],
    pub(super) legal: &'a mut [u32],
}

impl<'a> Games<'a> {
    /// The first `k` games and the others.
    fn split_at(self, k: usize) -> (Games<'a>, Games<'a>) {
        let (s1, s2) = self.slots.split_at_mut(k);
        let (g1, g2) = self.rngs.split_at_mut(k);
        let (l1, l2) = self.legal.split_at_mut(k);
        (
            Games {
                slots: s1,
                rngs: g1,
                legal: l1,
            },
            Games {
                slots: s2,
                rngs: g2,
                legal: l2,
            },
        )
    }
}

thread_local! {
    /// This thread's lanes, kept from step to step (their tables and room
    /// are made once per thread and rules, not once per step and part).
    static LANES: RefCell<Option<LegalLanes>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's lanes for `rules`.
pub(super) fn with_lanes<R>(rules: &Rules, f: impl FnOnce(&mut LegalLanes) -> R) -> R {
    LANES.with(|cell| {
        let mut kept = cell.borrow_mut();
        if !kept.as_ref().is_some_and(|lanes| lanes.is_for(rules)) {
            *kept = Some(LegalLanes::new(rules));
        }
        f(kept.as_mut().expect("made above"))
    })
}

/// Steps every game of `games` with its (checked) action: on the calling
/// thread, or on a rayon pool's threads when it runs on one, in parts of
/// whole blocks.
pub(super) fn step_games(games: Games<'_>, actions: &[i64], setup: &Setup, rows: StepRows<'_>) {
    let n = games.slots.len();
    match rayon::current_thread_index() {
        None => step_run(games, actions, setup, rows),
        Some(_) => {
            let parts = 4 * rayon::current_num_threads();
            let per_part = n.div_ceil(parts).div_ceil(BLOCK) * BLOCK;
            step_parts(games, actions, setup, rows, per_part);
        }
    }
}

/// Steps the games in parts of `per_part` games, in parallel.
fn step_parts(
    games: Games<'_>,
    actions: &[i64],
    setup: &Setup,
    rows: StepRows<'_>,
    per_part: usize,
) {
    if games.slots.len() <= per_part {
        return step_run(games, actions, setup, rows);
    }
    let holes = usize::from(setup.rules.holes);
    let k = (games.slots.len() / 2).div_ceil(BLOCK) * BLOCK;
    let (g1, g2) = games.split_at(k);
    let (a1, a2) = actions.split_at(k);
    let (r1, r2) = rows.split_at(k, observation_len(holes), holes + 1);
    rayon::join(
        || step_parts(g1, a1, setup, r1, per_part),
        || step_parts(g2, a2, setup, r2, per_part),
    );
}

/// Steps a run of games with their legal actions, a block at a time: every
/// game plays its move, then each keeps it (a finished game restarts at
/// once), then the block's legal actions are decided together, then its
/// rows are written.
fn step_run(games: Games<'_>, actions: &[i64], setup: &Setup, rows: StepRows<'_>) {
    let rules = &setup.rules;
    let holes = usize::from(rules.holes);
    let (w, m) = (observation_len(holes), holes + 1);
    let Games { slots, rngs, legal } = games;
    with_lanes(rules, |lanes| {
        for (start, (block, legal)) in (0..slots.len())
            .step_by(BLOCK)
            .zip(slots.chunks_mut(BLOCK).zip(legal.chunks_mut(BLOCK)))
        {
            // Every game of the block plays first, then keeps its move: the
            // record's tag then reads a board whose byte stores have left
            // the sowing, instead of waiting on them.
            let mut effects = [MoveEffect::default(); BLOCK];
            let actions_of_block = &actions[start..start + block.len()];
            lanes.sow(block.iter().map(|s| &s.position), actions_of_block);
            lanes.finish(
                block.iter_mut().map(|s| &mut s.position),
                actions_of_block,
                &mut effects,
            );
            for (j, (slot, &effect)) in block.iter_mut().zip(effects.iter()).enumerate() {
                let i = start + j;
                let mv = move_of_action(actions[i]);
                let (mut reward, mut terminated, mut truncated, mut finals) =
                    ([0.0f32; 2], false, false, [0u8; 2]);
                if let Some(outcome) = slot.keep(rules, mv, effect) {
                    if let Some(winner) = outcome.winner {
                        reward[winner.index()] = 1.0;
                        reward[winner.opponent().index()] = -1.0;
                    }
                    finals = [outcome.scores.south, outcome.scores.north];
                    terminated = true;
                } else if setup.max_plies > 0 && slot.plies >= setup.max_plies {
                    let captures = slot.position.captures();
                    finals = [captures.south, captures.north];
                    truncated = true;
                }
                if terminated || truncated {
                    // A game whose every opening ends starts from the start
                    // position (`Batch::new` said so for these settings).
                    slot.restart(setup, &mut rngs[i]);
                }
                rows.rewards[2 * i..2 * i + 2].copy_from_slice(&reward);
                rows.final_captures[2 * i..2 * i + 2].copy_from_slice(&finals);
                rows.terminated[i] = terminated;
                rows.truncated[i] = truncated;
            }
            lanes.decide(block.iter().map(|s| &s.position), legal);
            let end = start + block.len();
            write_rows(
                block.iter().map(|s| &s.position),
                legal,
                holes,
                &mut rows.observations[start * w..end * w],
                &mut rows.masks[start * m..end * m],
            );
        }
    });
}
