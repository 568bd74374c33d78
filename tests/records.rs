//! Full move records: the `moves_hash` column of `games.csv`, `moves.csv`
//! (streamed, resumed, switched off), replay from the record and PGN export.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hoyito::report::tally_games_csv;
use hoyito::tournament::{
    play_scheduled, run_games, Experiment, GameRow, Lineup, MovesHash, MovesReader, MovesRow,
    RecordSinks, Schedule, Winner, Work, MOVES_FILE,
};
use hoyito::Game;

const BIN: &str = env!("CARGO_BIN_EXE_hoyito");

const SMALL: &str = r#"
name = "small"
seed = 11
games = 25
[rules]
variants = ["i", "ii", "iii"]
holes = [4, 6]
[openings]
random_plies = 2
[tournament]
format = "self-play"
agents = ["random"]
[roster.random]
kind = "random"
"#;

fn experiment(text: &str) -> Experiment {
    let mut e = Experiment::parse(text, "test.toml").unwrap();
    e.round_to_pairs();
    e
}

fn rows(csv: &[u8]) -> Vec<GameRow> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(csv)
        .deserialize()
        .map(Result::unwrap)
        .collect()
}

fn hoyito(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn config(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    fs::write(&path, body).unwrap();
    path
}

#[test]
fn the_hash_column_is_fnv1a_of_the_whole_game_text() {
    let e = experiment(SMALL);
    let schedule = Schedule::new(&e);
    let lineup = Lineup::new(e.agent_specs());
    let work = Work {
        schedule: &schedule,
        lineup: &lineup,
        adjudicator: None,
    };
    let mut out = Vec::new();
    let sinks = RecordSinks {
        games: &mut out,
        moves: None,
        metrics: None,
    };
    run_games(work, 0..schedule.len(), 1, sinks, &mut |_| {}).unwrap();
    let rows = rows(&out);
    assert_eq!(rows.len() as u64, schedule.len());
    for row in &rows {
        let scheduled = schedule.game(row.game_id);
        let opening = schedule.opening(&scheduled);
        let game = play_scheduled(&scheduled, opening, &lineup, None, |_, _| {}).unwrap();
        let text: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
        let text = text.join(" ");
        assert!(text.starts_with(&row.opening), "{text} / {}", row.opening);
        // FNV-1a written out independently of the library.
        let mut hash: u64 = 0xcbf29ce484222325;
        for b in text.bytes() {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x100000001b3);
        }
        assert_eq!(row.moves_hash, MovesHash(hash), "game {}", row.game_id);
    }
    let distinct: std::collections::BTreeSet<_> = rows.iter().map(|r| r.moves_hash).collect();
    assert!(distinct.len() > rows.len() * 9 / 10);
}

