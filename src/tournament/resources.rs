//! What a run needs from the machine, checked before the results directory
//! is touched: the worker threads can be started, the agents' memory fits in
//! what is available, and the records fit on the disk.
//!
//! A run that cannot finish should not start: `games = 1e18` would write
//! for days before the disk fills, and an MCTS agent of ten million
//! iterations per thread would be killed by the kernel after its first games.
//! The estimates are deliberately on the low side for the disk (a run is
//! refused only when it certainly does not fit) and an upper bound for
//! memory (an agent's tree at its largest), and each error states them.

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::agents::spec::AgentSpec;
use crate::solver::memory::{memory_budget, MemorySource};

use super::config::experiment::Experiment;
use crate::records::run_files::GAMES_FILE;

/// `moves.csv`, beside `games.csv`.
const MOVES_FILE: &str = "moves.csv";

/// Bytes of a `games.csv` row besides the two agent names, at least: the
/// numbers, the setting, the ending and the moves hash (measured: 88 bytes
/// on 2x2 to 117 on 2x16 with names of 6 letters each).
const GAMES_ROW_BYTES: u64 = 60;

/// Why a run cannot start on this machine.
#[derive(Debug, Error)]
pub enum ResourceError {
    /// The thread pool cannot be built.
    #[error("cannot start {threads} worker threads: {cause}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// Why not.
        cause: rayon::ThreadPoolBuildError,
    },
    /// The records would not fit on the disk.
    #[error(
        "{games} games would write about {} into {} (games.csv and moves.csv, at least), but \
         only {} is free on its file system: play fewer games{}",
        human(*estimate),
        dir.display(),
        human(*free),
        if *moves { ", or set `[record] moves = false`" } else { "" }
    )]
    Disk {
        /// The results directory.
        dir: PathBuf,
        /// Games left to play.
        games: u64,
        /// Bytes still to write, estimated.
        estimate: u64,
        /// Bytes free for this user.
        free: u64,
        /// Whether `moves.csv` is written.
        moves: bool,
    },
    /// The agents would not fit in memory.
    #[error(
        "{pairing} may hold up to {} per game, {} with {threads} threads, but only {} is \
         available ({limit}): lower the agents' iterations or use fewer threads",
        human(*per_thread),
        human(per_thread.saturating_mul(*threads as u64)),
        human(*available)
    )]
    Memory {
        /// The agents of the most demanding game, `A vs B on 2xN`.
        pairing: String,
        /// Bytes held by the two agents of one game.
        per_thread: u64,
        /// Worker threads, each playing one game at a time.
        threads: usize,
        /// Bytes available.
        available: u64,
        /// The limit that sets them.
        limit: MemorySource,
    },
}

/// The worker threads a run uses: `threads`, or all cores for 0.
pub fn worker_threads(threads: usize) -> usize {
    match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// The deepest alpha-beta search without a `nodes` or `time_ms` budget that
/// starts without a warning: the roster's `alphabeta-d16` takes about a third
/// of a second a move on 2x6, and every further ply multiplies that.
pub const DEEPEST_UNBUDGETED_SEARCH: u32 = 16;

/// Checks that `experiment`, with `total` games planned in all, can run into
/// `out`: its worker threads start, its agents fit in memory, and its records
/// fit on the disk (the bytes already in `out`'s `games.csv` and `moves.csv`
/// count as written). Call after [`Experiment::resolve_agents`]. Returns
/// warnings about what can run but may not finish in reasonable time.
pub fn check_resources(
    experiment: &Experiment,
    out: &Path,
    total: u64,
) -> Result<Vec<String>, ResourceError> {
    let threads = worker_threads(experiment.threads);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|cause| ResourceError::Threads { threads, cause })?;
    check_memory(experiment, threads)?;
    check_disk(experiment, out, total)?;
    Ok(slow_agents(experiment))
}

/// A warning for each alpha-beta agent that searches deeper than
/// [`DEEPEST_UNBUDGETED_SEARCH`] with no node or time budget.
fn slow_agents(experiment: &Experiment) -> Vec<String> {
    experiment
        .agent_specs()
        .into_iter()
        .filter_map(|(name, spec)| match spec {
            AgentSpec::Alphabeta {
                depth: Some(depth),
                nodes: None,
                time_ms: None,
                ..
            } if depth > DEEPEST_UNBUDGETED_SEARCH => Some(format!(
                "agent {name} searches to depth {depth} with no `nodes` or `time_ms` budget: \
                 depth {DEEPEST_UNBUDGETED_SEARCH} takes about a third of a second a move on \
                 2x6 and each further ply multiplies that, so its moves may take hours"
            )),
            _ => None,
        })
        .collect()
}

