//! Where every random number of an experiment comes from.
//!
//! Results must be the same byte for byte whatever the thread count and however
//! often a run was interrupted, so no generator is shared between games: each
//! game's generator is built from the master seed and the game's identity alone.
//!
//! The derivation (stable; changing it changes every published result):
//! - `k`-th SplitMix64 output of a stream started at `master`:
//!   `splitmix64(master + (k + 1) * 0x9E3779B97F4A7C15)` (wrapping), where
//!   `splitmix64` is the finaliser of Steele, Lea & Flood 2014 ("Fast splittable
//!   pseudorandom number generators"), as in `java.util.SplittableRandom`;
//! - the seed of game `g` is output `2g`, the opening seed of pair `p` is output
//!   `2p + 1` (so the two never collide);
//! - a seed becomes a generator through `ChaCha8Rng::seed_from_u64(seed)`
//!   (rand_core's documented PCG32 expansion to a 32-byte key);
//! - an agent with a `seed` key draws on the game's generator moved to stream
//!   `stream ^ splitmix64(seed + 0x9E3779B97F4A7C15)` ([`with_own_stream`]).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The SplitMix64 increment (the golden ratio as a 64-bit fraction).
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function (a bijective 64-bit mixer).
const fn mix64(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The `k`-th output (from 0) of the SplitMix64 stream seeded with `master`.
pub(crate) const fn splitmix64_nth(master: u64, k: u64) -> u64 {
    mix64(master.wrapping_add(GAMMA.wrapping_mul(k.wrapping_add(1))))
}

/// Runs `draw` on the game's generator `rng` moved to a stream of its own,
/// the agent's `seed`: the same ChaCha key, at the same place, on the stream
/// `rng`'s XOR the SplitMix64 output of `seed` (never 0 for the seeds one
/// writes, so never the game's own stream). `rng` then moves on by as many
/// numbers as `draw` took, as if they had been its own.
///
/// So an agent with a seed draws other numbers than the same agent without
/// one, and another seed others again, each as reproducible as the game's
/// generator itself: built from the master seed and the game's identity
/// alone, whatever the thread count. An agent without a seed never calls
/// this, and draws exactly what it always drew.
pub(crate) fn with_own_stream<T>(
    rng: &mut ChaCha8Rng,
    seed: u64,
    draw: impl FnOnce(&mut ChaCha8Rng) -> T,
) -> T {
    let mut own = rng.clone();
    own.set_stream(rng.get_stream() ^ splitmix64_nth(seed, 0));
    let out = draw(&mut own);
    rng.set_word_pos(own.get_word_pos());
    out
}

/// The seed of game `game_id`'s generator (the agents' random choices).
pub fn game_seed(master: u64, game_id: u64) -> u64 {
    splitmix64_nth(master, game_id.wrapping_mul(2))
}

/// The seed of pair `pair_id`'s opening: both games of a pair play the same
/// random opening moves, seats swapped.
pub fn opening_seed(master: u64, pair_id: u64) -> u64 {
    splitmix64_nth(master, pair_id.wrapping_mul(2).wrapping_add(1))
}

/// The generator for a seed.
pub fn rng_from_seed(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn splitmix64_matches_the_reference_outputs() {
        // First outputs of SplitMix64 seeded with 0 (reference implementation).
        assert_eq!(splitmix64_nth(0, 0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64_nth(0, 1), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(splitmix64_nth(0, 2), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn game_and_opening_seeds_are_distinct_and_stable() {
        let mut seen = std::collections::HashSet::new();
        for id in 0..1000 {
            assert!(seen.insert(game_seed(42, id)));
            assert!(seen.insert(opening_seed(42, id)));
        }
        assert_eq!(game_seed(42, 7), game_seed(42, 7));
        assert_ne!(game_seed(42, 7), game_seed(43, 7));
        let a: u64 = rng_from_seed(5).random();
        let b: u64 = rng_from_seed(5).random();
        assert_eq!(a, b);
    }

    #[test]
    fn a_seed_draws_its_own_numbers_and_moves_the_generator_on() {
        let draws = |seed: Option<u64>| {
            let mut rng = ChaCha8Rng::seed_from_u64(9);
            let take = |rng: &mut ChaCha8Rng| (0..4).map(|_| rng.random::<u64>()).collect();
            let first: Vec<u64> = match seed {
                Some(seed) => with_own_stream(&mut rng, seed, take),
                None => take(&mut rng),
            };
            (first, rng.random::<u64>())
        };
        let (plain, after_plain) = draws(None);
        let (three, after_three) = draws(Some(3));
        let (four, _) = draws(Some(4));
        assert_ne!(plain, three);
        assert_ne!(three, four);
        assert_eq!(draws(Some(3)).0, three);
        // The game's generator moves on by what the agent drew, whatever the seed.
        assert_eq!(after_plain, after_three);
    }
}
