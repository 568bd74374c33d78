//! Adjudication: games ended by the endgame tables or as decided. Every
//! adjudicated game of a run is replayed from its record and its result
//! compared with the exact one from the tables; the adjudication happens at
//! the first move an agent would make once it applies, never earlier and never
//! later; runs are byte-identical for any thread count; bad tables stop a run
//! before its first game.

use std::path::Path;

use hoyito::solver::Tablebase;
use hoyito::tournament::adjudication::perfect_scores;
use hoyito::{Game, Move, Position, Rules, Variant};

use crate::common::{hoyito, run_ok, s};

/// II 2x4 tables up to 16 seeds (about 0.1 s to build).
fn build_tables(dir: &Path) {
    run_ok(&[
        "solve",
        "--variant",
        "ii",
        "--holes",
        "4",
        "--max-seeds",
        "16",
        "--only-needed",
        "--tables",
        s(dir),
    ]);
}

fn experiment(name: &str, adjudication: &str) -> String {
    format!(
        "name = \"{name}\"\nseed = 7\ngames = 40\nthreads = 1\n\
         [rules]\nvariants = [\"ii\"]\nholes = [4]\n\
         [openings]\nrandom_plies = 2\n\
         [tournament]\nformat = \"round-robin\"\nagents = [\"random\", \"greedy\", \"alphabeta-d4\"]\n\
         self_play = true\n\
         [adjudication]\n{adjudication}\n"
    )
}

fn run(dir: &Path, name: &str, adjudication: &str, threads: &str) -> std::path::PathBuf {
    let config = dir.join(format!("{name}.toml"));
    std::fs::write(&config, experiment(name, adjudication)).expect("write the config");
    let out = dir.join(format!("{name}-{threads}"));
    run_ok(&[
        "run",
        s(&config),
        "--out",
        s(&out),
        "--threads",
        threads,
        "--report-every",
        "0",
    ]);
    out
}

/// (ending, south, north, plies, moves) of every game of a run.
fn games(out: &Path) -> Vec<(String, u8, u8, u32, Vec<Move>)> {
    let games = std::fs::read_to_string(out.join("games.csv")).expect("games.csv");
    let moves = std::fs::read_to_string(out.join("moves.csv")).expect("moves.csv");
    games
        .lines()
        .skip(1)
        .zip(moves.lines().skip(1))
        .map(|(g, m)| {
            let f: Vec<&str> = g.split(',').collect();
            let plies: Vec<Move> = m
                .split_once(',')
                .expect("id,moves")
                .1
                .split_whitespace()
                .map(|t| t.parse().expect("a move"))
                .collect();
            (
                f[13].to_string(),
                f[10].parse().expect("south"),
                f[11].parse().expect("north"),
                f[12].parse().expect("plies"),
                plies,
            )
        })
        .collect()
}

fn rules() -> Rules {
    Rules::new(Variant::Ii).with_board(4, 4).expect("a board")
}

/// The positions of a game: the start, then after every ply.
fn positions(moves: &[Move]) -> Vec<Position> {
    let mut game = Game::new(rules());
    let mut out = vec![*game.position()];
    for &mv in moves {
        game.play(mv).expect("a recorded move replays");
        out.push(*game.position());
    }
    assert!(
        !game.is_over(),
        "an adjudicated game is not over by the rules"
    );
    out
}

