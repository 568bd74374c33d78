//! `hoyito accuracy` and `hoyito::strength`: agents scored against the exact
//! values of the endgame tables, on boards small enough to build in a test.

use crate::common::{hoyito, s};
use hoyito::solver::Tablebase;
use hoyito::strength::{
    agent_moves, sample_positions, score_moves, tree_positions, Judged, PositionSet, SampleSpec,
};
use hoyito::{AgentSpec, Move, NamedAgent, Position, Rules, Variant};

fn agent(name: &str, spec: AgentSpec) -> NamedAgent {
    NamedAgent {
        name: name.to_string(),
        spec,
    }
}

fn perfect(max_seeds: u32) -> NamedAgent {
    agent(
        "perfect",
        AgentSpec::Tablebase {
            max_seeds,
            depth: 4,
            fallback: None,
            tables: None,
        },
    )
}

fn tables(holes: u8, layers: &[u32]) -> Tablebase {
    let mut tb = Tablebase::new(Variant::Ii, holes).unwrap();
    for &k in layers {
        tb.ensure(k, None, &|_| {}).unwrap();
    }
    tb
}

fn sampled(holes: u32, max_seeds: u32, count: usize, seed: u64) -> PositionSet {
    let rules = Rules::new(Variant::Ii).with_board(holes, 4).unwrap();
    let spec = SampleSpec {
        min_seeds: 2,
        max_seeds,
        count,
        seed,
    };
    PositionSet {
        rules,
        positions: sample_positions(&rules, spec).unwrap(),
        seed,
    }
}

#[test]
fn the_tablebase_agent_is_perfect_and_random_is_not() {
    let set = sampled(3, 8, 150, 3);
    let tb = tables(3, &(0..=8).collect::<Vec<_>>());
    let judged = Judged::all(&tb, &set.positions).unwrap();
    let score = |a: &NamedAgent| {
        let moves = agent_moves(&set, a, &|_| {}).unwrap();
        score_moves(&a.name, &judged, &moves).unwrap()
    };
    let best = score(&perfect(8));
    assert_eq!((best.positions, best.best, best.max_loss), (150, 150, 0));
    assert_eq!(best.loss.mean, 0.0);
    let random = score(&agent("random", AgentSpec::Random));
    assert!(random.best < 140, "{random:?}");
    assert!(random.loss.mean > 0.5, "{random:?}");
    assert!(random.loss.low.unwrap() > 0.0);
    // Every position of the sample offered a choice with a move that loses:
    // the random agent's share is far below the perfect one's.
    assert!(random.best_share.high < best.best_share.low, "{random:?}");
}

#[test]
fn moves_do_not_depend_on_the_thread_count() {
    let set = sampled(3, 10, 200, 11);
    let moves = |threads: usize, a: &NamedAgent| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| agent_moves(&set, a, &|_| {}).unwrap())
    };
    for a in [
        agent("random", AgentSpec::Random),
        agent("greedy", AgentSpec::Greedy),
    ] {
        assert_eq!(moves(1, &a), moves(3, &a), "{}", a.name);
    }
    // And the draw itself is the same for the same seed.
    assert_eq!(set.positions, sampled(3, 10, 200, 11).positions);
}

/// 2x2, `1,3/0,0 S 0-0`, worked by hand: hole 1 sows its seed into hole 2,
/// which makes a casa of four: South takes all the seeds, +4. Hole 2 sows
/// 3 seeds round to hole 1 (2 seeds: relay), on to North's hole 1 (2: relay),
/// ending in South's empty hole 1: `1,1/0,2 N`. There each side has one move
/// and the two positions alternate forever (North: `2,0/1,1 S`, South: back
/// to `1,1/0,2 N`) without a capture: endless play, worth 0. So the value is
/// 4, and hole 2 loses 4 seeds.
#[test]
fn a_hand_checked_position_loses_four_seeds() {
    let pos: Position = "1,3/0,0 S 0-0".parse().unwrap();
    let tb = tables(2, &[4]);
    let judged = Judged::all(&tb, &[pos]).unwrap();
    assert_eq!(judged[0].probe.value, 4);
    assert_eq!(judged[0].probe.best_moves(), vec![Move::Sow(0)]);
    assert_eq!(judged[0].loss(Move::Sow(0)), Some(0));
    assert_eq!(judged[0].loss(Move::Sow(1)), Some(4));
    let acc = score_moves("x", &judged, &[Move::Sow(1)]).unwrap();
    assert_eq!((acc.best, acc.max_loss), (0, 4));
}

