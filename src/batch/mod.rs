//! `n` games of one rules stepped together, for learners that want millions
//! of plies a second: the engine of Python's `hoyito.VectorGame`,
//! usable from Rust as well.
//!
//! A [`Game`](crate::Game) keeps what a harness needs of every game (its
//! moves, a record of 2 KB, the board's key), and 4,096 of them do not fit
//! in cache: each step found every game cold. A batch keeps only what the
//! rules need: the position, the plies, the positions since the last
//! capture for the stall rules (`stretch.rs`), and the legal actions of the
//! position, which a step must return for every game and which are decided
//! for a block of games at once (`lanes.rs`; the step itself is `step.rs`).
//! The chosen moves of a block are sown together by the same lanes, then
//! ended by the engine's own rules of capture, turn and end
//! (`Position::end_sowing`), on every variant and every board up to 2x16.
//! Its games are checked against [`Game`](crate::Game) move by move
//! (`the_batch_plays_the_games_that_game_plays`).
//!
//! A finished game (ended by the rules, or truncated at `max_plies`) is
//! replaced at once by a new one (automatic reset): the rows written for it
//! describe the new game, and its final captures the one that ended. Each
//! game draws its openings from its own generator, seeded from the master
//! seed and the game's index, so a batch plays the same games whatever the
//! thread count.

mod bytes;
mod first_lap;
mod lanes;
mod laps;
mod long_sowing;
mod memory;
mod observation;
mod step;
mod stretch;

pub use memory::{bytes_per_game, check_batch_memory};
pub use observation::{
    observation_len, write_action_mask, write_observation, write_observation_from,
};

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::engine::game::{stalled_scores, Ending, Outcome};
use crate::engine::moves::Move;
use crate::engine::position::{MoveEffect, Position};
use crate::engine::rules::Rules;
use crate::engine::seeding::{game_seed, rng_from_seed};
use lanes::BLOCK;
use stretch::Stretch;

/// An action the batch cannot play.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BatchError {
    /// Not one action per game.
    #[error("{given} actions for {games} games")]
    Count {
        /// Actions given.
        given: usize,
        /// Games in the batch.
        games: usize,
    },
    /// Every opening drawn for a game ended it.
    #[error(
        "each of {tries} openings of {plies} random plies ended the game under these stall \
         rules: use fewer opening plies or looser stall rules"
    )]
    Openings {
        /// Opening plies asked for.
        plies: u32,
        /// Openings drawn for one game.
        tries: u32,
    },
    /// More games than the memory the process may still use holds.
    #[error(
        "{games} games need about {} MB ({per_game} bytes a game), more than the {} MB \
         {limit}: use fewer games",
        needed / 1_000_000,
        available / 1_000_000
    )]
    Memory {
        /// Games asked for.
        games: usize,
        /// Bytes a game at most ([`bytes_per_game`]).
        per_game: u64,
        /// Bytes the batch needs.
        needed: u64,
        /// Bytes the process may still use.
        available: u64,
        /// Which limit sets that.
        limit: String,
    },
    /// An action that is not legal in its game.
    #[error("game {game}: action {action} is not legal in {position}: legal actions are {legal}")]
    Illegal {
        /// The game's index.
        game: usize,
        /// The action given.
        action: i64,
        /// The game's position, in notation.
        position: String,
        /// Its legal actions, comma-separated.
        legal: String,
    },
}

/// Where a step writes each game's row (game `i` at rows `i`): the
/// observation ([`observation_len`] a game), the action mask (`holes + 1`
/// a game), the rewards of South and North (+1 win, -1 loss, 0 otherwise)
/// and the final captures of a game that ended at this step (2 a game,
/// zeros for the others), and whether the game ended (`terminated`) or was
/// cut at `max_plies` (`truncated`).
#[derive(Debug)]
pub struct StepRows<'a> {
    /// `n * observation_len(holes)`.
    pub observations: &'a mut [f32],
    /// `n * (holes + 1)`.
    pub masks: &'a mut [bool],
    /// `n * 2`.
    pub rewards: &'a mut [f32],
    /// `n`.
    pub terminated: &'a mut [bool],
    /// `n`.
    pub truncated: &'a mut [bool],
    /// `n * 2`.
    pub final_captures: &'a mut [u8],
}

