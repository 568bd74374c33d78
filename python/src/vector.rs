//! `hoyito.VectorGame`: `n` games stepped at once in Rust with the GIL
//! released, numpy arrays in and out, for learners that want millions of
//! plies a second.
//!
//! Each slot holds an engine [`Game`] (every rule, the stall rules included,
//! is the engine's) and the legal moves of its position, kept for the mask
//! and to check the next action. A finished game is replaced at once by a new
//! one (automatic reset): the arrays returned by `step` then describe the new
//! game, and `final_captures` the one that ended. Each slot draws its
//! openings from its own generator, seeded from the master seed and the
//! slot's index, so a batch replays the same whatever the thread count.

use hoyito::tournament::{game_seed, rng_from_seed};
use hoyito::{Game, Move, Rules};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::observe::{legal_actions, observation_len, write_action_mask, write_observation};
use crate::rules::{move_number, rules};

/// One game of the batch: the engine's game and its legal actions as bits
/// (bit 0 the pass, bit `k` the hole `k`), kept for the mask and to check
/// the next action.
#[derive(Clone)]
struct Slot {
    game: Game,
    legal: u32,
}

/// The settings shared by every slot.
#[derive(Clone, Copy)]
struct Setup {
    rules: Rules,
    opening_plies: u32,
    max_plies: u32,
}

impl Slot {
    fn new(setup: &Setup, rng: &mut ChaCha8Rng) -> Slot {
        let mut slot = Slot {
            game: Game::new(setup.rules),
            legal: 0,
        };
        slot.reset(setup, rng);
        slot
    }

    /// A new game after `opening_plies` uniformly random plies drawn with
    /// `rng` (again if the opening ends the game).
    fn reset(&mut self, setup: &Setup, rng: &mut ChaCha8Rng) {
        loop {
            self.game = Game::new(setup.rules);
            for _ in 0..setup.opening_plies {
                if self.game.is_over() {
                    break;
                }
                self.game.play_random(rng);
            }
            if !self.game.is_over() {
                break;
            }
        }
        self.legal = legal_actions(self.game.position(), &setup.rules);
    }
}

/// The move of a legal action number.
#[inline]
fn move_of_action(action: u32) -> Move {
    match action {
        0 => Move::Pass,
        k => Move::Sow((k - 1) as u8),
    }
}

/// Whether `action` is legal in `slot`, else the error naming the legal ones.
fn check_action(slot: &Slot, action: i64) -> Result<(), String> {
    if (0..32).contains(&action) && slot.legal >> action & 1 == 1 {
        return Ok(());
    }
    let legal: Vec<String> = (0..32u32)
        .filter(|k| slot.legal >> k & 1 == 1)
        .map(|k| move_number(move_of_action(k)).to_string())
        .collect();
    Err(format!(
        "action {action} is not legal in {}: legal actions are {}",
        slot.game.position(),
        legal.join(", ")
    ))
}

/// The rows of a step's arrays for a run of consecutive games, written in
/// place: observations (`w` a game), masks (`m` a game), rewards and final
/// captures (2 a game), flags.
struct Rows<'a> {
    w: usize,
    m: usize,
    obs: &'a mut [f32],
    mask: &'a mut [bool],
    rewards: &'a mut [f32],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
    finals: &'a mut [u8],
}

impl<'a> Rows<'a> {
    /// The first `k` games' rows and the others'.
    fn split_at(self, k: usize) -> (Rows<'a>, Rows<'a>) {
        let (w, m) = (self.w, self.m);
        let (o1, o2) = self.obs.split_at_mut(k * w);
        let (m1, m2) = self.mask.split_at_mut(k * m);
        let (r1, r2) = self.rewards.split_at_mut(2 * k);
        let (t1, t2) = self.terminated.split_at_mut(k);
        let (u1, u2) = self.truncated.split_at_mut(k);
        let (f1, f2) = self.finals.split_at_mut(2 * k);
        (
            Rows {
                w,
                m,
                obs: o1,
                mask: m1,
                rewards: r1,
                terminated: t1,
                truncated: u1,
                finals: f1,
            },
            Rows {
                w,
                m,
                obs: o2,
                mask: m2,
                rewards: r2,
                terminated: t2,
                truncated: u2,
                finals: f2,
            },
        )
    }
}