/// The two agents of one game together must fit, once per thread.
fn check_memory(experiment: &Experiment, threads: usize) -> Result<(), ResourceError> {
    let specs = experiment.agent_specs();
    let Some(&holes) = experiment.rules.holes.iter().max() else {
        return Ok(());
    };
    let holes = holes as u8;
    let Some((per_thread, (a, b))) = experiment
        .tournament
        .pairings()
        .into_iter()
        .map(|(a, b)| {
            let bytes =
                specs[a].1.memory_per_instance(holes) + specs[b].1.memory_per_instance(holes);
            (bytes, (a, b))
        })
        .max_by_key(|&(bytes, _)| bytes)
    else {
        return Ok(());
    };
    let Some(budget) = memory_budget(threads) else {
        return Ok(());
    };
    if per_thread.saturating_mul(threads as u64) <= budget.bytes {
        return Ok(());
    }
    Err(ResourceError::Memory {
        pairing: format!("{} vs {} on 2x{holes}", specs[a].0, specs[b].0),
        per_thread,
        threads,
        available: budget.bytes,
        limit: budget.source,
    })
}

/// A lower estimate of the bytes one game adds to the records on 2x`holes`
/// with `seeds` per hole, for agents whose names take `names` bytes: the
/// `games.csv` row, and the `moves.csv` row when moves are recorded (a game
/// lasts at least about `holes x seeds / 2` plies of at least 2 bytes each;
/// measured averages are 2 to 15 times that, 98 bytes on 2x6 with 3 seeds).
pub fn bytes_per_game(holes: u32, seeds: u32, names: u64, moves: bool) -> u64 {
    let games_row = GAMES_ROW_BYTES + names;
    let moves_row = if moves {
        u64::from(holes) * u64::from(seeds) + 4
    } else {
        0
    };
    games_row + moves_row
}

fn check_disk(experiment: &Experiment, out: &Path, total: u64) -> Result<(), ResourceError> {
    let holes = &experiment.rules.holes;
    let moves = experiment.record.moves;
    let agents = &experiment.tournament.agents;
    let names = experiment
        .tournament
        .pairings()
        .iter()
        .map(|&(a, b)| (agents[a].len() + agents[b].len()) as u64)
        .min()
        .unwrap_or(0);
    let per_board = u128::from(total) / holes.len().max(1) as u128;
    let estimate: u128 = holes
        .iter()
        .map(|&h| per_board * u128::from(bytes_per_game(h, experiment.rules.seeds, names, moves)))
        .sum();
    let written: u64 = [GAMES_FILE, MOVES_FILE]
        .iter()
        .filter_map(|name| std::fs::metadata(out.join(name)).ok())
        .map(|meta| meta.len())
        .sum();
    let estimate = u64::try_from(estimate)
        .unwrap_or(u64::MAX)
        .saturating_sub(written);
    let Some(free) = free_bytes(&existing_ancestor(out)) else {
        return Ok(());
    };
    if estimate <= free {
        return Ok(());
    }
    Err(ResourceError::Disk {
        dir: out.to_path_buf(),
        games: total,
        estimate,
        free,
        moves,
    })
}

/// `path` or the nearest of its parents that exists (`.` for a relative path
/// none of whose parents exists).
fn existing_ancestor(path: &Path) -> PathBuf {
    path.ancestors()
        .find(|p| !p.as_os_str().is_empty() && p.exists())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Bytes free for an unprivileged user on the file system of `dir`
/// (statvfs(3): `f_bavail` blocks of `f_frsize` bytes); `None` if unknown.
#[cfg(unix)]
pub fn free_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: `statvfs` is plain data, for which all zeros is a valid value.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `path` is a NUL-terminated string and `stat` a valid, writable
    // `statvfs` that outlives the call.
    let rc = unsafe { libc::statvfs(path.as_ptr(), &mut stat) };
    #[allow(clippy::unnecessary_cast)] // the field types differ between platforms
    (rc == 0).then(|| (stat.f_bavail as u64).saturating_mul(stat.f_frsize as u64))
}

/// Bytes free on the file system of `dir`: unknown off Unix.
#[cfg(not(unix))]
pub fn free_bytes(_dir: &Path) -> Option<u64> {
    None
}

/// `1.5 GiB`: bytes in binary units, three significant figures.
fn human(bytes: u64) -> String {
    const UNITS: [&str; 7] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    match unit {
        0 => format!("{bytes} bytes"),
        _ if value < 10.0 => format!("{value:.2} {}", UNITS[unit]),
        _ if value < 100.0 => format!("{value:.1} {}", UNITS[unit]),
        _ => format!("{value:.0} {}", UNITS[unit]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_binary_units() {
        assert_eq!(human(0), "0 bytes");
        assert_eq!(human(1023), "1023 bytes");
        assert_eq!(human(1536), "1.50 KiB");
        assert_eq!(human(15 << 20), "15.0 MiB");
        assert_eq!(human(900 << 30), "900 GiB");
        assert_eq!(human(u64::MAX), "16.0 EiB");
    }

    #[test]
    fn a_game_writes_its_row_and_its_moves() {
        // 60 + 12 for the names, then 6 x 4 + 4 for the moves.
        assert_eq!(bytes_per_game(6, 4, 12, true), 72 + 28);
        assert_eq!(bytes_per_game(6, 4, 12, false), 72);
    }

    #[test]
    fn the_free_space_is_read_from_an_existing_parent() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("a/b/c");
        assert_eq!(existing_ancestor(&missing), dir.path());
        assert_eq!(
            existing_ancestor(Path::new("no-such-dir/x")),
            Path::new(".")
        );
        assert!(free_bytes(dir.path()).is_some_and(|free| free > 0));
    }
}
