//! The cost of an agent in another process: games per second of
//! `py-random` (agents/examples/random.py over the protocol) against the
//! built-in random agent, next to built-in random against itself, and the
//! protocol's round trip per move (`go` out, `move` back, through pipes and
//! Python) in microseconds. Run from the repository root with
//! `cargo bench --bench external`; criterion's throughput line is games/s
//! and moves/s. Hoyito II on 2x6.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hoyito::{Agent, ExternalAgent, ExternalCommand, Game, Rules, Side, Variant};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Agent moves per round-trip sample.
const MOVES: u64 = 200;

fn py_random() -> ExternalAgent {
    ExternalAgent::new(
        ExternalCommand {
            command: vec!["python3".into(), "agents/examples/random.py".into()],
            working_dir: None,
            move_timeout_ms: 10_000,
            startup_timeout_ms: 10_000,
        },
        None,
    )
}

/// One game: `agent` (or the built-in random agent when `None`) as South,
/// the built-in random agent as North. Returns the agent's moves.
fn game(agent: Option<&mut ExternalAgent>, rules: Rules, rng: &mut ChaCha8Rng) -> u64 {
    let mut game = Game::new(rules);
    let mut moves = 0;
    match agent {
        None => {
            while !game.is_over() {
                game.play_random(rng);
            }
        }
        Some(agent) => {
            agent.new_game(&rules);
            while !game.is_over() {
                if game.position().side_to_move() == Side::South {
                    let mv = agent.try_choose(&game, rng).expect("py-random plays");
                    game.play(mv).expect("a legal move");
                    moves += 1;
                } else {
                    game.play_random(rng);
                }
            }
            agent.game_over(&game);
        }
    }
    moves
}

fn games(c: &mut Criterion) {
    let rules = Rules::new(Variant::Ii);
    let mut group = c.benchmark_group("games");
    group.throughput(Throughput::Elements(1));
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    group.bench_function("random_vs_random", |b| {
        b.iter(|| game(None, rules, &mut rng))
    });
    group.sample_size(10);
    let mut agent = py_random();
    group.bench_function("py-random_vs_random", |b| {
        b.iter(|| game(Some(&mut agent), rules, &mut rng))
    });
    group.finish();
}

fn round_trip(c: &mut Criterion) {
    let rules = Rules::new(Variant::Ii);
    let mut group = c.benchmark_group("protocol");
    group.sample_size(10);
    group.throughput(Throughput::Elements(MOVES));
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut agent = py_random();
    let mut current = Game::new(rules);
    agent.new_game(&rules);
    group.bench_function("py-random_moves", |b| {
        b.iter(|| {
            // Exactly MOVES agent moves; games go on across samples.
            let mut moves = 0;
            while moves < MOVES {
                if current.is_over() {
                    agent.game_over(&current);
                    current = Game::new(rules);
                    agent.new_game(&rules);
                } else if current.position().side_to_move() == Side::South {
                    let mv = agent
                        .try_choose(&current, &mut rng)
                        .expect("py-random plays");
                    current.play(mv).expect("a legal move");
                    moves += 1;
                } else {
                    current.play_random(&mut rng);
                }
            }
        })
    });
    group.finish();
}

criterion_group!(benches, games, round_trip);
criterion_main!(benches);
