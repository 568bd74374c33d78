//! Shards end to end through the binary: `hoyito run --shard K/N` into N
//! directories, `hoyito merge` into one that equals the single run byte for
//! byte (rows, moves, experiment, report and charts), every bad `--shard`
//! and every shard that must not be merged refused with one line naming it,
//! and a shard killed mid-run, resumed, then merged.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{hoyito, run_ok, s, BIN};

/// Runs a command that must fail: its first error line, after checking
/// there is exactly one and no panic.
fn error_of(args: &[&str]) -> String {
    let out = hoyito(args);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{args:?} should fail: {err}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{args:?}: one error line: {err}");
    errors[0].to_string()
}

fn bytes(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Two variants, two boards, two pairings (a round-robin of three agents
/// would be slower; two agents and self-play make 3 pairings): 12 blocks of
/// 3 rounds, 36 pairs, with moves recorded.
const CONFIG: &str = "name = \"sh\"\nseed = 11\ngames = 6\n[rules]\nvariants = [\"i\", \"ii\"]\n\
     holes = [4, 6]\n[tournament]\nformat = \"round-robin\"\nagents = [\"random\", \"greedy\"]\n\
     self_play = true\n[record]\nmoves = true\n";

fn config(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, text).expect("writable temporary directory");
    path
}

/// Every file of a run's results, relative to `dir`: the records, the
/// experiment, the report and each chart (not the lock or timings).
fn result_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = [
        "games.csv",
        "moves.csv",
        "metrics.csv",
        "experiment.toml",
        "summary.json",
        "report.md",
        "report.html",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    let mut charts: Vec<PathBuf> = fs::read_dir(dir.join("charts"))
        .expect("a charts folder")
        .map(|e| Path::new("charts").join(e.expect("entry").file_name()))
        .collect();
    charts.sort();
    assert!(!charts.is_empty());
    files.extend(charts);
    files
}

fn assert_same_results(whole: &Path, merged: &Path) {
    let files = result_files(whole);
    assert_eq!(result_files(merged), files, "the same files");
    for file in &files {
        assert!(
            bytes(&whole.join(file)) == bytes(&merged.join(file)),
            "{} differs",
            file.display()
        );
    }
}

/// Runs every shard of `count` into `root/sK` (threads alternating 1 and 2).
fn run_shards(cfg: &Path, root: &Path, count: u64) -> Vec<String> {
    (0..count)
        .map(|k| {
            let dir = root.join(format!("s{k}"));
            let threads = if k % 2 == 0 { "1" } else { "2" };
            let shard = format!("{k}/{count}");
            run_ok(&[
                "run",
                s(cfg),
                "--shard",
                &shard,
                "--out",
                s(&dir),
                "--threads",
                threads,
            ]);
            s(&dir).to_string()
        })
        .collect()
}

#[test]
fn merged_shards_equal_the_single_run_byte_for_byte_for_any_split() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = config(tmp.path(), "sh.toml", CONFIG);
    // experiment.toml records `threads` (which changes no result): the
    // merge passes on shard 0's, so the single run uses shard 0's threads.
    let whole = tmp.path().join("whole");
    run_ok(&["run", s(&cfg), "--out", s(&whole), "--threads", "1"]);
    // 36 pairs: 1, 3 and 4 shards, and 50 (14 of them empty).
    for count in [1u64, 3, 4, 50] {
        let root = tmp.path().join(format!("n{count}"));
        let mut dirs = run_shards(&cfg, &root, count);
        let shard0 = root.join("s0");
        assert!(shard0.join("shard.toml").exists());
        assert!(
            !shard0.join("report.md").exists(),
            "a shard writes no report"
        );
        let err = error_of(&["report", s(&shard0)]);
        assert!(
            err.contains("shard 0/") && err.contains("hoyito merge"),
            "{err}"
        );
        dirs.reverse(); // Any order.
        let merged = root.join("merged");
        let mut args = vec!["merge", s(&merged)];
        args.extend(dirs.iter().map(String::as_str));
        let text = run_ok(&args);
        assert!(text.contains("merged"), "{text}");
        assert_same_results(&whole, &merged);
        let leftovers: Vec<_> = fs::read_dir(&root)
            .expect("root")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("merging"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }
    // Shards of 50 past the 36 pairs hold no game, and say they are complete.
    let empty = fs::read_to_string(tmp.path().join("n50/s49/shard.toml")).expect("manifest");
    assert!(empty.contains("planned_games = 0"), "{empty}");
    assert!(empty.contains("complete = true"), "{empty}");
}

#[test]
fn bad_shard_arguments_are_one_clear_error_and_write_nothing() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = config(tmp.path(), "sh.toml", CONFIG);
    let out = tmp.path().join("out");
    for (bad, says) in [
        ("3/3", "K must be below N (0 to 2)"),
        ("0/0", "N must be at least 1"),
        ("x", "is not K/N"),
        ("1/2/3", "is not K/N"),
        ("-1/2", "is not K/N"),
        ("1/", "is not K/N"),
    ] {
        let flag = format!("--shard={bad}");
        let err = error_of(&["run", s(&cfg), &flag, "--out", s(&out)]);
        assert!(err.contains(says), "--shard {bad:?}: {err}");
        assert!(err.contains("--shard"), "--shard {bad:?}: {err}");
        assert!(!out.exists(), "--shard {bad:?} wrote {}", out.display());
    }
    let sprt = config(
        tmp.path(),
        "sprt.toml",
        "name = \"sprt\"\nseed = 1\ngames = 100\n[rules]\nvariants = [\"ii\"]\nholes = [6]\n\
         [tournament]\nformat = \"round-robin\"\nagents = [\"random\", \"greedy\"]\n\
         [sprt]\nelo0 = 0.0\nelo1 = 20.0\n",
    );
    let err = error_of(&["run", s(&sprt), "--shard", "0/2", "--out", s(&out)]);
    assert!(
        err.contains("[sprt]") && err.contains("cannot be split"),
        "{err}"
    );
    assert!(!out.exists());
}

