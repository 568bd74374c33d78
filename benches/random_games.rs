//! Complete random games (uniform random legal moves, stall rules on) per variant
//! on 2x6 and 2x12: the engine's raw speed. Report games per second with
//! `cargo bench --bench random_games`; criterion's throughput line is games/s.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hoyito::{Game, Rules, Variant};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    group.throughput(Throughput::Elements(1));
    for holes in [6, 12] {
        for variant in Variant::ALL {
            let rules = Rules::new(variant)
                .with_board(holes, 4)
                .expect("valid board");
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            group.bench_function(BenchmarkId::new(format!("2x{holes}"), variant), |b| {
                b.iter(|| {
                    let mut game = Game::new(rules);
                    while !game.is_over() {
                        game.play_random(&mut rng);
                    }
                    game.outcome()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, random_games);
criterion_main!(benches);
