//! Files written whole or not at all, never through a link, by one writer
//! at a time: a run directory's lock, temporary files replaced rather than
//! followed where a link is planted, links at an output refused with their
//! target untouched, agents' logs and `tune`'s and `solve`'s files written
//! the same way, and what a killed writer leaves behind cleared by the next.
//! `merge --force` killed anywhere in `merge.rs`; `book --out` replaced whole
//! in `book.rs`.

mod book;
mod merge;

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;

use hoyito::solver::table;
use hoyito::solver::Tablebase;
use hoyito::tournament::{open_run_dir, Experiment, Schedule};
use hoyito::Variant;

use crate::common::{hoyito, s, scratch, SMALL_RUN as SMALL};

/// The names in `dir` that start with `prefix`.
fn named(dir: &Path, prefix: &str) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("readable")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(prefix))
        .collect();
    names.sort();
    names
}

fn config(dir: &Path, body: &str) -> PathBuf {
    let path = dir.join("small.toml");
    fs::write(&path, body).unwrap();
    path
}

fn experiment(body: &str) -> (Experiment, u64) {
    let mut e = Experiment::parse(body, "small.toml").unwrap();
    e.round_to_pairs();
    let total = Schedule::new(&e).len();
    (e, total)
}

#[test]
fn a_second_writer_is_refused_naming_the_holder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    let (e, total) = experiment(SMALL);
    let first = open_run_dir(&dir, &e, total, false).unwrap();
    // Run B with --force, in this process (a second open file description)
    // and as another process: both refused, and A's files are untouched.
    let err = open_run_dir(&dir, &e, total, true).unwrap_err().to_string();
    assert!(
        err.contains("in use by another hoyito process")
            && err.contains(&format!("pid {}", std::process::id())),
        "{err}"
    );
    let cfg = config(tmp.path(), SMALL);
    let out = hoyito(&["run", s(&cfg), "--out", s(&dir), "--force"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("in use by another hoyito process"),
        "{stderr}"
    );
    assert!(dir.join("games.csv").exists() && dir.join("experiment.toml").exists());
    // A report of a directory being written is refused too.
    let out = hoyito(&["report", s(&dir)]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("in use by another hoyito process"),
        "{stderr}"
    );
    drop(first);
    // Another test of this binary that is starting a process holds a copy
    // of every descriptor, the lock's too, from its fork until its exec:
    // under load that window can outlast the drop, so the run is retried
    // while the lock is still reported held, for at most a few seconds.
    let mut out = hoyito(&["run", s(&cfg), "--out", s(&dir), "--force"]);
    for _ in 0..50 {
        let busy = String::from_utf8_lossy(&out.stderr).contains("in use by another hoyito");
        if out.status.success() || !busy {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        out = hoyito(&["run", s(&cfg), "--out", s(&dir), "--force"]);
    }
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = hoyito(&["report", s(&dir)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_planted_temp_link_does_not_overwrite_its_victim() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    fs::create_dir(&dir).unwrap();
    let victim = tmp.path().join("victim");
    fs::write(&victim, "precious\n").unwrap();
    symlink(&victim, dir.join("experiment.toml.tmp")).unwrap();
    let cfg = config(tmp.path(), SMALL);
    let out = hoyito(&["run", s(&cfg), "--out", s(&dir)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(fs::read_to_string(dir.join("experiment.toml"))
        .unwrap()
        .contains("name = \"small\""));
}

#[test]
fn a_dangling_games_link_does_not_create_its_target() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    fs::create_dir(&dir).unwrap();
    let target = tmp.path().join("elsewhere.csv");
    symlink(&target, dir.join("games.csv")).unwrap();
    let (e, total) = experiment(SMALL);
    let err = open_run_dir(&dir, &e, total, false)
        .unwrap_err()
        .to_string();
    assert!(err.contains("games.csv is a symbolic link"), "{err}");
    assert!(!target.exists(), "the link's target was created");
    assert!(
        !dir.join("experiment.toml").exists(),
        "written before refusing"
    );
    let cfg = config(tmp.path(), SMALL);
    let out = hoyito(&["run", s(&cfg), "--out", s(&dir)]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("symbolic link"), "{stderr}");
    assert!(!target.exists(), "the link's target was created");
}

/// A link at an agent's stderr log, or in place of the run's `agents/`
/// directory, is refused; its target is never written.
#[test]
fn agent_logs_are_never_written_through_links() {
    use hoyito::protocol::AgentProcess;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "keep me\n").expect("write");
    let command = vec![
        "sh".to_string(),
        "-c".to_string(),
        "echo noise >&2".to_string(),
    ];
    // A link at the log itself.
    let agents = dir.path().join("run/agents");
    std::fs::create_dir_all(&agents).expect("mkdir");
    let log = agents.join("x.stderr.log");
    symlink(&victim, &log).expect("symlink");
    let Err(err) = AgentProcess::spawn(&command, None, Some(&log)) else {
        panic!("a link at the log is refused");
    };
    assert!(err.to_string().contains("x.stderr.log"), "{err}");
    // A link in place of the agents directory.
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("mkdir");
    let linked = dir.path().join("run2");
    std::fs::create_dir_all(&linked).expect("mkdir");
    symlink(&elsewhere, linked.join("agents")).expect("symlink");
    let log = linked.join("agents/y.stderr.log");
    let Err(err) = AgentProcess::spawn(&command, None, Some(&log)) else {
        panic!("a linked agents directory is refused");
    };
    assert!(err.to_string().contains("symbolic link"), "{err}");
    assert_eq!(std::fs::read_to_string(&victim).expect("read"), "keep me\n");
    assert!(std::fs::read_dir(&elsewhere)
        .expect("read")
        .next()
        .is_none());
}

/// A link planted at `tune`'s temporary file is replaced, never written
/// through, and `--out` ends a regular file.
#[test]
fn tune_never_writes_through_its_temporary_file() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "keep me\n").expect("write");
    let out = dir.path().join("weights.toml");
    // Whatever this process's id will be, plant links at every name a
    // temporary file of `tune` could take for a while.
    let first = std::process::id();
    for pid in first..first + 400 {
        let _ = symlink(&victim, dir.path().join(format!(".weights.toml.{pid}.tmp")));
    }
    let _ = symlink(&victim, dir.path().join(".weights.toml.tmp"));
    let run = hoyito(&[
        "tune",
        "--agent",
        "greedy",
        "--variant",
        "i",
        "--holes",
        "3",
        "--games",
        "40",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(std::fs::symlink_metadata(&out)
        .expect("out")
        .file_type()
        .is_file());
    assert!(std::fs::read_to_string(&out)
        .expect("read")
        .contains("kind"));
    assert_eq!(std::fs::read_to_string(&victim).expect("read"), "keep me\n");
}

/// A table is written through a temporary file created afresh; a link
/// planted at that name is replaced, never followed, so its target is left
/// alone.
#[cfg(unix)]
#[test]
fn a_table_is_never_saved_through_a_planted_link() {
    let dir = scratch("table-link");
    let mut tb = Tablebase::new(Variant::Iii, 2).expect("a valid board");
    tb.ensure(4, None, &|_| {}).expect("built");
    let key = tb.key(4);
    let path = dir.join(key.file_name());
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "keep me").expect("writable");
    let temp = dir.join(format!(".{}.{}.tmp", key.file_name(), std::process::id()));
    symlink(&victim, &temp).expect("a link");
    table::save(&path, key, tb.layer(4).expect("built")).expect("saved");
    assert_eq!(
        std::fs::read_to_string(&victim).expect("readable"),
        "keep me"
    );
    assert!(!temp.exists() && std::fs::symlink_metadata(&temp).is_err());
    assert_eq!(
        table::load(&path, key).expect("a good file").as_slice(),
        tb.layer(4).expect("built")
    );
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

/// A `.hoyito-*.tb.PID.tmp` of a `solve` killed with SIGKILL (7 MB here)
/// would stay for good: the next solve into the directory clears it and
/// names it; a table being written by a running process is left alone.
#[test]
fn the_next_solve_clears_what_a_killed_one_left() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    fs::create_dir(&tables).unwrap();
    // A solve killed with SIGKILL: its process id no longer runs.
    let mut killed = Command::new("sleep").arg("60").spawn().unwrap();
    killed.kill().unwrap();
    killed.wait().unwrap();
    let stale = tables.join(format!(".hoyito-ii-2x6-012.tb.{}.tmp", killed.id()));
    fs::write(&stale, vec![0u8; 7 << 20]).unwrap();
    let running = tables.join(format!(".hoyito-ii-2x6-013.tb.{}.tmp", std::process::id()));
    fs::write(&running, b"being written").unwrap();
    let args = [
        "solve",
        "--variant",
        "ii",
        "--holes",
        "2",
        "--max-seeds",
        "2",
        "--tables",
        s(&tables),
    ];
    let out = hoyito(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!stale.exists(), "the killed solve's file is still there");
    assert!(running.exists(), "a running process's file was removed");
    assert!(
        err.contains(&format!("removed {}", stale.display()))
            && err.contains(&format!("process {}, which no longer runs", killed.id())),
        "{err}"
    );
}
