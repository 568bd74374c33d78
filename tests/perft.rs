//! Perft regression: move generation against the reference counts of RULES.md,
//! computed there by an independent implementation.

use hoyito::{perft, Position, Rules, Variant};

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
