//! Agents: legal and reproducible play on every variant and board, alpha-beta
//! against a plain minimax and on a hand-made combination, roster errors,
//! agents written on the command line and the roster's listing, and a short
//! strength ladder (the full one is `examples/ladder.rs`).

use std::path::PathBuf;

use hoyito::{
    evaluate, play_game, Agent, AgentRng, AgentSpec, AlphaBeta, AlphaBetaBudget, BySide, Game,
    Leftover, Move, Position, Roster, RosterError, Rules, StallRules, Variant,
};
use rand::{Rng, SeedableRng};

use crate::common::{hoyito, s, scratch, stderr, stdout, AGENTS, START};

fn spec(text: &str) -> AgentSpec {
    toml::from_str(text).expect("a valid spec")
}

/// Cheap specs of every kind and option.
fn cheap_specs() -> Vec<AgentSpec> {
    [
        "kind = \"random\"",
        "kind = \"greedy\"",
        "kind = \"alphabeta\"\ndepth = 3",
        "kind = \"alphabeta\"\nnodes = 3000",
        "kind = \"mcts\"\niterations = 150",
        "kind = \"mcts\"\niterations = 60\nrollout = \"greedy\"\nrollout_cap = 20",
    ]
    .into_iter()
    .map(spec)
    .collect()
}

fn rules(variant: Variant, holes: u32) -> Rules {
    Rules::new(variant)
        .with_board(holes, 4)
        .expect("valid board")
}

#[test]
fn every_agent_plays_legal_moves_on_every_variant_and_board() {
    let mut rng = AgentRng::seed_from_u64(11);
    for holes in [6, 12] {
        for variant in Variant::ALL {
            let rules = rules(variant, holes);
            for spec in cheap_specs() {
                let mut agent = spec.build();
                agent.new_game(&rules);
                for _ in 0..4 {
                    let mut game = Game::new(rules);
                    let plies = rng.random_range(0..60);
                    for _ in 0..plies {
                        if game.is_over() {
                            break;
                        }
                        game.play_random(&mut rng);
                    }
                    if game.is_over() {
                        continue;
                    }
                    let mv = agent.choose(&game, &mut rng);
                    let legal = game.legal_moves();
                    assert!(legal.contains(&mv), "{spec}: {mv} in {}", game.position());
                }
            }
        }
    }
}

#[test]
fn a_player_without_a_move_passes() {
    // North's row is empty after South's moves: only `pass`.
    let pos: Position = "1,2,0,0,0,0/0,0,0,0,0,0 N 20-24".parse().unwrap();
    let game = Game::from_position(rules(Variant::Ii, 6), pos);
    let mut rng = AgentRng::seed_from_u64(1);
    for spec in cheap_specs() {
        assert_eq!(spec.build().choose(&game, &mut rng), Move::Pass, "{spec}");
    }
}

#[test]
fn a_time_budget_plays_legal_moves_and_is_marked_not_reproducible() {
    let timed = spec("kind = \"alphabeta\"\ntime_ms = 20");
    assert!(!timed.reproducible());
    let game = Game::new(rules(Variant::Iii, 12));
    let mv = timed.build().choose(&game, &mut AgentRng::seed_from_u64(2));
    assert!(game.legal_moves().contains(&mv));
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let rules = rules(Variant::Ii, 6);
    let play = |seed: u64, a: &AgentSpec, b: &AgentSpec| {
        let (mut a, mut b) = (a.build(), b.build());
        let mut rng = AgentRng::seed_from_u64(seed);
        let agents: BySide<&mut dyn Agent> = BySide::new(a.as_mut(), b.as_mut());
        let game = play_game(&rules, Game::new(rules), agents, &mut rng).expect("legal play");
        game.moves().to_vec()
    };
    let specs = cheap_specs();
    for pair in specs.windows(2) {
        assert_eq!(play(5, &pair[0], &pair[1]), play(5, &pair[0], &pair[1]));
    }
    assert_ne!(play(5, &specs[0], &specs[0]), play(6, &specs[0], &specs[0]));
}

