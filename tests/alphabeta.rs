//! The enhanced alpha-beta search: each enhancement keeps the search exact
//! where it must be, the endgame tables give exact scores, the quiescence
//! search ends and respects its window, and the table kept between moves and
//! the node budgets keep play reproducible.

use hoyito::solver::Tablebase;
use hoyito::strength::{sample_positions, SampleSpec};
use hoyito::{
    play_game, Agent, AgentRng, AgentSpec, AlphaBeta, AlphaBetaBudget, BySide, Game, Move,
    Position, Rules, SearchOptions, Variant,
};
use rand::{Rng, SeedableRng};

fn budget(depth: u32) -> AlphaBetaBudget {
    AlphaBetaBudget {
        depth,
        nodes: None,
        time_ms: None,
    }
}

fn spec(text: &str) -> AgentSpec {
    let spec: AgentSpec = toml::from_str(text).expect("a valid spec");
    spec.validate().expect("in range");
    spec
}

/// Every ordering and window enhancement on; `aspiration` seeds wide.
fn ordering_and_windows(aspiration: u32) -> SearchOptions {
    SearchOptions {
        pvs: true,
        aspiration,
        killers: true,
        history: true,
        ..SearchOptions::default()
    }
}

/// `count` positions of seeded random games under `rules` (fresh games from
/// them, so that no history plays a part), none of them over.
fn positions(rules: &Rules, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = AgentRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut game = Game::new(*rules);
        for _ in 0..rng.random_range(0..30) {
            if !game.is_over() {
                game.play_random(&mut rng);
            }
        }
        if !game.is_over() {
            out.push(*game.position());
        }
    }
    out
}

fn rules(variant: Variant, holes: u32, seeds: u32) -> Rules {
    Rules::new(variant)
        .with_board(holes, seeds)
        .expect("a valid board")
}

