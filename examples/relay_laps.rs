//! How many laps a relay sowing takes when it ends: the longest seen over
//! random games of every variant and board, beside the cap
//! `hoyito::MAX_RELAY_LAPS` after which the engine counts a sowing as
//! endless. Random games are played from the start position (1,000 plies at
//! most each), and at every position each legal move is simulated.
//!
//!   cargo run --release --example relay_laps [GAMES_PER_BOARD]
use hoyito::{Position, Rules, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .map_or(2000, |g| g.parse().expect("a number of games"));
    println!("cap {} laps", hoyito::MAX_RELAY_LAPS);
    println!("variant,holes,games,positions,moves,longest_laps,moves_over_1000_laps,endless_moves");
    for variant in [Variant::I, Variant::Ii, Variant::Iii] {
        for holes in [4u8, 6, 8, 10, 12, 14, 16] {
            let mut rules = Rules::new(variant);
            rules.holes = holes;
            let mut rng = ChaCha8Rng::seed_from_u64(u64::from(holes) * 31 + variant as u64);
            let (mut positions, mut moves, mut longest, mut over, mut endless) =
                (0u64, 0u64, 0u32, 0u64, 0u64);
            for _ in 0..games {
                let mut pos = Position::start(&rules);
                for _ in 0..1000 {
                    if pos.is_over() {
                        break;
                    }
                    positions += 1;
                    let mut children = Vec::new();
                    let mut sown = 0u64;
                    pos.for_each_child(&rules, |mv, child, effect| {
                        sown += u64::from(mv != hoyito::Move::Pass);
                        moves += 1;
                        longest = longest.max(effect.laps);
                        over += u64::from(effect.laps > 1000);
                        children.push(child);
                    });
                    let sowable = pos.nonempty_mask().count_ones() as u64;
                    endless += sowable - sown;
                    pos = children[rng.random_range(0..children.len())];
                }
            }
            println!("{variant:?},{holes},{games},{positions},{moves},{longest},{over},{endless}");
        }
    }
}