/// A step's rows, owned: for Rust programs that step a batch (its tests,
/// `benches/batch.rs`); Python's `VectorGame` writes into numpy arrays.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedRows {
    /// `n * observation_len(holes)`.
    pub observations: Vec<f32>,
    /// `n * (holes + 1)`.
    pub masks: Vec<bool>,
    /// `n * 2`.
    pub rewards: Vec<f32>,
    /// `n`.
    pub terminated: Vec<bool>,
    /// `n`.
    pub truncated: Vec<bool>,
    /// `n * 2`.
    pub final_captures: Vec<u8>,
}

impl OwnedRows {
    /// Rows for `n` games on `2 x holes`, zeroed.
    pub fn new(n: usize, holes: usize) -> OwnedRows {
        OwnedRows {
            observations: vec![0.0; n * observation_len(holes)],
            masks: vec![false; n * (holes + 1)],
            rewards: vec![0.0; 2 * n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            final_captures: vec![0; 2 * n],
        }
    }

    /// The rows for [`Batch::step`] to write.
    pub fn rows(&mut self) -> StepRows<'_> {
        StepRows {
            observations: &mut self.observations,
            masks: &mut self.masks,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            final_captures: &mut self.final_captures,
        }
    }
}

impl<'a> StepRows<'a> {
    /// The rows of the first `k` games and the others'.
    fn split_at(self, k: usize, w: usize, m: usize) -> (StepRows<'a>, StepRows<'a>) {
        let (o1, o2) = self.observations.split_at_mut(k * w);
        let (m1, m2) = self.masks.split_at_mut(k * m);
        let (r1, r2) = self.rewards.split_at_mut(2 * k);
        let (t1, t2) = self.terminated.split_at_mut(k);
        let (u1, u2) = self.truncated.split_at_mut(k);
        let (f1, f2) = self.final_captures.split_at_mut(2 * k);
        (
            StepRows {
                observations: o1,
                masks: m1,
                rewards: r1,
                terminated: t1,
                truncated: u1,
                final_captures: f1,
            },
            StepRows {
                observations: o2,
                masks: m2,
                rewards: r2,
                terminated: t2,
                truncated: u2,
                final_captures: f2,
            },
        )
    }
}

/// The move of an action (checked legal): 0 the pass, `k` the hole `k`.
#[inline]
fn move_of_action(action: i64) -> Move {
    match action {
        0 => Move::Pass,
        k => Move::Sow(k as u8 - 1),
    }
}

/// The settings every game of a batch shares.
#[derive(Debug, Clone, Copy)]
struct Setup {
    rules: Rules,
    opening_plies: u32,
    max_plies: u32,
}

/// Openings drawn for a new game before it starts from the start position
/// instead: when every one of them ends the game (stall rules that stop a
/// game within its opening), no opening will do.
const OPENING_TRIES: u32 = 1000;

/// One game of the batch. The position comes first in a slot of whole
/// cache lines: the sowing's 32-byte loads and stores of its board then
/// never straddle two lines.
#[derive(Debug, Clone)]
#[repr(C, align(64))]
struct Slot {
    position: Position,
    plies: u32,
    stretch: Stretch,
}

impl Slot {
    /// A game at the start position.
    fn new(rules: &Rules) -> Slot {
        let position = Position::start(rules);
        Slot {
            position,
            plies: 0,
            stretch: Stretch::new(&position),
        }
    }

    /// A new game after `opening_plies` uniformly random plies drawn with
    /// `rng`, as [`Game::play_random`](crate::Game::play_random) draws them,
    /// drawn again while they end the game; after [`OPENING_TRIES`] such
    /// openings, the start position itself (and `false`).
    fn restart(&mut self, setup: &Setup, rng: &mut ChaCha8Rng) -> bool {
        for _ in 0..OPENING_TRIES {
            self.start(&setup.rules);
            if self.open(setup, rng) {
                return true;
            }
        }
        self.start(&setup.rules);
        false
    }

    /// Back to the start position, the record's memory kept.
    fn start(&mut self, rules: &Rules) {
        self.position = Position::start(rules);
        self.plies = 0;
        self.stretch.restart(&self.position);
    }