#[test]
fn every_adjudicated_game_has_the_tables_exact_result() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let tables = dir.path().join("tables");
    build_tables(&tables);
    let adjudication = format!("tablebase = \"{}\"", s(&tables));
    let one = run(dir.path(), "tb", &adjudication, "1");
    let two = run(dir.path(), "tb", &adjudication, "2");
    for file in ["games.csv", "moves.csv", "metrics.csv"] {
        assert_eq!(
            std::fs::read(one.join(file)).expect("read"),
            std::fs::read(two.join(file)).expect("read"),
            "{file} differs between 1 and 2 threads"
        );
    }
    let mut tb = Tablebase::new(Variant::Ii, 4).expect("a board");
    tb.ensure(16, Some(&tables), &|_| {})
        .expect("the tables load");
    let played = games(&one);
    let mut adjudicated = 0;
    for (ending, south, north, plies, moves) in &played {
        assert_ne!(
            ending, "normal",
            "a 2x4 game ends by the tables before its last seeds"
        );
        if ending != "tablebase" {
            continue;
        }
        adjudicated += 1;
        assert_eq!(*plies as usize, moves.len());
        let line = positions(moves);
        let end = line.last().expect("a position");
        assert!(end.seeds_on_board() <= 16);
        let value = tb.value(end).expect("the tables cover it") as i32;
        let scores = perfect_scores(end, value);
        assert_eq!((scores.south, scores.north), (*south, *north), "{moves:?}");
        // The perfect-play result from there: South's margin.
        let now = end.captures();
        let margin = now.south as i32 - now.north as i32
            + if end.side_to_move() == hoyito::Side::South {
                value
            } else {
                -value
            };
        assert_eq!(margin, *south as i32 - *north as i32);
        // Never earlier: every position an agent moved from held more seeds.
        for pos in &line[2..line.len() - 1] {
            assert!(pos.seeds_on_board() > 16, "{moves:?} could end earlier");
        }
    }
    assert!(
        adjudicated >= 100,
        "only {adjudicated} of {} adjudicated",
        played.len()
    );
    // The replay finds the same ending at the same ply.
    let replay = run_ok(&["replay", s(&one), "0"]);
    let _ = replay;
    let out = hoyito(&["replay", s(&one), "1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("adjudicated after ply"), "{text}");
    assert!(text.contains("matches the row of games.csv"), "{text}");
    // The report says that games were adjudicated.
    let report = std::fs::read_to_string(one.join("report.md")).expect("report.md");
    assert!(
        report.contains("Games were ended by adjudication"),
        "{report}"
    );
}

#[test]
fn decided_only_tables_play_drawn_positions_on() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let tables = dir.path().join("tables");
    build_tables(&tables);
    let adjudication = format!(
        "tablebase = \"{}\"\ntablebase_results = \"decided\"",
        s(&tables)
    );
    let out = run(dir.path(), "wl", &adjudication, "1");
    let mut tb = Tablebase::new(Variant::Ii, 4).expect("a board");
    tb.ensure(16, Some(&tables), &|_| {})
        .expect("the tables load");
    let mut played_on = 0;
    for (ending, south, north, _, moves) in games(&out) {
        let line = positions_or_end(&moves);
        if ending == "tablebase" {
            assert_ne!(south, north, "a drawn result is never adjudicated");
        }
        // A position the tables draw was played on.
        played_on += line[2..]
            .iter()
            .filter(|p| p.seeds_on_board() <= 16 && !p.is_over())
            .filter(|p| {
                let v = tb.value(p).expect("covered") as i32;
                let scores = perfect_scores(p, v);
                scores.south == scores.north
            })
            .count();
    }
    assert!(played_on > 0, "no drawn position was played on");
}

/// The positions of a game that may have ended by the rules.
fn positions_or_end(moves: &[Move]) -> Vec<Position> {
    let mut game = Game::new(rules());
    let mut out = vec![*game.position()];
    for &mv in moves {
        game.play(mv).expect("a recorded move replays");
        out.push(*game.position());
    }
    out
}

#[test]
fn decided_games_end_once_a_side_holds_more_than_half() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = run(dir.path(), "decided", "decided = true", "1");
    let mut decided = 0;
    for (ending, south, north, _, moves) in games(&out) {
        let line = positions_or_end(&moves);
        // Never later than needed: no earlier position an agent moved from
        // had a side past 16 of the 32 seeds.
        for pos in &line[2..line.len() - 1] {
            let c = pos.captures();
            assert!(c.south <= 16 && c.north <= 16, "{moves:?}");
        }
        if ending == "decided" {
            decided += 1;
            let end = line.last().expect("a position");
            assert_eq!((end.captures().south, end.captures().north), (south, north));
            assert!(south.max(north) > 16);
        }
    }
    assert!(decided > 0);
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(report.contains("lower bounds"), "{report}");
}