/// Steps a run of games with their actions (all checked legal) and writes
/// their rows: the engine plays each chosen move once, in place and in two
/// halves ([`Game::sow_legal`], [`Game::keep_sown`]), and a finished game is
/// reset at once.
fn step_run(
    slots: &mut [Slot],
    rngs: &mut [ChaCha8Rng],
    actions: &[i64],
    setup: &Setup,
    rows: Rows<'_>,
) {
    let rules = &setup.rules;
    let Rows {
        w,
        m,
        obs,
        mask,
        rewards,
        terminated,
        truncated,
        finals,
    } = rows;
    // The games are stepped a block at a time: first each game of the block
    // sows its move in place ([`Game::sow_legal`], which prefetches the
    // slot of the game's record that the move writes), then each keeps its
    // move ([`Game::keep_sown`]). Each game's record is cold by its next
    // move (4,096 games' records do not fit in cache), and that one store
    // was a third of a step (issue 40).
    let mut sown = Vec::with_capacity(BLOCK);
    for start in (0..slots.len()).step_by(BLOCK) {
        let end = (start + BLOCK).min(slots.len());
        for (slot, &action) in slots[start..end].iter_mut().zip(&actions[start..end]) {
            sown.push(slot.game.sow_legal(move_of_action(action as u32)));
        }
        for (i, sown) in (start..end).zip(sown.drain(..)) {
            let (slot, rng) = (&mut slots[i], &mut rngs[i]);
            slot.game.keep_sown(sown);
            let (mut reward, mut term, mut trunc, mut fin) = ([0.0f32; 2], false, false, [0u8; 2]);
            if let Some(outcome) = slot.game.outcome() {
                if let Some(winner) = outcome.winner {
                    reward[winner.index()] = 1.0;
                    reward[winner.opponent().index()] = -1.0;
                }
                fin = [outcome.scores.south, outcome.scores.north];
                term = true;
            } else if setup.max_plies > 0 && slot.game.plies() >= setup.max_plies {
                let captures = slot.game.position().captures();
                fin = [captures.south, captures.north];
                trunc = true;
            }
            if term || trunc {
                slot.reset(setup, rng);
            } else {
                slot.legal = legal_actions(slot.game.position(), rules);
            }
            write_observation(slot.game.position(), &mut obs[i * w..(i + 1) * w]);
            write_action_mask(slot.legal, &mut mask[i * m..(i + 1) * m]);
            rewards[2 * i..2 * i + 2].copy_from_slice(&reward);
            finals[2 * i..2 * i + 2].copy_from_slice(&fin);
            terminated[i] = term;
            truncated[i] = trunc;
        }
    }
}

/// Games sown ahead of keeping their moves in [`step_run`]: enough for
/// the prefetches to land, few enough that the lines stay in the
/// first-level cache.
const BLOCK: usize = 16;

/// As [`step_run`], split into runs of at least `min` games stepped on
/// the current rayon pool.
fn step_parallel(
    slots: &mut [Slot],
    rngs: &mut [ChaCha8Rng],
    actions: &[i64],
    setup: &Setup,
    rows: Rows<'_>,
    min: usize,
) {
    let n = slots.len();
    if n < 2 * min {
        return step_run(slots, rngs, actions, setup, rows);
    }
    let k = n / 2;
    let (s1, s2) = slots.split_at_mut(k);
    let (g1, g2) = rngs.split_at_mut(k);
    let (a1, a2) = actions.split_at(k);
    let (r1, r2) = rows.split_at(k);
    rayon::join(
        || step_parallel(s1, g1, a1, setup, r1, min),
        || step_parallel(s2, g2, a2, setup, r2, min),
    );
}

fn write_slot(slot: &Slot, obs: &mut [f32], mask: &mut [bool]) {
    write_observation(slot.game.position(), obs);
    write_action_mask(slot.legal, mask);
}

