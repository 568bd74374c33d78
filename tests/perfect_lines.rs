//! The proof search's first moves and perfect openings: each first move's
//! proved value against the reachable-only solve, every perfect line kept and
//! no other, and `hoyito solve --start --prove --book` writing a book that
//! reads back, or refusing when the start is not proved exact.

use std::collections::HashSet;

use hoyito::openings::Book;
use hoyito::solver::bounds::{perfect_lines, prove_first_moves, BoundsBudget};
use hoyito::solver::start::{StartOptions, StartSolve};
use hoyito::solver::Tablebase;
use hoyito::{Move, Position, Rules, Variant};

use crate::common::{hoyito, s};

const CASES: [(Variant, u32, u32); 4] = [
    (Variant::I, 3, 8),
    (Variant::Ii, 3, 12),
    (Variant::Iii, 3, 8),
    (Variant::I, 4, 16),
];

fn budget() -> BoundsBudget {
    BoundsBudget {
        max_depth: 40,
        width: 0,
        nodes: u64::MAX,
        table_entries: 1 << 20,
    }
}

fn tables(variant: Variant, holes: u32, exact_up_to: u32) -> Tablebase {
    let mut tb = Tablebase::new(variant, holes as u8).expect("a board");
    for k in Tablebase::dependencies(exact_up_to) {
        tb.ensure(k, None, &|_| {}).expect("a small build");
    }
    tb
}

fn reachable(rules: Rules) -> StartSolve {
    StartSolve::run(
        rules,
        Position::start(&rules),
        &StartOptions::default(),
        &mut |_| {},
    )
    .expect("solved")
}

/// The value of the move from `pos` for its mover, from the reachable solve:
/// the seeds it captures net, plus the child's value for the same mover or
/// minus it for the opponent.
fn move_value(solve: &StartSolve, pos: &Position, child: &Position) -> i32 {
    let net = |p: &Position| {
        let c = p.captures();
        c[pos.side_to_move()] as i32 - c[pos.side_to_move().opponent()] as i32
    };
    let gain = net(child) - net(pos);
    let rest = solve.value(child).expect("a reachable child") as i32;
    if child.is_over() {
        gain
    } else if child.side_to_move() == pos.side_to_move() {
        gain + rest
    } else {
        gain - rest
    }
}

/// Every first move's bounds meet on the value the reachable-only solve
/// gives it; with tables too small to close them (II 2x3 up to 4 seeds,
/// where play above the tables can go on forever) they still contain it.
#[test]
fn proved_first_moves_equal_the_reachable_solve() {
    for (variant, holes, exact_up_to) in CASES.into_iter().chain([(Variant::Ii, 3, 4)]) {
        let rules = Rules::new(variant).with_board(holes, 4).expect("a board");
        let solve = reachable(rules);
        let tb = tables(variant, holes, exact_up_to);
        let start = Position::start(&rules);
        let proved = prove_first_moves(
            rules,
            start,
            &tb,
            exact_up_to,
            budget(),
            &mut |_, _, _, _| {},
        );
        let expected = solve.first_moves();
        assert_eq!(proved.len(), expected.len(), "{variant:?} 2x{holes}");
        let mut open = 0;
        for ((mv, lo, hi), (emv, ev)) in proved.into_iter().zip(expected) {
            assert_eq!(mv, emv);
            let ev = ev as i32;
            assert!(lo <= ev && ev <= hi, "{variant:?} 2x{holes}: move {mv}");
            if exact_up_to == 4 {
                open += usize::from(lo < hi);
                continue;
            }
            assert_eq!(
                (lo, hi),
                (ev, ev),
                "{variant:?} 2x{holes} up to {exact_up_to}: move {mv}"
            );
        }
        if exact_up_to == 4 {
            assert!(open > 0, "the small-table case should leave a move open");
        }
    }
}

