//! Issue 39, "Hardening, round 2", items 5 and 6, through the binary.
//!
//! Item 5: `merge --force` killed while it replaced the results left `OUT`
//! with `summary.json` and the reports but no `games.csv`. Here the merge is
//! frozen (SIGSTOP) at each file-system event in `OUT` and beside it in turn,
//! and at times spread over its run, then killed: `OUT` must be, each time,
//! the whole old directory or the whole new one; and the next merge clears
//! what a killed one left, and names it.
//!
//! Item 6: `book --out` wrote over an existing book in place, without
//! `--force`, and a full disk left a truncated book instead of the good one.
//! Here an existing book is refused without `--force` and replaced whole with
//! it, a link at `--out` is refused and its target untouched, and a write
//! that fails (a file-size limit, which stops root too, as a full disk
//! would), or a process killed by it, leaves the old book byte for byte.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::symlink;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{hoyito, run_ok, s, BIN};

fn agents_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("agents")
}

/// The error lines of a command that must fail with status 1 (a refused
/// request, not a usage error), after checking it did not panic.
fn refused(out: &Output, what: &str) -> String {
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(1), "{what}: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
    err
}

/// Every file and folder under `dir`, relative, with each file's bytes (a
/// folder: `None`); the lock file, which only says who last wrote, left out.
type Tree = BTreeMap<PathBuf, Option<Vec<u8>>>;

fn tree(dir: &Path) -> Tree {
    fn walk(root: &Path, dir: &Path, into: &mut Tree) {
        for entry in fs::read_dir(dir).expect("a readable directory") {
            let path = entry.expect("an entry").path();
            let rel = path.strip_prefix(root).expect("under root").to_path_buf();
            if rel == Path::new(".lock") {
                continue;
            }
            if path.is_dir() {
                into.insert(rel, None);
                walk(root, &path, into);
            } else {
                into.insert(rel, Some(fs::read(&path).expect("a readable file")));
            }
        }
    }
    let mut into = Tree::new();
    walk(dir, dir, &mut into);
    into
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir(to).expect("mkdir");
    for entry in fs::read_dir(from).expect("readable") {
        let path = entry.expect("entry").path();
        let target = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            fs::copy(&path, &target).expect("copy");
        }
    }
}

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

/// A small experiment (18 games, one variant and board), `seed` telling two
/// results apart.
fn config(dir: &Path, seed: u64) -> PathBuf {
    let path = dir.join(format!("c{seed}.toml"));
    let text = format!(
        "name = \"k\"\nseed = {seed}\ngames = 6\n[rules]\nvariants = [\"ii\"]\nholes = [4]\n\
         [tournament]\nformat = \"round-robin\"\nagents = [\"random\", \"greedy\"]\n\
         self_play = true\n[record]\nmoves = true\n"
    );
    fs::write(&path, text).expect("writable");
    path
}

/// Watches `dir` and `out` (each may be missing) for the entries made,
/// deleted and renamed in them, through inotify(7).
struct Watch {
    fd: libc::c_int,
}

impl Watch {
    fn new(dirs: &[&Path]) -> Watch {
        // SAFETY: plain system calls on a descriptor this struct owns and
        // NUL-terminated paths that outlive them.
        let fd = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
        assert!(fd >= 0, "inotify: {}", std::io::Error::last_os_error());
        let mask = libc::IN_CREATE | libc::IN_DELETE | libc::IN_MOVED_FROM | libc::IN_MOVED_TO;
        for dir in dirs {
            let path = std::ffi::CString::new(s(dir)).expect("no NUL");
            // SAFETY: as above.
            unsafe { libc::inotify_add_watch(fd, path.as_ptr(), mask) };
        }
        Watch { fd }
    }