#[test]
fn shards_that_must_not_be_merged_are_refused_by_name_and_nothing_is_written() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = config(tmp.path(), "sh.toml", CONFIG);
    let root = tmp.path();
    let dirs = run_shards(&cfg, root, 3);
    let merged = root.join("merged");
    let merge = |extra: &[&str]| {
        let mut args = vec!["merge", s(&merged)];
        args.extend_from_slice(extra);
        let err = error_of(&args);
        assert!(!merged.exists(), "{extra:?} wrote the output");
        err
    };
    let (s0, s1, s2) = (dirs[0].as_str(), dirs[1].as_str(), dirs[2].as_str());
    // Missing and duplicated slices.
    let err = merge(&[s0, s2]);
    assert!(err.contains("shard 1/3 is missing"), "{err}");
    let copy = root.join("copy");
    fs::create_dir(&copy).expect("mkdir");
    for entry in fs::read_dir(s1).expect("s1") {
        let entry = entry.expect("entry");
        fs::copy(entry.path(), copy.join(entry.file_name())).expect("copy");
    }
    let err = merge(&[s0, s1, s(&copy), s2]);
    assert!(
        err.contains(s(&copy)) && err.contains("given twice"),
        "{err}"
    );
    // Foreign shards: another seed, another roster file, another split,
    // another code version.
    let seed = root.join("seed");
    run_ok(&[
        "run",
        s(&cfg),
        "--shard",
        "1/3",
        "--seed",
        "12",
        "--out",
        s(&seed),
    ]);
    let err = merge(&[s0, s(&seed), s2]);
    assert!(
        err.contains(s(&seed)) && err.contains("foreign") && err.contains("seed"),
        "{err}"
    );
    let agents = root.join("agents");
    fs::create_dir(&agents).expect("mkdir");
    fs::write(agents.join("random.toml"), "kind = \"random\"\n").expect("write");
    fs::write(
        agents.join("greedy.toml"),
        "kind = \"alphabeta\"\ndepth = 1\n",
    )
    .expect("write");
    let roster = root.join("roster");
    run_ok(&[
        "run",
        s(&cfg),
        "--shard",
        "1/3",
        "--agents-dir",
        s(&agents),
        "--out",
        s(&roster),
    ]);
    let err = merge(&[s0, s(&roster), s2]);
    assert!(
        err.contains(s(&roster)) && err.contains("agent greedy"),
        "{err}"
    );
    let split = root.join("split");
    run_ok(&["run", s(&cfg), "--shard", "1/4", "--out", s(&split)]);
    let err = merge(&[s0, s(&split), s2]);
    assert!(
        err.contains(s(&split)) && err.contains("one split"),
        "{err}"
    );
    let manifest = Path::new(s1).join("shard.toml");
    let text = fs::read_to_string(&manifest).expect("manifest");
    let code = text
        .lines()
        .find(|l| l.starts_with("code = "))
        .expect("code");
    fs::write(
        &manifest,
        text.replace(code, "code = \"0.0.1 (git 000000000000)\""),
    )
    .expect("w");
    let err = merge(&[s0, s1, s2]);
    assert!(
        err.contains(s1) && err.contains("code version 0.0.1"),
        "{err}"
    );
    fs::write(&manifest, &text).expect("restore");
    // Not a shard at all: a directory, or a file a shell glob caught.
    let err = merge(&[s0, s1, s2, s(&cfg)]);
    assert!(
        err.contains("sh.toml") && err.contains("not a shard"),
        "{err}"
    );
    let err = merge(&[s0, s(&agents), s2]);
    assert!(
        err.contains(s(&agents)) && err.contains("not a shard"),
        "{err}"
    );
    // An output that holds something, without and with --force.
    fs::create_dir(&merged).expect("mkdir");
    fs::write(merged.join("notes.txt"), "mine").expect("write");
    let err = error_of(&["merge", s(&merged), s0, s1, s2]);
    assert!(
        err.contains("not empty") && err.contains("--force"),
        "{err}"
    );
    assert!(!merged.join("games.csv").exists());
    run_ok(&["merge", s(&merged), s0, s1, s2, "--force"]);
    assert!(merged.join("report.md").exists());
    assert_eq!(
        bytes(&merged.join("notes.txt")),
        b"mine",
        "only results replaced"
    );
    // An empty output directory is filled, as a missing one is made.
    let empty = root.join("empty");
    fs::create_dir(&empty).expect("mkdir");
    run_ok(&["merge", s(&empty), s0, s1, s2]);
    assert_eq!(
        bytes(&empty.join("games.csv")),
        bytes(&merged.join("games.csv"))
    );
    // The output may not be a shard.
    let err = error_of(&["merge", s0, s0, s1, s2, "--force"]);
    assert!(err.contains("one of the shards"), "{err}");
    let err = error_of(&["merge", s(&root.join("none"))]);
    assert!(err.contains("required") || err.contains("DIRS"), "{err}");
}

