//! The memory, disk and time a start solve needs: the bytes per position in
//! and out of core, the measured sizes of the standard starts, the estimates
//! made from them, and the checks that refuse a solve beyond its budget
//! before it is made ([`StartSolve::check_known`](super::StartSolve::check_known))
//! or as soon as it grows beyond it ([`Growth`]), with the shares of the
//! budget an out-of-core closure gives its lists ([`Allowance`]).

use std::time::Instant;

use super::error::StartError;
use crate::engine::rules::Variant;

/// Bytes a solved position holds in memory: key, value, settling sweep,
/// lookup bucket.
pub const BYTES_PER_POSITION: u64 = 12;
/// Bytes per position of the layer being closed (hash set at its largest,
/// work stack) or solved (successor lists, exits, values), on top.
pub const BYTES_PER_WORKING_POSITION: u64 = 40;
/// Out of core (with a state directory), the bytes a position keeps in
/// memory: its share of the lookup buckets; key, value and settling sweep
/// are mapped from disk.
pub const BYTES_PER_MAPPED_POSITION: u64 = 1;
/// Out of core, bytes per position of the largest layer in memory: the
/// backward pass's arrays (exit value, successor count, two value buffers,
/// settling sweep, two change bitmaps: 6.25 bytes; the successor lists are in
/// a scratch file), with room for the forward closure, whose lists spill to
/// scratch files beyond the share of the budget they are given.
pub const BYTES_PER_MAPPED_WORKING_POSITION: u64 = 12;
/// Bytes of state files per position: key 8, value 1, settling sweep 2.
pub const DISK_BYTES_PER_POSITION: u64 = 11;
/// Out of core, scratch disk per position of the largest layer at the most:
/// runs of the keys waiting for smaller layers, the layer's own runs and its
/// successor lists. The tighter the budget, the more runs, and the more
/// repeated keys among them: I 2x6 peaked at 20 bytes under a 300 MB
/// budget and at 23 under 210 MB, near its least (measured 2026-12-03).
pub const SCRATCH_BYTES_PER_WORKING_POSITION: u64 = 32;
/// Positions the forward closure and the backward pass handle per second on
/// one core (I 2x6: 46.8 million positions in 186 s, measured 2026-12-03).
pub const POSITIONS_PER_SECOND: f64 = 250_000.0;
/// Memory an out-of-core closure may use for its lists where no budget is
/// given.
pub(super) const DEFAULT_WORKING_BYTES: u64 = 1 << 30;
/// How often (new positions) a closure checks its growth against the budget.
pub(super) const CHECK_EVERY: usize = 1 << 22;

/// Reachable positions (mirror images merged) of standard starts, measured
/// by this solver: the memory check refuses a start known to be too large
/// before anything is done.
pub const KNOWN_STARTS: &[(Variant, u8, u64, u64)] = &[
    // variant, holes, positions in all, positions of the largest layer
    (Variant::I, 3, 358, 251),
    (Variant::Ii, 3, 97_573, 40_201),
    (Variant::Iii, 3, 99_887, 41_608),
    (Variant::I, 4, 4_400, 2_903),
    (Variant::Ii, 4, 16_939_897, 7_168_081),
    (Variant::Iii, 4, 17_117_190, 7_168_081),
    (Variant::I, 5, 1_361_935, 423_853),
    (Variant::I, 6, 46_794_258, 13_516_838),
];

/// The memory a solve in memory of `positions` positions, `largest` in one
/// layer, needs.
pub fn memory_needed(positions: u64, largest: u64) -> u64 {
    positions
        .saturating_mul(BYTES_PER_POSITION)
        .saturating_add(largest.saturating_mul(BYTES_PER_WORKING_POSITION))
}

/// The memory an out-of-core solve (with a state directory) of `positions`
/// positions, `largest` in one layer, needs: mapped layers count as disk.
pub fn memory_needed_mapped(positions: u64, largest: u64) -> u64 {
    positions
        .saturating_mul(BYTES_PER_MAPPED_POSITION)
        .saturating_add(largest.saturating_mul(BYTES_PER_MAPPED_WORKING_POSITION))
}

