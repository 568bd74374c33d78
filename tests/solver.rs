//! The tablebase against a second, deliberately simple solver; perfect play
//! against other players; table files that round-trip and damaged ones refused.
//!
//! The reference solver builds each layer's capture-free move graph explicitly,
//! with predecessor lists, and for every threshold `t` computes by counter
//! propagation (the classic retrograde scheme of Romein & Bal 2003) the
//! positions whose mover can force a margin of at least `t`, and those whose
//! opponent can: a different algorithm from the library's value iteration.

use std::collections::HashMap;
use std::process::Command;

use hoyito::solver::index::LayerIndex;
use hoyito::solver::strategy::{perfect_move, search_move};
use hoyito::solver::study::capture_share;
use hoyito::solver::table::{self, Damage, TableKey};
use hoyito::solver::Tablebase;
use hoyito::{play_game, AgentRng, AgentSpec, BySide, Game, Position, Rules, Side, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::scratch;

/// Every board with `seeds` seeds in `len` holes.
fn boards(len: usize, seeds: u8) -> Vec<Vec<u8>> {
    if len == 1 {
        return vec![vec![seeds]];
    }
    let mut out = Vec::new();
    for first in 0..=seeds {
        for mut rest in boards(len - 1, seeds - first) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

fn position(board: &[u8], side: Side) -> Position {
    let n = board.len() / 2;
    let row = |r: &[u8]| r.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
    format!(
        "{}/{} {} 0-0",
        row(&board[..n]),
        row(&board[n..]),
        side.letter()
    )
    .parse()
    .expect("a well-formed position")
}

type Values = HashMap<(Vec<u8>, Side), i32>;

/// Exact values of every position with up to `max_seeds` seeds, by threshold
/// attractors over explicit graphs; with `first_capture_wins`, every capture is
/// worth one point instead (who can force the next capture).
fn reference(rules: &Rules, max_seeds: u8, first_capture_wins: bool) -> Values {
    let mut values = Values::new();
    values.insert((vec![0; 2 * rules.holes as usize], Side::South), 0);
    values.insert((vec![0; 2 * rules.holes as usize], Side::North), 0);
    for k in 1..=max_seeds {
        let mut nodes = Vec::new();
        for board in boards(2 * rules.holes as usize, k) {
            for side in Side::BOTH {
                nodes.push((board.clone(), side));
            }
        }
        let id: HashMap<_, _> = nodes.iter().cloned().zip(0..).collect();
        let mut exits: Vec<Vec<i32>> = vec![Vec::new(); nodes.len()];
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
        let mut degree = vec![0usize; nodes.len()];
        for (p, (board, side)) in nodes.iter().enumerate() {
            let pos = position(board, *side);
            for mv in pos.legal_moves(rules).iter() {
                let (child, effect) = pos.play(rules, *mv).expect("a legal move");
                let key = (child.board().to_vec(), child.side_to_move());
                if effect.captured == 0 {
                    preds[id[&key]].push(p);
                    degree[p] += 1;
                    continue;
                }
                let c = child.captures();
                let gain = c[*side] as i32 - c[side.opponent()] as i32;
                let rest = values[&key];
                let signed = if child.side_to_move() == *side {
                    rest
                } else {
                    -rest
                };
                exits[p].push(if first_capture_wins {
                    1
                } else {
                    gain + if child.is_over() { 0 } else { signed }
                });
            }
        }
        let mut value = vec![0i32; nodes.len()];
        for t in (1..=k as i32).rev() {
            // win: the mover forces at least t; lose: the opponent forces at least t.
            let mut win = vec![false; nodes.len()];
            let mut lose = vec![false; nodes.len()];
            let mut left = degree.clone();
            let mut queue = Vec::new();
            for p in 0..nodes.len() {
                if exits[p].iter().any(|&e| e >= t) {
                    win[p] = true;
                    queue.push(p);
                } else if degree[p] == 0 && exits[p].iter().all(|&e| e <= -t) {
                    lose[p] = true;
                    queue.push(p);
                }
            }
            while let Some(c) = queue.pop() {
                for &p in &preds[c] {
                    if win[p] || lose[p] {
                        continue;
                    }
                    if lose[c] {
                        win[p] = true;
                        queue.push(p);
                    } else {
                        left[p] -= 1;
                        if left[p] == 0 && exits[p].iter().all(|&e| e <= -t) {
                            lose[p] = true;
                            queue.push(p);
                        }
                    }
                }
            }
            for p in 0..nodes.len() {
                if value[p] == 0 && win[p] {
                    value[p] = t;
                } else if value[p] == 0 && lose[p] {
                    value[p] = -t;
                }
            }
        }
        for (node, v) in nodes.into_iter().zip(value) {
            values.insert(node, v);
        }
    }
    values
}

fn no_progress(_: u64) {}

fn tablebase_for(variant: Variant, holes: u8, max_seeds: u32) -> Tablebase {
    let mut tb = Tablebase::new(variant, holes).expect("a valid board");
    for k in 0..=max_seeds {
        tb.ensure(k, None, &no_progress).expect("a small build");
    }
    tb
}

#[test]
fn every_value_agrees_with_the_reference_solver() {
    for (holes, max_seeds) in [(2u8, 16u8), (3, 12)] {
        for variant in Variant::ALL {
            let rules = Rules::new(variant)
                .with_board(holes as u32, 4)
                .expect("a valid board");
            let expected = reference(&rules, max_seeds, false);
            let tb = tablebase_for(variant, holes, max_seeds as u32);
            for k in 0..=max_seeds as u32 {
                let layer = tb.layer(k).expect("built").len() as u64;
                assert_eq!(layer, 2 * LayerIndex::new(holes, k).count());
            }
            let mut nonzero = 0;
            for ((board, side), v) in &expected {
                let got = tb.value(&position(board, *side)).expect("in the tables");
                assert_eq!(got as i32, *v, "{variant} {:?}", position(board, *side));
                nonzero += (*v != 0) as usize;
            }
            assert!(nonzero > expected.len() / 10, "the test exercises captures");
        }
    }
}

#[test]
fn capture_shares_agree_with_the_reference_solver() {
    for variant in Variant::ALL {
        let rules = Rules::new(variant).with_board(3, 4).expect("a valid board");
        let expected = reference(&rules, 10, true);
        for k in 0..=10u32 {
            let share = capture_share(variant, 3, k, &no_progress).expect("a small layer");
            let count = |v: i32| {
                expected
                    .iter()
                    .filter(|((b, _), &x)| b.iter().map(|&s| s as u32).sum::<u32>() == k && x == v)
                    .count() as u64
            };
            assert_eq!((share.mover, share.opponent), (count(1), count(-1)), "{k}");
            assert_eq!(share.positions, 2 * LayerIndex::new(3, k).count());
            if k < 4 {
                assert_eq!(share.either(), 0, "no casa without four seeds");
            }
        }
    }
}

/// Plays `start` to the end, `first` choosing for the side to move at the start
/// and `second` for the other; returns the first side's margin from then on.
fn play(
    rules: &Rules,
    start: Position,
    first: &mut dyn FnMut(&Game) -> hoyito::Move,
    second: &mut dyn FnMut(&Game) -> hoyito::Move,
) -> i32 {
    let me = start.side_to_move();
    let mut game = Game::from_position(*rules, start);
    while !game.is_over() {
        let mv = if game.position().side_to_move() == me {
            first(&game)
        } else {
            second(&game)
        };
        game.play(mv).expect("players choose legal moves");
    }
    let s = game.outcome().expect("over").scores;
    s[me] as i32 - s[me.opponent()] as i32
}

#[test]
fn perfect_play_secures_the_table_value_against_every_player() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for variant in Variant::ALL {
        let holes = 3;
        let tb = tablebase_for(variant, holes, 12);
        let rules = *tb.rules();
        for _ in 0..60 {
            let k = rng.random_range(4..=12u8);
            let all = boards(2 * holes as usize, k);
            let board = &all[rng.random_range(0..all.len())];
            let side = if rng.random_bool(0.5) {
                Side::South
            } else {
                Side::North
            };
            let start = position(board, side);
            let value = tb.value(&start).expect("in the tables") as i32;
            let mut perfect = |g: &Game| perfect_move(&tb, g.position()).expect("in the tables");
            let mut perfect_too =
                |g: &Game| perfect_move(&tb, g.position()).expect("in the tables");
            assert_eq!(
                play(&rules, start, &mut perfect, &mut perfect_too),
                value,
                "perfect against perfect from {start}"
            );
            let mut searcher = |g: &Game| search_move(&tb, g.position(), 2).expect("a move");
            assert!(play(&rules, start, &mut perfect, &mut searcher) >= value);
            for game_seed in 0..4u64 {
                let mut opponent = ChaCha8Rng::seed_from_u64(game_seed);
                let mut random = |g: &Game| {
                    let moves = g.legal_moves();
                    moves[opponent.random_range(0..moves.len())]
                };
                let margin = play(&rules, start, &mut perfect, &mut random);
                assert!(margin >= value, "{margin} < {value} from {start}");
            }
        }
    }
}

#[test]
fn the_tablebase_agent_never_scores_less_than_the_table_value() {
    let spec = |text: &str| -> AgentSpec {
        let spec: AgentSpec = toml::from_str(text).expect("a spec");
        spec.validate().expect("in range");
        spec
    };
    let tablebase = spec("kind = \"tablebase\"\nmax_seeds = 12");
    assert_eq!(tablebase.to_string(), "tablebase max_seeds=12 depth=4");
    let with_fallback =
        spec("kind = \"tablebase\"\nmax_seeds = 8\n[fallback]\nkind = \"alphabeta\"\ndepth = 3");
    assert_eq!(
        with_fallback.to_string(),
        "tablebase max_seeds=8 fallback=(alphabeta depth=3)"
    );
    let bad: AgentSpec = toml::from_str("kind = \"tablebase\"\nmax_seeds = 200").expect("read");
    assert!(bad.validate().unwrap_err().contains("max_seeds = 200"));
    let opponents = [
        spec("kind = \"random\""),
        spec("kind = \"greedy\""),
        spec("kind = \"alphabeta\"\ndepth = 4"),
        spec("kind = \"mcts\"\niterations = 200"),
        tablebase.clone(),
        with_fallback,
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for variant in Variant::ALL {
        let tb = tablebase_for(variant, 3, 12);
        let rules = *tb.rules();
        for _ in 0..12 {
            let k = rng.random_range(4..=12u8);
            let all = boards(6, k);
            let side = if rng.random_bool(0.5) {
                Side::South
            } else {
                Side::North
            };
            let start = position(&all[rng.random_range(0..all.len())], side);
            let value = tb.value(&start).expect("in the tables") as i32;
            for opponent in &opponents {
                let mut me = tablebase.build();
                let mut them = opponent.build();
                let agents: BySide<&mut dyn hoyito::Agent> = match side {
                    Side::South => BySide::new(&mut *me, &mut *them),
                    Side::North => BySide::new(&mut *them, &mut *me),
                };
                let mut game_rng = AgentRng::seed_from_u64(rng.random());
                let game = Game::from_position(rules, start);
                let game = play_game(&rules, game, agents, &mut game_rng).expect("legal play");
                let s = game.outcome().expect("over").scores;
                let margin = s[side] as i32 - s[side.opponent()] as i32;
                assert!(
                    margin >= value,
                    "{margin} < {value} from {start} against {opponent}"
                );
            }
        }
    }
}

#[test]
fn tables_round_trip_and_damaged_files_are_refused() {
    let dir = scratch("files");
    let mut tb = Tablebase::new(Variant::Ii, 3).expect("a valid board");
    tb.ensure(10, Some(&dir), &no_progress)
        .expect("built and saved");
    let key = tb.key(10);
    let path = dir.join(key.file_name());
    let values = table::load(&path, key).expect("a good file");
    assert_eq!(values.as_slice(), tb.layer(10).expect("built"));

    let mut reloaded = Tablebase::new(Variant::Ii, 3).expect("a valid board");
    let reports = reloaded
        .ensure(10, Some(&dir), &|_| panic!("nothing to build"))
        .expect("loaded");
    assert!(reports
        .iter()
        .all(|r| r.source == hoyito::solver::LayerSource::Loaded));
    assert_eq!(reloaded.layer(10), tb.layer(10));

    let good = std::fs::read(&path).expect("readable");
    let damaged = |bytes: &[u8]| {
        let bad = dir.join("bad.tb");
        std::fs::write(&bad, bytes).expect("writable");
        table::load(&bad, key).expect_err("refused")
    };
    let damage = |bytes: &[u8]| damaged(bytes).damage().cloned();
    let mut flipped = good.clone();
    flipped[40] ^= 1;
    assert_eq!(damage(&flipped), Some(Damage::Checksum));
    assert!(matches!(
        damage(&good[..good.len() - 1]),
        Some(Damage::Length { .. })
    ));
    assert_eq!(damage(&good[..10]), Some(Damage::NoHeader { bytes: 10 }));
    assert_eq!(damage(b"HOYITO"), Some(Damage::Magic));
    let mut version = good.clone();
    version[8] = 9;
    assert_eq!(damage(&version), Some(Damage::Version { found: 9 }));
    let other = TableKey { seeds: 6, ..key };
    let err = table::load(&path, other).expect_err("another layer");
    assert!(matches!(err.damage(), Some(Damage::Mismatch { .. })));
    assert!(err.to_string().contains("6 seeds"), "{err}");
    let other = TableKey {
        variant: Variant::I,
        ..key
    };
    let err = table::load(&path, other).expect_err("another variant");
    assert!(matches!(err.damage(), Some(Damage::Mismatch { .. })));
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

#[test]
fn probe_prints_the_value_and_the_best_moves() {
    let dir = scratch("cli");
    let run = |pos: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_hoyito"))
            .args(["probe", "--variant", "ii", "--position", pos, "--tables"])
            .arg(&dir)
            .output()
            .expect("runs");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).expect("text")
    };
    // South's hole 1 sows 0,1,1/2,3,3; the relay from North's hole 1 makes
    // North's 3 a casa and the chain takes North's 2: 8 seeds, and the 2 left
    // go to South too. Value 10, and no other move comes close.
    let pos = "3,0,0/1,3,3 S 0-0";
    let tb = tablebase_for(Variant::Ii, 3, 10);
    let p: Position = pos.parse().expect("a position");
    let probe = tb.probe(&p).expect("in the tables");
    let best: Vec<String> = probe.best_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!((probe.value, best.join(" ")), (10, "1".to_string()));
    assert_eq!(run(pos), "value 10\nbest 1\n");
    assert!(dir.join(tb.key(10).file_name()).exists());
    assert_eq!(run("0,0,0/1,1,1 S 0-0"), "value 0\nbest pass\n");
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}
