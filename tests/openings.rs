//! Openings: `hoyito book`, books in experiments, the default random plies and
//! the warning about repeated games, through the binary and the library.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hoyito::openings::{opening_warnings, Book, BookEntry, Openings, DEFAULT_RANDOM_PLIES};
use hoyito::tournament::{Experiment, GameRow, Opening, Schedule};
use hoyito::{AlphaBeta, AlphaBetaBudget, Game, Move, Rules, Variant};

const BIN: &str = env!("CARGO_BIN_EXE_hoyito");

fn hoyito(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn agents_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("agents")
}

/// The error line of a command that must fail.
fn error_of(args: &[&str]) -> String {
    let out = hoyito(args);
    assert!(!out.status.success(), "hoyito {args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).trim().to_string()
}

/// `hoyito book` on Hoyito II 2x4 with `changes` replacing the defaults.
fn book_args<'a>(out: &'a str, agents: &'a str, changes: &[(&'a str, &'a str)]) -> Vec<&'a str> {
    let mut flags = vec![
        ("--variant", "ii"),
        ("--holes", "4"),
        ("--plies", "4"),
        ("--count", "12"),
        ("--agent", "alphabeta-d4"),
        ("--max-eval", "3"),
        ("--seed", "5"),
        ("--agents-dir", agents),
        ("--out", out),
    ];
    for &(flag, value) in changes {
        match flags.iter_mut().find(|(f, _)| *f == flag) {
            Some(pair) => pair.1 = value,
            None => flags.push((flag, value)),
        }
    }
    let mut args = vec!["book"];
    for (flag, value) in flags {
        args.extend([flag, value]);
    }
    args
}

#[test]
fn the_book_command_writes_distinct_balanced_positions_the_same_every_time() {
    let tmp = tempfile::tempdir().unwrap();
    let agents = agents_dir();
    let (a, b) = (tmp.path().join("a.txt"), tmp.path().join("b.txt"));
    for out in [&a, &b] {
        let done = hoyito(&book_args(s(out), s(&agents), &[]));
        assert!(done.status.success(), "{:?}", done);
    }
    let text = fs::read_to_string(&a).unwrap();
    assert_eq!(text, fs::read_to_string(&b).unwrap());
    assert!(text.contains(
        "# command: hoyito book --variant ii --holes 4 --seeds 4 --plies 4 --count 12 \
         --agent alphabeta-d4 --max-eval 3 --seed 5\n"
    ));
    assert!(text.contains("# agent: alphabeta-d4 (alphabeta depth=4)\n"));
    let book = Book::load(&a).unwrap();
    assert_eq!((book.variant, book.holes, book.seeds), (Variant::Ii, 4, 4));
    assert_eq!(book.entries.len(), 12);
    let rules = Rules::new(Variant::Ii).with_board(4, 4).unwrap();
    for entry in &book.entries {
        assert_eq!(entry.plies.len(), 4);
        // Re-evaluated here by a fresh depth-4 search: within ±3 seeds.
        let mut game = Game::new(rules);
        for &mv in &entry.plies {
            game.play(mv).unwrap();
        }
        assert_eq!(*game.position(), entry.position);
        let budget = AlphaBetaBudget {
            depth: 4,
            nodes: None,
            time_ms: None,
        };
        let score = AlphaBeta::new(budget).search(&game).score;
        assert!(score.abs() <= 3, "{} scores {score}", entry.line());
    }
    // Another seed gives another book.
    let c = tmp.path().join("c.txt");
    let done = hoyito(&book_args(s(&c), s(&agents), &[("--seed", "6")]));
    assert!(done.status.success());
    assert_ne!(text, fs::read_to_string(&c).unwrap());
}

#[test]
fn the_book_command_refuses_what_it_cannot_do() {
    let tmp = tempfile::tempdir().unwrap();
    let agents = agents_dir();
    let out = tmp.path().join("x.txt");
    let (out, agents) = (s(&out), s(&agents));
    let err = error_of(&book_args(out, agents, &[("--agent", "nobody")]));
    assert!(
        err.contains("\"nobody\"") && err.contains("alphabeta-d8"),
        "{err}"
    );
    let err = error_of(&book_args(out, agents, &[("--agent", "greedy")]));
    assert!(
        err.contains("greedy") && err.contains("no evaluation"),
        "{err}"
    );
    let err = error_of(&book_args(out, agents, &[("--plies", "100000")]));
    assert!(err.contains("--plies 100000 is too many"), "{err}");
    // 2x2 has few positions after 2 plies: 50 distinct ones cannot be found.
    let err = error_of(&book_args(
        out,
        agents,
        &[("--holes", "2"), ("--plies", "2"), ("--count", "50")],
    ));
    assert!(
        err.contains("of the 50 positions asked for were found in 5000 samples"),
        "{err}"
    );
    let err = error_of(&book_args(out, agents, &[("--holes", "17")]));
    assert!(err.contains("17"), "{err}");
    assert!(!Path::new(out).exists());
}

/// A 2x4 Hoyito II book of the positions after each of the given ply lists.
fn hand_book(lines: &[&[u8]], variant: &str) -> String {
    let v: Variant = variant.parse().unwrap();
    let rules = Rules::new(v).with_board(4, 4).unwrap();
    let mut text = format!("# by hand\n# variant: {variant}\n# holes: 4\n# seeds: 4\n");
    for plies in lines {
        let mut game = Game::new(rules);
        let plies: Vec<Move> = plies.iter().map(|&h| Move::Sow(h - 1)).collect();
        for &mv in &plies {
            game.play(mv).unwrap();
        }
        let entry = BookEntry {
            position: *game.position(),
            plies,
        };
        text += &entry.line();
        text += "\n";
    }
    text
}

/// An experiment on Hoyito II 2x4 between two alpha-beta agents, with `openings`.
fn experiment_text(games: u64, openings: &str) -> String {
    format!(
        "name = \"t\"\nseed = 3\ngames = {games}\n[rules]\nvariants = [\"ii\"]\nholes = [4]\n\
         [openings]\n{openings}\n[tournament]\nformat = \"round-robin\"\nagents = [\"a\", \"b\"]\n\
         [roster.a]\nkind = \"alphabeta\"\ndepth = 1\n[roster.b]\nkind = \"alphabeta\"\ndepth = 2\n"
    )
}

#[test]
fn without_openings_the_default_random_plies_are_played() {
    let text = experiment_text(2, "").replace("[openings]\n", "");
    let e = Experiment::parse(&text, "x.toml").unwrap();
    assert_eq!(DEFAULT_RANDOM_PLIES, 8);
    assert_eq!(e.openings, Openings::default());
    assert_eq!(e.openings.random_plies, 8);
    let schedule = Schedule::new(&e);
    let game = schedule.game(1);
    assert_eq!(schedule.opening(&game), Opening::Random { plies: 8 });
}

#[test]
fn deterministic_pairings_without_an_opening_are_warned_about() {
    let bare = Experiment::parse(&experiment_text(2, "random_plies = 0"), "x.toml").unwrap();
    let warnings = opening_warnings(&bare);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("a vs b") && warnings[0].contains("ii 2x4"),
        "{warnings:?}"
    );
    let opened = Experiment::parse(&experiment_text(2, "random_plies = 2"), "x.toml").unwrap();
    assert!(opening_warnings(&opened).is_empty());
    // Greedy breaks ties with the game's generator: not deterministic.
    let greedy = experiment_text(2, "random_plies = 0")
        .replace("kind = \"alphabeta\"\ndepth = 1", "kind = \"greedy\"");
    let greedy = Experiment::parse(&greedy, "x.toml").unwrap();
    assert!(opening_warnings(&greedy).is_empty());
    // The run says it on one line, and plays anyway.
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("bare.toml");
    fs::write(&cfg, experiment_text(2, "random_plies = 0")).unwrap();
    let out = hoyito(&["run", s(&cfg), "--out", s(&tmp.path().join("out"))]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("a vs b") && l.contains("random plies"))
        .collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].starts_with("warning: "), "{err}");
}