#[test]
fn missing_or_damaged_tables_stop_the_run_before_its_first_game() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let tables = dir.path().join("tables");
    // No tables at all.
    let config = dir.path().join("none.toml");
    std::fs::write(
        &config,
        experiment("none", &format!("tablebase = \"{}\"", s(&tables))),
    )
    .expect("write");
    let out = dir.path().join("none-out");
    let run = hoyito(&["run", s(&config), "--out", s(&out)]);
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("[adjudication]") && err.contains("hoyito solve"),
        "{err}"
    );
    assert!(!out.join("games.csv").exists());
    // A layer asked for that is not there.
    build_tables(&tables);
    let config = dir.path().join("high.toml");
    std::fs::write(
        &config,
        experiment(
            "high",
            &format!("tablebase = \"{}\"\ntablebase_seeds = 20", s(&tables)),
        ),
    )
    .expect("write");
    let run = hoyito(&["run", s(&config), "--out", s(&dir.path().join("high-out"))]);
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("020"), "the missing layer is named: {err}");
    // A damaged table.
    let file = std::fs::read_dir(&tables)
        .expect("the tables")
        .map(|e| e.expect("an entry").path())
        .find(|p| p.to_string_lossy().ends_with("016.tb"))
        .expect("layer 16");
    let mut bytes = std::fs::read(&file).expect("read");
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    std::fs::write(&file, bytes).expect("write");
    let config = dir.path().join("bad.toml");
    std::fs::write(
        &config,
        experiment("bad", &format!("tablebase = \"{}\"", s(&tables))),
    )
    .expect("write");
    let out = dir.path().join("bad-out");
    let run = hoyito(&["run", s(&config), "--out", s(&out)]);
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("016.tb"), "the damaged file is named: {err}");
    assert!(!out.join("games.csv").exists());
}

#[test]
fn adjudication_options_need_their_tables_and_single_games() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let config = dir.path().join("opts.toml");
    let text = experiment(
        "opts",
        "tablebase_seeds = 8\ntablebase_results = \"decided\"",
    )
    .replace("[rules]\n", "[rules]\nrounds = 3\n")
    .replace("[\"ii\"]", "[\"iii\"]");
    std::fs::write(&config, text).expect("write");
    let run = hoyito(&["run", s(&config), "--out", s(&dir.path().join("o"))]);
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    for key in [
        "adjudication.tablebase_seeds",
        "adjudication.tablebase_results",
    ] {
        assert!(err.contains(key), "{key} not named: {err}");
    }
    let config = dir.path().join("rounds.toml");
    let text = experiment("rounds", "decided = true")
        .replace("[rules]\n", "[rules]\nrounds = 3\n")
        .replace("[\"ii\"]", "[\"iii\"]");
    std::fs::write(&config, text).expect("write");
    let run = hoyito(&["run", s(&config), "--out", s(&dir.path().join("r"))]);
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("rounds are not adjudicated"), "{err}");
}

/// An external agent that plays uniformly at random and, at its first move
/// of the match (a marker file remembers it across games), does `mode` to
/// every table file in `tables` while the harness has them mapped:
/// `flip` rewrites one byte of each in place, `truncate` empties each in
/// place, `rename` replaces each by a copy renamed over it (as hoyito itself
/// replaces a table), `same` writes each file's own bytes back in place.
const TAMPERING_AGENT: &str = r#"
import os, random, sys
mode, tables, marker = sys.argv[1], sys.argv[2], sys.argv[3]
rng = random.Random(0)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "hoyito":
        print("ready tamper", flush=True)
    elif words[0] == "go":
        if not os.path.exists(marker):
            open(marker, "w").close()
            for name in sorted(os.listdir(tables)):
                path = os.path.join(tables, name)
                if not name.endswith(".tb"):
                    continue
                if mode == "flip":
                    with open(path, "r+b") as f:
                        size = f.seek(0, 2)
                        if size > 40:
                            f.seek(40 + (size - 40) // 2)
                            b = f.read(1)
                            f.seek(-1, 1)
                            f.write(bytes([b[0] ^ 1]))
                elif mode == "truncate":
                    os.truncate(path, 0)
                elif mode == "rename":
                    data = open(path, "rb").read()
                    with open(path + ".new", "wb") as f:
                        f.write(data)
                    os.rename(path + ".new", path)
                elif mode == "same":
                    data = open(path, "rb").read()
                    with open(path, "r+b") as f:
                        f.write(data)
        legal = [m for m in words[words.index("legal") + 1:] if "=" not in m]
        print("move " + rng.choice(legal), flush=True)
    elif words[0] == "quit":
        break
"#;

/// `hoyito match` of the tampering agent in `mode` against `random` on II
/// 2x4, adjudicated by tables to 16 seeds: the match's output and its
/// results directory.
fn tampered_match(dir: &Path, mode: &str) -> (std::process::Output, std::path::PathBuf) {
    let tables = dir.join(format!("tables-{mode}"));
    build_tables(&tables);
    let script = dir.join("tamper.py");
    std::fs::write(&script, TAMPERING_AGENT).expect("write the agent");
    let marker = dir.join(format!("tampered-{mode}"));
    let agent = format!(
        "cmd=python3 {} {mode} {} {}",
        s(&script),
        s(&tables),
        s(&marker)
    );
    let out = dir.join(format!("match-{mode}"));
    let output = hoyito(&[
        "match",
        &agent,
        "random",
        "--holes",
        "4",
        "--games",
        "20",
        "--threads",
        "1",
        "--tablebase",
        s(&tables),
        "--out",
        s(&out),
        "--report-every",
        "0",
    ]);
    assert!(marker.exists(), "the agent moved and tampered");
    (output, out)
}

/// A tables directory that changes during a run gives a clear error or
/// refusal, never a silently wrong adjudication. A table written to in
/// place (other bytes, or even its own bytes again) is found before the
/// games that might have read it are written: the tampering comes in game
/// 0, each game is its own chunk, so no row at all; one truncated in place
/// stops the process with a message naming it instead of a bare SIGBUS; a
/// table replaced by rename changes nothing (the mapping keeps the old
/// file).
#[test]
fn tables_changed_during_a_run_stop_it_naming_the_file() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let rows = |out: &Path| {
        std::fs::read_to_string(out.join("games.csv"))
            .map(|text| text.lines().count().saturating_sub(1))
            .unwrap_or(0)
    };
    for mode in ["flip", "same"] {
        let (written, out) = tampered_match(dir.path(), mode);
        let err = String::from_utf8_lossy(&written.stderr);
        assert_eq!(written.status.code(), Some(1), "{mode}: {err}");
        assert!(
            err.contains("was written to in place while this process had it mapped")
                && err.contains(&format!("tables-{mode}/"))
                && err.contains(".tb"),
            "{mode}: {err}"
        );
        assert_eq!(rows(&out), 0, "{mode}: no game after the change is written");
    }

    let (truncate, out) = tampered_match(dir.path(), "truncate");
    let err = String::from_utf8_lossy(&truncate.stderr);
    assert_eq!(truncate.status.code(), Some(1), "{err}");
    assert!(
        err.contains("was truncated while this process had it mapped")
            && err.contains("tables-truncate/")
            && err.contains(".tb"),
        "{err}"
    );
    assert_eq!(rows(&out), 0);

    let (renamed, out) = tampered_match(dir.path(), "rename");
    let err = String::from_utf8_lossy(&renamed.stderr);
    assert!(renamed.status.success(), "{err}");
    assert_eq!(rows(&out), 20);
}