#[test]
fn a_killed_shard_is_refused_while_running_and_unfinished_then_resumed_and_merged() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // Slow enough to be caught mid-run: alpha-beta to depth 8.
    let text = "name = \"slow\"\nseed = 4\ngames = 100\n[rules]\nvariants = [\"ii\"]\n\
        holes = [4, 6]\n[tournament]\nformat = \"round-robin\"\n\
        agents = [\"greedy\", \"alphabeta-d8\"]\n[record]\nmoves = true\n";
    let cfg = config(tmp.path(), "slow.toml", text);
    let root = tmp.path();
    let s1 = root.join("s1");
    let child = Command::new(BIN)
        .args([
            "run",
            s(&cfg),
            "--shard",
            "1/2",
            "--out",
            s(&s1),
            "--threads",
            "1",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let games = s1.join("games.csv");
    let start = Instant::now();
    while fs::read(&games).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count()) < 4 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no games written"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    // Frozen mid-run (SIGSTOP), so that it cannot finish while the merge
    // looks at it: it holds its lock and has written only some games.
    let stopped = Command::new("kill")
        .args(["-STOP", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(stopped.success());
    let mut child = child;
    assert!(child.try_wait().expect("wait").is_none(), "caught mid-run");
    // The other shard runs while this one is frozen (not before: it could
    // finish meanwhile on a busy machine).
    let s0 = root.join("s0");
    run_ok(&["run", s(&cfg), "--shard", "0/2", "--out", s(&s0)]);
    let merged = root.join("merged");
    let err = error_of(&["merge", s(&merged), s(&s0), s(&s1)]);
    assert!(err.contains(s(&s1)) && err.contains("in use"), "{err}");
    child.kill().expect("SIGKILL");
    child.wait().expect("the shard ends");
    let err = error_of(&["merge", s(&merged), s(&s0), s(&s1)]);
    assert!(err.contains(s(&s1)) && err.contains("incomplete"), "{err}");
    assert!(!merged.exists());
    // The same command resumes it; then the merge equals the single run.
    let text = run_ok(&[
        "run",
        s(&cfg),
        "--shard",
        "1/2",
        "--out",
        s(&s1),
        "--threads",
        "2",
    ]);
    assert!(!text.contains("(0 done)"), "it resumed: {text}");
    run_ok(&["merge", s(&merged), s(&s1), s(&s0)]);
    let whole = root.join("whole");
    run_ok(&["run", s(&cfg), "--out", s(&whole)]);
    assert_same_results(&whole, &merged);
}