    /// Plays the opening's random plies; whether the game is still going.
    fn open(&mut self, setup: &Setup, rng: &mut ChaCha8Rng) -> bool {
        for _ in 0..setup.opening_plies {
            let mask = self.position.nonempty_mask();
            let (mv, effect) = self.position.play_random_in_place(&setup.rules, mask, rng);
            if self.keep(&setup.rules, mv, effect).is_some() {
                return false;
            }
        }
        true
    }

    /// Keeps `mv`, just played in the slot's position with `effect`: the
    /// ply, the positions since the last capture, and the end and stall
    /// rules, as [`Game`](crate::Game) keeps them; the outcome if the game
    /// ended.
    #[inline]
    fn keep(&mut self, rules: &Rules, mv: Move, effect: MoveEffect) -> Option<Outcome> {
        self.plies += 1;
        if effect.game_over {
            return Some(Outcome::new(
                self.position.captures(),
                Ending::Normal,
                self.plies,
            ));
        }
        if effect.captured > 0 {
            self.stretch.restart(&self.position);
            return None;
        }
        let stall = rules.stall;
        let seen = if stall.repetitions == 0 {
            // Nothing counts the positions: the record only measures the
            // stretch.
            self.stretch.extend(&self.position, mv);
            0
        } else {
            self.stretch.record(&self.position, mv, rules)
        };
        let ending = if stall.repetitions > 0 && seen >= stall.repetitions {
            Ending::Repetition
        } else if stall.no_capture_limit > 0 && self.stretch.len() as u32 > stall.no_capture_limit {
            Ending::NoCaptureLimit
        } else {
            return None;
        };
        Some(Outcome::new(
            stalled_scores(&self.position, stall.leftover),
            ending,
            self.plies,
        ))
    }
}

/// `n` games of one rules stepped together.
#[derive(Debug, Clone)]
pub struct Batch {
    setup: Setup,
    seed: u64,
    slots: Vec<Slot>,
    /// Each game's generator of openings, apart from the games: only a
    /// reset reads it.
    rngs: Vec<ChaCha8Rng>,
    /// Each game's legal actions (bit 0 the pass, bit `k` the hole `k`),
    /// apart from the games: checking a step's actions reads them alone.
    legal: Vec<u32>,
}

impl Batch {
    /// `n` games of `rules` (at least one), their openings seeded by
    /// `seed`: each new game starts after `opening_plies` uniformly random
    /// plies; `max_plies` (0: none) cuts a game that long. An error if no
    /// opening of that length keeps a game going under these stall rules,
    /// or if `n` games need more memory than the process may still use
    /// ([`check_batch_memory`]), checked before any is allocated.
    ///
    /// # Panics
    /// If `n` is 0.
    pub fn new(
        rules: Rules,
        n: usize,
        seed: u64,
        opening_plies: u32,
        max_plies: u32,
    ) -> Result<Batch, BatchError> {
        assert!(n > 0, "a batch needs at least one game");
        check_batch_memory(n, &rules, rayon::current_num_threads())?;
        let mut batch = Batch {
            setup: Setup {
                rules,
                opening_plies,
                max_plies,
            },
            seed,
            slots: vec![Slot::new(&rules); n],
            rngs: Vec::new(),
            legal: vec![0; n],
        };
        batch.reset(seed)?;
        Ok(batch)
    }

    /// Starts every game afresh, with `seed` as the master seed. An error
    /// if no opening keeps a game going (see [`Batch::new`]); the games
    /// then stand at the start position.
    pub fn reset(&mut self, seed: u64) -> Result<(), BatchError> {
        self.seed = seed;
        let setup = self.setup;
        let parallel = rayon::current_thread_index().is_some();
        let make = |i: usize| {
            let mut rng = rng_from_seed(game_seed(seed, i as u64));
            let mut slot = Slot::new(&setup.rules);
            let opened = slot.restart(&setup, &mut rng);
            (slot, (rng, opened))
        };
        let n = self.slots.len();
        let (slots, rngs): (Vec<Slot>, Vec<(ChaCha8Rng, bool)>) = if parallel {
            use rayon::prelude::*;
            (0..n).into_par_iter().map(make).unzip()
        } else {
            (0..n).map(make).unzip()
        };
        self.slots = slots;
        let opened = rngs.iter().all(|&(_, opened)| opened);
        self.rngs = rngs.into_iter().map(|(rng, _)| rng).collect();
        step::with_lanes(&setup.rules, |lanes| {
            for (block, legal) in self.slots.chunks(BLOCK).zip(self.legal.chunks_mut(BLOCK)) {
                lanes.decide(block.iter().map(|s| &s.position), legal);
            }
        });
        if opened {
            Ok(())
        } else {
            Err(BatchError::Openings {
                plies: setup.opening_plies,
                tries: OPENING_TRIES,
            })
        }
    }

