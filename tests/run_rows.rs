//! The rows of a run directory, checked by every reader (resume, merge,
//! `report`, `export`, `replay`) through one validation: a tampered row of
//! games.csv, moves.csv or metrics.csv is refused with status 1, naming the
//! file, the line and the column, and nothing is written; rows of another
//! run, missing fields and impossible values are refused the same way;
//! adjudicated games (`tablebase`, `decided`) pass every reader; and the
//! report of an interrupted run says how far it got.
//!
//! The tamperings: a shard's row whose winner and captures are swapped,
//! plies + 1, an ending changed to repetition, a zeroed `moves_hash`, an
//! edited moves.csv or metrics.csv row; a winner its captures contradict,
//! which `export --pgn` must not write as `[Result "0-1"]` beside `[Captures
//! "20-4"]`; and a metrics.csv edit, which a resume must not keep in
//! summary.json.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{hoyito, refused, run_ok, s, SMALL_RUN as SMALL};

/// II on 2x4, random against greedy with self-play: short games, most of
/// them ended normally, moves and metrics recorded (the defaults).
const CONFIG: &str = "name = \"rows\"\nseed = 5\ngames = 6\nthreads = 1\n\
     [rules]\nvariants = [\"ii\"]\nholes = [4]\n[openings]\nrandom_plies = 2\n\
     [tournament]\nformat = \"round-robin\"\nagents = [\"random\", \"greedy\"]\n\
     self_play = true\n";

fn write_config(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    fs::write(&path, text).expect("a writable temporary directory");
    path
}

fn run(config: &Path, out: &Path, extra: &[&str]) {
    let mut args = vec!["run", s(config), "--out", s(out), "--report-every", "0"];
    args.extend_from_slice(extra);
    run_ok(&args);
}

/// The fields of line `line` (from 1) of a csv file without quoted fields.
fn fields(path: &Path, line: usize) -> Vec<String> {
    let text = fs::read_to_string(path).expect("a record file");
    let row = text.lines().nth(line - 1).expect("the line exists");
    row.split(',').map(str::to_string).collect()
}

/// Rewrites line `line` (from 1) of `path` with `edit` on its fields.
fn edit_line(path: &Path, line: usize, edit: impl FnOnce(&mut Vec<String>)) {
    let text = fs::read_to_string(path).expect("a record file");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut f: Vec<String> = lines[line - 1].split(',').map(str::to_string).collect();
    edit(&mut f);
    lines[line - 1] = f.join(",");
    fs::write(path, lines.join("\n") + "\n").expect("writable");
}

/// The first line (from 1) of `dir/games.csv` ended normally with unequal
/// captures: one whose swapped result is a different, consistent row.
fn decisive_line(dir: &Path) -> usize {
    let text = fs::read_to_string(dir.join("games.csv")).expect("games.csv");
    text.lines()
        .enumerate()
        .skip(1)
        .find(|(_, l)| {
            let f: Vec<&str> = l.split(',').collect();
            f[13] == "normal" && f[10] != f[11]
        })
        .map(|(i, _)| i + 1)
        .expect("a decisive game")
}

/// One tampering: its name, the file edited, the edit of a row (of the line
/// `decisive_line` picks, or the row of the same game in moves.csv and
/// metrics.csv, on the same line), and what the error must say after the
/// file's path and that line.
struct Tamper {
    name: &'static str,
    file: &'static str,
    edit: fn(&mut Vec<String>),
    says: &'static str,
}

