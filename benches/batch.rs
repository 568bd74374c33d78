//! A batch's step (`hoyito::batch`, the engine of Python's `VectorGame`):
//! plies per second of n games stepped together on one thread, each with a
//! uniformly random legal action drawn (untimed) from its mask. Report with
//! `cargo bench --bench batch`; criterion's throughput line is plies/s.
//! `python python/bench.py` compares the same step, from Python, with the
//! engine's random self-play, in plies per second on one core.

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hoyito::batch::{Batch, OwnedRows};
use hoyito::{Rules, Variant};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn batch_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("batch_step");
    for (variant, holes) in [
        (Variant::I, 6u32),
        (Variant::Ii, 6),
        (Variant::Iii, 6),
        (Variant::I, 12),
        (Variant::Ii, 12),
        (Variant::Iii, 12),
    ] {
        let rules = Rules::new(variant)
            .with_board(holes, 4)
            .expect("valid board");
        for n in [256usize, 4096] {
            group.throughput(Throughput::Elements(n as u64));
            let id = BenchmarkId::new(format!("{variant} 2x{holes}"), n);
            group.bench_function(id, |b| {
                let mut batch = Batch::new(rules, n, 1, 0, 0).expect("a batch");
                let mut rows = OwnedRows::new(n, holes as usize);
                let mut actions = vec![0i64; n];
                let mut rng = ChaCha8Rng::seed_from_u64(3);
                b.iter_custom(|steps| {
                    let mut stepping = Duration::ZERO;
                    for _ in 0..steps {
                        batch.random_actions(&mut rng, &mut actions);
                        let begun = Instant::now();
                        batch.step(&actions, rows.rows()).expect("legal actions");
                        stepping += begun.elapsed();
                    }
                    stepping
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, batch_step);
criterion_main!(benches);
