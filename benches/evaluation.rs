//! The cost of one static evaluation, the work a search does at every leaf:
//! the material count against the learned evaluation, with and without its
//! simulated features (`hand_own`, `hand_opp`), on positions of random Hoyito
//! II games on 2x6 and 2x12. Run with `cargo bench --bench evaluation`;
//! criterion's throughput line is evaluations per second.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use hoyito::{Evaluator, Feature, Game, LearnedEval, Position, Rules, Variant, Weights, FEATURES};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Positions per board: the middle positions of random games.
const POSITIONS: usize = 1000;

fn positions(rules: Rules) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut out = Vec::new();
    while out.len() < POSITIONS {
        let mut game = Game::new(rules);
        while !game.is_over() && out.len() < POSITIONS {
            game.play_random(&mut rng);
            if !game.position().is_over() {
                out.push(*game.position());
            }
        }
    }
    out
}

fn learned(simulated: bool) -> Evaluator {
    let mut w = [0.5; FEATURES];
    if !simulated {
        w[Feature::HandOwn.index()] = 0.0;
        w[Feature::HandOpp.index()] = 0.0;
    }
    Evaluator::Learned(LearnedEval::new(Weights::new(w).expect("weights in range")))
}

fn evaluation(c: &mut Criterion) {
    let mut group = c.benchmark_group("evaluation");
    for holes in [6, 12] {
        let rules = Rules::new(Variant::Ii)
            .with_board(holes, 4)
            .expect("valid board");
        let positions = positions(rules);
        group.throughput(Throughput::Elements(positions.len() as u64));
        for (name, eval) in [
            ("material", Evaluator::Material),
            ("learned_cheap", learned(false)),
            ("learned_full", learned(true)),
        ] {
            group.bench_function(format!("2x{holes}_{name}"), |b| {
                b.iter(|| {
                    positions
                        .iter()
                        .map(|p| eval.evaluate(black_box(p), &rules))
                        .fold(0i64, |acc, s| acc.wrapping_add(i64::from(s)))
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, evaluation);
criterion_main!(benches);