    /// Waits for the `k`-th event (1-based) and freezes `child` there
    /// (SIGSTOP): `true`; `false` when the child ended first.
    fn freeze_at(&self, child: &mut Child, k: usize) -> bool {
        let mut seen = 0;
        let mut buf = [0u8; 8192];
        loop {
            let mut poll = libc::pollfd {
                fd: self.fd,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one pollfd that lives across the call.
            let ready = unsafe { libc::poll(&mut poll, 1, 20) };
            if ready <= 0 {
                if child.try_wait().expect("wait").is_some() {
                    return false;
                }
                continue;
            }
            // SAFETY: a buffer of its stated length.
            let n = unsafe { libc::read(self.fd, buf.as_mut_ptr().cast(), buf.len()) };
            let mut at = 0;
            while n > 0 && at + 16 <= n as usize {
                // struct inotify_event: wd, mask, cookie, len, then the name.
                let len = u32::from_ne_bytes(buf[at + 12..at + 16].try_into().expect("4 bytes"));
                at += 16 + len as usize;
                seen += 1;
                if seen == k {
                    // SAFETY: a signal to our own child, not yet reaped.
                    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGSTOP) };
                    wait_stopped(child.id());
                    return true;
                }
            }
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        // SAFETY: the descriptor is ours, closed once.
        unsafe { libc::close(self.fd) };
    }
}