#[test]
fn a_malformed_hash_is_named_by_its_column() {
    let tmp = tempfile::tempdir().unwrap();
    let good = fs::read_to_string("tests/data/games_small.csv").unwrap();
    let line = good.lines().nth(3).unwrap();
    let bad_line = format!("{}xyz", &line[..line.len() - 3]);
    let csv = tmp.path().join("games.csv");
    fs::write(&csv, good.replace(line, &bad_line)).unwrap();
    let err = tally_games_csv(&csv).unwrap_err().to_string();
    assert!(
        err.contains("line 4") && err.contains("moves_hash") && err.contains("16 hexadecimal"),
        "{err}"
    );
    let cfg = config(tmp.path(), "small", SMALL);
    let out = tmp.path().join("out");
    let run = hoyito(&["run", s(&cfg), "--out", s(&out)]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let header = fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(
        header.starts_with("game_id,")
            && header
                .lines()
                .next()
                .unwrap()
                .ends_with(",ending,moves_hash")
    );
}

/// Runs `SMALL` (with `games` per block and `extra` appended) into a fresh
/// directory under `tmp`.
fn run_small(tmp: &Path, name: &str, games: u64, extra: &str, threads: &str) -> PathBuf {
    let body = SMALL.replace("games = 25", &format!("games = {games}")) + extra;
    let cfg = config(tmp, name, &body);
    let out = tmp.join(name);
    run_ok(&["run", s(&cfg), "--out", s(&out), "--threads", threads]);
    out
}

fn run_ok(args: &[&str]) -> String {
    let out = hoyito(args);
    assert!(
        out.status.success(),
        "hoyito {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn games_rows(dir: &Path) -> Vec<GameRow> {
    csv::Reader::from_path(dir.join("games.csv"))
        .unwrap()
        .deserialize()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn moves_csv_replayed_through_the_engine_gives_every_row_of_games_csv() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = run_small(tmp.path(), "run", 100, "", "2");
    let experiment = Experiment::load(&dir.join("experiment.toml")).unwrap();
    assert!(experiment.record.moves);
    let rows = games_rows(&dir);
    assert_eq!(rows.len(), 600);
    let mut reader = MovesReader::open(&dir.join(MOVES_FILE)).unwrap();
    let mut record = MovesRow::default();
    for row in &rows {
        assert!(reader.next_row(&mut record).unwrap());
        assert_eq!(record.game_id, row.game_id);
        let mut game = Game::new(experiment.rules_for(row.variant, row.holes));
        for &mv in &record.moves {
            game.play(mv).unwrap();
        }
        let outcome = game.outcome().expect("the record plays to the end");
        let id = row.game_id;
        assert_eq!(Winner::of(&outcome), row.winner, "game {id}");
        assert_eq!(outcome.scores.south, row.south_captures, "game {id}");
        assert_eq!(outcome.scores.north, row.north_captures, "game {id}");
        assert_eq!(outcome.plies, row.plies, "game {id}");
        assert_eq!(outcome.ending, row.ending, "game {id}");
        let text = record.moves_text();
        assert!(text.starts_with(&row.opening), "game {id}");
        assert_eq!(
            MovesHash::of_text(text.as_bytes()),
            row.moves_hash,
            "game {id}"
        );
    }
    assert!(!reader.next_row(&mut record).unwrap());
}

#[test]
fn one_and_two_threads_write_the_same_moves_and_off_writes_none() {
    let tmp = tempfile::tempdir().unwrap();
    let one = run_small(tmp.path(), "one", 300, "", "1");
    let two = run_small(tmp.path(), "two", 300, "", "2");
    let moves = fs::read(one.join(MOVES_FILE)).unwrap();
    assert_eq!(moves, fs::read(two.join(MOVES_FILE)).unwrap());
    assert_eq!(moves.iter().filter(|&&b| b == b'\n').count(), 1801);
    let off = run_small(tmp.path(), "off", 300, "[record]\nmoves = false\n", "2");
    assert!(!off.join(MOVES_FILE).exists());
    assert_eq!(
        fs::read(off.join("games.csv")).unwrap(),
        fs::read(one.join("games.csv")).unwrap()
    );
    let saved = fs::read_to_string(off.join("experiment.toml")).unwrap();
    assert!(saved.contains("[record]\nmoves = false"), "{saved}");
    let saved = fs::read_to_string(one.join("experiment.toml")).unwrap();
    assert!(saved.contains("[record]\nmoves = true"), "{saved}");
}

#[test]
fn the_record_section_is_checked() {
    let err = Experiment::parse(&format!("{SMALL}[record]\nmovse = false\n"), "r.toml")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("r.toml") && err.contains("movse") && err.contains("`moves`"),
        "{err}"
    );
    let err = Experiment::parse(&format!("{SMALL}[record]\nmoves = 1\n"), "r.toml")
        .unwrap_err()
        .to_string();
    assert!(err.contains("moves") && err.contains("bool"), "{err}");
    assert!(experiment(SMALL).record.moves);
}

#[test]
fn a_resume_after_either_file_is_cut_gives_the_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = run_small(tmp.path(), "whole", 200, "", "2");
    let games = fs::read(whole.join("games.csv")).unwrap();
    let moves = fs::read(whole.join(MOVES_FILE)).unwrap();
    let metrics = fs::read(whole.join("metrics.csv")).unwrap();
    let cfg = tmp.path().join("whole.toml");
    for (cut, at) in [
        ("games.csv", 3),
        ("moves.csv", 7),
        ("games.csv", 999),
        ("moves.csv", 1),
        ("metrics.csv", 5),
        ("metrics.csv", 999),
    ] {
        let dir = tmp.path().join(format!("cut-{cut}-{at}"));
        fs::create_dir(&dir).unwrap();
        for name in ["experiment.toml", "games.csv", MOVES_FILE, "metrics.csv"] {
            fs::copy(whole.join(name), dir.join(name)).unwrap();
        }
        // Cut in the middle of a row, `at` thousandths into the file.
        let path = dir.join(cut);
        let mut bytes = fs::read(&path).unwrap();
        bytes.truncate(bytes.len() * at / 1000 + 5);
        fs::write(&path, &bytes).unwrap();
        run_ok(&["run", s(&cfg), "--out", s(&dir), "--threads", "2"]);
        assert!(
            fs::read(dir.join("games.csv")).unwrap() == games,
            "{cut} {at}"
        );
        assert!(
            fs::read(dir.join(MOVES_FILE)).unwrap() == moves,
            "{cut} {at}"
        );
        assert!(
            fs::read(dir.join("metrics.csv")).unwrap() == metrics,
            "{cut} {at}"
        );
    }
}