/// `n` games stepped together.
#[pyclass(module = "hoyito._hoyito", name = "VectorGame")]
pub struct PyVectorGame {
    setup: Setup,
    seed: u64,
    slots: Vec<Slot>,
    /// Each slot's generator of openings, apart from the slots: only a
    /// reset reads it.
    rngs: Vec<ChaCha8Rng>,
    /// Games asked for.
    requested: usize,
    /// The final captures of the games that ended at the last step (South,
    /// North; zeros elsewhere), or empty before the first step.
    last_final: Vec<u8>,
    pool: Option<rayon::ThreadPool>,
}

type Arrays<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>);

impl PyVectorGame {
    fn holes(&self) -> usize {
        self.setup.rules.holes as usize
    }

    fn run<R: Send>(
        &mut self,
        f: impl FnOnce(&mut [Slot], &mut [ChaCha8Rng], &Setup) -> R + Send,
    ) -> R {
        let setup = self.setup;
        let (slots, rngs) = (&mut self.slots, &mut self.rngs);
        match &self.pool {
            Some(pool) => pool.install(|| f(slots, rngs, &setup)),
            None => f(slots, rngs, &setup),
        }
    }

    fn observe<'py>(&self, py: Python<'py>) -> Arrays<'py> {
        let n = self.slots.len();
        let (w, m) = (observation_len(self.holes()), self.holes() + 1);
        let obs = PyArray2::<f32>::zeros(py, [n, w], false);
        let mask = PyArray2::<bool>::zeros(py, [n, m], false);
        {
            // SAFETY: both arrays were just created here, are contiguous and
            // are not shared with Python yet.
            let obs_s = unsafe { obs.as_slice_mut() }.expect("a new array is contiguous");
            let mask_s = unsafe { mask.as_slice_mut() }.expect("a new array is contiguous");
            for ((slot, o), k) in self
                .slots
                .iter()
                .zip(obs_s.chunks_mut(w))
                .zip(mask_s.chunks_mut(m))
            {
                write_slot(slot, o, k);
            }
        }
        (obs, mask)
    }
}

