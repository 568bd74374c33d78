//! `hoyito.VectorGame`: `n` games stepped at once in Rust with the GIL
//! released, numpy arrays in and out, for learners that want millions of
//! plies a second.
//!
//! The games are the library's [`Batch`] (`src/batch/`): positions moved by
//! the engine's own moves, the stall rules kept as [`hoyito::Game`] keeps
//! them, legal actions decided a block of games at once, automatic reset,
//! and openings drawn from each game's own generator (seeded from the
//! master seed and the game's index), so that a batch replays the same
//! whatever the thread count. This file turns its rows into numpy arrays.

use hoyito::batch::{observation_len, Batch, BatchError, StepRows};
use hoyito::tournament::MAX_THREADS;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::rules::{rules, value_error};

/// `n` games stepped together.
#[pyclass(module = "hoyito._hoyito", name = "VectorGame")]
pub struct PyVectorGame {
    batch: Batch,
    /// The final captures of the games that ended at the last step (South,
    /// North; zeros elsewhere), or empty before the first step.
    last_final: Vec<u8>,
    pool: Option<rayon::ThreadPool>,
}

type Arrays<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<i8>>);

/// The bytes of an int8 mask array as the `bool`s that the batch writes:
/// the masks are int8, as Gymnasium's and PettingZoo's are, at no cost.
///
/// # Safety
/// Every byte of `bytes` is 0 or 1 (a new zeroed array's are): a `bool` and
/// an `i8` are one byte each, and the batch writes only `false` (0) and
/// `true` (1).
unsafe fn as_bools(bytes: &mut [i8]) -> &mut [bool] {
    std::slice::from_raw_parts_mut(bytes.as_mut_ptr().cast::<bool>(), bytes.len())
}

