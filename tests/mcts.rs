//! MCTS: the default path plays the moves it played before the enhancements;
//! MCTS-Solver's proofs agree with the exact tables; the root plays a proven
//! win; tree reuse is reproducible and stays within one game; the evaluation
//! leaf and the enhancements find a known winning move.

use hoyito::solver::index::LayerIndex;
use hoyito::solver::Tablebase;
use hoyito::{
    AgentRng, AgentSpec, Game, Mcts, MctsOptions, MctsParams, Move, Position, Proof, RolloutPolicy,
    Rules, Side, StallRules, Variant,
};
use rand::{Rng, SeedableRng};

fn spec(text: &str) -> AgentSpec {
    toml::from_str(text).expect("a valid spec")
}

fn self_play(text: &str, variant: Variant, holes: u32, seed: u64, plies: usize) -> Vec<Move> {
    let rules = Rules::new(variant)
        .with_board(holes, 4)
        .expect("valid board");
    let mut game = Game::new(rules);
    let mut agent = spec(text).build();
    agent.new_game(&rules);
    let mut rng = AgentRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    while !game.is_over() && moves.len() < plies {
        let mv = agent.choose(&game, &mut rng);
        game.play(mv).expect("legal");
        moves.push(mv);
    }
    moves
}

fn written(moves: &[Move]) -> String {
    let s: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    s.join(" ")
}

/// Moves played by the code before the enhancements (main at 2066796), so that
/// the default path stays draw for draw the same; the enhancements' keys
/// written with their "off" values change nothing either.
#[test]
fn the_default_path_plays_the_moves_it_played_before() {
    const OFF: &str = "\nsolver = false\nprogressive_bias = 0.0\nrave = 0\ngrave_ref = 50";
    for (text, variant, holes, seed, expected) in [
        (
            "kind = \"mcts\"\niterations = 300",
            Variant::Ii,
            6,
            1,
            "6 5 3 6 1 5 4 1 6 3 3 1 2 1 1 4 6 2 1 3 2 1 1 2 5 1 3 5 1 2 3 3",
        ),
        (
            "kind = \"mcts\"\niterations = 200\nrollout = \"greedy\"\nrollout_cap = 20",
            Variant::Iii,
            6,
            2,
            "6 2 4 6 1 2 6 1 3 4 2 5 3 5 6 3 4 5 5 1 1 2 5 3 1 1 2 2 4 5 3 6 4 1 5",
        ),
        (
            "kind = \"mcts\"\niterations = 100\nrollout_cap = 10",
            Variant::I,
            12,
            3,
            "2 12 9 10 12 8 5 3 4 1 5 11 1 8 1 11 6 4 9 5 12 8 3 1 4 4 7 8 8 11 3 9 6 6 7 10 2 2 9 4",
        ),
    ] {
        let moves = self_play(text, variant, holes, seed, 40);
        assert_eq!(written(&moves), expected, "{text}");
        let off = self_play(&format!("{text}{OFF}"), variant, holes, seed, 40);
        assert_eq!(written(&off), expected, "{text}{OFF}");
    }
}

/// The rules of the tables: no stall rule (endless play is worth nothing more,
/// which is what the tables assume), the capturer takes the last seeds.
fn table_rules(tb: &Tablebase) -> Rules {
    Rules {
        stall: StallRules {
            no_capture_limit: 0,
            repetitions: 0,
            ..StallRules::default()
        },
        ..*tb.rules()
    }
}

fn solver(iterations: u32) -> Mcts {
    Mcts::new(MctsParams {
        iterations,
        exploration: MctsParams::DEFAULT_EXPLORATION,
        rollout: RolloutPolicy::Random,
        rollout_cap: MctsParams::DEFAULT_ROLLOUT_CAP,
    })
    .with_options(MctsOptions {
        solver: true,
        ..MctsOptions::default()
    })
}

fn proof_of(value: i8) -> Proof {
    match value.signum() {
        1 => Proof::Win,
        0 => Proof::Draw,
        _ => Proof::Loss,
    }
}

/// MCTS-Solver never calls a lost position won: on random II and III 2x4
/// positions of 4 to 8 seeds (no captures yet, so the table's margin to come is
/// the final margin), every proof at the root and at each root move agrees
/// with the exact tables; a fifth of the positions at least get proven (without
/// a stall limit, lines that can go on for ever are never proven); a proven win is played
/// at once, and is a winning move.
#[test]
fn solver_proofs_agree_with_the_tables() {
    let mut rng = AgentRng::seed_from_u64(12);
    for variant in [Variant::Ii, Variant::Iii] {
        let tb = {
            let mut tb = Tablebase::new(variant, 4).expect("a valid board");
            for k in 0..=8 {
                tb.ensure(k, None, &|_| {}).expect("a small build");
            }
            tb
        };
        let rules = table_rules(&tb);
        let (mut tried, mut proven, mut move_proofs) = (0, 0, 0);
        for seeds in 4..=8 {
            let index = LayerIndex::new(4, seeds);
            for _ in 0..25 {
                let board = index.unrank(rng.random_range(0..index.count()));
                let side = if rng.random_bool(0.5) {
                    Side::South
                } else {
                    Side::North
                };
                let pos: Position = index.position(board, side);
                let game = Game::from_position(rules, pos);
                if game.is_over() || game.legal_moves().len() < 2 {
                    continue;
                }
                let probe = tb.probe(&pos).expect("the layers are built");
                let info = solver(3000).search_info(&game, &mut rng);
                tried += 1;
                if info.proven != Proof::Unknown {
                    proven += 1;
                    assert_eq!(info.proven, proof_of(probe.value), "{pos}");
                    assert!(info.iterations < 3000, "{pos}: it stops once proven");
                }
                if info.proven == Proof::Win {
                    let value = probe
                        .moves
                        .iter()
                        .find(|m| m.0 == info.best)
                        .expect("legal");
                    assert!(value.1 > 0, "{pos}: {} is not a winning move", info.best);
                }
                for stats in &info.moves {
                    if stats.proof != Proof::Unknown {
                        move_proofs += 1;
                        let value = probe.moves.iter().find(|m| m.0 == stats.mv).expect("legal");
                        assert_eq!(stats.proof, proof_of(value.1), "{pos} {}", stats.mv);
                    }
                }
            }
        }
        assert!(tried >= 60, "{tried}");
        assert!(
            5 * proven >= tried,
            "{variant:?}: {proven} of {tried} proven"
        );
        assert!(2 * move_proofs >= tried, "{move_proofs}");
    }
}