/// The perfect lines are exactly the lines in which every ply keeps the
/// position's value by the reachable solve, each final position once.
#[test]
fn perfect_lines_are_every_line_that_keeps_the_value_and_no_other() {
    for (variant, holes, exact_up_to) in CASES {
        let rules = Rules::new(variant).with_board(holes, 4).expect("a board");
        let solve = reachable(rules);
        let tb = tables(variant, holes, exact_up_to);
        let start = Position::start(&rules);
        let value = solve.start_value().expect("a value") as i32;
        let plies = 5;
        let lines = perfect_lines(
            rules,
            start,
            &tb,
            exact_up_to,
            value,
            plies,
            budget(),
            &mut |_, _, _, open| assert_eq!(open, 0, "every move proved"),
        );
        // Every ply of every line keeps the value.
        let mut ends = HashSet::new();
        for line in &lines {
            let mut pos = start;
            for &mv in line {
                let v = solve.value(&pos).expect("reachable") as i32;
                let (child, _) = pos.play(&rules, mv).expect("legal");
                assert_eq!(
                    move_value(&solve, &pos, &child),
                    v,
                    "{variant:?} 2x{holes}: {line:?} loses value at {mv}"
                );
                pos = child;
            }
            assert!(
                line.len() as u32 == plies || pos.is_over(),
                "{variant:?} 2x{holes}: {line:?} stops early"
            );
            assert!(
                ends.insert(pos),
                "{variant:?} 2x{holes}: {line:?} repeats a position"
            );
        }
        // And no perfect line is missing: the same walk by the reachable
        // solve's values reaches the same final positions.
        let mut level: Vec<Position> = vec![start];
        let mut seen = HashSet::new();
        for _ in 0..plies {
            let mut next = Vec::new();
            for pos in level {
                if pos.is_over() {
                    next.push(pos);
                    continue;
                }
                let v = solve.value(&pos).expect("reachable") as i32;
                let moves: Vec<Move> = pos.legal_moves(&rules).iter().copied().collect();
                for mv in moves {
                    let (child, _) = pos.play(&rules, mv).expect("legal");
                    if move_value(&solve, &pos, &child) == v && seen.insert(child) {
                        next.push(child);
                    }
                }
            }
            level = next;
        }
        let expected: HashSet<Position> = level.into_iter().collect();
        assert_eq!(ends, expected, "{variant:?} 2x{holes}");
        assert!(!lines.is_empty());
    }
}

/// `solve --start --prove --book` writes the perfect lines as a book that
/// reads back with its header; a start not proved exact writes no book.
#[test]
fn the_perfect_book_reads_back_and_is_refused_without_an_exact_value() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let table_dir = dir.path().join("tables");
    let book = dir.path().join("book.txt");
    let out = hoyito(&[
        "solve",
        "--start",
        "--prove",
        "--variant",
        "ii",
        "--holes",
        "3",
        "--exact-up-to",
        "12",
        "--tables",
        s(&table_dir),
        "--book-plies",
        "4",
        "--book",
        s(&book),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read = Book::load(&book).expect("the book reads back");
    assert_eq!((read.variant, read.holes, read.seeds), (Variant::Ii, 3, 4));
    assert!(
        read.header.iter().any(|l| l == "plies: 4"),
        "{:?}",
        read.header
    );
    let rules = Rules::new(Variant::Ii).with_board(3, 4).expect("a board");
    let value = reachable(rules).start_value().expect("a value") as i32;
    let lines = perfect_lines(
        rules,
        Position::start(&rules),
        &tables(Variant::Ii, 3, 12),
        12,
        value,
        4,
        budget(),
        &mut |_, _, _, _| {},
    );
    let plies: Vec<Vec<Move>> = read.entries.iter().map(|e| e.plies.clone()).collect();
    assert_eq!(plies, lines);
    // Depth 1 cannot prove the 2x3 start: no book, a reason, exit 1.
    let refused = dir.path().join("refused.txt");
    let out = hoyito(&[
        "solve",
        "--start",
        "--prove",
        "--variant",
        "ii",
        "--holes",
        "3",
        "--exact-up-to",
        "4",
        "--tables",
        s(&table_dir),
        "--max-depth",
        "1",
        "--book-plies",
        "4",
        "--book",
        s(&refused),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no book written") && err.contains("not proved exact"),
        "{err}"
    );
    assert!(!refused.exists());
}