#[test]
fn a_run_with_a_book_plays_entry_k_in_pair_k_from_both_seats() {
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("ii-2x4.txt");
    fs::write(&book, hand_book(&[&[1], &[2, 3], &[3, 2, 1]], "ii")).unwrap();
    let cfg = tmp.path().join("booked.toml");
    let openings = format!("book = {:?}", s(&book));
    fs::write(&cfg, experiment_text(8, &openings)).unwrap();
    let dir = tmp.path().join("out");
    let out = hoyito(&["run", s(&cfg), "--out", s(&dir)]);
    assert!(out.status.success(), "{out:?}");
    // 4 pairs for 3 entries: the openings repeat, and the run says so.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("has 3 openings for 4 pairs") && err.contains("openings will repeat"),
        "{err}"
    );
    let rows: Vec<GameRow> = csv::Reader::from_path(dir.join("games.csv"))
        .unwrap()
        .deserialize()
        .map(Result::unwrap)
        .collect();
    let openings: Vec<&str> = rows.iter().map(|r| r.opening.as_str()).collect();
    assert_eq!(
        openings,
        ["1", "1", "2 3", "2 3", "3 2 1", "3 2 1", "1", "1"]
    );
    // The saved experiment holds the book and replays without it.
    let saved = fs::read_to_string(dir.join("experiment.toml")).unwrap();
    assert!(saved.contains("[[openings.inline]]"), "{saved}");
    fs::remove_file(&book).unwrap();
    let replay = hoyito(&["replay", s(&dir), "3"]);
    assert!(replay.status.success(), "{replay:?}");
    let text = String::from_utf8_lossy(&replay.stdout);
    assert!(text.contains("plays 3 (book opening)"), "{text}");
    assert!(text.contains("matches the row"), "{text}");
}