#[pymethods]
impl PyVectorGame {
    /// `n` games of `variant` on `2 x holes`, their openings seeded by
    /// `seed`: each new game starts after `opening_plies` uniformly random
    /// plies. `max_plies` (0: none) truncates a game that long; `threads`
    /// steps the batch on that many threads (1: the calling thread only; 0:
    /// every core).
    #[new]
    #[pyo3(signature = (n, variant="ii", holes=6, seed=0, *, seeds=4, opening_plies=0, max_plies=0, threads=1, no_capture_limit=200, repetitions=3, leftover="none"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        n: usize,
        variant: &str,
        holes: u32,
        seed: u64,
        seeds: u32,
        opening_plies: u32,
        max_plies: u32,
        threads: usize,
        no_capture_limit: u32,
        repetitions: u32,
        leftover: &str,
    ) -> PyResult<PyVectorGame> {
        if n == 0 {
            return Err(PyValueError::new_err(
                "a VectorGame needs at least one game",
            ));
        }
        let rules = rules(
            variant,
            holes,
            seeds,
            no_capture_limit,
            repetitions,
            leftover,
        )?;
        let setup = Setup {
            rules,
            opening_plies,
            max_plies,
        };
        let pool = match threads {
            1 => None,
            t => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .map_err(|e| PyValueError::new_err(e.to_string()))?,
            ),
        };
        let mut vg = PyVectorGame {
            setup,
            seed,
            slots: Vec::new(),
            rngs: Vec::new(),
            requested: n,
            last_final: Vec::new(),
            pool,
        };
        py.allow_threads(|| vg.make_slots());
        Ok(vg)
    }

    /// Number of games.
    fn __len__(&self) -> usize {
        self.slots.len()
    }

    /// Holes per row.
    #[getter(holes)]
    fn holes_py(&self) -> usize {
        self.holes()
    }

    /// Observation length: `2 * holes + 2`.
    #[getter]
    fn observation_size(&self) -> usize {
        observation_len(self.holes())
    }

    /// Actions: `holes + 1` (0 = pass, k = hole k).
    #[getter]
    fn num_actions(&self) -> usize {
        self.holes() + 1
    }

    /// Starts every game afresh (with `seed` as the new master seed if
    /// given) and returns `(observations, action_masks)`.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> Arrays<'py> {
        if let Some(seed) = seed {
            self.seed = seed;
        }
        py.allow_threads(|| self.make_slots());
        self.observe(py)
    }

    /// The current `(observations, action_masks)`.
    fn observe_all<'py>(&self, py: Python<'py>) -> Arrays<'py> {
        self.observe(py)
    }

    /// Who moves in each game: 0 South, 1 North (uint8).
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        let v: Vec<u8> = self
            .slots
            .iter()
            .map(|s| s.game.position().side_to_move().index() as u8)
            .collect();
        PyArray1::from_vec(py, v)
    }

    /// The positions, in notation (for people and tests).
    fn notations(&self) -> Vec<String> {
        self.slots
            .iter()
            .map(|s| s.game.position().to_string())
            .collect()
    }

    /// Plays `actions[i]` (0 = pass, k = hole k) in game `i`, with the GIL
    /// released, and returns `(observations, action_masks, rewards,
    /// terminated, truncated)`: rewards `(n, 2)` float32 for South and North
    /// (+1 win, -1 loss, 0 otherwise), flags `(n,)` bool. A finished game is
    /// reset at once: its row of observations and mask is the new game's,
    /// and `final_captures()` gives the captures it ended with. Raises
    /// `ValueError` for an illegal action, naming the first such game.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray2<bool>>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let n = self.slots.len();
        let actions = actions.as_slice()?;
        if actions.len() != n {
            return Err(PyValueError::new_err(format!(
                "{} actions for {n} games",
                actions.len()
            )));
        }
        // Every action is checked before any game moves: an illegal one
        // leaves the batch as it was.
        for (i, (slot, &action)) in self.slots.iter().zip(actions).enumerate() {
            check_action(slot, action)
                .map_err(|e| PyValueError::new_err(format!("game {i}: {e}")))?;
        }
        let (w, m) = (observation_len(self.holes()), self.holes() + 1);
        let obs = PyArray2::<f32>::zeros(py, [n, w], false);
        let mask = PyArray2::<bool>::zeros(py, [n, m], false);
        let rewards = PyArray2::<f32>::zeros(py, [n, 2], false);
        let terminated = PyArray1::<bool>::zeros(py, n, false);
        let truncated = PyArray1::<bool>::zeros(py, n, false);
        // SAFETY: the arrays were just created here, are contiguous and are
        // not visible to Python until this function returns.
        let rows = unsafe {
            Rows {
                w,
                m,
                obs: obs.as_slice_mut().expect("contiguous"),
                mask: mask.as_slice_mut().expect("contiguous"),
                rewards: rewards.as_slice_mut().expect("contiguous"),
                terminated: terminated.as_slice_mut().expect("contiguous"),
                truncated: truncated.as_slice_mut().expect("contiguous"),
                finals: &mut [],
            }
        };
        let mut finals = std::mem::take(&mut self.last_final);
        finals.resize(2 * n, 0);
        py.allow_threads(|| {
            self.run(|slots, rngs, setup| {
                let rows = Rows {
                    finals: &mut finals,
                    ..rows
                };
                if rayon::current_thread_index().is_some() {
                    step_parallel(slots, rngs, actions, setup, rows, 64);
                } else {
                    step_run(slots, rngs, actions, setup, rows);
                }
            })
        });
        self.last_final = finals;
        Ok((obs, mask, rewards, terminated, truncated))
    }

    /// `(n, 2)` uint8: the final captures of the games that ended at the
    /// last step (South, North); zeros elsewhere.
    fn final_captures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let n = self.slots.len();
        let v = if self.last_final.len() == 2 * n {
            self.last_final.clone()
        } else {
            vec![0; 2 * n]
        };
        PyArray1::from_vec(py, v).reshape([n, 2])
    }
}

impl PyVectorGame {
    fn make_slots(&mut self) {
        let n = self.requested;
        let seed = self.seed;
        self.last_final.clear();
        let (slots, rngs) = self.run(|_, _, setup| {
            let make = |i: usize| {
                let mut rng = rng_from_seed(game_seed(seed, i as u64));
                (Slot::new(setup, &mut rng), rng)
            };
            if rayon::current_thread_index().is_some() {
                (0..n).into_par_iter().map(make).unzip()
            } else {
                (0..n).map(make).unzip()
            }
        });
        self.slots = slots;
        self.rngs = rngs;
    }
}