fn tampers() -> [Tamper; 6] {
    [
        Tamper {
            name: "winner and captures swapped",
            file: "games.csv",
            edit: |f| {
                f.swap(10, 11);
                f[9] = if f[9] == "S" { "N".into() } else { "S".into() };
            },
            says: "column `winner`",
        },
        Tamper {
            name: "plies + 1",
            file: "games.csv",
            edit: |f| f[12] = (f[12].parse::<u32>().expect("plies") + 1).to_string(),
            says: "column `plies`",
        },
        Tamper {
            name: "ending changed to repetition",
            file: "games.csv",
            edit: |f| f[13] = "repetition".into(),
            says: "column `",
        },
        Tamper {
            name: "moves_hash zeroed",
            file: "games.csv",
            edit: |f| f[14] = "0000000000000000".into(),
            says: "column `moves_hash`",
        },
        Tamper {
            name: "a move of moves.csv changed",
            file: "moves.csv",
            edit: |f| f[1] = f[1].replacen(' ', " pass ", 1),
            says: "column `moves_hash`",
        },
        Tamper {
            name: "a measure of metrics.csv changed",
            file: "metrics.csv",
            edit: |f| f[8] = (f[8].parse::<u32>().expect("laps") + 1).to_string(),
            says: "column `laps`: ",
        },
    ]
}

/// The file the error names: a moves.csv edit breaks the games.csv row's
/// hash, so the error is at that row (and names the moves.csv line too).
fn named_file(tamper: &Tamper) -> &'static str {
    match tamper.file {
        "metrics.csv" => "metrics.csv",
        _ => "games.csv",
    }
}

/// Copies the record files and experiment of `from` into a fresh `to`.
fn copy_run(from: &Path, to: &Path) {
    let _ = fs::remove_dir_all(to);
    fs::create_dir_all(to).expect("mkdir");
    for entry in fs::read_dir(from).expect("readable") {
        let path = entry.expect("entry").path();
        if path.is_file() {
            fs::copy(&path, to.join(path.file_name().expect("a name"))).expect("copy");
        }
    }
}

#[test]
fn merge_refuses_each_tampered_shard_row() {
    let tmp = tempfile::tempdir().expect("tmp");
    let cfg = write_config(tmp.path(), "rows", CONFIG);
    let pristine = [tmp.path().join("p0"), tmp.path().join("p1")];
    for (k, dir) in pristine.iter().enumerate() {
        run(&cfg, dir, &["--shard", &format!("{k}/2")]);
    }
    // The untouched shards merge.
    let merged = tmp.path().join("merged");
    run_ok(&["merge", s(&merged), s(&pristine[0]), s(&pristine[1])]);
    let shard = tmp.path().join("s0");
    let other = tmp.path().join("s1");
    copy_run(&pristine[1], &other);
    let line = decisive_line(&pristine[0]);
    for tamper in tampers() {
        copy_run(&pristine[0], &shard);
        edit_line(&shard.join(tamper.file), line, tamper.edit);
        let out_dir = tmp.path().join("out");
        let out = hoyito(&["merge", s(&out_dir), s(&shard), s(&other)]);
        let err = refused(&out, tamper.name);
        let at = format!(
            "{}, line {line}: ",
            shard.join(named_file(&tamper)).display()
        );
        assert!(err.contains(&at), "{}: {err}\nwanted {at}", tamper.name);
        assert!(err.contains(tamper.says), "{}: {err}", tamper.name);
        assert!(!out_dir.exists(), "{}: a refused merge wrote", tamper.name);
    }
}

#[test]
fn report_export_and_replay_refuse_each_tampered_row() {
    let tmp = tempfile::tempdir().expect("tmp");
    let cfg = write_config(tmp.path(), "rows", CONFIG);
    let pristine = tmp.path().join("whole");
    run(&cfg, &pristine, &[]);
    let line = decisive_line(&pristine);
    let game_id = line - 2;
    let dir = tmp.path().join("dir");
    let pgn = tmp.path().join("games.pgn");
    for tamper in tampers() {
        copy_run(&pristine, &dir);
        let summary = fs::read(dir.join("summary.json")).expect("summary.json");
        edit_line(&dir.join(tamper.file), line, tamper.edit);
        let at = format!("{}, line {line}: ", dir.join(named_file(&tamper)).display());
        let out = hoyito(&["report", s(&dir)]);
        let err = refused(&out, tamper.name);
        assert!(
            err.contains(&at),
            "report, {}: {err}\nwanted {at}",
            tamper.name
        );
        assert!(err.contains(tamper.says), "report, {}: {err}", tamper.name);
        assert_eq!(
            fs::read(dir.join("summary.json")).expect("summary.json"),
            summary,
            "report, {}: the summary changed",
            tamper.name
        );
        let out = hoyito(&["export", s(&dir), "--pgn", s(&pgn)]);
        let err = refused(&out, tamper.name);
        assert!(
            err.contains(&at),
            "export, {}: {err}\nwanted {at}",
            tamper.name
        );
        assert!(err.contains(tamper.says), "export, {}: {err}", tamper.name);
        assert!(!pgn.exists(), "export, {}: a PGN was written", tamper.name);
        let out = hoyito(&["replay", s(&dir), &game_id.to_string()]);
        let err = refused(&out, tamper.name);
        assert!(
            err.contains(&format!("game {game_id}")) || err.contains("differs"),
            "replay, {}: {err}",
            tamper.name
        );
    }
}