/// The report says how the games opened: the book, its entries, and that a
/// book shorter than the pairs was cycled; or the random plies.
#[test]
fn the_report_says_which_openings_were_played() {
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("ii-2x4.txt");
    fs::write(&book, hand_book(&[&[1], &[2, 3], &[3, 2, 1]], "ii")).unwrap();
    let cfg = tmp.path().join("booked.toml");
    fs::write(&cfg, experiment_text(8, &format!("book = {:?}", s(&book)))).unwrap();
    let dir = tmp.path().join("out");
    assert!(hoyito(&["run", s(&cfg), "--out", s(&dir)]).status.success());
    let report = fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        report.contains("Openings: the pair of round k plays entry k"),
        "{report}"
    );
    assert!(
        report.contains(&format!("- ii 2x4 s4: `{}`, 3 entries", s(&book))),
        "{report}"
    );
    assert!(
        report.contains("4 pairs per pairing, so the book was cycled"),
        "{report}"
    );
    let summary = fs::read_to_string(dir.join("summary.json")).unwrap();
    assert!(summary.contains("\"entries\": 3"), "{summary}");
    let plain = tmp.path().join("plain.toml");
    fs::write(&plain, experiment_text(2, "random_plies = 3")).unwrap();
    let dir = tmp.path().join("plain");
    assert!(hoyito(&["run", s(&plain), "--out", s(&dir)])
        .status
        .success());
    let report = fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        report.contains("Openings: every seat-swapped pair starts after 3 uniformly random plies"),
        "{report}"
    );
}

#[test]
fn bad_books_are_refused_naming_the_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let run_with = |name: &str, book_text: &str| {
        let book = tmp.path().join(format!("{name}.txt"));
        fs::write(&book, book_text).unwrap();
        let cfg = tmp.path().join(format!("{name}.toml"));
        let openings = format!("book = {:?}", s(&book));
        fs::write(&cfg, experiment_text(2, &openings)).unwrap();
        let out = tmp.path().join(format!("{name}-out"));
        let err = error_of(&["run", s(&cfg), "--out", s(&out)]);
        assert!(!out.exists(), "a refused run wrote {}", out.display());
        (err, book)
    };
    let good = hand_book(&[&[1], &[2]], "ii");
    // A line whose plies reach another position (the entry of [1] with ply 2).
    let wrong = good.replacen(" | 1\n", " | 2\n", 1);
    let (err, book) = run_with("wrong", &wrong);
    assert!(
        err.contains(&format!("{} line 5", book.display())) && err.contains("the plies reach"),
        "{err}"
    );
    let (err, _) = run_with("garbage", &format!("{good}not a position\n"));
    assert!(
        err.contains("line 7") && err.contains("<position> | <plies>"),
        "{err}"
    );
    let twice = hand_book(&[&[1], &[1]], "ii");
    let (err, _) = run_with("twice", &twice);
    assert!(err.contains("line 6") && err.contains("distinct"), "{err}");
    let (err, _) = run_with("iii", &hand_book(&[&[1]], "iii"));
    assert!(
        err.contains("is for iii 2x4") && err.contains("does not play"),
        "{err}"
    );
    let (err, _) = run_with("nothing", "# variant: ii\n# holes: 4\n# seeds: 4\n");
    assert!(err.contains("no entry"), "{err}");
    let cfg = tmp.path().join("missing.toml");
    fs::write(&cfg, experiment_text(2, "book = \"no/such/book.txt\"")).unwrap();
    let err = error_of(&["run", s(&cfg), "--out", s(&tmp.path().join("m"))]);
    assert!(
        err.contains("no/such/book.txt") && err.contains("openings.book"),
        "{err}"
    );
}

