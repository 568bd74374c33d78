//! What a batch of games costs in memory, known before any of it is
//! allocated: a `VectorGame(10**8)` asked for 19 GB in one allocation, and
//! under `ulimit -v` the allocator's failure aborted the Python interpreter.
//! A batch larger than the memory the process may still use (the least of
//! the machine's free memory, `ulimit -v` and the control group's limit,
//! as the solver reads them) is refused with its estimate instead.

use std::mem::size_of;

use rand_chacha::ChaCha8Rng;

use crate::engine::rules::Rules;
use crate::solver::memory::{memory_budget, MemoryBudget};

use super::observation::observation_len;
use super::{BatchError, Slot};

/// Plies a stretch holds when no rule bounds it: random games of every
/// board up to 2x16 rarely go longer without a capture, and a longer one
/// costs its own game a few hundred bytes, not the batch.
const UNBOUNDED_STRETCH: u64 = 256;

/// An upper bound of the bytes a batch of `rules` holds per game: the
/// larger of a reset's peak (it makes every game's slot and generator anew
/// beside the old ones) and a long run's (each game's stretch keeps the
/// room of its longest stretch, up to the no-capture limit, in a vector
/// that doubles), with a step's rows twice (the caller's arrays, which a
/// Python caller copies). Measured on II 2x6 with the stall record's
/// filter at 512 bits: 1,125 bytes a game at the peak of a reset of 10^6
/// games, where this gave 1,690; its 2,048 bits add 192 bytes a slot, and
/// this gives 1,882.
pub fn bytes_per_game(rules: &Rules) -> u64 {
    let holes = rules.holes as u64;
    let (slot, generator) = (size_of::<Slot>() as u64, size_of::<ChaCha8Rng>() as u64);
    let made = size_of::<(ChaCha8Rng, bool)>() as u64;
    let legal = size_of::<u32>() as u64;
    let reset = 2 * slot + generator + made + legal;
    let limit = match rules.stall.no_capture_limit {
        0 => UNBOUNDED_STRETCH,
        n => u64::from(n) + 1,
    };
    let run = slot + generator + legal + 4 * limit.next_power_of_two();
    let rows = 4 * observation_len(rules.holes as usize) as u64 + (holes + 1) + 4 * 2 + 1 + 1 + 2;
    reset.max(run) + 2 * rows
}

/// Refuses a batch of `games` games of `rules` (stepped on `threads`
/// threads) that needs more memory than the process may still use; `Ok`
/// where no limit can be read.
pub fn check_batch_memory(games: usize, rules: &Rules, threads: usize) -> Result<(), BatchError> {
    let per_game = bytes_per_game(rules);
    let needed = per_game.saturating_mul(games as u64);
    match memory_budget(threads.max(1)) {
        Some(MemoryBudget { bytes, source }) if needed > bytes => Err(BatchError::Memory {
            games,
            per_game,
            needed,
            available: bytes,
            limit: source.to_string(),
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Variant;

    #[test]
    fn the_estimate_grows_with_the_board_and_the_stall_limit() {
        let small = Rules::new(Variant::Ii);
        let big = Rules { holes: 12, ..small };
        assert!(bytes_per_game(&big) > bytes_per_game(&small));
        let mut loose = small;
        loose.stall.no_capture_limit = 2_000;
        assert!(bytes_per_game(&loose) > bytes_per_game(&small) + 4 * 1_000);
        // Above the 1,125 bytes a game measured at a reset's peak (II 2x6).
        assert!(bytes_per_game(&small) > 1_125);
    }

    #[test]
    fn a_batch_beyond_any_memory_is_refused_with_its_estimate() {
        let rules = Rules::new(Variant::Ii);
        // 2^60 games: more than any machine has, whatever limit is read.
        let games = 1usize << 60;
        if memory_budget(1).is_none() {
            return; // no limit readable here (not Linux): nothing is refused
        }
        let err = check_batch_memory(games, &rules, 1).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("bytes a game"), "{text}");
        assert!(matches!(err, BatchError::Memory { .. }));
        assert!(check_batch_memory(16, &rules, 1).is_ok());
    }
}