/// The winner alone changed to North while South captured more: `export`
/// refuses it rather than write `[Result "0-1"]` beside `[Captures "20-4"]`.
#[test]
fn export_refuses_a_result_its_captures_contradict() {
    let tmp = tempfile::tempdir().expect("tmp");
    let cfg = write_config(tmp.path(), "rows", CONFIG);
    let dir = tmp.path().join("whole");
    run(&cfg, &dir, &[]);
    let text = fs::read_to_string(dir.join("games.csv")).expect("games.csv");
    let line = text
        .lines()
        .enumerate()
        .skip(1)
        .find(|(_, l)| l.split(',').nth(9) == Some("S"))
        .map(|(i, _)| i + 1)
        .expect("a game South won");
    edit_line(&dir.join("games.csv"), line, |f| f[9] = "N".into());
    let pgn = tmp.path().join("games.pgn");
    let err = refused(&hoyito(&["export", s(&dir), "--pgn", s(&pgn)]), "export");
    assert!(
        err.contains(&format!("games.csv, line {line}: column `winner`: N")),
        "{err}"
    );
    assert!(!pgn.exists());
}

/// A measure edited in metrics.csv is not kept on resume (where it would
/// change summary.json): the resume is refused at that line and the summary
/// is left as it was.
#[test]
fn resume_refuses_an_edited_metrics_row() {
    let tmp = tempfile::tempdir().expect("tmp");
    let cfg = write_config(tmp.path(), "rows", CONFIG);
    let dir = tmp.path().join("whole");
    run(&cfg, &dir, &[]);
    let summary = fs::read(dir.join("summary.json")).expect("summary.json");
    let metrics = dir.join("metrics.csv");
    let drama = fields(&metrics, 5)[10].clone();
    edit_line(&metrics, 5, |f| f[10] = "30".into());
    assert_ne!(drama, "30");
    let out = hoyito(&["run", s(&cfg), "--out", s(&dir), "--report-every", "0"]);
    let err = refused(&out, "resume");
    assert!(
        err.contains(&format!(
            "{}: line 5: column `drama`: 30, but the game's moves give {drama}",
            metrics.display()
        )),
        "{err}"
    );
    assert_eq!(
        fs::read(dir.join("summary.json")).expect("summary"),
        summary
    );
}

/// Adjudicated games end where their moves stop, by the tables or as
/// decided: legitimate rows that every reader must still accept.
#[test]
fn adjudicated_games_pass_every_reader() {
    let tmp = tempfile::tempdir().expect("tmp");
    let tables = tmp.path().join("tables");
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
        s(&tables),
    ]);
    for (name, adjudication, ending) in [
        ("tb", format!("tablebase = \"{}\"", s(&tables)), "tablebase"),
        ("decided", "decided = true".to_string(), "decided"),
    ] {
        let text = CONFIG.replace("games = 6", "games = 20")
            + &format!("[adjudication]\n{adjudication}\n");
        let cfg = write_config(tmp.path(), name, &text);
        let whole = tmp.path().join(format!("{name}-whole"));
        run(&cfg, &whole, &[]);
        let games = fs::read_to_string(whole.join("games.csv")).expect("games.csv");
        let adjudicated = games
            .lines()
            .skip(1)
            .find(|l| l.split(',').nth(13) == Some(ending))
            .and_then(|l| l.split(',').next())
            .unwrap_or_else(|| panic!("no game ended `{ending}`"));
        let shards = [0, 1].map(|k| tmp.path().join(format!("{name}-s{k}")));
        for (k, dir) in shards.iter().enumerate() {
            run(&cfg, dir, &["--shard", &format!("{k}/2")]);
        }
        let merged = tmp.path().join(format!("{name}-merged"));
        run_ok(&["merge", s(&merged), s(&shards[0]), s(&shards[1])]);
        assert_eq!(
            fs::read(merged.join("games.csv")).expect("merged"),
            games.as_bytes()
        );
        run_ok(&["report", s(&whole)]);
        let pgn = tmp.path().join(format!("{name}.pgn"));
        run_ok(&["export", s(&whole), "--pgn", s(&pgn)]);
        run_ok(&["replay", s(&whole), adjudicated]);
        // And a resume of the finished run keeps them.
        run(&cfg, &whole, &[]);
    }
}