#[test]
fn shipped_books_parse_are_distinct_and_replay() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings");
    let mut found = 0;
    for variant in ["i", "ii", "iii"] {
        for holes in [6, 12] {
            check_book(
                &dir.join(format!("{variant}-2x{holes}.txt")),
                variant,
                holes,
                200,
            );
            found += 1;
        }
    }
    assert_eq!(found, 6);
}

/// The strength ladders' books (`openings/strength/`): one entry per pair of
/// a 300-pair ladder, each distinct and replaying to its position (`Book::load`
/// refuses anything else), on the board its name says.
#[test]
fn strength_books_hold_300_distinct_entries_that_replay() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/strength");
    for (name, variant, holes) in [
        ("i-2x6.txt", "i", 6),
        ("ii-2x6.txt", "ii", 6),
        ("iii-2x6.txt", "iii", 6),
        ("ii-2x12.txt", "ii", 12),
        ("ii-2x12-deep.txt", "ii", 12),
    ] {
        check_book(&dir.join(name), variant, holes, 300);
    }
}

/// Loads a shipped book (which replays every entry and refuses repeats) and
/// checks its variant, board (four seeds a hole) and number of entries.
fn check_book(path: &Path, variant: &str, holes: u8, entries: usize) {
    let book = Book::load(path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(book.variant.to_string(), variant, "{}", path.display());
    assert_eq!((book.holes, book.seeds), (holes, 4), "{}", path.display());
    assert_eq!(book.entries.len(), entries, "{}", path.display());
}

#[test]
fn books_apply_to_their_own_setting_and_one_book_per_setting() {
    let tmp = tempfile::tempdir().unwrap();
    let ii = tmp.path().join("ii.txt");
    let iii = tmp.path().join("iii.txt");
    fs::write(&ii, hand_book(&[&[1], &[2, 3]], "ii")).unwrap();
    fs::write(&iii, hand_book(&[&[2]], "iii")).unwrap();
    let both =
        |openings: &str| experiment_text(4, openings).replace("[\"ii\"]", "[\"ii\", \"iii\"]");
    let text = both(&format!("books = [{:?}, {:?}]", s(&ii), s(&iii)));
    let e = Experiment::parse(&text, "x.toml").unwrap();
    assert!(e.openings.uses_book());
    let schedule = Schedule::new(&e);
    // Rounds of one pair per block: pair 0 is ii's round 0, pair 1 iii's
    // round 0, pair 2 ii's round 1, pair 3 iii's round 1 (its one entry again).
    let plies = |id| schedule.opening(&schedule.game(id)).plies();
    assert_eq!(
        [
            plies(0),
            plies(1),
            plies(2),
            plies(3),
            plies(4),
            plies(5),
            plies(6)
        ],
        [1, 1, 1, 1, 2, 2, 1]
    );
    // ii's round 2 (pair 4, games 8 and 9) cycles back to its entry 0.
    assert_eq!(
        schedule.opening(&schedule.game(9)),
        Opening::Book {
            entry: 0,
            plies: &[Move::Sow(0)]
        }
    );
    // A setting without a book plays the random plies.
    let text = both(&format!("books = [{:?}]\nrandom_plies = 3", s(&ii)));
    let e = Experiment::parse(&text, "x.toml").unwrap();
    let schedule = Schedule::new(&e);
    assert_eq!(
        schedule.opening(&schedule.game(2)),
        Opening::Random { plies: 3 }
    );
    // The saved form reads back to the same experiment without the files.
    let saved = e.to_toml();
    fs::remove_file(&ii).unwrap();
    assert_eq!(Experiment::parse(&saved, "saved").unwrap(), e);
    fs::write(&ii, hand_book(&[&[1]], "ii")).unwrap();
    let text = both(&format!("books = [{:?}, {:?}]", s(&ii), s(&ii)));
    let err = Experiment::parse(&text, "x.toml").unwrap_err().to_string();
    assert!(err.contains("listed twice"), "{err}");
    let other = tmp.path().join("ii-other.txt");
    fs::write(&other, hand_book(&[&[3]], "ii")).unwrap();
    let text = both(&format!("books = [{:?}, {:?}]", s(&ii), s(&other)));
    let err = Experiment::parse(&text, "x.toml").unwrap_err().to_string();
    assert!(err.contains("give one book per variant and board"), "{err}");
    let text = both(&format!("book = {:?}\nbooks = [{:?}]", s(&ii), s(&iii)));
    let err = Experiment::parse(&text, "x.toml").unwrap_err().to_string();
    assert!(err.contains("not both"), "{err}");
}

#[test]
fn with_tables_positions_inside_them_are_kept_by_their_exact_value() {
    let tmp = tempfile::tempdir().unwrap();
    let tables = tmp.path().join("tables");
    let solve = hoyito(&[
        "solve",
        "--variant",
        "ii",
        "--holes",
        "3",
        "--max-seeds",
        "24",
        "--out",
        s(&tables),
    ]);
    assert!(solve.status.success(), "{solve:?}");
    let out = tmp.path().join("b.txt");
    let agents = agents_dir();
    let mut args = book_args(
        s(&out),
        s(&agents),
        &[
            ("--holes", "3"),
            ("--plies", "2"),
            ("--count", "3"),
            ("--max-eval", "2"),
        ],
    );
    args.extend(["--tables", s(&tables)]);
    let done = hoyito(&args);
    assert!(done.status.success(), "{done:?}");
    let book = Book::load(&out).unwrap();
    assert!(book
        .header
        .iter()
        .any(|l| l.contains("exact value from the tables")));
    let mut tb = hoyito::solver::Tablebase::new(Variant::Ii, 3).unwrap();
    tb.ensure(24, Some(&tables), &|_| {}).unwrap();
    for entry in &book.entries {
        let pos = entry.position;
        let me = pos.side_to_move();
        let lead = pos.captures()[me] as i32 - pos.captures()[me.opponent()] as i32;
        let value = tb.value(&pos).unwrap() as i32;
        assert!((lead + value).abs() <= 2, "{}", entry.line());
    }
}

/// A book judged by an agent with options (here a quiescence search and a
/// learned evaluation) is judged by that agent's own search, not by a plain
/// alpha-beta search of the same depth, which would make another book than
/// the one asked for.
#[test]
fn a_book_evaluates_with_the_agents_own_options() {
    use hoyito::openings::evaluate_opening;
    use hoyito::AgentSpec;
    use rand::SeedableRng;
    let spec: AgentSpec = toml::from_str(
        "kind = \"alphabeta\"\ndepth = 2\nquiescence = 4\n\
         [eval]\nkind = \"learned\"\nscale = 5.0\n\
         [eval.weights]\ncaptures = 1.0\nhand_own = 2.0\nthreats_opp = -0.5\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let rules = Rules::new(Variant::Ii).with_board(6, 4).unwrap();
    let plain = AlphaBetaBudget {
        depth: 2,
        nodes: None,
        time_ms: None,
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
    let mut differ = 0;
    for _ in 0..30 {
        let mut game = Game::new(rules);
        for _ in 0..12 {
            if !game.is_over() {
                game.play_random(&mut rng);
            }
        }
        if game.is_over() {
            continue;
        }
        let own = spec.alphabeta().unwrap().search(&game).score;
        let book = evaluate_opening(&game, "q", &spec, None).unwrap();
        assert_eq!(book, own, "{}", game.position());
        differ += (book != AlphaBeta::new(plain).search(&game).score) as u32;
    }
    assert!(
        differ > 0,
        "the options change some scores, so the test can fail"
    );
}