    /// The master seed of the games' openings.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The rules of every game.
    pub fn rules(&self) -> &Rules {
        &self.setup.rules
    }

    /// Games in the batch.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always false: a batch has at least one game.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Game `i`'s position.
    pub fn position(&self, i: usize) -> &Position {
        &self.slots[i].position
    }

    /// Game `i`'s plies since it (re)started, its opening included.
    pub fn plies(&self, i: usize) -> u32 {
        self.slots[i].plies
    }

    /// Game `i`'s legal actions as bits: bit 0 the pass, bit `k` the hole `k`.
    pub fn legal_actions(&self, i: usize) -> u32 {
        self.legal[i]
    }

    /// Writes a uniformly random legal action of each game into `actions`
    /// (one a game, in order), drawn with `rng`: the random player that the
    /// batch's tests and `benches/batch.rs` step with.
    ///
    /// # Panics
    /// If `actions` is not one action a game long.
    pub fn random_actions<R: Rng + ?Sized>(&self, rng: &mut R, actions: &mut [i64]) {
        assert_eq!(actions.len(), self.len(), "one action a game");
        for (action, &legal) in actions.iter_mut().zip(&self.legal) {
            let mut bits = legal;
            for _ in 0..rng.random_range(0..legal.count_ones()) {
                bits &= bits - 1;
            }
            *action = i64::from(bits.trailing_zeros());
        }
    }

    /// Writes every game's observation and mask (`observations`:
    /// [`observation_len`] a game; `masks`: `holes + 1` a game).
    ///
    /// # Panics
    /// If a slice has not that length.
    pub fn observe(&self, observations: &mut [f32], masks: &mut [bool]) {
        let (n, holes) = (self.slots.len(), usize::from(self.setup.rules.holes));
        let (w, m) = (observation_len(holes), holes + 1);
        assert!(
            observations.len() == n * w && masks.len() == n * m,
            "the observations and masks of {n} games on 2x{holes}"
        );
        for (((slot, &legal), o), k) in self
            .slots
            .iter()
            .zip(&self.legal)
            .zip(observations.chunks_exact_mut(w))
            .zip(masks.chunks_exact_mut(m))
        {
            write_observation(&slot.position, o);
            write_action_mask(legal, k);
        }
    }

    /// Whether every action is legal in its game (`actions[i]` for game
    /// `i`: 0 the pass, `k` the hole `k`); else the error naming the first
    /// game where it is not, and that game's legal actions.
    pub fn check(&self, actions: &[i64]) -> Result<(), BatchError> {
        if actions.len() != self.slots.len() {
            return Err(BatchError::Count {
                given: actions.len(),
                games: self.slots.len(),
            });
        }
        for (game, (&bits, &action)) in self.legal.iter().zip(actions).enumerate() {
            if (0..32).contains(&action) && bits >> action & 1 == 1 {
                continue;
            }
            let legal: Vec<String> = (0..32u32)
                .filter(|k| bits >> k & 1 == 1)
                .map(|k| k.to_string())
                .collect();
            return Err(BatchError::Illegal {
                game,
                action,
                position: self.slots[game].position.to_string(),
                legal: legal.join(", "),
            });
        }
        Ok(())
    }

