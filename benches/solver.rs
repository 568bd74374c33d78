//! Retrograde analysis on a small board: every layer of 2x4 Hoyito II up to 12
//! seeds (251,940 positions). Run with `cargo bench --bench solver`;
//! criterion's throughput line is positions per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hoyito::solver::Tablebase;
use hoyito::Variant;

fn build_tables(c: &mut Criterion) {
    const MAX_SEEDS: u32 = 12;
    let mut group = c.benchmark_group("retrograde");
    let probe = Tablebase::new(Variant::Ii, 4).expect("a valid board");
    let positions: u64 = (0..=MAX_SEEDS).map(|k| probe.key(k).entries()).sum();
    group.throughput(Throughput::Elements(positions));
    group.sample_size(10);
    group.bench_function("2x4-ii-12", |b| {
        b.iter(|| {
            let mut tb = Tablebase::new(Variant::Ii, 4).expect("a valid board");
            for k in 0..=MAX_SEEDS {
                tb.ensure(k, None, &|_| {}).expect("a small build");
            }
            tb
        })
    });
    group.finish();
}

criterion_group!(benches, build_tables);
criterion_main!(benches);