/// Without a transposition table a fixed-depth alpha-beta score is the exact
/// depth-limited minimax value whatever the move order and window, so PVS,
/// aspiration (a narrow window, re-searched on most positions), killers and
/// history must give the plain search's score, on 36 positions of every
/// variant on 2x4 and 2x6.
#[test]
fn enhancements_keep_the_plain_score_at_fixed_depth() {
    let mut checked = 0;
    for variant in Variant::ALL {
        for (holes, depth) in [(4, 7), (6, 5)] {
            let rules = rules(variant, holes, 4);
            for pos in positions(&rules, 6, 7 + holes as u64) {
                let game = Game::from_position(rules, pos);
                let plain = AlphaBeta::new(budget(depth))
                    .without_transpositions()
                    .search(&game);
                for aspiration in [0, 1, 3] {
                    let enhanced = AlphaBeta::new(budget(depth))
                        .with_options(ordering_and_windows(aspiration))
                        .without_transpositions()
                        .search(&game);
                    assert_eq!(
                        enhanced.score, plain.score,
                        "{variant} {pos} aspiration {aspiration}"
                    );
                    assert_eq!(enhanced.depth, depth);
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 36);
}

/// With the table on, the enhanced search still finds the plain search's
/// score on the hand-made position of tests/agents.rs (two casas and the last
/// seeds: +6), and its principal variation starts with its move.
#[test]
fn the_enhanced_search_with_its_table_finds_the_double_capture() {
    let rules = rules(Variant::Ii, 6, 4);
    let pos: Position = "0,0,1,3,0,1/3,0,0,0,0,2 S 20-24".parse().unwrap();
    let game = Game::from_position(rules, pos);
    let mut searcher = AlphaBeta::new(budget(6)).with_options(ordering_and_windows(2));
    let info = searcher.search(&game);
    assert_eq!(info.score, 6, "{info:?}");
    let pv = searcher.principal_variation(&game, info.best, 8);
    assert_eq!(pv[0], info.best);
    assert!(pv.len() >= 2, "{pv:?}");
}

/// Inside the tables, the search's score is the tables' exact value (what
/// `hoyito probe` prints) plus the captures so far, at any depth: 2x4 with two
/// seeds a hole, tables up to 16 seeds (the whole game), every variant.
#[test]
fn inside_the_tables_the_score_is_the_exact_value() {
    for variant in Variant::ALL {
        let rules = rules(variant, 4, 2);
        let mut tb = Tablebase::new(variant, 4).unwrap();
        for k in 0..=16 {
            tb.ensure(k, None, &|_| {}).unwrap();
        }
        let options = SearchOptions {
            max_seeds: Some(16),
            ..SearchOptions::default()
        };
        for pos in positions(&rules, 12, 5) {
            let game = Game::from_position(rules, pos);
            let probe = tb.probe(&pos).expect("inside the tables");
            let material = pos.captures()[pos.side_to_move()] as i32
                - pos.captures()[pos.side_to_move().opponent()] as i32;
            for depth in [1, 3] {
                let mut searcher = AlphaBeta::new(budget(depth)).with_options(options.clone());
                let info = searcher.search(&game);
                assert_eq!(
                    info.score,
                    probe.value as i32 + material,
                    "{variant} {pos} depth {depth}"
                );
                assert!(probe.best_moves().contains(&info.best), "{variant} {pos}");
            }
        }
    }
}

/// Quiescence resolves the captures pending at the horizon: one ply with
/// quiescence sees the double capture (+6) that the plain search needs more
/// plies for, and its score does not depend on the window it was searched in
/// (aspiration windows of every width, with and without PVS) on 30 positions.
#[test]
fn quiescence_resolves_captures_and_respects_its_window() {
    let rules6 = rules(Variant::Ii, 6, 4);
    let pos: Position = "0,0,1,3,0,1/3,0,0,0,0,2 S 20-24".parse().unwrap();
    let game = Game::from_position(rules6, pos);
    let q = |quiescence| SearchOptions {
        quiescence,
        ..SearchOptions::default()
    };
    assert_ne!(AlphaBeta::new(budget(1)).search(&game).score, 6);
    let info = AlphaBeta::new(budget(1)).with_options(q(8)).search(&game);
    assert_eq!(info.score, 6, "{info:?}");
    for variant in Variant::ALL {
        let rules = rules(variant, 6, 4);
        for pos in positions(&rules, 10, 21) {
            let game = Game::from_position(rules, pos);
            let full = AlphaBeta::new(budget(4))
                .with_options(q(32))
                .without_transpositions()
                .search(&game);
            for aspiration in [1, 4] {
                let windowed = AlphaBeta::new(budget(4))
                    .with_options(SearchOptions {
                        quiescence: 32,
                        ..ordering_and_windows(aspiration)
                    })
                    .without_transpositions()
                    .search(&game);
                assert_eq!(windowed.score, full.score, "{variant} {pos}");
            }
        }
    }
}

fn moves_of(a: &AgentSpec, b: &AgentSpec, rules: Rules, seed: u64) -> Vec<Move> {
    let mut rng = AgentRng::seed_from_u64(seed);
    let (mut x, mut y) = (a.build(), b.build());
    let agents: BySide<&mut dyn Agent> = BySide::new(x.as_mut(), y.as_mut());
    let game = play_game(&rules, Game::new(rules), agents, &mut rng).expect("legal play");
    game.moves().to_vec()
}

/// The table kept between the moves of a game, and a node budget, give the
/// same game every time.
#[test]
fn kept_tables_and_node_budgets_are_reproducible() {
    let rules = rules(Variant::Ii, 6, 4);
    let enhanced = spec(
        "kind = \"alphabeta\"\nnodes = 20000\npvs = true\naspiration = 2\nkillers = true\n\
         history = true\nquiescence = 6",
    );
    let plain = spec("kind = \"alphabeta\"\ndepth = 5");
    let first = moves_of(&enhanced, &plain, rules, 3);
    assert!(first.len() > 10, "{first:?}");
    assert_eq!(first, moves_of(&enhanced, &plain, rules, 3));
    assert_eq!(
        first,
        moves_of(&enhanced, &plain, rules, 4),
        "no randomness"
    );
    // The same with a full table that keeps its deep entries from move to
    // move (the ages of the entries are part of the search's state).
    let deep = spec(
        "kind = \"alphabeta\"\nnodes = 20000\npvs = true\naspiration = 2\nquiescence = 4\n\
         tt_mb = 1\ntt_deep = true",
    );
    let game = moves_of(&deep, &plain, rules, 3);
    assert!(game.len() > 10, "{game:?}");
    assert_eq!(game, moves_of(&deep, &plain, rules, 5));
    // A node budget stops the deepening soon after it is spent.
    let game = Game::new(rules);
    let mut searcher = enhanced.alphabeta().unwrap();
    let info = searcher.search(&game);
    assert!(info.nodes < 20_000 + 64, "{info:?}");
    assert_eq!(info, enhanced.alphabeta().unwrap().search(&game));
}

/// The table is not carried from one game to another: a searcher that
/// searched another game answers as a fresh one, node for node.
#[test]
fn the_table_is_not_reused_across_games() {
    let rules = rules(Variant::Ii, 6, 4);
    let mut rng = AgentRng::seed_from_u64(9);
    let mut other = Game::new(rules);
    for _ in 0..6 {
        other.play_random(&mut rng);
    }
    let game = Game::from_position(rules, positions(&rules, 1, 2)[0]);
    for options in [SearchOptions::default(), ordering_and_windows(2)] {
        let fresh = AlphaBeta::new(budget(7))
            .with_options(options.clone())
            .search(&game);
        let mut used = AlphaBeta::new(budget(7)).with_options(options);
        used.search(&other);
        assert_eq!(used.search(&game), fresh);
    }
}

/// Late move reductions search a late quiet move a few plies shallower with
/// a null window first, and again at full depth when it beats alpha. Where
/// the same search without reductions (PVS, killers, history) has reached
/// the exact value (the tables', at depth 8 and again at 16: the lines end
/// well inside the horizon), the reduced search at depth 16 must find it
/// too, while searching fewer nodes. Hoyito II 2x6 endgames of 6 to 10 seeds drawn from the tables.
/// (This does not catch a missing search again at full depth: in these
/// endgames the null window's fail-soft bound of a reduced move that beats
/// alpha is nearly always its exact value, checked by removing it.)
#[test]
fn late_move_reductions_keep_the_exact_value_where_the_lines_end() {
    let rules = rules(Variant::Ii, 6, 4);
    let mut tb = Tablebase::new(Variant::Ii, 6).unwrap();
    for k in 0..=10 {
        tb.ensure(k, None, &|_| {}).unwrap();
    }
    let spec = SampleSpec {
        min_seeds: 6,
        max_seeds: 10,
        count: 80,
        seed: 17,
    };
    let mut checked = 0;
    let mut reduced = 0;
    for pos in sample_positions(&rules, spec).unwrap() {
        let game = Game::from_position(rules, pos);
        let exact = tb.probe(&pos).expect("inside the tables").value as i32;
        let unreduced = |depth| {
            AlphaBeta::new(budget(depth))
                .with_options(ordering_and_windows(0))
                .without_transpositions()
                .search(&game)
        };
        let (shallow, deep) = (unreduced(8), unreduced(16));
        if shallow.score != exact || deep.score != exact {
            continue;
        }
        for reductions in [1, 2] {
            let info = AlphaBeta::new(budget(16))
                .with_options(SearchOptions {
                    reductions,
                    ..ordering_and_windows(0)
                })
                .without_transpositions()
                .search(&game);
            assert_eq!(info.score, exact, "{pos} reductions {reductions}");
            reduced += usize::from(info.nodes < deep.nodes);
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} positions settled");
    assert!(
        reduced >= checked,
        "reductions cut the search on only {reduced}"
    );
}

/// What the reductions are for: the same node budget reaches a greater
/// depth. Ten positions of random II 2x12 games, 200,000 nodes a search,
/// the champion's options with and without `reductions = 1`.
#[test]
fn late_move_reductions_search_deeper_on_the_same_budget() {
    let rules = rules(Variant::Ii, 12, 4);
    let champion = SearchOptions {
        pvs: true,
        aspiration: 2,
        quiescence: 4,
        ..SearchOptions::default()
    };
    let budget = AlphaBetaBudget {
        depth: 64,
        nodes: Some(200_000),
        time_ms: None,
    };
    let (mut plain, mut reduced) = (0, 0);
    for pos in positions(&rules, 10, 23) {
        let game = Game::from_position(rules, pos);
        plain += AlphaBeta::new(budget)
            .with_options(champion.clone())
            .search(&game)
            .depth;
        reduced += AlphaBeta::new(budget)
            .with_options(SearchOptions {
                reductions: 1,
                ..champion.clone()
            })
            .search(&game)
            .depth;
    }
    assert!(
        reduced > plain,
        "depths summed: {reduced} with reductions, {plain} without"
    );
}

/// What `tt_deep` is for: a small table overwritten many times over keeps its
/// deep entries, so the same node budget reaches a greater depth. The first
/// eight positions of the balanced II 2x12 book (eight plies in), four
/// million nodes a search in a 1 MiB table (65,536 slots, about as full as
/// the champion's sixteen million nodes in 4 MiB), the champion's search
/// with and without it.
#[test]
fn a_table_that_keeps_its_deep_entries_searches_deeper_on_the_same_budget() {
    let rules = rules(Variant::Ii, 12, 4);
    let champion = SearchOptions {
        pvs: true,
        aspiration: 2,
        quiescence: 4,
        tt_mb: Some(1),
        ..SearchOptions::default()
    };
    let budget = AlphaBetaBudget {
        depth: 64,
        nodes: Some(4_000_000),
        time_ms: None,
    };
    let book = include_str!("../openings/strength/ii-2x12-deep.txt");
    let entries = book.lines().filter(|l| !l.starts_with('#')).take(8);
    let (mut always, mut deep) = (0, 0);
    for entry in entries {
        let pos: Position = entry.split('|').next().unwrap().trim().parse().unwrap();
        let game = Game::from_position(rules, pos);
        always += AlphaBeta::new(budget)
            .with_options(champion.clone())
            .search(&game)
            .depth;
        deep += AlphaBeta::new(budget)
            .with_options(SearchOptions {
                tt_deep: true,
                ..champion.clone()
            })
            .search(&game)
            .depth;
    }
    assert!(
        deep >= always + 4,
        "depths summed: {deep} keeping deep entries, {always} always replacing"
    );
}

/// The pair of slots and their ages change what the table keeps, never what
/// a score means. On positions of random II 2x4 games with two seeds a
/// hole, searched to depth 10 with endgame tables up to 8 seeds: where the
/// same search without a table finds the exact value (the full tables'),
/// the search with `tt_deep` in a 1 MiB table finds it too, the table kept
/// from one position to the next.
#[test]
fn a_table_that_keeps_its_deep_entries_keeps_the_exact_values() {
    let rules = rules(Variant::Ii, 4, 2);
    let mut tb = Tablebase::new(Variant::Ii, 4).unwrap();
    for k in 0..=16 {
        tb.ensure(k, None, &|_| {}).unwrap();
    }
    let options = SearchOptions {
        pvs: true,
        aspiration: 2,
        quiescence: 4,
        max_seeds: Some(8),
        tt_mb: Some(1),
        tt_deep: true,
        ..SearchOptions::default()
    };
    let mut searcher = AlphaBeta::new(budget(10)).with_options(options.clone());
    let mut checked = 0;
    for pos in positions(&rules, 200, 31) {
        if pos.seeds_on_board() <= 8 {
            continue;
        }
        let game = Game::from_position(rules, pos);
        let me = pos.side_to_move();
        let so_far = pos.captures()[me] as i32 - pos.captures()[me.opponent()] as i32;
        let exact = tb.probe(&pos).expect("inside the tables").value as i32 + so_far;
        let without = AlphaBeta::new(budget(10))
            .with_options(options.clone())
            .without_transpositions()
            .search(&game);
        if without.score == exact {
            assert_eq!(searcher.search(&game).score, exact, "{pos}");
            checked += 1;
        }
    }
    assert!(checked >= 50, "only {checked} positions settled");
}