/// The disk an out-of-core solve of `positions` positions, `largest` in one
/// layer, needs: its state files and, at the most, its scratch files.
pub fn disk_needed_mapped(positions: u64, largest: u64) -> u64 {
    positions
        .saturating_mul(DISK_BYTES_PER_POSITION)
        .saturating_add(largest.saturating_mul(SCRATCH_BYTES_PER_WORKING_POSITION))
}

/// What an out-of-core closure may keep in memory before it spills: keys
/// waiting for smaller layers, its work stack, and the keys it found beyond
/// those its closure started from (a hash set: about 21 bytes a key, 31
/// while it grows, plus 8 to sort it).
#[derive(Debug, Clone, Copy)]
pub(super) struct Allowance {
    pub(super) pending_keys: usize,
    pub(super) stack_keys: usize,
    pub(super) fresh_keys: usize,
}

impl Allowance {
    /// Shares of `bytes`: a quarter for pending keys (and a Vec's doubling
    /// past it), a sixteenth for the stack (doubling to an eighth), half for
    /// the found keys.
    pub(super) fn new(bytes: u64) -> Allowance {
        let floor = 1 << 12;
        let keys = |b: u64| (b as usize).max(floor);
        Allowance {
            pending_keys: keys(bytes / 4 / 8),
            stack_keys: keys(bytes / 16 / 8),
            fresh_keys: keys(bytes / 2 / 32),
        }
    }
}

/// What the forward pass has found so far, to check against the budget.
pub(super) struct Growth {
    pub(super) budget: Option<u64>,
    /// Positions of the closed layers.
    pub(super) found: u64,
    /// Positions of the largest closed layer.
    pub(super) largest: u64,
    pub(super) clock: Instant,
}

impl Growth {
    /// Refuses an out-of-core solve that has grown beyond the budget, the
    /// layer of `k` seeds having `layer` positions so far.
    pub(super) fn check_mapped(
        &self,
        k: usize,
        layer: u64,
        growing: bool,
    ) -> Result<(), StartError> {
        let Some(budget) = self.budget else {
            return Ok(());
        };
        let positions = self.found + layer;
        let largest = self.largest.max(layer);
        let needed = memory_needed_mapped(positions, largest);
        if needed <= budget {
            return Ok(());
        }
        let secs = self.clock.elapsed().as_secs_f64();
        let so_far = if growing {
            format!(
                " (at least: {positions} positions found in {secs:.0} s, \
                 the layer of {k} seeds still growing)"
            )
        } else {
            format!(" (at least: {positions} positions found in {secs:.0} s)")
        };
        Err(not_enough(needed, budget, positions, largest, so_far, true))
    }
}

/// The memory an out-of-core closure may give its lists: what the budget
/// leaves beside `held`, the memory already held.
pub(super) fn working_bytes(budget: Option<u64>, held: u64) -> u64 {
    budget.map_or(DEFAULT_WORKING_BYTES, |b| b.saturating_sub(held))
}

/// The refusal of a solve that needs `needed` bytes of memory with `budget`
/// given, with its estimates and, in memory, what out of core would need.
pub(super) fn not_enough(
    needed: u64,
    budget: u64,
    positions: u64,
    largest: u64,
    so_far: String,
    out_of_core: bool,
) -> StartError {
    let mb = |bytes: u64| bytes.div_ceil(1 << 20);
    let (disk, advice, mode) = if out_of_core {
        (
            disk_needed_mapped(positions, largest),
            "raise --memory, or solve a smaller board".to_string(),
            "out of core ",
        )
    } else {
        (
            positions.saturating_mul(DISK_BYTES_PER_POSITION),
            format!(
                "raise --memory, or solve it out of core: --state DIR solves it with its \
                 layers memory-mapped from DIR, with about {} MB of memory and {} MB of disk",
                mb(memory_needed_mapped(positions, largest)),
                mb(disk_needed_mapped(positions, largest))
            ),
            "",
        )
    };
    StartError::NotEnoughMemory {
        needed_mb: mb(needed),
        budget_mb: budget >> 20,
        positions,
        disk_mb: mb(disk),
        hours: positions as f64 / POSITIONS_PER_SECOND / 3600.0,
        so_far,
        mode,
        advice,
    }
}
