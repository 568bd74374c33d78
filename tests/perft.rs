//! Perft regression: move generation against the reference counts of RULES.md,
//! computed there by an independent implementation; and perft at any depth,
//! past the stack's reach, on a position that cycles.

use hoyito::{perft, Position, Rules, Variant};

use crate::common::{hoyito, stdout};

/// (holes, variant, counts from depth 1).
const REFERENCE: &[(u32, Variant, &[u64])] = &[
    (6, Variant::I, &[6, 32, 140, 638, 3029, 13793]),
    (6, Variant::Ii, &[6, 32, 158, 819, 4044, 19922]),
    (6, Variant::Iii, &[6, 32, 158, 820, 4056, 20065]),
    (12, Variant::I, &[12, 116, 1223, 12429, 121705]),
    (12, Variant::Ii, &[12, 116, 1214, 12535, 127461]),
    (12, Variant::Iii, &[12, 116, 1214, 12535, 127483]),
];

#[test]
fn perft_from_the_start_matches_rules_md() {
    for &(holes, variant, counts) in REFERENCE {
        let rules = Rules::new(variant).with_board(holes, 4).unwrap();
        let start = Position::start(&rules);
        for (d, &expected) in counts.iter().enumerate() {
            let depth = d as u32 + 1;
            assert_eq!(
                perft(&start, &rules, depth),
                expected,
                "2x{holes} {variant} depth {depth}"
            );
        }
    }
}

#[test]
fn perft_of_depth_zero_is_one_and_of_a_finished_game_zero() {
    let rules = Rules::new(Variant::Ii);
    let over: Position = "0,0,0,0,0,0/0,0,0,0,0,0 S 24-24".parse().unwrap();
    assert_eq!(perft(&over, &rules, 0), 1);
    assert_eq!(perft(&over, &rules, 3), 0);
}

/// Perft at depth 100000 on a position that cycles answers, without a stack
/// overflow. Two seeds go round 2x2 forever: one move each ply, count 1.
#[test]
fn perft_of_a_cycling_position_at_depth_100000_answers() {
    let args = [
        "perft",
        "--variant",
        "ii",
        "--position",
        "0,1/1,0 S 0-0",
        "--depth",
        "100000",
    ];
    let out = hoyito(&args);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout(&out), "1\n");
    let help = stdout(&hoyito(&["perft", "--help"]));
    assert!(help.contains("ignores the stall rules"), "{help}");
}

/// The deep walk (a heap stack beyond 64 plies) counts what plain recursion
/// counts, on a cycling 2x3 position whose tree branches.
#[test]
fn the_deep_walk_counts_as_recursion_does() {
    fn reference(pos: &Position, rules: &Rules, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        pos.for_each_child(rules, |_, child, _| {
            total += reference(&child, rules, depth - 1)
        });
        total
    }
    let rules = Rules::new(Variant::Ii);
    let pos: Position = "0,1,0/1,0,0 S 0-0".parse().expect("a position");
    for depth in [63, 64, 65, 70] {
        assert_eq!(
            perft(&pos, &rules, depth),
            reference(&pos, &rules, depth),
            "depth {depth}"
        );
    }
}