/// A table layer removed under a larger one quietly shrank adjudication,
/// and a resume mixed the two (rows adjudicated with 16, rows with 12). A
/// set with a hole is refused, naming it; the coverage a run used is in
/// `adjudication.toml`, and a resume with tables of another coverage is
/// refused until `--force`.
#[test]
fn a_hole_in_the_tables_or_a_resume_with_other_coverage_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tables = dir.path().join("tables");
    build_tables(&tables);
    let adjudication = format!("tablebase = \"{}\"", s(&tables));
    let out = run(dir.path(), "cover", &adjudication, "1");
    let saved = std::fs::read_to_string(out.join("adjudication.toml")).expect("coverage recorded");
    assert!(saved.contains("\"ii-2x4\" = 16"), "{saved}");
    let recorded = games(&out).len();
    let config = dir.path().join("cover.toml");
    let again = |extra: &[&str]| {
        let mut args = vec![
            "run",
            s(&config),
            "--out",
            s(&out),
            "--games",
            "60",
            "--report-every",
            "0",
        ];
        args.extend(extra);
        hoyito(&args)
    };
    // A hole at 12 under 16: refused, naming the file.
    let twelve = tables.join("hoyito-ii-2x4-012.tb");
    let kept = dir.path().join("012.tb");
    std::fs::rename(&twelve, &kept).unwrap();
    let refused = again(&[]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{err}");
    assert!(err.contains("hoyito-ii-2x4-012.tb is missing"), "{err}");
    // Without 12 and 16, the set is whole up to 8: another coverage.
    std::fs::rename(
        tables.join("hoyito-ii-2x4-016.tb"),
        dir.path().join("016.tb"),
    )
    .unwrap();
    let refused = again(&[]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{err}");
    assert!(
        err.contains("adjudicated by tables of ii-2x4 = 16, the tables now give ii-2x4 = 8"),
        "{err}"
    );
    assert_eq!(games(&out).len(), recorded);
    // --force starts again with the tables there, and records them.
    let forced = again(&["--force"]);
    assert!(
        forced.status.success(),
        "{}",
        String::from_utf8_lossy(&forced.stderr)
    );
    let saved = std::fs::read_to_string(out.join("adjudication.toml")).unwrap();
    assert!(saved.contains("\"ii-2x4\" = 8"), "{saved}");
}
