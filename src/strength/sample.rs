//! Positions drawn at random from the tables' index.
//!
//! "At random" means: uniformly over every position the tables hold with
//! `min_seeds..=max_seeds` seeds on the board (every board of those layers,
//! either side to move, captures 0-0), conditioned on the side to move having
//! at least [`MIN_CHOICES`] legal moves. Each draw picks an index uniformly in
//! `0..total` over the concatenated layers (South to move then North, boards
//! in the rank order of [`LayerIndex`]), unranks it, and is redrawn when the
//! position offers no choice (rejection sampling keeps the distribution
//! uniform over the positions that do). Draws are independent, with
//! replacement: on 2x6 from 2 to 16 seeds there are 60,843,484 positions,
//! so 2,000 draws repeat one with probability about 3%, and independence keeps
//! the intervals of [`crate::strength::score`] simple.
//!
//! Why uniform over positions rather than over seed counts first: the share
//! of best moves then estimates one well-defined number, the share of the
//! table's positions (with a choice) where the agent plays perfectly. Larger
//! layers weigh more (on 2x6 the 16-seed layer is 43% of the positions up to
//! 16 seeds), which is right for a test of middle-game skill: small layers are
//! simple endings that every search solves. The per-layer figures can be read
//! off the per-position CSV of [`crate::strength::output`].
//!
//! The draws depend only on the seed and the spec: the generator is
//! `ChaCha8Rng::seed_from_u64(seed)` ([`crate::tournament::rng_from_seed`]),
//! used by one thread, before any agent plays.

use rand::Rng;

use crate::engine::position::Position;
use crate::engine::rules::Rules;
use crate::engine::seeding::rng_from_seed;
use crate::engine::side::Side;
use crate::solver::index::LayerIndex;
use crate::strength::{StrengthError, MIN_CHOICES};

/// Which positions to draw, and how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SampleSpec {
    /// Fewest seeds on the board (at least 2: fewer offer no choice).
    pub min_seeds: u32,
    /// Most seeds on the board.
    pub max_seeds: u32,
    /// Positions to draw.
    pub count: usize,
    /// Seed of the generator.
    pub seed: u64,
}

/// How many draws may be rejected per position asked for before giving up.
const MAX_REJECTIONS_PER_DRAW: usize = 10_000;

/// Draws `spec.count` positions for `rules` (variant and board) as the module
/// documentation says; the same spec always gives the same positions.
pub fn sample_positions(rules: &Rules, spec: SampleSpec) -> Result<Vec<Position>, StrengthError> {
    if spec.max_seeds < 2 || spec.min_seeds > spec.max_seeds {
        return Err(StrengthError::TooFewSeeds(spec.max_seeds));
    }
    if spec.count == 0 {
        return Err(StrengthError::NoPositions);
    }
    let layers: Vec<LayerIndex> = (spec.min_seeds.max(2)..=spec.max_seeds)
        .map(|k| LayerIndex::new(rules.holes, k))
        .collect();
    let total: u64 = layers
        .iter()
        .map(|idx| idx.count().saturating_mul(2))
        .fold(0u64, u64::saturating_add);
    let mut rng = rng_from_seed(spec.seed);
    let mut positions = Vec::with_capacity(spec.count);
    let mut rejected = 0usize;
    while positions.len() < spec.count {
        let pos = position_at(&layers, rng.random_range(0..total));
        if pos.legal_moves(rules).len() >= MIN_CHOICES {
            positions.push(pos);
        } else {
            rejected += 1;
            if rejected > MAX_REJECTIONS_PER_DRAW.saturating_mul(spec.count) {
                return Err(StrengthError::NoEligiblePosition {
                    holes: rules.holes,
                    min_seeds: spec.min_seeds.max(2),
                    max_seeds: spec.max_seeds,
                });
            }
        }
    }
    Ok(positions)
}

/// The position of index `at` in the concatenation of `layers`, each South to
/// move then North; `at` must be below the total.
fn position_at(layers: &[LayerIndex], mut at: u64) -> Position {
    for idx in layers {
        let count = idx.count();
        if at < 2 * count {
            let side = if at < count { Side::South } else { Side::North };
            return idx.position(idx.unrank(at % count), side);
        }
        at -= 2 * count;
    }
    unreachable!("the index is drawn below the total of the layers")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Variant;

    fn rules(holes: u32) -> Rules {
        Rules::new(Variant::Ii).with_board(holes, 4).unwrap()
    }

    #[test]
    fn indexes_walk_every_position_of_the_layers_once() {
        let layers: Vec<LayerIndex> = (2..=4).map(|k| LayerIndex::new(2, k)).collect();
        let total: u64 = layers.iter().map(|i| 2 * i.count()).sum();
        // 2x2: C(k+3,3) boards: 10 + 20 + 35, times two sides.
        assert_eq!(total, 130);
        let mut seen: Vec<Position> = (0..total).map(|at| position_at(&layers, at)).collect();
        assert_eq!(seen[0].seeds_on_board(), 2);
        assert_eq!(seen[0].side_to_move(), Side::South);
        assert_eq!(seen[10].side_to_move(), Side::North);
        assert_eq!(seen[20].seeds_on_board(), 3);
        seen.sort_by_key(|p| format!("{p}"));
        seen.dedup();
        assert_eq!(seen.len(), 130);
    }

    #[test]
    fn draws_are_reproducible_and_offer_a_choice() {
        let r = rules(6);
        let spec = SampleSpec {
            min_seeds: 2,
            max_seeds: 16,
            count: 200,
            seed: 7,
        };
        let a = sample_positions(&r, spec).unwrap();
        assert_eq!(a, sample_positions(&r, spec).unwrap());
        assert_ne!(
            a,
            sample_positions(&r, SampleSpec { seed: 8, ..spec }).unwrap()
        );
        assert_eq!(a.len(), 200);
        for p in &a {
            assert!((2..=16).contains(&p.seeds_on_board()));
            assert!(p.legal_moves(&r).len() >= 2, "{p}");
            assert_eq!(p.captures(), Default::default());
        }
        // Uniform over positions: the 16-seed layer holds 43% of them, the
        // 2-seed layer 0.0003%; 200 draws land mostly in the top layers.
        let top = a.iter().filter(|p| p.seeds_on_board() >= 14).count();
        assert!(top > 100, "{top}");
    }

    #[test]
    fn bad_specs_are_refused() {
        let r = rules(3);
        let spec = SampleSpec {
            min_seeds: 2,
            max_seeds: 1,
            count: 5,
            seed: 1,
        };
        assert!(matches!(
            sample_positions(&r, spec),
            Err(StrengthError::TooFewSeeds(1))
        ));
        let spec = SampleSpec {
            max_seeds: 6,
            count: 0,
            ..spec
        };
        assert!(matches!(
            sample_positions(&r, spec),
            Err(StrengthError::NoPositions)
        ));
    }
}