    /// Plays `actions[i]` in game `i` (every action checked first: an
    /// illegal one leaves the batch as it was) and writes every game's row
    /// into `rows`. On a rayon pool's thread the games are split across the
    /// pool; elsewhere the calling thread steps them all.
    ///
    /// # Panics
    /// If a slice of `rows` has not the length [`StepRows`] gives.
    pub fn step(&mut self, actions: &[i64], rows: StepRows<'_>) -> Result<(), BatchError> {
        self.check(actions)?;
        let n = self.slots.len();
        let holes = usize::from(self.setup.rules.holes);
        let (w, m) = (observation_len(holes), holes + 1);
        assert!(
            rows.observations.len() == n * w
                && rows.masks.len() == n * m
                && rows.rewards.len() == 2 * n
                && rows.terminated.len() == n
                && rows.truncated.len() == n
                && rows.final_captures.len() == 2 * n,
            "the rows of a step of {n} games on 2x{holes}"
        );
        let games = step::Games {
            slots: &mut self.slots,
            rngs: &mut self.rngs,
            legal: &mut self.legal,
        };
        step::step_games(games, actions, &self.setup, rows);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::engine::game::Game;
    use crate::engine::rules::{Leftover, Variant};

    /// A uniformly random legal action of each game.
    fn random_actions(batch: &Batch, rng: &mut ChaCha8Rng) -> Vec<i64> {
        let mut actions = vec![0; batch.len()];
        batch.random_actions(rng, &mut actions);
        actions
    }

    /// A new game as the batch starts one: `opening` random plies drawn
    /// by [`Game::play_random`], again if they end the game.
    fn opened(rules: Rules, opening: u32, rng: &mut ChaCha8Rng) -> Game {
        loop {
            let mut game = Game::new(rules);
            for _ in 0..opening {
                if game.is_over() {
                    break;
                }
                game.play_random(rng);
            }
            if !game.is_over() {
                return game;
            }
        }
    }

    /// Every game of a batch plays as [`Game`] plays the same moves: the
    /// same positions, plies, legal actions, observations, endings (stall
    /// rules and leftover policies included, made common by short limits),
    /// scores, rewards and truncations, and it restarts with the openings
    /// its own generator draws; on every variant and every board from 2x2
    /// to 2x16 (lanes of 16 bytes up to 2x8, of 32 beyond; the build that
    /// runs here, AVX2 where the processor has it, which the lanes' tests
    /// compare with the baseline build).
    #[test]
    fn the_batch_plays_the_games_that_game_plays() {
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        let mut ended = [0usize; 3];
        for variant in [Variant::I, Variant::Ii, Variant::Iii] {
            for holes in 2u32..=16 {
                let seeds = if holes == 3 { 3 } else { 4 };
                for (limit, repetitions, leftover, opening, max_plies) in [
                    (200, 3, Leftover::None, 0, 0),
                    (24, 2, Leftover::OwnSide, 3, 0),
                    (40, 3, Leftover::Split, 0, 60),
                ] {
                    let mut rules = Rules::new(variant).with_board(holes, seeds).unwrap();
                    rules.stall.no_capture_limit = limit;
                    rules.stall.repetitions = repetitions;
                    rules.stall.leftover = leftover;
                    let n = 70;
                    let seed = rng.random();
                    let mut batch = Batch::new(rules, n, seed, opening, max_plies).unwrap();
                    let mut openings: Vec<ChaCha8Rng> = (0..n)
                        .map(|i| rng_from_seed(game_seed(seed, i as u64)))
                        .collect();
                    let mut games: Vec<Game> = openings
                        .iter_mut()
                        .map(|r| opened(rules, opening, r))
                        .collect();
                    let h = holes as usize;
                    let (w, m) = (observation_len(h), h + 1);
                    let mut rows = OwnedRows::new(n, h);
                    for _ in 0..120 {
                        for (i, game) in games.iter().enumerate() {
                            assert_eq!(batch.position(i), game.position());
                            assert_eq!(batch.plies(i), game.plies());
                            let legal = lanes::engine_actions(game.position(), &rules);
                            assert_eq!(batch.legal_actions(i), legal, "{}", game.position());
                        }
                        let actions = random_actions(&batch, &mut rng);
                        batch.step(&actions, rows.rows()).unwrap();
                        for (i, game) in games.iter_mut().enumerate() {
                            game.play(move_of_action(actions[i])).unwrap();
                            let (reward, finals, term, trunc) = match game.outcome() {
                                Some(outcome) => {
                                    ended[match outcome.ending {
                                        Ending::Normal => 0,
                                        Ending::Repetition => 1,
                                        _ => 2,
                                    }] += 1;
                                    let mut reward = [0.0; 2];
                                    if let Some(winner) = outcome.winner {
                                        reward[winner.index()] = 1.0;
                                        reward[winner.opponent().index()] = -1.0;
                                    }
                                    let s = outcome.scores;
                                    (reward, [s.south, s.north], true, false)
                                }
                                None if max_plies > 0 && game.plies() >= max_plies => {
                                    let c = game.position().captures();
                                    ([0.0; 2], [c.south, c.north], false, true)
                                }
                                None => ([0.0; 2], [0, 0], false, false),
                            };
                            assert_eq!(rows.rewards[2 * i..2 * i + 2], reward);
                            assert_eq!(rows.final_captures[2 * i..2 * i + 2], finals);
                            assert_eq!((rows.terminated[i], rows.truncated[i]), (term, trunc));
                            if term || trunc {
                                *game = opened(rules, opening, &mut openings[i]);
                            }
                            let mut obs = vec![0.0; w];
                            write_observation(game.position(), &mut obs);
                            assert_eq!(rows.observations[i * w..(i + 1) * w], obs);
                            let mut mask = vec![false; m];
                            write_action_mask(
                                lanes::engine_actions(game.position(), &rules),
                                &mut mask,
                            );
                            assert_eq!(rows.masks[i * m..(i + 1) * m], mask);
                        }
                    }
                }
            }
        }
        assert!(
            ended.iter().all(|&e| e > 100),
            "endings normal, repetition, limit: {ended:?}"
        );
    }

    /// The same seed gives the same rows on one thread and on a pool of
    /// three, and an illegal action (or a wrong count) changes nothing.
    #[test]
    fn threads_change_nothing_and_illegal_actions_are_refused() {
        let rules = Rules::new(Variant::Ii).with_board(6, 4).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let n = 1000;
        let mut one = Batch::new(rules, n, 9, 4, 80).unwrap();
        let mut three = pool.install(|| Batch::new(rules, n, 9, 4, 80)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let (mut a, mut b) = (OwnedRows::new(n, 6), OwnedRows::new(n, 6));
        for _ in 0..150 {
            let actions = random_actions(&one, &mut rng);
            one.step(&actions, a.rows()).unwrap();
            pool.install(|| three.step(&actions, b.rows())).unwrap();
            assert_eq!(a, b);
        }
        let before: Vec<Position> = (0..n).map(|i| *one.position(i)).collect();
        let mut actions = random_actions(&one, &mut rng);
        let bad = (0..n).find(|&i| one.legal_actions(i) & 1 == 0).unwrap();
        actions[bad] = 0;
        let err = one.step(&actions, a.rows()).unwrap_err();
        assert!(
            matches!(err, BatchError::Illegal { game, action: 0, .. } if game == bad),
            "{err}"
        );
        assert!(err.to_string().contains("legal actions are"), "{err}");
        assert_eq!(
            one.step(&actions[1..], a.rows()).unwrap_err(),
            BatchError::Count {
                given: n - 1,
                games: n
            }
        );
        assert!((0..n).all(|i| *one.position(i) == before[i]));
    }

    /// Stall rules that end every opening (a position counts as repeated
    /// at its first occurrence, and no 20 plies in a row all capture) are
    /// an error naming the openings, never a batch that hangs drawing them;
    /// a game that ends later starts from the start position.
    #[test]
    fn openings_that_always_end_the_game_are_an_error() {
        let mut rules = Rules::new(Variant::Ii).with_board(6, 4).unwrap();
        rules.stall.repetitions = 1;
        let err = Batch::new(rules, 3, 1, 20, 0).unwrap_err();
        assert_eq!(
            err,
            BatchError::Openings {
                plies: 20,
                tries: OPENING_TRIES
            }
        );
        assert!(
            err.to_string().contains("openings of 20 random plies"),
            "{err}"
        );
        // Without openings the same rules make a batch whose games end at
        // their first quiet ply and start again at the start position.
        let mut batch = Batch::new(rules, 3, 1, 0, 0).unwrap();
        let start = Position::start(&rules);
        let mut rows = OwnedRows::new(3, 6);
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for _ in 0..20 {
            let actions = random_actions(&batch, &mut rng);
            batch.step(&actions, rows.rows()).unwrap();
            for i in 0..3 {
                if rows.terminated[i] {
                    assert_eq!(*batch.position(i), start);
                }
            }
        }
        assert!(rows.terminated.iter().any(|&t| t));
    }
}