#[test]
fn the_opening_tree_is_scored_exactly() {
    let rules = Rules::new(Variant::Ii).with_board(3, 4).unwrap();
    let tree = tree_positions(&rules, 6);
    assert!(tree.positions.len() > 20, "{}", tree.positions.len());
    let tb = tables(3, &[24]);
    let judged = Judged::all(&tb, &tree.positions).unwrap();
    let set = PositionSet {
        rules,
        positions: tree.positions,
        seed: 5,
    };
    let moves = agent_moves(&set, &perfect(24), &|_| {}).unwrap();
    let acc = score_moves("perfect", &judged, &moves).unwrap();
    assert_eq!(acc.best, acc.positions);
}

fn roster() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("random.toml"), "kind = \"random\"\n").unwrap();
    std::fs::write(
        dir.path().join("perfect.toml"),
        "kind = \"tablebase\"\nmax_seeds = 8\n",
    )
    .unwrap();
    dir
}

fn accuracy(agents: &tempfile::TempDir, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "accuracy",
        "--variant",
        "ii",
        "--holes",
        "3",
        "--agents-dir",
        s(agents.path()),
    ];
    args.extend_from_slice(extra);
    hoyito(&args)
}

#[test]
fn the_command_prints_and_writes_the_same_figures_on_any_thread_count() {
    let agents = roster();
    let out = tempfile::tempdir().unwrap();
    let common = [
        "--max-seeds",
        "8",
        "--positions",
        "60",
        "--seed",
        "4",
        "--agents",
        "perfect,random",
    ];
    let one = accuracy(&agents, &[&common[..], &["--threads", "1"]].concat());
    assert!(
        one.status.success(),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
    let two = accuracy(
        &agents,
        &[&common[..], &["--threads", "2", "--out", s(out.path())]].concat(),
    );
    assert!(two.status.success());
    assert_eq!(one.stdout, two.stdout);
    let table = String::from_utf8(one.stdout).unwrap();
    assert!(table.contains("| perfect | 60 | 100.0% |"), "{table}");
    assert!(table.contains("| random | 60 |"), "{table}");
    let md = std::fs::read_to_string(out.path().join("accuracy-ii-2x3-s8.md")).unwrap();
    assert_eq!(md, table);
    let csv = std::fs::read_to_string(out.path().join("accuracy-ii-2x3-s8.csv")).unwrap();
    assert!(csv.contains("\nperfect,60,60,1,"), "{csv}");
    let rows =
        std::fs::read_to_string(out.path().join("accuracy-ii-2x3-s8-positions.csv")).unwrap();
    assert_eq!(rows.lines().count(), 61);
    assert!(out.path().join("accuracy-ii-2x3-s8.json").exists());
}

#[test]
fn bad_flags_are_one_line_errors() {
    let agents = roster();
    let cases: [(&[&str], &str); 6] = [
        (
            &["--max-seeds", "8", "--agents", "nobody"],
            "no agent named \"nobody\"",
        ),
        (
            &["--max-seeds", "1", "--agents", "random"],
            "--max-seeds 1 is too small",
        ),
        (
            &["--max-seeds", "121", "--agents", "random"],
            "out of range",
        ),
        (
            &["--max-seeds", "8", "--positions", "0", "--agents", "random"],
            "--positions 0",
        ),
        (&["--agents", "random"], "--max-seeds"),
        (
            &[
                "--max-seeds",
                "8",
                "--tree-plies",
                "3",
                "--agents",
                "random",
            ],
            "cannot be used with",
        ),
    ];
    for (extra, expected) in cases {
        let out = accuracy(&agents, extra);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{extra:?}");
        assert!(stderr.contains(expected), "{extra:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{extra:?}: {stderr}");
    }
    // The whole game of 2x6 is far beyond the tables.
    let out = hoyito(&[
        "accuracy",
        "--variant",
        "ii",
        "--holes",
        "6",
        "--tree-plies",
        "2",
        "--agents",
        "random",
        "--agents-dir",
        s(agents.path()),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("too many to solve in memory"), "{stderr}");
}
