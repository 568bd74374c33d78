//! The engine's own play of seeded random games, for the test that holds
//! the Python API to the engine: the same move choices (a shared stream of
//! random numbers, move `choices[k] % len(legal moves)` at the `k`-th ply
//! of the batch) played here in Rust and in Python through `hoyito.Game`
//! must give the same moves, captures and results.

use hoyito::{Game, Side};
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::rules::{move_number, rules};

/// Plays `games` games of `variant` on `2 x holes` in Rust, the move of the
/// `k`-th ply of the batch being legal move `choices[k] % count`. Returns a
/// dict of numpy arrays: per ply `moves`, `south`, `north` (captures after
/// it); per game `plies`, `score_south`, `score_north`, `winner` (0, 1, or
/// 2 for a draw) and `ending` (names, a list).
#[pyfunction]
#[pyo3(signature = (variant, holes, seeds, games, choices))]
pub fn reference_games<'py>(
    py: Python<'py>,
    variant: &str,
    holes: u32,
    seeds: u32,
    games: usize,
    choices: PyReadonlyArray1<'py, u32>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules(variant, holes, seeds, 200, 3, "none")?;
    let choices = choices.as_slice()?.to_vec();
    let played = py.allow_threads(|| {
        let mut out = Played::default();
        let mut k = 0;
        for _ in 0..games {
            let mut game = Game::new(rules);
            while !game.is_over() {
                let legal = game.legal_moves();
                let Some(&r) = choices.get(k) else {
                    return Err("the choices ran out".to_string());
                };
                k += 1;
                let mv = legal[r as usize % legal.len()];
                game.play(mv).map_err(|e| e.to_string())?;
                let c = game.position().captures();
                out.moves.push(move_number(mv));
                out.south.push(c.south);
                out.north.push(c.north);
            }
            let outcome = game.outcome().expect("the loop ends when the game is over");
            out.plies.push(outcome.plies);
            out.score_south.push(outcome.scores.south);
            out.score_north.push(outcome.scores.north);
            out.winner.push(match outcome.winner {
                Some(Side::South) => 0,
                Some(Side::North) => 1,
                None => 2,
            });
            out.ending.push(outcome.ending.name());
        }
        Ok(out)
    });
    let played = played.map_err(PyValueError::new_err)?;
    let d = PyDict::new(py);
    d.set_item("moves", PyArray1::from_vec(py, played.moves))?;
    d.set_item("south", PyArray1::from_vec(py, played.south))?;
    d.set_item("north", PyArray1::from_vec(py, played.north))?;
    d.set_item("plies", PyArray1::from_vec(py, played.plies))?;
    d.set_item("score_south", PyArray1::from_vec(py, played.score_south))?;
    d.set_item("score_north", PyArray1::from_vec(py, played.score_north))?;
    d.set_item("winner", PyArray1::from_vec(py, played.winner))?;
    d.set_item("ending", played.ending)?;
    Ok(d)
}

/// The record of a batch of games.
#[derive(Default)]
struct Played {
    moves: Vec<u8>,
    south: Vec<u8>,
    north: Vec<u8>,
    plies: Vec<u32>,
    score_south: Vec<u8>,
    score_north: Vec<u8>,
    winner: Vec<u8>,
    ending: Vec<&'static str>,
}