#[test]
fn alphabeta_finds_the_capture_that_earns_a_second_capture() {
    // Hoyito II, South to move, 20-24:
    //      N: 6  5  4  3  2  1
    //         2  0  0  0  0  3
    //         0  0  1  3  0  1
    //      S: 1  2  3  4  5  6
    // Holes 3 and 6 each make a casa (4), the extra move then takes the other
    // and the last two seeds: 10 seeds, 30-24. Hole 4 also takes a casa (North's
    // hole 1) but leaves nothing more: greedy by the first capture would tie.
    let rules = rules(Variant::Ii, 6);
    let pos: Position = "0,0,1,3,0,1/3,0,0,0,0,2 S 20-24".parse().unwrap();
    let mut game = Game::from_position(rules, pos);
    let mut searcher = AlphaBeta::new(AlphaBetaBudget {
        depth: 4,
        nodes: None,
        time_ms: None,
    });
    let info = searcher.search(&game);
    assert_eq!(info.score, 6, "{info:?}");
    assert!(
        [Move::Sow(2), Move::Sow(5)].contains(&info.best),
        "{info:?}"
    );
    game.play(info.best).unwrap();
    let second = searcher.search(&game);
    game.play(second.best).unwrap();
    let outcome = game.outcome().expect("South took the last seeds");
    assert_eq!(outcome.scores, BySide::new(30, 24));
}

/// Plain negamax without pruning or table, scored as alpha-beta scores.
fn minimax(pos: &Position, rules: &Rules, depth: u32) -> i32 {
    if pos.is_over() || depth == 0 {
        return evaluate(pos, rules);
    }
    let mut best = i32::MIN;
    pos.for_each_child(rules, |_, child, _| {
        let v = if child.side_to_move() == pos.side_to_move() {
            minimax(&child, rules, depth - 1)
        } else {
            -minimax(&child, rules, depth - 1)
        };
        best = best.max(v);
    });
    best
}

#[test]
fn alphabeta_agrees_with_plain_minimax_on_small_boards() {
    let mut rng = AgentRng::seed_from_u64(3);
    for variant in Variant::ALL {
        for holes in [3, 4] {
            let rules = Rules {
                stall: StallRules::OFF,
                ..rules(variant, holes)
            };
            for _ in 0..12 {
                let mut game = Game::new(rules);
                for _ in 0..rng.random_range(0..12) {
                    if !game.is_over() {
                        game.play_random(&mut rng);
                    }
                }
                if game.is_over() {
                    continue;
                }
                let depth = 6;
                let info = AlphaBeta::new(AlphaBetaBudget {
                    depth,
                    nodes: None,
                    time_ms: None,
                })
                .search(&game);
                let exact = minimax(game.position(), &rules, depth);
                assert_eq!(info.score, exact, "{variant} {}", game.position());
            }
        }
    }
}