#[test]
fn replay_uses_the_record_and_falls_back_to_the_agents_without_it() {
    let tmp = tempfile::tempdir().unwrap();
    let extra = "[roster.greedy]\nkind = \"greedy\"\n";
    let body = SMALL
        .replace("self-play", "round-robin")
        .replace("[\"random\"]", "[\"random\", \"greedy\"]")
        + extra;
    let cfg = config(tmp.path(), "rr", &body);
    let dir = tmp.path().join("rr");
    run_ok(&["run", s(&cfg), "--out", s(&dir)]);
    let text = run_ok(&["replay", s(&dir), "31"]);
    assert!(text.starts_with("game 31 (pair 15)"), "{text}");
    assert!(
        text.ends_with("replayed from moves.csv: no agent was run\nmatches the row of games.csv\n"),
        "{text}"
    );
    // The record is what is replayed: a changed move is caught.
    let moves_path = dir.join(MOVES_FILE);
    let moves = fs::read_to_string(&moves_path).unwrap();
    let line = moves.lines().nth(32).unwrap();
    assert!(line.starts_with("31,"));
    let (head, last) = line.rsplit_once(' ').unwrap();
    let other = if last == "1" { "2" } else { "1" };
    fs::write(&moves_path, moves.replace(line, &format!("{head} {other}"))).unwrap();
    let out = hoyito(&["replay", s(&dir), "31"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.starts_with("error: "), "{err}");
    assert!(err.lines().count() <= 3, "{err}");
    // Without the record, the agents play again.
    fs::remove_file(&moves_path).unwrap();
    let text = run_ok(&["replay", s(&dir), "31"]);
    assert!(
        text.ends_with(
            "played again by its agents (no moves.csv row)\nmatches the row of games.csv\n"
        ),
        "{text}"
    );
    // A run without moves replays by its agents too.
    let off = run_small(tmp.path(), "off", 10, "[record]\nmoves = false\n", "1");
    let text = run_ok(&["replay", s(&off), "7"]);
    assert!(text.contains("played again by its agents"), "{text}");
}

/// One game read back from PGN by a small parser independent of the writer.
#[derive(Debug, Default)]
struct PgnGame {
    tags: Vec<(String, String)>,
    movetext: String,
}

impl PgnGame {
    fn tag(&self, name: &str) -> &str {
        let found = self.tags.iter().find(|(n, _)| n == name);
        &found.unwrap_or_else(|| panic!("no tag {name}")).1
    }
}

/// Parses a tag pair line by the PGN grammar (Edwards 1994, 8.1): `[`, a
/// symbol (letters, digits, `_`), one space, a string token with `\\` and
/// `\"` escapes and printable ASCII only, `]`. Panics on anything else.
fn parse_tag_pair(line: &str) -> (String, String) {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .unwrap_or_else(|| panic!("not a tag pair: {line:?}"));
    let (name, value) = inner.split_once(' ').expect("a space after the name");
    assert!(
        name.starts_with(|c: char| c.is_ascii_alphanumeric())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
        "bad tag name {name:?}"
    );
    let body = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or_else(|| panic!("not a string token: {value:?}"));
    let mut text = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        assert!((' '..='~').contains(&c), "non-printable in {line:?}");
        match c {
            '\\' => text.push(
                chars
                    .next()
                    .filter(|c| *c == '"' || *c == '\\')
                    .expect("an escape"),
            ),
            '"' => panic!("unescaped quote in {line:?}"),
            c => text.push(c),
        }
    }
    (name.to_string(), text)
}

fn parse_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_movetext = false;
    for line in text.lines() {
        assert!(line.len() <= 79, "line too long: {line}");
        if line.starts_with('[') {
            assert!(!in_movetext, "a tag inside movetext: {line}");
            game.tags.push(parse_tag_pair(line));
        } else if line.is_empty() {
            if in_movetext {
                games.push(std::mem::take(&mut game));
                in_movetext = false;
            } else {
                assert!(!game.tags.is_empty(), "a blank line before any tag");
                in_movetext = true;
            }
        } else {
            assert!(in_movetext, "movetext before the blank line: {line}");
            if !game.movetext.is_empty() {
                game.movetext.push(' ');
            }
            game.movetext.push_str(line);
        }
    }
    assert!(
        !in_movetext && game.tags.is_empty(),
        "a game without its end"
    );
    games
}