/// Runs `SMALL` (with `seed`) into `dir`, which must succeed.
fn run_small(tmp: &Path, dir: &Path, seed: u64) {
    let cfg = write_config(
        tmp,
        "small",
        &SMALL.replace("seed = 11", &format!("seed = {seed}")),
    );
    let out = hoyito(&["run", s(&cfg), "--out", s(dir)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Resumes `SMALL` in `dir`, which must fail; returns the one-line error.
fn resume_fails(tmp: &Path, dir: &Path) -> String {
    let cfg = write_config(tmp, "small", SMALL);
    let out = hoyito(&["run", s(&cfg), "--out", s(dir)]);
    assert!(!out.status.success(), "a damaged directory was resumed");
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("restore the file, or pass --force"),
        "{stderr}"
    );
    stderr
}

#[test]
fn a_flipped_winner_is_refused_on_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    run_small(tmp.path(), &dir, 11);
    let games = dir.join("games.csv");
    let pristine = fs::read(&games).unwrap();
    // The winner alone flipped: the captures contradict it.
    edit_line(&games, 5, |f| {
        f[9] = if f[9] == "S" { "N".into() } else { "S".into() }
    });
    let err = resume_fails(tmp.path(), &dir);
    assert!(err.contains("games.csv: line 5: column `winner`"), "{err}");
    // Winner and captures swapped together agree, but the moves do not.
    fs::write(&games, &pristine).unwrap();
    edit_line(&games, 6, |f| {
        f.swap(10, 11);
        f[9] = match f[9].as_str() {
            "S" => "N".into(),
            "N" => "S".into(),
            _ => "draw".into(),
        };
    });
    if fs::read(&games).unwrap() != pristine {
        let err = resume_fails(tmp.path(), &dir);
        assert!(
            err.contains("games.csv: line 6: column `") && err.contains("moves end with"),
            "{err}"
        );
    }
    fs::write(&games, &pristine).unwrap();
    run_small(tmp.path(), &dir, 11);
}

#[test]
fn rows_of_a_run_with_another_seed_are_refused_on_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, other) = (tmp.path().join("out"), tmp.path().join("other"));
    run_small(tmp.path(), &dir, 11);
    run_small(tmp.path(), &other, 12);
    for name in ["games.csv", "moves.csv"] {
        fs::copy(other.join(name), dir.join(name)).unwrap();
    }
    let err = resume_fails(tmp.path(), &dir);
    assert!(
        err.contains("games.csv: line 2: column `game_seed`") && err.contains("another seed"),
        "{err}"
    );
}

