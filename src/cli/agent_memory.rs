//! The memory check of `run`, for the commands that build agents outside a
//! run: `best`, `play`, `book` and `tune`.
//!
//! `run` refuses agents whose tables or trees cannot fit in the memory left
//! (`hoyito::tournament::check_resources`); these commands build them
//! outside a run, and without this check an alpha-beta agent with `tt_mb =
//! 4096` or an MCTS agent of ten million iterations aborts under `ulimit -v`
//! ("memory allocation failed", exit 134) instead of saying why.
//! The estimate is the agents' own ([`AgentSpec::memory_per_instance`]), the
//! limit the smallest of the machine's free memory, the address-space limit
//! and the control group's limit (`hoyito::solver::memory`), and the error
//! the one `run` gives.

use hoyito::solver::memory::memory_budget;
use hoyito::tournament::ResourceError;
use hoyito::AgentSpec;

/// Checks that `agents` (each spec with the instances of it that one thread
/// holds at once) fit in memory on 2x`holes`, once per thread of `threads`;
/// `what` names them in the error (`agent X on 2x6`). Passes where no limit
/// can be read.
pub fn check_agents_memory(
    what: &str,
    agents: &[(&AgentSpec, u64)],
    holes: u8,
    threads: usize,
) -> Result<(), ResourceError> {
    let per_thread = agents.iter().fold(0u64, |sum, &(spec, instances)| {
        sum.saturating_add(spec.memory_per_instance(holes).saturating_mul(instances))
    });
    let threads = threads.max(1);
    let Some(budget) = memory_budget(threads) else {
        return Ok(());
    };
    if per_thread.saturating_mul(threads as u64) <= budget.bytes {
        return Ok(());
    }
    Err(ResourceError::Memory {
        pairing: format!("{what} on 2x{holes}"),
        per_thread,
        threads,
        available: budget.bytes,
        limit: budget.source,
    })
}
