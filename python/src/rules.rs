//! Rules and moves as Python passes them: a variant name, board numbers and
//! stall options become checked [`Rules`]; a move is an `int` (the hole
//! number `1..n` as RULES.md writes it, `0` for a pass) or its text.
//!
//! One numbering serves the game, the batched environments and the RL
//! adapters: action `k` of a `Discrete(n + 1)` space is the move `k`.

use hoyito::{Leftover, Move, Rules, StallRules, Variant};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A `ValueError` carrying `err`'s message, the engine's words.
pub fn value_error(err: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(err.to_string())
}

/// The variant named `name` (`"i"`, `"ii"`, `"iii"`, or `1`..`3` as text).
pub fn variant(name: &str) -> PyResult<Variant> {
    name.parse::<Variant>().map_err(value_error)
}

/// Checked rules for `variant` on `2 x holes` with `seeds` per hole and these
/// stall options (RULES.md, "Stalled games").
pub fn rules(
    variant_name: &str,
    holes: u32,
    seeds: u32,
    no_capture_limit: u32,
    repetitions: u32,
    leftover: &str,
) -> PyResult<Rules> {
    let stall = StallRules {
        no_capture_limit,
        repetitions,
        leftover: leftover.parse::<Leftover>().map_err(value_error)?,
    };
    stall.check_ends().map_err(value_error)?;
    let rules = Rules {
        stall,
        ..Rules::new(variant(variant_name)?)
    };
    rules.with_board(holes, seeds).map_err(value_error)
}

/// The Python number of a move: its hole `1..n`, or 0 for a pass.
pub fn move_number(mv: Move) -> u8 {
    match mv {
        Move::Sow(i) => i + 1,
        Move::Pass => 0,
    }
}

/// The move of a Python number (0 = pass); `None` beyond 16.
pub fn move_of_number(number: u8) -> Option<Move> {
    if number == 0 {
        Some(Move::Pass)
    } else {
        Move::hole(number)
    }
}

/// A move given as an `int` (`0` = pass) or as text (`"3"`, `"pass"`).
pub fn move_arg(value: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(number) = value.extract::<i64>() {
        return u8::try_from(number)
            .ok()
            .and_then(move_of_number)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "cannot read move {number}: expected a hole number 1..16, or 0 for a pass"
                ))
            });
    }
    if let Ok(text) = value.extract::<String>() {
        return text.trim().parse::<Move>().map_err(value_error);
    }
    Err(PyValueError::new_err(format!(
        "cannot read move {}: expected an int (hole number, 0 = pass) or a str",
        value.repr()?
    )))
}
