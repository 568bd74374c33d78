//! The start solver (`hoyito solve --start`): its values against the full
//! tables, its principal variations replayed by the game, its state files
//! resumed or refused, its memory check, its out-of-core solve (layers
//! memory-mapped from the state directory) against the solve in memory; and
//! every start value stored in `reports/first-player/exact.json` replayed to
//! its value.

use std::path::Path;

use hoyito::solver::start::{
    memory_needed, memory_needed_mapped, Progress, StartOptions, StartSolve,
};
use hoyito::solver::Tablebase;
use hoyito::{Game, Move, Position, Rules, Variant};

use crate::common::{hoyito, s};

fn solve(variant: Variant, holes: u32, state: Option<&Path>) -> StartSolve {
    let rules = Rules::new(variant).with_board(holes, 4).expect("a board");
    let options = StartOptions {
        state,
        memory: None,
    };
    StartSolve::run(rules, Position::start(&rules), &options, &mut |_| {}).expect("solved")
}

/// Every reachable position's value equals the full tables' value, on boards
/// small enough to build the tables of every layer: the same answer from two
/// different position sets (reachable only, and all).
#[test]
fn every_reachable_value_equals_the_full_tables() {
    for (variant, holes) in [
        (Variant::I, 2u32),
        (Variant::Ii, 2),
        (Variant::Iii, 2),
        (Variant::I, 3),
        (Variant::Ii, 3),
        (Variant::Iii, 3),
        (Variant::I, 4),
    ] {
        let solved = solve(variant, holes, None);
        let mut tb = Tablebase::new(variant, holes as u8).expect("a board");
        let top = 8 * holes;
        for k in Tablebase::dependencies(top) {
            tb.ensure(k, None, &|_| {}).expect("a small build");
        }
        let mut checked = 0;
        solved.for_each_value(|pos, v| {
            let full = tb.probe(pos).map(|p| p.value).unwrap_or(0);
            assert_eq!(v as i32, full as i32, "{variant:?} 2x{holes} {pos}");
            checked += 1;
        });
        assert_eq!(checked as u64, solved.positions());
        assert!(checked > 0);
    }
}

/// The principal variation is a legal game whose margin for South equals the
/// start's value, whatever that value is (negative, zero or positive).
#[test]
fn principal_variations_replay_to_the_start_value() {
    let mut signs = [false; 3];
    for variant in Variant::ALL {
        for holes in [2u32, 3, 4] {
            if holes == 4 && variant != Variant::I {
                continue;
            }
            let solved = solve(variant, holes, None);
            let value = solved.start_value().expect("a value") as i32;
            signs[(value.signum() + 1) as usize] = true;
            let (moves, outcome) = solved.principal_variation();
            let mut game = Game::new(*solved.rules());
            for mv in &moves {
                game.play(*mv).expect("a legal move");
            }
            let end = game.outcome().expect("the variation ends the game");
            assert_eq!(Some(end), outcome);
            let margin = end.scores.south as i32 - end.scores.north as i32;
            assert_eq!(margin, value, "{variant:?} 2x{holes}: {moves:?}");
        }
    }
    assert_eq!(
        signs,
        [true, true, true],
        "values of every sign were replayed"
    );
}

/// A solve killed after some layers resumes from the state directory to the
/// same values; a damaged or foreign state file is refused, never read.
#[test]
fn a_solve_resumes_from_its_state_and_refuses_damaged_state() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let whole = solve(Variant::Ii, 3, Some(dir.path()));
    let value = whole.start_value();
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .expect("state written")
        .map(|e| e.expect("an entry").path())
        .collect();
    assert!(files.iter().any(|f| f.ends_with("keys-24.bin")));
    assert!(files.iter().any(|f| f.ends_with("values-24.bin")));
    // As if killed during the backward pass: the top layers' values missing.
    for name in ["values-24.bin", "values-20.bin"] {
        std::fs::remove_file(dir.path().join(name)).expect("removed");
    }
    let resumed = solve(Variant::Ii, 3, Some(dir.path()));
    assert_eq!(resumed.start_value(), value);
    // As if killed during the forward pass: lower layers not yet closed.
    for f in std::fs::read_dir(dir.path()).expect("a directory") {
        let f = f.expect("an entry").path();
        let name = f
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        if name.starts_with("values") || name == "keys-12.bin" || name == "keys-8.bin" {
            std::fs::remove_file(&f).expect("removed");
        }
    }
    let resumed = solve(Variant::Ii, 3, Some(dir.path()));
    assert_eq!(resumed.start_value(), value);
    let mut count = 0;
    resumed.for_each_value(|pos, v| {
        assert_eq!(whole.value(pos), Some(v), "{pos}");
        count += 1;
    });
    assert_eq!(count as u64, whole.positions());
    // One flipped byte in a values file: an error naming the file.
    let file = dir.path().join("values-16.bin");
    let mut bytes = std::fs::read(&file).expect("read");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&file, &bytes).expect("write");
    let rules = Rules::new(Variant::Ii).with_board(3, 4).expect("a board");
    let options = StartOptions {
        state: Some(dir.path()),
        memory: None,
    };
    let err = StartSolve::run(rules, Position::start(&rules), &options, &mut |_| {})
        .expect_err("damaged state refused");
    assert!(err.to_string().contains("values-16.bin"), "{err}");
    // Another variant's state in the same directory: refused as well.
    std::fs::remove_file(&file).expect("removed");
    let rules = Rules::new(Variant::Iii).with_board(3, 4).expect("a board");
    let err = StartSolve::run(rules, Position::start(&rules), &options, &mut |_| {})
        .expect_err("another start's state refused");
    assert!(err.to_string().contains("keys-24.bin"), "{err}");
}