/// A fresh directory under the test target directory holding `files`.
fn roster_dir(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

fn load_error(name: &str, text: &str) -> String {
    let dir = roster_dir(name, &[("bad.toml", text)]);
    let err = Roster::load(&dir).expect_err("a bad file");
    assert!(matches!(err, RosterError::Field { .. }), "{err:?}");
    err.to_string()
}

#[test]
fn bad_agent_files_name_the_file_the_field_and_what_is_allowed() {
    let cases = [
        (
            "kind = \"minimax\"",
            "`kind`",
            "random, greedy, alphabeta, mcts",
        ),
        ("depth = 3", "`kind` is missing", "alphabeta"),
        (
            "kind = \"alphabeta\"\ndept = 3",
            "`dept` is unknown",
            "depth, nodes, time_ms",
        ),
        (
            "kind = \"random\"\ndepth = 3",
            "`depth` is unknown",
            "no parameters",
        ),
        (
            "kind = \"alphabeta\"\ndepth = \"eight\"",
            "`depth` is \"eight\"",
            "1 to 64",
        ),
        (
            "kind = \"mcts\"\niterations = 1.5",
            "`iterations` is 1.5",
            "integer",
        ),
        (
            "kind = \"mcts\"\nrollout = \"smart\"\niterations = 9",
            "`rollout`",
            "greedy",
        ),
        ("kind = \"mcts\"", "`iterations` is missing", "integer"),
        (
            "kind = \"alphabeta\"\ndepth = 0",
            "`depth` is out of range",
            "1 to 64",
        ),
        (
            "kind = \"mcts\"\niterations = 9\nexploration = -1.0",
            "`exploration` is out of range",
            "at least 0",
        ),
        (
            "kind = \"mcts\"\niterations = 0",
            "`iterations` is out of range",
            "1 to",
        ),
    ];
    for (i, (text, field, allowed)) in cases.into_iter().enumerate() {
        let msg = load_error(&format!("bad-{i}"), text);
        for part in ["bad.toml", field, allowed] {
            assert!(msg.contains(part), "{text:?}: {msg:?} lacks {part:?}");
        }
    }
    let dir = roster_dir("syntax", &[("broken.toml", "kind = ")]);
    let msg = Roster::load(&dir).unwrap_err().to_string();
    assert!(msg.contains("broken.toml") && msg.contains("TOML"), "{msg}");
}

#[test]
fn the_roster_loads_sorted_and_names_what_exists() {
    let dir = roster_dir(
        "good",
        &[
            ("b.toml", "kind = \"greedy\""),
            ("a.toml", "kind = \"random\""),
            ("notes.txt", "ignored"),
        ],
    );
    let roster = Roster::load(&dir).unwrap();
    let names: Vec<&str> = roster.agents().iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(roster.get("b").unwrap().spec, AgentSpec::Greedy);
    let msg = roster.get("c").unwrap_err().to_string();
    assert!(msg.contains("\"c\"") && msg.contains("a, b"), "{msg}");

    let agents_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("agents");
    let shipped = Roster::load(&agents_dir).unwrap();
    for name in [
        "random",
        "greedy",
        "alphabeta-d4",
        "alphabeta-d8",
        "alphabeta-1m",
        "mcts-5k",
        "champion-2x6",
        "champion-2x12",
        "champion",
        "tuned-i-2x6",
        "tuned-ii-2x6",
        "tuned-iii-2x6",
        "tuned-i-2x12",
        "tuned-ii-2x12",
        "tuned-iii-2x12",
    ] {
        let agent = shipped.get(name).unwrap();
        assert!(agent.spec.validate().is_ok() && agent.spec.reproducible());
    }
    // The studies' champion is the strength study's 2x6 champion under one
    // name, and the 2x12 champion is the same search with sixteen times the
    // nodes and sixteen times the transposition table.
    let champion = &shipped.get("champion").unwrap().spec;
    assert_eq!(champion, &shipped.get("champion-2x6").unwrap().spec);
    let keys = |name: &str| -> toml::Table {
        let text = std::fs::read_to_string(agents_dir.join(format!("{name}.toml"))).unwrap();
        toml::from_str(&text).unwrap()
    };
    let (mut small, mut large) = (keys("champion"), keys("champion-2x12"));
    assert_eq!(small.remove("nodes"), Some(toml::Value::Integer(1_000_000)));
    assert_eq!(
        large.remove("nodes"),
        Some(toml::Value::Integer(16_000_000))
    );
    assert_eq!(small.remove("tt_mb"), None);
    assert_eq!(large.remove("tt_mb"), Some(toml::Value::Integer(64)));
    assert_eq!(small, large);
}

/// Score of `a` against `b` (win 1, draw ½) over `pairs` seat-swapped pairs of
/// Hoyito II 2x6 games, each pair from one random opening of `opening` plies.
fn match_score(a: &AgentSpec, b: &AgentSpec, pairs: u64, opening: u32, seed: u64) -> (f64, u64) {
    let rules = rules(Variant::Ii, 6);
    let mut points = 0.0;
    for pair in 0..pairs {
        let mut rng = AgentRng::seed_from_u64(seed.wrapping_mul(1_000_003) + pair);
        let mut start = Game::new(rules);
        for _ in 0..opening {
            start.play_random(&mut rng);
        }
        for a_side in hoyito::Side::BOTH {
            let (mut x, mut y) = (a.build(), b.build());
            let agents: BySide<&mut dyn Agent> = match a_side {
                hoyito::Side::South => BySide::new(x.as_mut(), y.as_mut()),
                hoyito::Side::North => BySide::new(y.as_mut(), x.as_mut()),
            };
            let game = play_game(&rules, start.clone(), agents, &mut rng).expect("legal play");
            let outcome = game.outcome().expect("finished");
            points += match outcome.winner {
                Some(w) if w == a_side => 1.0,
                None => 0.5,
                Some(_) => 0.0,
            };
        }
    }
    (points / (2 * pairs) as f64, 2 * pairs)
}

/// Lower end of the 95% Wilson score interval of a proportion `p` out of `n`.
fn wilson_lower(p: f64, n: u64) -> f64 {
    let (n, z) = (n as f64, 1.96f64);
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (centre - spread) / (1.0 + z * z / n)
}

#[test]
fn short_ladder_greedy_beats_random_and_alphabeta_beats_greedy() {
    let ladder = [
        ("kind = \"greedy\"", "kind = \"random\""),
        ("kind = \"alphabeta\"\ndepth = 4", "kind = \"greedy\""),
    ];
    for (i, (a, b)) in ladder.into_iter().enumerate() {
        let (score, n) = match_score(&spec(a), &spec(b), 100, 4, 17 + i as u64);
        let low = wilson_lower(score, n);
        assert!(low > 0.5, "{a} vs {b}: {score:.3} over {n}, lower {low:.3}");
    }
}

#[test]
fn mcts_finds_the_capture_that_earns_a_second_capture() {
    // The position of the alpha-beta test above: only holes 3 and 6 win.
    let rules = rules(Variant::Ii, 6);
    let pos: Position = "0,0,1,3,0,1/3,0,0,0,0,2 S 20-24".parse().unwrap();
    let game = Game::from_position(rules, pos);
    let mut agent = spec("kind = \"mcts\"\niterations = 2000").build();
    let mut rng = AgentRng::seed_from_u64(9);
    let mv = agent.choose(&game, &mut rng);
    assert!([Move::Sow(2), Move::Sow(5)].contains(&mv), "{mv}");
}

#[test]
fn a_stalled_line_scores_by_the_leftover_policy() {
    // Two seeds can never make a casa. South's only move sends its seed to
    // North's row; with a limit of one ply the game then stalls:
    //      N: 6  5  4  3  2  1          N: 6  5  4  3  2  1
    //         1  0  0  0  0  0    ->       1  0  0  0  0  1
    //         0  0  0  0  0  1             0  0  0  0  0  0
    //      S: 1  2  3  4  5  6          S: 1  2  3  4  5  6
    let pos: Position = "0,0,0,0,0,1/0,0,0,0,0,1 S 22-22".parse().unwrap();
    for (leftover, margin) in [(Leftover::None, 0), (Leftover::OwnSide, -2)] {
        let rules = Rules {
            stall: StallRules {
                no_capture_limit: 1,
                repetitions: 3,
                leftover,
            },
            ..rules(Variant::Ii, 6)
        };
        let mut game = Game::from_position(rules, pos);
        let info = AlphaBeta::new(AlphaBetaBudget {
            depth: 6,
            nodes: None,
            time_ms: None,
        })
        .search(&game);
        assert_eq!(info.score, margin, "{leftover:?}");
        game.play(info.best).unwrap();
        let scores = game.outcome().expect("stalled").scores;
        assert_eq!(scores.south as i32 - scores.north as i32, margin);
    }
}

/// Regression (the suite hung with two tests at zero CPU): a thread building
/// shared tables while rayon's global workers ask for the same tables. The
/// builder held the cache's lock and waited for the workers; the workers
/// waited for the lock. Tables are now built on a pool of their own, so this
/// finishes (the test fails on a timeout instead of hanging).
#[test]
fn shared_tables_asked_from_the_global_pool_while_building_never_deadlock() {
    use rayon::prelude::*;
    use std::sync::mpsc;
    use std::time::Duration;
    // A key no other test asks for, so that this test builds it.
    let rules = hoyito::Rules::new(hoyito::Variant::Iii)
        .with_board(3, 4)
        .expect("a board");
    let (done, finished) = mpsc::channel();
    let builder = {
        let done = done.clone();
        std::thread::spawn(move || {
            let tables = hoyito::shared_tables(&rules, 21).expect("built");
            done.send(tables.is_some()).expect("the test waits");
        })
    };
    std::thread::sleep(Duration::from_millis(2));
    std::thread::spawn(move || {
        let all = (0..64)
            .into_par_iter()
            .all(|_| hoyito::shared_tables(&rules, 21).expect("built").is_some());
        done.send(all).expect("the test waits");
    });
    for _ in 0..2 {
        let ok = finished
            .recv_timeout(Duration::from_secs(120))
            .expect("no deadlock: both finish within two minutes");
        assert!(ok);
    }
    builder.join().expect("the builder ends");
}

/// A global-pool worker that builds the shared tables waits for them without
/// taking other work: it used to wait in `install`, steal a sibling job that
/// asked for the same tables, and lock the cache it already held (the whole
/// test binary froze at zero CPU in CI).
#[test]
fn a_worker_building_shared_tables_does_not_take_a_job_that_asks_for_them() {
    use rayon::prelude::*;
    use std::sync::mpsc;
    use std::time::Duration;
    // A key no other test asks for, so that the first job here builds it.
    let rules = hoyito::Rules::new(hoyito::Variant::I)
        .with_board(3, 4)
        .expect("a board");
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        let all = (0..256)
            .into_par_iter()
            .all(|_| hoyito::shared_tables(&rules, 17).expect("built").is_some());
        done.send(all).expect("the test waits");
    });
    let ok = finished
        .recv_timeout(Duration::from_secs(120))
        .expect("no deadlock: every job gets its tables within two minutes");
    assert!(ok);
}

