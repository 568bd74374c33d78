//! Retrograde analysis on a small board: every layer of 2x4 Hoyito II up to 12
//! seeds (251,940 positions); and the start solver (`hoyito solve --start`),
//! one core, on Hoyito I 2x5 (1,361,935 reachable positions; I 2x6 has 34
//! times as many, at about the same rate), in memory (`start/2x5-i`) and out
//! of core (`start/2x5-i-mapped`: layers written to a fresh state directory
//! and held memory-mapped from it, under a budget that makes the closures
//! spill to scratch files). Run with `cargo bench --bench solver`;
//! criterion's throughput line is positions per second.
//!
//! The outcome search (`hoyito solve --start --outcome`), one core, no
//! tables, a fresh 16 MB table each time: the time to prove II 2x5 (South
//! wins) and II 2x6 (South loses, both questions), and nodes per second on
//! III 2x4 (South wins, about 600,000 nodes).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
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

fn solve_start(c: &mut Criterion) {
    use hoyito::solver::start::{StartOptions, StartSolve};
    use hoyito::{Position, Rules};
    let rules = Rules::new(Variant::I).with_board(5, 4).expect("a board");
    let options = StartOptions::default();
    let mut group = c.benchmark_group("start");
    group.throughput(Throughput::Elements(1_361_935));
    group.sample_size(10);
    group.bench_function("2x5-i", |b| {
        b.iter(|| {
            let solved = StartSolve::run(rules, Position::start(&rules), &options, &mut |_| {})
                .expect("solved");
            assert_eq!(solved.start_value(), Some(-8));
            solved
        })
    });
    group.bench_function("2x5-i-mapped", |b| {
        b.iter_batched(
            || tempfile::tempdir().expect("a temporary directory"),
            |dir| {
                let options = StartOptions {
                    state: Some(dir.path()),
                    memory: Some(8 << 20),
                };
                let solved = StartSolve::run(rules, Position::start(&rules), &options, &mut |_| {})
                    .expect("solved");
                assert_eq!(solved.start_value(), Some(-8));
                (solved, dir)
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

fn outcome(c: &mut Criterion) {
    use hoyito::solver::outcome::{settle_outcome, Limits, Outcome, Prover};
    use hoyito::{Position, Rules};
    let mut group = c.benchmark_group("outcome");
    group.sample_size(10);
    let cases = [
        ("ii-2x5", Variant::Ii, 5, Outcome::Win),
        ("ii-2x6", Variant::Ii, 6, Outcome::Loss),
        ("iii-2x4", Variant::Iii, 4, Outcome::Win),
    ];
    for (name, variant, holes, expected) in cases {
        let rules = Rules::new(variant)
            .with_board(holes, 4)
            .expect("a valid board");
        let tables = Tablebase::new(variant, holes as u8).expect("a valid board");
        let start = Position::start(&rules);
        let solve = || {
            let mut prover = Prover::new(rules, &tables, 0, 16 << 20);
            let s = settle_outcome(|t| prover.prove(&start, t, Limits::default()));
            assert_eq!(s.outcome, Some(expected), "{name}");
            prover.nodes
        };
        group.throughput(Throughput::Elements(solve()));
        group.bench_function(name, |b| b.iter(solve));
    }
    group.finish();
}

criterion_group!(benches, build_tables, solve_start, outcome);
criterion_main!(benches);