/// A start known to need more memory than allowed is refused before
/// anything is done, with its estimate; one found too large on the way is
/// refused too, and neither writes a result.
#[test]
fn a_start_beyond_the_memory_budget_is_refused_with_an_estimate() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let json = dir.path().join("entry.json");
    let out = hoyito(&[
        "solve",
        "--start",
        "--variant",
        "i",
        "--holes",
        "6",
        "--memory",
        "100",
        "--json",
        s(&json),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    for words in [
        "MB of memory",
        "positions",
        "MB or more of disk",
        "hours",
        "not solved",
    ] {
        assert!(err.contains(words), "{err}");
    }
    assert!(out.stdout.is_empty());
    assert!(!json.exists());
    let out = hoyito(&[
        "solve",
        "--start",
        "--variant",
        "ii",
        "--holes",
        "5",
        "--memory",
        "150",
        "--json",
        s(&json),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("still growing"), "{err}");
    assert!(!json.exists());
}

/// A start whose reachable positions outgrow the budget says at once what
/// it will do and what `exact.json` already knows, reports its growth every
/// few seconds (positions, rate, memory against the budget), and is refused
/// before its estimate passes the budget, naming the out-of-core solve and
/// the proof search that proves the value with far less memory.
#[test]
fn a_growing_start_reports_progress_and_is_refused_before_its_budget() {
    let out = hoyito(&[
        "solve",
        "--start",
        "--variant",
        "ii",
        "--holes",
        "6",
        "--memory",
        "400",
    ]);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    let first = err.lines().next().unwrap_or_default();
    assert!(
        first.contains("Hoyito ii 2x6") && first.contains("400 MB (--memory)"),
        "{err}"
    );
    assert!(
        err.contains("exact.json holds this start's exact value, -28"),
        "{err}"
    );
    // Several lines of the top layer growing, each with more positions.
    let counts: Vec<u64> = err
        .lines()
        .filter_map(|l| l.strip_prefix("closing layer  48: "))
        .map(|l| {
            assert!(l.contains("MB of 400 MB"), "{l}");
            l.split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .expect("a count")
        })
        .collect();
    assert!(counts.len() >= 2, "{err}");
    assert!(counts.windows(2).all(|w| w[0] < w[1]), "{counts:?}");
    assert!(err.contains(" a second; memory "), "{err}");
    // Refused before the estimate passes 400 MB at 40 bytes a position.
    let found: u64 = err
        .split("(at least: ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the positions found");
    assert!(found < 400 << 20 >> 5, "{found}");
    for words in [
        "--state DIR",
        "`hoyito solve --start --prove --variant ii --holes 6 --exact-up-to 20`",
    ] {
        assert!(err.contains(words), "{err}");
    }
}

/// A budget far below what the start needs is refused at the first look at
/// the clock or the memory (2 s, or 4 million positions), not after the
/// closure has grown: the positions found at the refusal are few.
#[test]
fn a_small_budget_is_refused_at_the_first_check() {
    let out = hoyito(&[
        "solve",
        "--start",
        "--variant",
        "iii",
        "--holes",
        "6",
        "--memory",
        "50",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let found: u64 = err
        .split("(at least: ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the positions found");
    assert!(found <= 4 << 20, "{found}: {err}");
    assert!(
        err.contains("--state DIR") && err.contains("--prove --variant iii --holes 6"),
        "{err}"
    );
}

/// Every exact start value stored in the report replays: its principal
/// variation is a legal game from the start that ends with that margin.
#[test]
fn every_stored_principal_variation_replays_to_its_value() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/first-player/exact.json");
    let text = std::fs::read_to_string(&path).expect("exact.json is in the repository");
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let entries = json["start_positions"].as_array().expect("start_positions");
    let mut replayed = 0;
    for e in entries {
        let variant: Variant = e["variant"]
            .as_str()
            .expect("variant")
            .parse()
            .expect("a variant");
        let holes = e["holes"].as_u64().expect("holes") as u32;
        let rules = Rules::new(variant).with_board(holes, 4).expect("a board");
        // A start only the outcome search reached has no value and no line:
        // its certificates are checked in tests/outcome.rs.
        if e["status"].as_str() == Some("outcome") {
            assert!(e["margin"].is_null(), "{variant} 2x{holes}");
            match e["outcome_status"].as_str() {
                Some("proved") => assert!(e["outcome"].is_string(), "{variant} 2x{holes}"),
                Some("bounds") => assert!(
                    e["outcome_bounds"]
                        .as_array()
                        .is_some_and(|b| b.iter().any(|v| !v.is_null())),
                    "{variant} 2x{holes}"
                ),
                Some("open") => assert!(e["outcome_open"].is_object(), "{variant} 2x{holes}"),
                other => panic!("{variant} 2x{holes}: outcome_status {other:?}"),
            }
            continue;
        }
        let pv = e["pv"]
            .as_str()
            .expect("every entry has a principal variation");
        let mut game = Game::new(rules);
        for word in pv.split_whitespace() {
            let mv: Move = word.parse().expect("a move");
            game.play(mv).expect("a legal move");
        }
        let margin = game
            .outcome()
            .map(|end| end.scores.south as i64 - end.scores.north as i64);
        match e["status"].as_str() {
            Some("exact") => {
                let Some(margin) = margin else {
                    panic!(
                        "{variant} 2x{holes}: an exact value's principal variation ends the game"
                    );
                };
                assert_eq!(Some(margin), e["margin"].as_i64(), "{variant} 2x{holes}");
                assert_eq!(Some(margin), e["pv_margin"].as_i64(), "{variant} 2x{holes}");
            }
            Some("bounds") => {
                // Only the search's line to its horizon: legal, and nothing
                // proved about where it ends.
                let low = e["lower"].as_i64().expect("lower");
                let high = e["upper"].as_i64().expect("upper");
                assert!(low < high, "{variant} 2x{holes}");
                assert!(e["margin"].is_null(), "{variant} 2x{holes}");
                replayed += 1;
                continue;
            }
            other => panic!("{variant} 2x{holes}: unknown status {other:?}"),
        }
        replayed += 1;
    }
    assert!(replayed >= 9, "only {replayed} entries");
}

/// The proof search's bounds contain the exact value at every depth, close on
/// it, and its proof line is a whole perfect game that ends with that margin;
/// checked against the reachable-only solve on boards where both run.
#[test]
fn proved_bounds_contain_the_exact_value_and_close_on_it() {
    use hoyito::solver::bounds::{proof_line, prove_bounds, BoundsBudget};
    for (variant, holes, exact_up_to) in [
        (Variant::I, 3u32, 8u32),
        (Variant::Ii, 3, 12),
        (Variant::Iii, 3, 8),
        (Variant::I, 4, 16),
        (Variant::I, 5, 16),
    ] {
        let exact = solve(variant, holes, None).start_value().expect("a value") as i32;
        let rules = Rules::new(variant).with_board(holes, 4).expect("a board");
        let mut tb = Tablebase::new(variant, holes as u8).expect("a board");
        for k in Tablebase::dependencies(exact_up_to) {
            tb.ensure(k, None, &|_| {}).expect("a small build");
        }
        let budget = BoundsBudget {
            max_depth: 40,
            width: 0,
            nodes: u64::MAX,
            table_entries: 1 << 20,
        };
        let mut depths = 0;
        let start = Position::start(&rules);
        let proved = prove_bounds(
            rules,
            start,
            &tb,
            exact_up_to,
            budget,
            &mut |d, lo, hi, _, _| {
                assert!(
                    lo <= exact && exact <= hi,
                    "{variant:?} 2x{holes} depth {d}: [{lo}, {hi}] misses {exact}"
                );
                depths += 1;
            },
        );
        assert!(depths > 0);
        assert_eq!(
            (proved.lower, proved.upper),
            (exact, exact),
            "{variant:?} 2x{holes}"
        );
        let game =
            proof_line(rules, start, &tb, exact_up_to, exact, proved.depth).expect("a proof line");
        let end = game.outcome().expect("the line ends the game");
        assert_eq!(
            end.scores.south as i32 - end.scores.north as i32,
            exact,
            "{variant:?} 2x{holes}"
        );
    }
}

/// `hoyito start-values` writes each board's series (depths rising, node
/// counts recorded), marks the exact value where `exact.json` has one, and
/// draws a chart per board plus the board-size chart; a bad board range is
/// refused.
#[test]
fn start_values_writes_series_and_charts() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("sv");
    let exact = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/first-player/exact.json");
    let run = hoyito(&[
        "start-values",
        "--out",
        s(&out),
        "--variants",
        "i,ii",
        "--min-holes",
        "3",
        "--max-holes",
        "4",
        "--node-budget",
        "200000",
        "--exact",
        s(&exact),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(out.join("start-values.json")).expect("written");
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let boards = json["boards"].as_array().expect("boards");
    assert_eq!(boards.len(), 4);
    for b in boards {
        let depths: Vec<u64> = b["alphabeta"]
            .as_array()
            .expect("a series")
            .iter()
            .map(|p| p["level"].as_u64().expect("a depth"))
            .collect();
        assert!(!depths.is_empty());
        assert!(depths.windows(2).all(|w| w[1] == w[0] + 1), "{depths:?}");
        assert!(b["champion"].as_array().is_some_and(|c| !c.is_empty()));
    }
    let i4 = boards
        .iter()
        .find(|b| b["variant"] == "i" && b["holes"] == 4)
        .expect("I 2x4");
    assert_eq!(i4["exact"].as_i64(), Some(8));
    for chart in [
        "start-value-by-depth-2x3.svg",
        "start-value-by-depth-2x4.svg",
        "best-known-start-value.svg",
    ] {
        let svg = std::fs::read_to_string(out.join("charts").join(chart)).expect("a chart");
        assert!(svg.contains("Hoyito ii"), "{chart}");
    }
    let bad = hoyito(&[
        "start-values",
        "--out",
        s(&out),
        "--min-holes",
        "9",
        "--max-holes",
        "4",
    ]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--min-holes"));
}

/// Out of core (a state directory, layers memory-mapped from it) under a
/// memory budget below what the solve in memory needs but above what out
/// of core needs, tight enough that the closures spill to scratch files:
/// every position's value, every first move's and the principal variation
/// equal the solve in memory's; a second run resumes from the mapped state
/// alone to the same values; a damaged values or keys file is still refused
/// with its name; and the solve in memory under that budget is refused
/// before it starts, naming `--state` and what it needs.
#[test]
fn an_out_of_core_solve_equals_the_solve_in_memory() {
    let mut spilled = 0;
    for (variant, holes) in [(Variant::I, 5u32), (Variant::Ii, 3)] {
        let whole = solve(variant, holes, None);
        let largest = whole
            .stats()
            .iter()
            .map(|s| s.positions)
            .max()
            .expect("a layer");
        let in_memory = memory_needed(whole.positions(), largest);
        let mapped = memory_needed_mapped(whole.positions(), largest);
        let budget = mapped + mapped / 4;
        assert!(
            budget < in_memory,
            "{variant:?} 2x{holes}: {budget} {in_memory}"
        );
        let rules = Rules::new(variant).with_board(holes, 4).expect("a board");
        let dir = tempfile::tempdir().expect("a temporary directory");
        let options = StartOptions {
            state: Some(dir.path()),
            memory: Some(budget),
        };
        let run = |options: &StartOptions<'_>| {
            let mut loaded = (0, 0);
            let solved =
                StartSolve::run(rules, Position::start(&rules), options, &mut |p| match p {
                    Progress::Closed(s, from_file) | Progress::Solved(s, from_file) => {
                        assert!(s.mapped, "{variant:?} 2x{holes}: layer {}", s.seeds);
                        loaded.0 += from_file as u32;
                        loaded.1 += 1;
                    }
                    Progress::Closing { .. } | Progress::Solving { .. } => {}
                });
            (solved, loaded)
        };
        let (ooc, loaded) = run(&options);
        let ooc = ooc.expect("solved out of core");
        assert_eq!(loaded.0, 0, "nothing loaded on a fresh run");
        assert!(ooc.is_mapped() && !whole.is_mapped());
        spilled += ooc.stats().iter().map(|s| s.spills).sum::<u32>();
        let same = |other: &StartSolve| {
            assert_eq!(other.positions(), whole.positions());
            assert_eq!(other.stats().len(), whole.stats().len());
            let mut count = 0u64;
            whole.for_each_value(|pos, v| {
                assert_eq!(other.value(pos), Some(v), "{variant:?} 2x{holes} {pos}");
                count += 1;
            });
            assert_eq!(count, whole.positions());
            assert_eq!(other.start_value(), whole.start_value());
            assert_eq!(other.first_moves(), whole.first_moves());
            assert_eq!(other.principal_variation(), whole.principal_variation());
        };
        same(&ooc);
        drop(ooc);
        // A second run maps every finished layer from the state: all loaded.
        let (again, loaded) = run(&options);
        let again = again.expect("resumed out of core");
        assert_eq!(loaded.0, loaded.1, "every layer loaded from the state");
        same(&again);
        drop(again);
        // A damaged values file, then a truncated keys file: refused, named.
        let top = 8 * holes;
        let values = dir.path().join(format!("values-{}.bin", top - 8));
        let mut bytes = std::fs::read(&values).expect("read");
        bytes[60] ^= 0x40;
        std::fs::write(&values, &bytes).expect("write");
        let err = run(&options).0.expect_err("damaged values refused");
        assert!(
            err.to_string().contains(&format!("values-{}.bin", top - 8)),
            "{err}"
        );
        std::fs::remove_file(&values).expect("removed");
        let keys = dir.path().join(format!("keys-{}.bin", top - 4));
        let bytes = std::fs::read(&keys).expect("read");
        std::fs::write(&keys, &bytes[..bytes.len() - 8]).expect("write");
        let err = run(&options).0.expect_err("truncated keys refused");
        let text = err.to_string();
        assert!(
            text.contains(&format!("keys-{}.bin", top - 4)) && text.contains("truncated"),
            "{text}"
        );
        // In memory under the same budget: refused before it starts.
        let in_core = StartOptions {
            state: None,
            memory: Some(budget),
        };
        let err = StartSolve::run(rules, Position::start(&rules), &in_core, &mut |_| {})
            .expect_err("refused in memory");
        let text = err.to_string();
        for words in ["--state DIR", "memory-mapped", "MB of memory", "MB of disk"] {
            assert!(text.contains(words), "{text}");
        }
    }
    assert!(spilled > 0, "the budget was tight enough to spill");
}

/// `hoyito solve --start --state DIR --memory MB` solves out of core where
/// the same budget refuses the solve in memory (which names --state and
/// its needs), and its JSON entry says how the layers were stored.
#[test]
fn the_cli_solves_out_of_core_where_memory_refuses() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let state = dir.path().join("state");
    let json = dir.path().join("entry.json");
    let args = |with_state: bool| {
        let mut a = vec![
            "solve",
            "--start",
            "--variant",
            "i",
            "--holes",
            "5",
            "--memory",
            "16",
            "--json",
        ];
        a.push(s(&json));
        if with_state {
            a.extend(["--state", s(&state)]);
        }
        a
    };
    let out = hoyito(&args(false));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--state DIR") && err.contains("MB of disk"),
        "{err}"
    );
    assert!(!json.exists());
    let out = hoyito(&args(true));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("mapped"), "{err}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("value -8"), "{stdout}");
    let entry: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("written")).expect("JSON");
    assert_eq!(entry["storage"], "memory-mapped");
    assert_eq!(entry["margin"], -8);
    assert!(state.join("values-40.bin").exists());
    let leftovers: Vec<_> = std::fs::read_dir(&state)
        .expect("the state directory")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "scratch left behind: {leftovers:?}");
}

/// `solve` refuses to replace the files of --json and --book without
/// --force, as `book`, `export` and `tune` refuse, before any work; with
/// --force it writes them.
#[test]
fn solve_does_not_overwrite_json_or_book_without_force() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (json, book) = (dir.path().join("start.json"), dir.path().join("book.txt"));
    for (path, args) in [
        (&json, vec!["--json", s(&json)]),
        (
            &book,
            vec!["--prove", "--book-plies", "1", "--book", s(&book)],
        ),
    ] {
        std::fs::write(path, "kept\n").unwrap();
        let mut base = vec!["solve", "--start", "--variant", "ii", "--holes", "3"];
        base.extend(args.iter().copied());
        let out = hoyito(&base);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("exists: choose another file or pass --force"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(path).unwrap(), "kept\n");
        base.push("--force");
        let out = hoyito(&base);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_ne!(std::fs::read_to_string(path).unwrap(), "kept\n");
    }
}
