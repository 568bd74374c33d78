//! `hoyito._hoyito`: the native half of the `hoyito` Python package, a thin
//! binding over the library crate. The engine is not copied: every rule is
//! the library's, and this crate converts between Rust and Python, releases
//! the GIL around loops, and turns the engine's errors into Python ones.
//! The Python-side adapters (PettingZoo, Gymnasium, OpenSpiel) are pure
//! Python modules over this one.

mod agents;
mod callable_agent;
mod game;
mod harness;
mod observe;
mod reference;
mod rules;
mod vector;

use pyo3::prelude::*;

/// The native module.
#[pymodule]
fn _hoyito(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<game::PyGame>()?;
    m.add_class::<agents::PyTables>()?;
    m.add_class::<agents::PyAgent>()?;
    m.add_class::<vector::PyVectorGame>()?;
    m.add_function(wrap_pyfunction!(agents::roster, m)?)?;
    m.add_function(wrap_pyfunction!(reference::reference_games, m)?)?;
    m.add_function(wrap_pyfunction!(harness::run_experiment, m)?)?;
    m.add_function(wrap_pyfunction!(harness::default_agents_dir, m)?)?;
    m.add("PASS", 0u8)?;
    Ok(())
}
