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
use hoyito::{Game, Move, MoveList, Rules};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::observe::{legal_moves, observation_len, write_mask, write_observation};
use crate::rules::{move_of_number, rules};

/// One game of the batch.
#[derive(Clone)]
struct Slot {
    game: Game,
    legal: MoveList,
    rng: ChaCha8Rng,
}

/// The settings shared by every slot.
#[derive(Clone, Copy)]
struct Setup {
    rules: Rules,
    opening_plies: u32,
    max_plies: u32,
}

impl Slot {
    fn new(setup: &Setup, seed: u64, index: u64) -> Slot {
        let mut slot = Slot {
            game: Game::new(setup.rules),
            legal: MoveList::new(),
            rng: rng_from_seed(game_seed(seed, index)),
        };
        slot.reset(setup);
        slot
    }

    /// A new game after `opening_plies` uniformly random plies (again if the
    /// opening ends the game).
    fn reset(&mut self, setup: &Setup) {
        loop {
            self.game = Game::new(setup.rules);
            for _ in 0..setup.opening_plies {
                if self.game.is_over() {
                    break;
                }
                self.game.play_random(&mut self.rng);
            }
            if !self.game.is_over() {
                break;
            }
        }
        self.legal = legal_moves(self.game.position(), &setup.rules);
    }
}

/// What one step did to one game.
#[derive(Clone, Copy, Default)]
struct Stepped {
    rewards: [f32; 2],
    terminated: bool,
    truncated: bool,
    final_captures: [u8; 2],
}

/// Plays `action` in `slot` and resets a finished game.
fn step_slot(slot: &mut Slot, setup: &Setup, action: i64) -> Result<Stepped, String> {
    let mv = u8::try_from(action)
        .ok()
        .and_then(move_of_number)
        .filter(|mv| slot.legal.contains(mv))
        .ok_or_else(|| {
            let legal: Vec<String> = slot
                .legal
                .iter()
                .map(|m| action_of(*m).to_string())
                .collect();
            format!(
                "action {action} is not legal in {}: legal actions are {}",
                slot.game.position(),
                legal.join(", ")
            )
        })?;
    slot.game.play(mv).map_err(|err| err.to_string())?;
    let mut out = Stepped::default();
    if let Some(outcome) = slot.game.outcome() {
        if let Some(winner) = outcome.winner {
            out.rewards[winner.index()] = 1.0;
            out.rewards[winner.opponent().index()] = -1.0;
        }
        out.final_captures = [outcome.scores.south, outcome.scores.north];
        out.terminated = true;
    } else if setup.max_plies > 0 && slot.game.plies() >= setup.max_plies {
        let captures = slot.game.position().captures();
        out.final_captures = [captures.south, captures.north];
        out.truncated = true;
    }
    if out.terminated || out.truncated {
        slot.reset(setup);
    } else {
        slot.legal = legal_moves(slot.game.position(), &setup.rules);
    }
    Ok(out)
}

fn action_of(mv: Move) -> u8 {
    crate::rules::move_number(mv)
}

fn write_slot(slot: &Slot, obs: &mut [f32], mask: &mut [bool]) {
    write_observation(slot.game.position(), obs);
    write_mask(&slot.legal, mask);
}

/// `n` games stepped together.
#[pyclass(module = "hoyito._hoyito", name = "VectorGame")]
pub struct PyVectorGame {
    setup: Setup,
    seed: u64,
    slots: Vec<Slot>,
    /// Games asked for.
    requested: usize,
    /// The final captures of the games that ended at the last step.
    last_final: Vec<u8>,
    pool: Option<rayon::ThreadPool>,
}

type Arrays<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>);

impl PyVectorGame {
    fn holes(&self) -> usize {
        self.setup.rules.holes as usize
    }

    fn run<R: Send>(&mut self, f: impl FnOnce(&mut [Slot], &Setup) -> R + Send) -> R {
        let setup = self.setup;
        let slots = &mut self.slots;
        match &self.pool {
            Some(pool) => pool.install(|| f(slots, &setup)),
            None => f(slots, &setup),
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
        let (w, m) = (observation_len(self.holes()), self.holes() + 1);
        let obs = PyArray2::<f32>::zeros(py, [n, w], false);
        let mask = PyArray2::<bool>::zeros(py, [n, m], false);
        let rewards = PyArray2::<f32>::zeros(py, [n, 2], false);
        let terminated = PyArray1::<bool>::zeros(py, n, false);
        let truncated = PyArray1::<bool>::zeros(py, n, false);
        let actions = actions.to_vec();
        let stepped = py
            .allow_threads(|| {
                self.run(|slots, setup| {
                    let each = |(i, slot): (usize, &mut Slot)| {
                        step_slot(slot, setup, actions[i]).map_err(|e| format!("game {i}: {e}"))
                    };
                    if rayon::current_thread_index().is_some() {
                        slots
                            .par_iter_mut()
                            .enumerate()
                            .with_min_len(64)
                            .map(each)
                            .collect::<Result<Vec<Stepped>, String>>()
                    } else {
                        slots
                            .iter_mut()
                            .enumerate()
                            .map(each)
                            .collect::<Result<Vec<Stepped>, String>>()
                    }
                })
            })
            .map_err(PyValueError::new_err)?;
        // SAFETY: the arrays were just created here, are contiguous and are
        // not visible to Python until this function returns.
        let (obs_s, mask_s, rew_s, term_s, trunc_s) = unsafe {
            (
                obs.as_slice_mut().expect("contiguous"),
                mask.as_slice_mut().expect("contiguous"),
                rewards.as_slice_mut().expect("contiguous"),
                terminated.as_slice_mut().expect("contiguous"),
                truncated.as_slice_mut().expect("contiguous"),
            )
        };
        self.last_final.clear();
        for (i, (slot, s)) in self.slots.iter().zip(&stepped).enumerate() {
            write_slot(
                slot,
                &mut obs_s[i * w..(i + 1) * w],
                &mut mask_s[i * m..(i + 1) * m],
            );
            rew_s[2 * i..2 * i + 2].copy_from_slice(&s.rewards);
            term_s[i] = s.terminated;
            trunc_s[i] = s.truncated;
            self.last_final.extend_from_slice(&s.final_captures);
        }
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
        self.slots = self.run(|_, setup| {
            let make = |i: usize| Slot::new(setup, seed, i as u64);
            if rayon::current_thread_index().is_some() {
                (0..n).into_par_iter().map(make).collect()
            } else {
                (0..n).map(make).collect()
            }
        });
    }
}