/// Waits until the process `pid` is stopped (or has ended): a signal is
/// delivered after kill(2) returns, and the files must not be read while
/// the process still changes them.
fn wait_stopped(pid: u32) {
    let stat = format!("/proc/{pid}/stat");
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(10) {
        let Ok(text) = fs::read_to_string(&stat) else {
            return;
        };
        // "pid (comm) S ...": the state follows the last parenthesis.
        let state = text.rsplit(')').next().unwrap_or("").trim_start();
        if state.starts_with(['T', 't', 'Z', 'X']) {
            return;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    panic!("process {pid} did not stop");
}

/// What is at `out` now: the whole old directory, the whole new one, or
/// (only between the two renames where the file system cannot exchange two
/// names) nothing, with the whole old one set aside. Panics on anything else.
fn check_whole(out: &Path, old: &Tree, new: &Tree, at: &str) -> &'static str {
    if !out.exists() {
        let aside = out.with_file_name(".merged.replaced");
        assert!(aside.exists(), "{at}: no output, and no old results aside");
        assert!(
            tree(&aside) == *old,
            "{at}: the results set aside are not whole"
        );
        return "aside";
    }
    let now = tree(out);
    let files = |t: &Tree| {
        t.keys()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
    };
    assert!(
        now == *old || now == *new,
        "{at}: {} is neither the old results nor the new ones: it holds {:?}",
        out.display(),
        files(&now)
    );
    if now == *old {
        "old"
    } else {
        "new"
    }
}

fn spawn_merge(out: &Path, shards: &[PathBuf]) -> Child {
    let mut args = vec!["merge", s(out)];
    args.extend(shards.iter().map(|d| s(d)));
    args.push("--force");
    Command::new(BIN)
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs")
}

#[test]
fn issue39_item5_merge_force_killed_anywhere_leaves_out_whole_old_or_whole_new() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let agents = agents_dir();
    let new_cfg = config(root, 11);
    let shards: Vec<PathBuf> = (0..2).map(|k| root.join(format!("s{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        let shard = format!("{k}/2");
        let (cfg, agents) = (s(&new_cfg), s(&agents));
        run_ok(&[
            "run",
            cfg,
            "--shard",
            &shard,
            "--out",
            s(dir),
            "--agents-dir",
            agents,
        ]);
    }
    // The old results: another seed's run, with a file of one's own that
    // --force keeps.
    let pristine = root.join("pristine");
    let old_cfg = config(root, 12);
    run_ok(&[
        "run",
        s(&old_cfg),
        "--out",
        s(&pristine),
        "--agents-dir",
        s(&agents),
    ]);
    fs::write(pristine.join("notes.txt"), "mine").expect("write");
    let old = tree(&pristine);
    // The new results, as a merge into a fresh directory writes them.
    let reference = root.join("reference");
    let mut args = vec!["merge", s(&reference)];
    args.extend(shards.iter().map(|d| s(d)));
    run_ok(&args);
    fs::write(reference.join("notes.txt"), "mine").expect("write");
    let new = tree(&reference);
    assert_ne!(old, new);
    assert!(
        new.contains_key(Path::new("games.csv")) && new.contains_key(Path::new("summary.json"))
    );

    let parent = root.join("p");
    fs::create_dir(&parent).expect("mkdir");
    let out = parent.join("merged");
    let reset = |out: &Path| {
        if out.exists() {
            fs::remove_dir_all(out).expect("rm");
        }
        copy_tree(&pristine, out);
    };
    // Frozen at the k-th entry made, deleted or renamed in OUT or beside
    // it, for every k until the merge ends first, then killed.
    let mut states = BTreeMap::new();
    let mut frozen = 0;
    for k in 1..=60 {
        reset(&out);
        let watch = Watch::new(&[&parent, &out]);
        let mut child = spawn_merge(&out, &shards);
        let stopped = watch.freeze_at(&mut child, k);
        let at = format!("frozen at event {k}");
        *states
            .entry(check_whole(&out, &old, &new, &at))
            .or_insert(0) += 1;
        child.kill().expect("kill");
        let status = child.wait().expect("wait");
        *states
            .entry(check_whole(&out, &old, &new, &at))
            .or_insert(0) += 1;
        if !stopped {
            assert!(status.success(), "{at}: the merge failed: {status:?}");
            assert_eq!(tree(&out), new, "{at}");
            break;
        }
        frozen += 1;
    }
    assert!(frozen >= 3, "the merge was frozen only {frozen} times");
    // Killed at times spread over a merge's run.
    reset(&out);
    let started = Instant::now();
    let mut child = spawn_merge(&out, &shards);
    assert!(child.wait().expect("wait").success());
    let took = started.elapsed();
    let mut killed_running = 0;
    for tenth in 0..=11u32 {
        reset(&out);
        let mut child = spawn_merge(&out, &shards);
        std::thread::sleep(took * tenth / 10);
        killed_running += usize::from(child.try_wait().expect("wait").is_none());
        child.kill().expect("kill");
        let status = child.wait().expect("wait");
        let at = format!("killed after {tenth}/10 of {took:?} ({status:?})");
        *states
            .entry(check_whole(&out, &old, &new, &at))
            .or_insert(0) += 1;
    }
    assert!(
        killed_running >= 5,
        "only {killed_running} kills hit a running merge"
    );
    assert!(
        states.contains_key("old") && states.contains_key("new"),
        "{states:?}"
    );
    // The next merge clears whatever the killed ones left beside OUT, says
    // so, and leaves only OUT.
    reset(&out);
    let left = named(&parent, ".merged.");
    let mut args = vec!["merge", s(&out)];
    args.extend(shards.iter().map(|d| s(d)));
    args.push("--force");
    let err = run_ok(&args);
    for name in &left {
        assert!(
            err.contains(&format!("note: deleted {}", s(&parent.join(name)))),
            "{err}"
        );
    }
    assert_eq!(tree(&out), new);
    assert_eq!(named(&parent, ""), vec!["merged".to_string()]);
}

#[test]
fn issue39_item5_a_stopped_merges_leftovers_are_named_and_never_taken_for_results() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let agents = agents_dir();
    let cfg = config(root, 11);
    let shards: Vec<PathBuf> = (0..2).map(|k| root.join(format!("s{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        let shard = format!("{k}/2");
        let (cfg, agents) = (s(&cfg), s(&agents));
        run_ok(&[
            "run",
            cfg,
            "--shard",
            &shard,
            "--out",
            s(dir),
            "--agents-dir",
            agents,
        ]);
    }
    let merge = |out: &Path, force: bool| {
        let mut args = vec!["merge", s(out)];
        args.extend(shards.iter().map(|d| s(d)));
        if force {
            args.push("--force");
        }
        hoyito(&args)
    };
    let out = root.join("merged");
    // A partial staging directory: deleted, said, and the merge goes on.
    let staging = root.join(".merged.merging");
    fs::create_dir(&staging).expect("mkdir");
    fs::write(staging.join("summary.json"), "{}").expect("write");
    let done = merge(&out, false);
    let err = String::from_utf8_lossy(&done.stderr).to_string();
    assert!(done.status.success(), "{err}");
    assert!(
        err.contains(&format!("note: deleted {}", s(&staging))) && err.contains("stopped"),
        "{err}"
    );
    assert!(!staging.exists() && out.join("games.csv").exists());
    let merged = tree(&out);
    // Old results set aside, and no OUT (a merge stopped between the two
    // renames): put back, said; and as OUT is then used, --force is needed.
    let aside = root.join(".merged.replaced");
    fs::rename(&out, &aside).expect("rename");
    fs::write(aside.join("notes.txt"), "mine").expect("write");
    let done = merge(&out, false);
    let err = refused(&done, "merge into restored results");
    assert!(
        err.contains(&format!("note: {} restored", s(&out))) && err.contains("--force"),
        "{err}"
    );
    assert!(!aside.exists());
    assert_eq!(fs::read(out.join("notes.txt")).expect("kept"), b"mine");
    // Old results aside beside a whole OUT (stopped before deleting them).
    fs::create_dir(&aside).expect("mkdir");
    fs::write(aside.join("games.csv"), "old\n").expect("write");
    let done = merge(&out, true);
    let err = String::from_utf8_lossy(&done.stderr).to_string();
    assert!(done.status.success(), "{err}");
    assert!(
        err.contains(&format!("note: deleted {}", s(&aside))),
        "{err}"
    );
    let mut expected = merged;
    expected.insert("notes.txt".into(), Some(b"mine".to_vec()));
    assert_eq!(tree(&out), expected);
    assert_eq!(named(root, ".merged"), Vec::<String>::new());
}

/// `hoyito book` on Hoyito II 2x4, a book of about 900 bytes, into `out`.
fn book_args<'a>(out: &'a str, agents: &'a str) -> Vec<&'a str> {
    vec![
        "book",
        "--variant",
        "ii",
        "--holes",
        "4",
        "--plies",
        "4",
        "--count",
        "12",
        "--agent",
        "alphabeta-d4",
        "--max-eval",
        "3",
        "--seed",
        "5",
        "--agents-dir",
        agents,
        "--out",
        out,
    ]
}

const OLD_BOOK: &str = "# a good book, kept\n";

#[test]
fn issue39_item6_book_refuses_an_existing_out_without_force_and_replaces_it_whole_with_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let agents = agents_dir();
    let fresh = tmp.path().join("fresh.txt");
    run_ok(&book_args(s(&fresh), s(&agents)));
    let expected = fs::read(&fresh).expect("the book");
    let out = tmp.path().join("book.txt");
    fs::write(&out, OLD_BOOK).expect("write");
    let err = refused(&hoyito(&book_args(s(&out), s(&agents))), "without --force");
    assert!(
        err.contains(&format!("error: {} exists", s(&out))) && err.contains("--force"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&out).expect("read"), OLD_BOOK);
    let mut args = book_args(s(&out), s(&agents));
    args.push("--force");
    run_ok(&args);
    assert_eq!(fs::read(&out).expect("read"), expected, "replaced whole");
    assert_eq!(
        named(tmp.path(), ""),
        vec!["book.txt".to_string(), "fresh.txt".to_string()],
        "no temporary file left"
    );
    // --force is not written into the book's command line.
    assert!(!String::from_utf8_lossy(&expected).contains("--force"));
    // A directory at --out is refused, with or without --force.
    let dir = tmp.path().join("dir");
    fs::create_dir(&dir).expect("mkdir");
    let err = refused(&hoyito(&args_with(&dir, &agents, true)), "a directory");
    assert!(err.contains("is a directory"), "{err}");
}

fn args_with<'a>(out: &'a Path, agents: &'a Path, force: bool) -> Vec<&'a str> {
    let mut args = book_args(s(out), s(agents));
    if force {
        args.push("--force");
    }
    args
}

#[test]
fn issue39_item6_book_refuses_a_link_at_out_and_leaves_its_target_untouched() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let agents = agents_dir();
    let victim = tmp.path().join("victim.txt");
    fs::write(&victim, OLD_BOOK).expect("write");
    let link = tmp.path().join("book.txt");
    symlink(&victim, &link).expect("symlink");
    for force in [false, true] {
        let err = refused(&hoyito(&args_with(&link, &agents, force)), "a link");
        assert!(
            err.contains(&format!("{} is a symbolic link", s(&link))),
            "{err}"
        );
        assert_eq!(fs::read_to_string(&victim).expect("read"), OLD_BOOK);
        assert_eq!(fs::read_link(&link).expect("still a link"), victim);
    }
    // A dangling link: its target is not created.
    let dangling = tmp.path().join("dangling.txt");
    let nowhere = tmp.path().join("nowhere.txt");
    symlink(&nowhere, &dangling).expect("symlink");
    for force in [false, true] {
        let err = refused(&hoyito(&args_with(&dangling, &agents, force)), "dangling");
        assert!(err.contains("symbolic link"), "{err}");
        assert!(!nowhere.exists());
    }
}

/// Runs `hoyito book --force` over `out` with the files it may write limited
/// to 512 bytes (RLIMIT_FSIZE, which binds root too), less than the book:
/// with SIGXFSZ ignored the write fails with EFBIG, as on a full disk;
/// with its default action the process is killed in the middle of writing.
fn book_with_small_file_limit(out: &Path, agents: &Path, ignore_sigxfsz: bool) -> Output {
    let mut command = Command::new(BIN);
    command.args(args_with(out, agents, true));
    // SAFETY: setrlimit and signal are async-signal-safe, and touch only the
    // child's own limits and signal dispositions (kept across exec).
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: 512,
                rlim_max: 512,
            };
            // No core file of the killed process either.
            let no_core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0
                || libc::setrlimit(libc::RLIMIT_CORE, &no_core) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            if ignore_sigxfsz {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            }
            Ok(())
        });
    }
    command.output().expect("the binary runs")
}