/// The position of tests/agents.rs where only holes 3 and 6 win (a capture
/// that earns a second capture): the solver proves the win and plays it.
#[test]
fn the_root_plays_a_proven_win() {
    let rules = Rules::new(Variant::Ii).with_board(6, 4).expect("valid");
    let pos: Position = "0,0,1,3,0,1/3,0,0,0,0,2 S 20-24".parse().unwrap();
    let game = Game::from_position(rules, pos);
    let mut rng = AgentRng::seed_from_u64(9);
    let info = solver(20_000).search_info(&game, &mut rng);
    assert_eq!(info.proven, Proof::Win);
    assert!(
        [Move::Sow(2), Move::Sow(5)].contains(&info.best),
        "{}",
        info.best
    );
    assert!(info.iterations < 20_000);
}

/// Every enhancement, and the evaluation leaf alone, still finds the winning
/// move of that position.
#[test]
fn the_enhancements_find_the_winning_move() {
    let rules = Rules::new(Variant::Ii).with_board(6, 4).expect("valid");
    let pos: Position = "0,0,1,3,0,1/3,0,0,0,0,2 S 20-24".parse().unwrap();
    let game = Game::from_position(rules, pos);
    for extra in [
        "rollout = \"none\"",
        "rollout = \"greedy\"\nrollout_cap = 10",
        "progressive_bias = 1.0",
        "rave = 300",
        "rave = 300\ngrave_ref = 50",
        "solver = true\nprogressive_bias = 1.0\nrave = 300\ngrave_ref = 50\nrollout_cap = 10",
    ] {
        let mut agent = spec(&format!("kind = \"mcts\"\niterations = 2000\n{extra}")).build();
        let mut rng = AgentRng::seed_from_u64(9);
        let mv = agent.choose(&game, &mut rng);
        assert!([Move::Sow(2), Move::Sow(5)].contains(&mv), "{extra}: {mv}");
    }
}

/// Tree reuse: the same seed gives the same game; the first move is a fresh
/// search's; the enhanced agent's first move is the plain one's when only
/// reuse is on.
#[test]
fn tree_reuse_is_reproducible() {
    let text = "kind = \"mcts\"\niterations = 300\nreuse = true";
    let a = self_play(text, Variant::Ii, 6, 5, 30);
    let b = self_play(text, Variant::Ii, 6, 5, 30);
    assert_eq!(a, b);
    let fresh = self_play("kind = \"mcts\"\niterations = 300", Variant::Ii, 6, 5, 1);
    assert_eq!(a[0], fresh[0]);
    let enhanced = "kind = \"mcts\"\niterations = 300\nreuse = true\nsolver = true\nrave = 100\ngrave_ref = 20\nprogressive_bias = 0.5";
    assert_eq!(
        self_play(enhanced, Variant::Iii, 6, 6, 30),
        self_play(enhanced, Variant::Iii, 6, 6, 30)
    );
}

/// The subtree of the position reached is kept (its playouts count at the new
/// root); a new game, or a game that does not continue the searched one,
/// starts afresh.
#[test]
fn tree_reuse_keeps_the_subtree_within_one_game() {
    let rules = Rules::new(Variant::Ii).with_board(6, 4).expect("valid");
    let mut mcts = Mcts::new(MctsParams {
        iterations: 2000,
        exploration: MctsParams::DEFAULT_EXPLORATION,
        rollout: RolloutPolicy::Random,
        rollout_cap: MctsParams::DEFAULT_ROLLOUT_CAP,
    })
    .with_options(MctsOptions {
        reuse: true,
        ..MctsOptions::default()
    });
    let mut rng = AgentRng::seed_from_u64(3);
    let mut game = Game::new(rules);
    let first = mcts.search_info(&game, &mut rng);
    assert_eq!((first.reused_nodes, first.root_visits), (0, 2000));
    game.play(first.best).unwrap();
    // The most visited reply of the opponent is deep in our tree.
    let reply = mcts.search_info(&game, &mut rng);
    assert!(reply.reused_nodes > 1, "{}", reply.reused_nodes);
    assert!(reply.root_visits > 2000 + first.best_visits / 2);
    game.play(reply.best).unwrap();
    let again = mcts.search_info(&game, &mut rng);
    assert!(again.reused_nodes > 1);
    // Another game: nothing kept, even without `new_game`.
    let other = Game::from_position(rules, "4,4,4,4,4,4/4,4,4,4,4,4 N 0-0".parse().unwrap());
    let fresh = mcts.search_info(&other, &mut rng);
    assert_eq!((fresh.reused_nodes, fresh.root_visits), (0, 2000));
}
