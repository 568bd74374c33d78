//! The whole harness on random-against-random Hoyito II 2x6: schedule, seeded
//! generators, games, CSV rows and the ordered writer, with 1 and 2 worker
//! threads, with and without `moves.csv`, and with `metrics.csv` (the
//! per-game design measures) beside no moves, and with every record written
//! (`all_on`: `games.csv`, `moves.csv` and `metrics.csv`, as a run writes
//! them by default). Criterion's throughput line is
//! games/s; the targets are 100,000 games/s on one thread and 1.8 times that
//! on two, recording moves costs at most 10%, and so does recording
//! measures.
//! `cargo bench --bench harness`

use std::io;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hoyito::tournament::{run_games, Experiment, Lineup, RecordSinks, Schedule, Work};

/// Games per measured iteration: enough to amortise starting the thread pool.
const GAMES: u64 = 100_000;

const EXPERIMENT: &str = r#"
name = "bench"
seed = 1
games = 100000
[rules]
variants = ["ii"]
holes = [6]
[openings]
random_plies = 0
[tournament]
format = "self-play"
agents = ["random"]
[roster.random]
kind = "random"
"#;

fn harness(c: &mut Criterion) {
    let mut experiment = Experiment::parse(EXPERIMENT, "bench").expect("the bench experiment");
    experiment
        .resolve_agents("bench", || unreachable!("the roster is inline"))
        .expect("inline roster");
    let schedule = Schedule::new(&experiment);
    let lineup = Lineup::new(experiment.agent_specs());
    let work = Work {
        schedule: &schedule,
        lineup: &lineup,
        adjudicator: None,
    };
    let mut group = c.benchmark_group("harness_random_ii_2x6");
    group.sample_size(10);
    group.throughput(Throughput::Elements(GAMES));
    for threads in [1, 2] {
        for (moves, metrics) in [(false, false), (true, false), (false, true), (true, true)] {
            let name = match (moves, metrics) {
                (false, false) => "moves_off",
                (true, false) => "moves_on",
                (false, true) => "metrics_on",
                (true, true) => "all_on",
            };
            group.bench_function(BenchmarkId::new(name, threads), |b| {
                b.iter(|| {
                    let (mut games, mut moves_out) = (io::sink(), io::sink());
                    let mut metrics_out = io::sink();
                    let sinks = RecordSinks {
                        games: &mut games,
                        moves: moves.then_some(&mut moves_out as &mut dyn io::Write),
                        metrics: metrics.then_some(&mut metrics_out as &mut dyn io::Write),
                    };
                    run_games(work, 0..GAMES, threads, sinks, &mut |_| {})
                        .expect("random games cannot fail")
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, harness);
criterion_main!(benches);