/// A bad fallback in an agent file lists the allowed values (not "is out of
/// range; allowed: " and nothing).
#[test]
fn a_bad_tablebase_fallback_lists_the_allowed_values() {
    let dir = scratch("fallback");
    let cases = [
        (
            "max_seeds = 8\nfallback = { kind = \"alphabeta\", depth = 0 }",
            "field `fallback.depth` is out of range; allowed: 1 to 64",
        ),
        (
            "max_seeds = 8\nfallback = { kind = \"tablebase\", max_seeds = 4 }",
            "field `fallback.kind` is out of range; allowed: random, greedy, alphabeta or mcts",
        ),
    ];
    for (body, expected) in cases {
        std::fs::write(dir.join("tb.toml"), format!("kind = \"tablebase\"\n{body}"))
            .expect("writable");
        let err = Roster::load(&dir).expect_err("refused").to_string();
        assert!(err.contains(expected), "{err}");
    }
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

/// A kind with keys, and a roster agent with a key overridden, are agents
/// wherever an agent is named; a bad key names the closest one.
#[test]
fn agents_are_written_on_the_command_line() {
    let out = hoyito(&["best", "--agent", "alphabeta:depth=3", "-p", START]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        text.starts_with("agent alphabeta-depth3 (alphabeta depth=3)"),
        "{text}"
    );
    assert!(text.contains("\ndepth 3\n"), "{text}");
    let out = hoyito(&["best", "--agent", "champion:nodes=3000", "-p", START]);
    let text = stdout(&out);
    assert!(
        text.starts_with("agent champion-nodes3000 (alphabeta nodes=3000 pvs=true"),
        "{text}"
    );
    let out = hoyito(&["best", "--agent", "mcts:iteration=50", "-p", START]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("unknown key `iteration` for mcts; did you mean `iterations`?"),
        "{err}"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("my-ab.toml");
    std::fs::write(&file, "kind = \"alphabeta\"\ndepth = 2\n").unwrap();
    let out = hoyito(&["best", "--agent", s(&file), "-p", START]);
    assert!(
        stdout(&out).starts_with("agent my-ab (alphabeta depth=2)"),
        "{}",
        stderr(&out)
    );
}

/// `hoyito agents` lists one entry per distinct agent, its aliases beside
/// it, with a description and, where the report has one, a strength.
#[test]
fn agents_are_listed_once_with_what_they_are() {
    let text = stdout(&hoyito(&["agents", "--agents-dir", AGENTS]));
    assert!(
        text.contains("\nchampion, champion-2x6  alphabeta nodes=1000000"),
        "{text}"
    );
    assert!(
        !text.lines().any(|l| l.starts_with("champion-2x6 ")),
        "{text}"
    );
    assert!(
        text.contains("    Uniform random legal moves: the baseline."),
        "{text}"
    );
    assert!(
        text.contains("    strength: best move in 98.2% of 2,000 II 2x6 endgame positions"),
        "{text}"
    );
}

/// The moves of `spec` playing itself for `plies` plies on II 2x6 after a
/// fixed random opening, its choices drawn with the game's generator seeded
/// `seed`.
fn self_play_moves(spec: &AgentSpec, seed: u64, plies: usize) -> Vec<Move> {
    let rules = Rules::new(Variant::Ii).with_board(6, 4).expect("II 2x6");
    let mut game = Game::new(rules);
    let mut opening = AgentRng::seed_from_u64(5);
    for _ in 0..6 {
        game.play_random(&mut opening);
    }
    let mut agents = BySide {
        south: spec.build(),
        north: spec.build(),
    };
    agents.south.new_game(&rules);
    agents.north.new_game(&rules);
    let mut rng = AgentRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    while moves.len() < plies && !game.is_over() {
        let side = game.position().side_to_move();
        let mv = agents[side].choose(&game, &mut rng);
        game.play(mv).expect("a legal move");
        agents.south.observe(&game, mv);
        agents.north.observe(&game, mv);
        moves.push(mv);
    }
    moves
}

/// Every shipped agent that says it is deterministic plays the same moves
/// whatever the game's seed (its self-play pairs are one game twice, which
/// a run may then count once); random and greedy play, which say they are
/// not, do differ, so the check can tell.
#[test]
fn every_agent_that_claims_determinism_plays_alike_from_any_seed() {
    let roster = Roster::builtin();
    let mut checked = Vec::new();
    for agent in roster.agents() {
        if !agent.spec.deterministic() {
            continue;
        }
        let plies = 4;
        let first = self_play_moves(&agent.spec, 1, plies);
        assert_eq!(first.len(), plies, "{}", agent.name);
        for seed in [2, 0x5eed] {
            assert_eq!(
                self_play_moves(&agent.spec, seed, plies),
                first,
                "{} claims to be deterministic",
                agent.name
            );
        }
        checked.push(agent.name.as_str());
    }
    assert!(
        checked.contains(&"champion") && checked.contains(&"alphabeta-d8"),
        "{checked:?}"
    );
    for kind in ["random", "greedy", "mcts-5k"] {
        let spec = &roster.get(kind).expect("shipped").spec;
        assert!(!spec.deterministic(), "{kind}");
        let differ =
            (2..40).any(|seed| self_play_moves(spec, seed, 12) != self_play_moves(spec, 1, 12));
        assert!(differ, "{kind} played alike from 39 seeds");
    }
    let diverse = &roster.get("champion-diverse").expect("shipped").spec;
    assert!(!diverse.deterministic());
}
