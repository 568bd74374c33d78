//! Full move records: the `moves_hash` column of `games.csv`, `moves.csv`
//! (streamed, resumed, switched off), replay from the record and PGN export.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hoyito::report::tally_games_csv;
use hoyito::tournament::{
    play_scheduled, run_games, Experiment, GameRow, Lineup, MovesHash, Schedule, Work,
};

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
        random_plies: e.openings.random_plies,
    };
    let mut out = Vec::new();
    run_games(work, 0..schedule.len(), 1, &mut out, |_| {}).unwrap();
    let rows = rows(&out);
    assert_eq!(rows.len() as u64, schedule.len());
    for row in &rows {
        let game = play_scheduled(&schedule.game(row.game_id), 2, &lineup, |_, _| {}).unwrap();
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
