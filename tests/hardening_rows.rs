//! Issue 39, "Hardening, round 2", item 3: tampered rows of games.csv,
//! moves.csv and metrics.csv are refused by every reader (merge, report,
//! export, replay, resume) through one validation.
//!
//! The issue's cases: `merge` exited 0 with a shard's row whose winner and
//! captures were swapped, and for plies + 1, an ending changed to
//! repetition, a zeroed `moves_hash`, and edited moves.csv or metrics.csv
//! rows; `report` accepted the same; `export --pgn` wrote `[Result "0-1"]`
//! beside `[Captures "20-4"]`; a metrics.csv edit was accepted on resume and
//! changed summary.json. Each is reproduced here, and must now fail with
//! status 1, naming the file, the line and the column; adjudicated games
//! (`tablebase`, `decided`) still pass every reader.
//!
//! Item 11 (part): `merge` into a symbolic link to an empty directory said
//! "not empty"; it is now refused as a link, naming it and its target.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{hoyito, run_ok, s};

/// II on 2x4, random against greedy with self-play: short games, most of
/// them ended normally, moves and metrics recorded (the defaults).
const CONFIG: &str = "name = \"rows\"\nseed = 5\ngames = 6\nthreads = 1\n\
     [rules]\nvariants = [\"ii\"]\nholes = [4]\n[openings]\nrandom_plies = 2\n\
     [tournament]\nformat = \"round-robin\"\nagents = [\"random\", \"greedy\"]\n\
     self_play = true\n";

/// The error of a command that must be refused: status 1, no panic.
fn refused(out: &Output, what: &str) -> String {
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(1), "{what} was not refused: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
    err
}

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

/// One tampering of the issue: its name, the file edited, the edit of a
/// row (of the line `decisive_line` picks, or the row of the same game in
/// moves.csv and metrics.csv, on the same line), and what the error must
/// say after the file's path and that line.
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
fn issue39_item3_merge_refuses_each_tampered_shard_row() {
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
fn issue39_item3_report_export_and_replay_refuse_each_tampered_row() {
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

/// The issue's PGN: the winner alone changed to North while South captured
/// more: `export` wrote `[Result "0-1"]` beside `[Captures "20-4"]`.
#[test]
fn issue39_item3_export_refuses_a_result_its_captures_contradict() {
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

/// A measure edited in metrics.csv was kept on resume and changed
/// summary.json: now the resume is refused at that line and the summary is
/// left as it was.
#[test]
fn issue39_item3_resume_refuses_an_edited_metrics_row() {
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
fn issue39_item3_adjudicated_games_pass_every_reader() {
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

/// Issue 39, item 11 (part): `merge` into a symbolic link to an empty
/// directory said "not empty". It is refused as a link, naming the link and
/// its target, and the target stays empty.
#[test]
fn issue39_item11_merge_into_a_link_is_refused_as_a_link() {
    let tmp = tempfile::tempdir().expect("tmp");
    let cfg = write_config(tmp.path(), "rows", CONFIG);
    let shards = [tmp.path().join("s0"), tmp.path().join("s1")];
    for (k, dir) in shards.iter().enumerate() {
        run(&cfg, dir, &["--shard", &format!("{k}/2")]);
    }
    let target = tmp.path().join("empty");
    fs::create_dir(&target).expect("mkdir");
    let link = tmp.path().join("link");
    symlink(&target, &link).expect("symlink");
    let out = hoyito(&["merge", s(&link), s(&shards[0]), s(&shards[1])]);
    let err = refused(&out, "merge into a link");
    assert!(!err.contains("not empty"), "{err}");
    assert!(
        err.contains(&format!(
            "{}: is a symbolic link (to {})",
            s(&link),
            s(&target)
        )),
        "{err}"
    );
    assert!(fs::read_dir(&target).expect("target").next().is_none());
    assert!(fs::symlink_metadata(&link).expect("link").is_symlink());
}