#[test]
fn a_row_with_a_missing_field_or_bad_moves_is_refused_on_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    run_small(tmp.path(), &dir, 11);
    let games = dir.join("games.csv");
    let pristine = fs::read(&games).unwrap();
    edit_line(&games, 4, |f| {
        f.remove(12);
    });
    let err = resume_fails(tmp.path(), &dir);
    assert!(
        err.contains("games.csv: line 4: 14 fields where the header has 15"),
        "{err}"
    );
    fs::write(&games, &pristine).unwrap();
    // A move of game 3 changed in moves.csv: its hash no longer matches.
    let moves = dir.join("moves.csv");
    let text = fs::read_to_string(&moves).unwrap();
    let line = text.lines().nth(4).unwrap().to_string();
    let (id, rest) = line.split_once(',').unwrap();
    let changed = format!("{id},{}", rest.replacen(' ', " pass ", 1));
    fs::write(&moves, text.replace(&line, &changed)).unwrap();
    let err = resume_fails(tmp.path(), &dir);
    assert!(
        err.contains("games.csv: line 5: column `moves_hash`") && err.contains("moves.csv line 5"),
        "{err}"
    );
}

/// `hoyito report DIR`, which must fail; returns the one-line error.
fn report_fails(dir: &Path) -> String {
    let out = hoyito(&["report", s(dir)]);
    assert!(!out.status.success(), "an impossible row was reported");
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn impossible_rows_are_refused_by_the_report() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    run_small(tmp.path(), &dir, 11);
    let games = dir.join("games.csv");
    let pristine = fs::read_to_string(&games).unwrap();
    type Case = (usize, fn(&mut Vec<String>), &'static str);
    let cases: [Case; 5] = [
        (3, |f| f[3] = "99".into(), "line 3: column `holes`: 99"),
        (3, |f| f[4] = "0".into(), "line 3: column `seeds`: 0"),
        (
            4,
            |f| f[5] = "mcts".into(),
            "line 4: column `south`: \"mcts\", but the experiment's game 2 has",
        ),
        (
            5,
            |f| f[9] = if f[9] == "S" { "N".into() } else { "S".into() },
            "line 5: column `winner`",
        ),
        (2, |f| f[2] = "iii".into(), "line 2: column `variant`: iii"),
    ];
    for (line, edit, want) in cases {
        fs::write(&games, &pristine).unwrap();
        edit_line(&games, line, edit);
        let err = report_fails(&dir);
        assert!(err.contains(want), "{err}\nwanted: {want}");
    }
    // A deleted row, and a row replaced by a blank line.
    let lines: Vec<&str> = pristine.lines().collect();
    let deleted = [&lines[..5], &lines[6..]].concat().join("\n") + "\n";
    fs::write(&games, deleted).unwrap();
    let err = report_fails(&dir);
    assert!(
        err.contains("line 6: column `game_id`: game 5, but game 4 is missing"),
        "{err}"
    );
    let blank = [&lines[..5], &[""], &lines[6..]].concat().join("\n") + "\n";
    fs::write(&games, blank).unwrap();
    let err = report_fails(&dir);
    assert!(err.contains("game 5, but game 4 is missing"), "{err}");
    fs::write(&games, &pristine).unwrap();
    let out = hoyito(&["report", s(&dir)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_report_of_a_run_interrupted_at_16_of_400_games_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    let cfg = write_config(
        tmp.path(),
        "small",
        &SMALL.replace("games = 4", "games = 100"),
    );
    let out = hoyito(&["run", s(&cfg), "--out", s(&dir)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = fs::read_to_string(dir.join("summary.json")).unwrap();
    assert!(
        summary.contains("\"planned_games\": 400,\n  \"complete\": true"),
        "{summary}"
    );
    let games = dir.join("games.csv");
    let text = fs::read_to_string(&games).unwrap();
    let kept: Vec<&str> = text.lines().take(17).collect();
    fs::write(&games, kept.join("\n") + "\n").unwrap();
    let out = hoyito(&["report", s(&dir)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = fs::read_to_string(dir.join("summary.json")).unwrap();
    assert!(
        summary.contains("\"games\": 16,\n  \"planned_games\": 400,\n  \"complete\": false"),
        "{summary}"
    );
    assert!(summary.contains("\"kind\": \"incomplete\""), "{summary}");
    let report = fs::read_to_string(dir.join("report.md")).unwrap();
    let top = report.lines().nth(2).unwrap();
    assert!(
        top.starts_with("**16 of 400 planned games: the run is incomplete**; resume it with"),
        "{report}"
    );
    assert!(report.contains("- **The run is incomplete: 16 of 400 planned games.**"));
}
