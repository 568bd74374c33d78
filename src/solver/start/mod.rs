//! Exact value of a start position, over the positions reachable from it only.
//!
//! The full tables of [`crate::solver::Tablebase`] hold every board of a layer:
//! on 2x6 the layer of 48 seeds alone has 1.3 * 10^12 boards. From the standard
//! start far fewer are reachable (Hoyito I 2x6: 47 million in all), so this
//! module solves the start as Awari and Kalah solvers do when the full space
//! is out of reach: a forward closure of the positions reachable from the start,
//! layer by layer in the seeds on the board (a number that never grows), then
//! values backward, from the smallest layer up.
//!
//! - **Forward.** The start's layer is closed under the moves that capture
//!   nothing (they stay in the layer); a capture leads to a smaller layer,
//!   whose closure starts from every position that captures led to. Layers are
//!   closed from the top down, so a layer is complete when its turn comes.
//! - **Backward.** A layer's values follow from its own inner moves and the
//!   exact values of the smaller layers, by the same least-fixed-point iteration
//!   as [`crate::solver::retrograde`] (see its docs for why iterating negamax
//!   from zero is exact): `v(p) <- max over moves (exit value, or -v(child))`.
//!   Here the iteration is Jacobi (every sweep reads the last sweep's values),
//!   which makes `v` after sweep `t` the value of the game in which at most `t`
//!   inner plies are left before play stops at 0. The sweep at which a value
//!   became final is kept: a principal variation that only steps to children
//!   finalised in an earlier sweep makes progress, where a plain "any move of
//!   the same value" could cycle forever.
//!
//! As in the tables, a position with North to move is stored as its mirror
//! image (rows swapped) with South to move: the rules treat both sides alike.
//! A board is keyed by its rank in [`LayerIndex`](crate::solver::index::LayerIndex) order, so a layer is a sorted
//! array of keys; a key's index in that array is the position's number.
//!
//! **Out of core.** Without a state directory every layer lives in memory
//! (12 bytes a position, plus the working set of the largest layer). With
//! one, the solve is out of core: each finished layer is held memory-mapped
//! from its state file (see [`crate::solver::start::state`]), so only a
//! lookup bucket (under a byte a position) and the working set of the layer
//! being closed or solved stay in memory, and the kernel pages the rest
//! from disk. The working set is bounded too: the keys waiting for a smaller
//! layer's closure, the keys a closure finds beyond those and its work
//! stack spill to sorted runs in unlinked scratch files once they exceed
//! their share of the memory budget (lookups then search the runs as well),
//! and the backward pass keeps its successor lists in a scratch file, read
//! in order once a sweep. The values are the same in and out of core: the
//! same closure (found in another order) and the same iteration.
//!
//! Values and conventions are those of the tables: the capture margin still to
//! come for the side to move under perfect play, endless play worth nothing more
//! (the `none` leftover policy), the capturer taking the last seeds.
//!
//! The folder, top-down: [`StartSolve`] and what is read from it (`solve`),
//! the forward closure (`forward`), the backward pass (`backward`) and the
//! best play (`best_play`) that implement it; the reachable layers
//! (`layer`), the spilling lists of a closure (`spill`) and the memory
//! estimates and checks (`budget`); the error and the progress reports at
//! the bottom.

mod backward;
mod best_play;
mod budget;
mod error;
mod forward;
mod layer;
mod progress;
mod solve;
mod spill;
pub mod state;

pub use budget::{
    disk_needed_mapped, memory_needed, memory_needed_mapped, BYTES_PER_MAPPED_POSITION,
    BYTES_PER_MAPPED_WORKING_POSITION, BYTES_PER_POSITION, BYTES_PER_WORKING_POSITION,
    DISK_BYTES_PER_POSITION, KNOWN_STARTS, POSITIONS_PER_SECOND,
    SCRATCH_BYTES_PER_WORKING_POSITION,
};
pub use error::StartError;
pub use layer::ReachableLayer;
pub use progress::{LayerSolveStats, Progress, PROGRESS_EVERY};
pub use solve::{StartOptions, StartSolve};
