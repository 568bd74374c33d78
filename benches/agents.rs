//! Search speed on one core from the 2x6 and 2x12 start positions of Hoyito II:
//! alpha-beta nodes per second and MCTS (random rollouts) iterations per second.
//! Run with `cargo bench --bench agents`; criterion's throughput line is
//! nodes/s and iterations/s (the targets: 5M nodes/s, 50k iterations/s on
//! 2x6). Alpha-beta nodes are counted two ways: positions made (every legal
//! move is simulated to be generated, as chess engines count a node per move
//! made) and positions visited by the search. The enhanced search (PVS,
//! aspiration, killers, history, quiescence) is measured the same
//! way to the same depth (`_enhanced`), so that both its speed in nodes per
//! second and its time to a depth can be set beside the plain search's. The enhanced MCTS entries add
//! MCTS-Solver, progressive bias and GRAVE, with random rollouts capped at 10
//! plies or no rollout at all (the leaf scored by the evaluation).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use hoyito::{
    AlphaBeta, AlphaBetaBudget, Game, Mcts, MctsOptions, MctsParams, RolloutPolicy, Rules, Variant,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Plies of alpha-beta per board: a search of a fraction of a second.
const DEPTHS: [(u32, u32); 2] = [(6, 17), (12, 12)];
/// MCTS iterations per search.
const ITERATIONS: u32 = 10_000;

fn alphabeta(c: &mut Criterion) {
    let mut group = c.benchmark_group("alphabeta_nodes");
    group.sample_size(10);
    for (holes, depth) in DEPTHS {
        let rules = Rules::new(Variant::Ii)
            .with_board(holes, 4)
            .expect("valid board");
        let game = Game::new(rules);
        let budget = AlphaBetaBudget {
            depth,
            nodes: None,
            time_ms: None,
        };
        let info = AlphaBeta::new(budget).search(&game);
        // Two counts of the same search: positions made (every simulated move)
        // and positions visited (those the search went into).
        for (unit, count) in [("made", info.nodes), ("visited", info.visited)] {
            group.throughput(Throughput::Elements(count));
            group.bench_function(format!("2x{holes}_depth{depth}_{unit}"), |b| {
                b.iter_batched_ref(
                    || AlphaBeta::new(budget),
                    |searcher| searcher.search(&game),
                    BatchSize::PerIteration,
                )
            });
        }
        let enhanced = hoyito::bench::enhanced_options();
        let build = || AlphaBeta::new(budget).with_options(enhanced.clone());
        let info = build().search(&game);
        group.throughput(Throughput::Elements(info.nodes));
        group.bench_function(format!("2x{holes}_depth{depth}_enhanced_made"), |b| {
            b.iter_batched_ref(
                build,
                |searcher| searcher.search(&game),
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

fn mcts(c: &mut Criterion) {
    let mut group = c.benchmark_group("mcts_iterations");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ITERATIONS as u64));
    for holes in [6, 12] {
        let rules = Rules::new(Variant::Ii)
            .with_board(holes, 4)
            .expect("valid board");
        let game = Game::new(rules);
        let mut searcher = Mcts::new(MctsParams {
            iterations: ITERATIONS,
            exploration: MctsParams::DEFAULT_EXPLORATION,
            rollout: RolloutPolicy::Random,
            rollout_cap: MctsParams::DEFAULT_ROLLOUT_CAP,
        });
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        group.bench_function(format!("2x{holes}_random"), |b| {
            b.iter(|| searcher.search(&game, &mut rng))
        });
        for (name, rollout, cap) in [
            ("enhanced_cap10", RolloutPolicy::Random, 10),
            ("enhanced_eval", RolloutPolicy::None, 1),
        ] {
            let mut searcher = Mcts::new(MctsParams {
                iterations: ITERATIONS,
                exploration: MctsParams::DEFAULT_EXPLORATION,
                rollout,
                rollout_cap: cap,
            })
            .with_options(MctsOptions {
                solver: true,
                progressive_bias: 1.0,
                rave: 300.0,
                grave_ref: 50,
                reuse: false,
                per_legal_move: false,
            });
            group.bench_function(format!("2x{holes}_{name}"), |b| {
                b.iter(|| searcher.search(&game, &mut rng))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, alphabeta, mcts);
criterion_main!(benches);