#[test]
fn issue39_item6_a_failed_book_write_leaves_the_old_book_byte_for_byte() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let agents = agents_dir();
    let out = tmp.path().join("book.txt");
    fs::write(&out, OLD_BOOK).expect("write");
    // The write fails (EFBIG, as ENOSPC on a full disk): refused, the old
    // book kept, the temporary file removed.
    let done = book_with_small_file_limit(&out, &agents, true);
    let err = refused(&done, "a failed write");
    assert!(
        err.contains(&format!("cannot write {}", s(&out))) && err.contains("left as it was"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&out).expect("read"), OLD_BOOK);
    assert_eq!(named(tmp.path(), ""), vec!["book.txt".to_string()]);
    // Killed in the middle of the write (SIGXFSZ): the old book is kept; the
    // partial temporary file is a hidden one beside it, which the next book
    // replaces.
    let done = book_with_small_file_limit(&out, &agents, false);
    assert_eq!(done.status.signal(), Some(libc::SIGXFSZ), "{done:?}");
    assert_eq!(fs::read_to_string(&out).expect("read"), OLD_BOOK);
    let left = named(tmp.path(), ".");
    assert_eq!(left, vec![".book.txt.tmp".to_string()]);
    assert_eq!(
        fs::metadata(tmp.path().join(&left[0])).expect("stat").len(),
        512
    );
    run_ok(&args_with(&out, &agents, true));
    assert!(fs::read_to_string(&out)
        .expect("read")
        .contains("# command: hoyito book"));
    assert_eq!(named(tmp.path(), ""), vec!["book.txt".to_string()]);
    // Something at the temporary name that cannot be removed as a file (a
    // directory): refused before a byte is written, the book kept.
    let before = fs::read(&out).expect("read");
    fs::create_dir(tmp.path().join(".book.txt.tmp")).expect("mkdir");
    let err = refused(&hoyito(&args_with(&out, &agents, true)), "blocked temp");
    assert!(err.contains("cannot write"), "{err}");
    assert_eq!(fs::read(&out).expect("read"), before);
}

/// Item 8: a link at an agent's stderr log, or in place of the run's
/// `agents/` directory, is refused; its target is never written.
#[test]
fn issue39_item8_agent_logs_are_never_written_through_links() {
    use hoyito::protocol::AgentProcess;
    use std::os::unix::fs::symlink;
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

/// Item 8: a link planted at `tune`'s temporary file is replaced, never
/// written through, and `--out` ends a regular file.
#[test]
fn issue39_item8_tune_never_writes_through_its_temporary_file() {
    use std::os::unix::fs::symlink;
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
    let run = crate::common::hoyito(&[
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
