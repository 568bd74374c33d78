//! `merge --force` killed while it replaces the results must not leave `OUT`
//! half replaced (with `summary.json` and the reports but no `games.csv`,
//! say). Here the merge is frozen (SIGSTOP) at each file-system event in
//! `OUT` and beside it in turn, and at times spread over its run, then
//! killed: `OUT` must be, each time, the whole old directory or the whole new
//! one; and the next merge clears what a killed one left, and names it. A
//! link at `OUT` is refused as a link.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::named;
use crate::common::{hoyito, refused, run_ok, s, AGENTS, BIN};

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

/// Runs `cfg` in two shards, `root/s0` and `root/s1`.
fn run_shards(root: &Path, cfg: &Path) -> Vec<PathBuf> {
    let shards: Vec<PathBuf> = (0..2).map(|k| root.join(format!("s{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        let shard = format!("{k}/2");
        run_ok(&[
            "run",
            s(cfg),
            "--shard",
            &shard,
            "--out",
            s(dir),
            "--agents-dir",
            AGENTS,
        ]);
    }
    shards
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
fn merge_force_killed_anywhere_leaves_out_whole_old_or_whole_new() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let new_cfg = config(root, 11);
    let shards = run_shards(root, &new_cfg);
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
        AGENTS,
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
fn a_stopped_merges_leftovers_are_named_and_never_taken_for_results() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let cfg = config(root, 11);
    let shards = run_shards(root, &cfg);
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

/// `merge` into a symbolic link to an empty directory is refused as a link,
/// naming the link and its target (not as "not empty"), and the target stays
/// empty.
#[test]
fn merge_into_a_link_is_refused_as_a_link() {
    let tmp = tempfile::tempdir().expect("tmp");
    let cfg = config(tmp.path(), 11);
    let shards = run_shards(tmp.path(), &cfg);
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