/// The actions of a step as `int64`s, from a one-dimensional numpy array
/// of integers of any width; else a `TypeError` naming what was given.
fn action_vector(actions: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<i64>> {
    let wrong = |what: String| {
        PyTypeError::new_err(format!(
            "actions must be a one-dimensional numpy array of {n} integers \
             (0 = pass, k = hole k), not {what}"
        ))
    };
    let Ok(array) = actions.downcast::<PyUntypedArray>() else {
        return Err(wrong(format!("a {}", actions.get_type().name()?)));
    };
    let dtype = array.dtype();
    let kind = dtype.getattr("kind")?.extract::<char>()?;
    if array.ndim() != 1 || !matches!(kind, 'i' | 'u') {
        return Err(wrong(format!(
            "an array of dtype {dtype} and shape {:?}",
            array.shape()
        )));
    }
    // `copy=False`: an int64 array (what numpy's `argmax` gives) is not
    // copied here, only once below.
    let kwargs = PyDict::new(actions.py());
    kwargs.set_item("copy", false)?;
    let array = actions.call_method("astype", ("int64",), Some(&kwargs))?;
    let array = array.downcast::<PyArray1<i64>>()?.readonly();
    Ok(array.as_array().iter().copied().collect())
}

impl PyVectorGame {
    fn holes(&self) -> usize {
        usize::from(self.batch.rules().holes)
    }

    /// Runs `f` on the batch's thread pool, or on this thread.
    fn run<R: Send>(&mut self, f: impl FnOnce(&mut Batch) -> R + Send) -> R {
        let batch = &mut self.batch;
        match &self.pool {
            Some(pool) => pool.install(|| f(batch)),
            None => f(batch),
        }
    }

    fn observe<'py>(&self, py: Python<'py>) -> Arrays<'py> {
        let n = self.batch.len();
        let (w, m) = (observation_len(self.holes()), self.holes() + 1);
        let obs = PyArray2::<f32>::zeros(py, [n, w], false);
        let mask = PyArray2::<i8>::zeros(py, [n, m], false);
        // SAFETY: both arrays were just created here, zeroed, are contiguous
        // and are not shared with Python yet.
        unsafe {
            self.batch.observe(
                obs.as_slice_mut().expect("a new array is contiguous"),
                as_bools(mask.as_slice_mut().expect("a new array is contiguous")),
            );
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
        if threads > MAX_THREADS {
            return Err(PyValueError::new_err(format!(
                "threads = {threads} is out of range: allowed 0 (every core) to {MAX_THREADS}"
            )));
        }
        let pool = match threads {
            1 => None,
            t => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .map_err(value_error)?,
            ),
        };
        let make = || Batch::new(rules, n, seed, opening_plies, max_plies);
        let batch = py
            .allow_threads(|| match &pool {
                Some(pool) => pool.install(make),
                None => make(),
            })
            .map_err(batch_error)?;
        Ok(PyVectorGame {
            batch,
            last_final: Vec::new(),
            pool,
        })
    }

    /// Number of games.
    fn __len__(&self) -> usize {
        self.batch.len()
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
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Arrays<'py>> {
        let seed = seed.unwrap_or(self.batch.seed());
        self.last_final.clear();
        py.allow_threads(|| self.run(|batch| batch.reset(seed)))
            .map_err(value_error)?;
        Ok(self.observe(py))
    }

    /// The current `(observations, action_masks)`.
    fn observe_all<'py>(&self, py: Python<'py>) -> Arrays<'py> {
        self.observe(py)
    }

    /// Who moves in each game: 0 South, 1 North (uint8).
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        let v: Vec<u8> = (0..self.batch.len())
            .map(|i| self.batch.position(i).side_to_move().index() as u8)
            .collect();
        PyArray1::from_vec(py, v)
    }

    /// The positions, in notation (for people and tests).
    fn notations(&self) -> Vec<String> {
        (0..self.batch.len())
            .map(|i| self.batch.position(i).to_string())
            .collect()
    }

    /// Plays `actions[i]` (0 = pass, k = hole k) in game `i`, with the GIL
    /// released, and returns `(observations, action_masks, rewards,
    /// terminated, truncated)`: masks `(n, holes + 1)` int8 (1 legal),
    /// rewards `(n, 2)` float32 for South and North (+1 win, -1 loss, 0
    /// otherwise), flags `(n,)` bool. A finished game is reset at once: its
    /// row of observations and mask is the new game's, and
    /// `final_captures()` gives the captures it ended with. Raises
    /// `ValueError` for an illegal action, naming the first such game.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray2<i8>>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let n = self.batch.len();
        // A copy: with the GIL released another Python thread could write
        // to the array while the games read it.
        let actions = action_vector(actions, n)?;
        let (w, m) = (observation_len(self.holes()), self.holes() + 1);
        let obs = PyArray2::<f32>::zeros(py, [n, w], false);
        let mask = PyArray2::<i8>::zeros(py, [n, m], false);
        let rewards = PyArray2::<f32>::zeros(py, [n, 2], false);
        let terminated = PyArray1::<bool>::zeros(py, n, false);
        let truncated = PyArray1::<bool>::zeros(py, n, false);
        let mut finals = std::mem::take(&mut self.last_final);
        finals.resize(2 * n, 0);
        // SAFETY: the arrays were just created here, zeroed, are contiguous
        // and are not visible to Python until this function returns.
        let rows = unsafe {
            StepRows {
                observations: obs.as_slice_mut().expect("contiguous"),
                masks: as_bools(mask.as_slice_mut().expect("contiguous")),
                rewards: rewards.as_slice_mut().expect("contiguous"),
                terminated: terminated.as_slice_mut().expect("contiguous"),
                truncated: truncated.as_slice_mut().expect("contiguous"),
                final_captures: &mut finals,
            }
        };
        // `Batch::step` checks every action before any game moves: an
        // illegal one leaves the batch as it was, and raises.
        let stepped = py.allow_threads(|| self.run(|batch| batch.step(&actions, rows)));
        self.last_final = finals;
        stepped.map_err(value_error)?;
        Ok((obs, mask, rewards, terminated, truncated))
    }

    /// `(n, 2)` uint8: the final captures of the games that ended at the
    /// last step (South, North); zeros elsewhere.
    fn final_captures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let n = self.batch.len();
        let v = if self.last_final.len() == 2 * n {
            self.last_final.clone()
        } else {
            vec![0; 2 * n]
        };
        PyArray1::from_vec(py, v).reshape([n, 2])
    }
}

/// A batch's error as Python's: `MemoryError` for a batch larger than the
/// memory left (raised before anything is allocated), `ValueError` else.
fn batch_error(err: BatchError) -> PyErr {
    match err {
        BatchError::Memory { .. } => PyMemoryError::new_err(err.to_string()),
        other => value_error(other),
    }
}