#[test]
fn exported_pgn_parses_back_to_the_rows_and_moves() {
    let tmp = tempfile::tempdir().unwrap();
    let body = SMALL
        .replace("self-play", "round-robin")
        .replace("[\"random\"]", "[\"random\", \"greedy\"]")
        .replace("holes = [4, 6]", "holes = [6, 12]")
        + "[roster.greedy]\nkind = \"greedy\"\n";
    let cfg = config(tmp.path(), "pgn", &body);
    let dir = tmp.path().join("pgn");
    run_ok(&["run", s(&cfg), "--out", s(&dir)]);
    let pgn = tmp.path().join("games.pgn");
    let out = hoyito(&["export", s(&dir), "--pgn", s(&pgn)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim_end(), s(&pgn));
    let games = parse_pgn(&fs::read_to_string(&pgn).unwrap());
    let rows = games_rows(&dir);
    assert_eq!(games.len(), rows.len());
    let mut reader = MovesReader::open(&dir.join(MOVES_FILE)).unwrap();
    let mut record = MovesRow::default();
    for (game, row) in games.iter().zip(&rows) {
        let names: Vec<&str> = game.tags.iter().take(7).map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
        );
        assert_eq!(game.tag("Event"), "small");
        assert_eq!(game.tag("Site"), "hoyito");
        // The day the run started, as recorded in its experiment.toml.
        let date = game.tag("Date");
        let digit_or_dot = |(i, c): (usize, char)| match i {
            4 | 7 => c == '.',
            _ => c.is_ascii_digit(),
        };
        assert!(
            date.len() == 10 && date.chars().enumerate().all(digit_or_dot),
            "{date}"
        );
        assert_eq!(game.tag("Round"), (row.game_id + 1).to_string());
        assert_eq!(game.tag("White"), row.south);
        assert_eq!(game.tag("Black"), row.north);
        let result = match row.winner {
            Winner::S => "1-0",
            Winner::N => "0-1",
            Winner::Draw => "1/2-1/2",
        };
        assert_eq!(game.tag("Result"), result);
        assert_eq!(game.tag("GameId"), row.game_id.to_string());
        assert_eq!(game.tag("Board"), format!("2x{}", row.holes));
        assert_eq!(game.tag("Seeds"), row.seeds.to_string());
        assert_eq!(game.tag("Ending"), row.ending.name());
        assert_eq!(
            game.tag("Captures"),
            format!("{}-{}", row.south_captures, row.north_captures)
        );
        assert_eq!(
            game.tag("Variant"),
            format!("Hoyito {}", row.variant.name().to_uppercase())
        );
        // The movetext: the opening's plies in a comment (they are the
        // Opening tag), the players' moves in another, then the result,
        // which must agree with the Result tag.
        let opening = game.tag("Opening");
        let rest = match game.movetext.strip_prefix("{opening: ") {
            Some(rest) => {
                let (plies, rest) = rest.split_once("} ").expect("an opening comment");
                assert_eq!(plies, opening);
                rest
            }
            None => game.movetext.as_str(),
        };
        let (comment, tail) = rest.split_once("} ").expect("a comment");
        assert_eq!(tail, result);
        assert!(reader.next_row(&mut record).unwrap());
        let played = comment.strip_prefix("{moves:").expect("a moves comment");
        let all = format!("{opening} {}", played.trim());
        assert_eq!(all.trim(), record.moves_text());
    }
    // Without moves.csv the games are still there, without their moves.
    fs::remove_file(dir.join(MOVES_FILE)).unwrap();
    // The file is there now: replacing it needs --force (the one overwrite
    // rule of every command), and the refusal leaves it whole.
    let before = fs::read(&pgn).unwrap();
    let out = hoyito(&["export", s(&dir), "--pgn", s(&pgn)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("--force"), "{err}");
    assert_eq!(fs::read(&pgn).unwrap(), before);
    let out = hoyito(&["export", s(&dir), "--pgn", s(&pgn), "--force"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("without their moves"));
    let games = parse_pgn(&fs::read_to_string(&pgn).unwrap());
    assert_eq!(games.len(), rows.len());
    assert!(games.iter().all(|g| g.movetext == g.tag("Result")));
    // A bad directory: one line, no file left behind.
    let bad = tmp.path().join("bad.pgn");
    let out = hoyito(&["export", s(&tmp.path().join("nothing")), "--pgn", s(&bad)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("experiment.toml"),
        "{err}"
    );
    assert!(!bad.exists() && !tmp.path().join("bad.pgn.tmp").exists());
}

#[test]
fn the_strict_tag_grammar_refuses_what_it_should() {
    for bad in [
        "[Event \"a\"b\"]",
        "[Event  \"a\"]",
        "[Ev-ent \"a\"]",
        "[Event a]",
        "Event \"a\"",
    ] {
        assert!(
            std::panic::catch_unwind(|| parse_tag_pair(bad)).is_err(),
            "{bad}"
        );
    }
    assert_eq!(
        parse_tag_pair("[White \"a\\\"b\\\\\"]"),
        ("White".to_string(), "a\"b\\".to_string())
    );
}
