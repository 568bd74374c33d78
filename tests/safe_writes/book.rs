//! `book --out` over an existing book: refused without `--force` and
//! replaced whole with it; a link at `--out` is refused and its target
//! untouched; and a write that fails (a file-size limit, which stops root
//! too, as a full disk would), or a process killed by it, leaves the old book
//! byte for byte.

use std::fs;
use std::os::unix::fs::symlink;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output};

use super::named;
use crate::common::{hoyito, refused, run_ok, s, AGENTS, BIN};

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

fn args_with<'a>(out: &'a Path, agents: &'a Path, force: bool) -> Vec<&'a str> {
    let mut args = book_args(s(out), s(agents));
    if force {
        args.push("--force");
    }
    args
}

#[test]
fn book_refuses_an_existing_out_without_force_and_replaces_it_whole_with_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let agents = Path::new(AGENTS);
    let fresh = tmp.path().join("fresh.txt");
    run_ok(&book_args(s(&fresh), s(agents)));
    let expected = fs::read(&fresh).expect("the book");
    let out = tmp.path().join("book.txt");
    fs::write(&out, OLD_BOOK).expect("write");
    let err = refused(&hoyito(&book_args(s(&out), s(agents))), "without --force");
    assert!(
        err.contains(&format!("error: {} exists", s(&out))) && err.contains("--force"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&out).expect("read"), OLD_BOOK);
    let mut args = book_args(s(&out), s(agents));
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
    let err = refused(&hoyito(&args_with(&dir, agents, true)), "a directory");
    assert!(err.contains("is a directory"), "{err}");
}

#[test]
fn book_refuses_a_link_at_out_and_leaves_its_target_untouched() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let agents = Path::new(AGENTS);
    let victim = tmp.path().join("victim.txt");
    fs::write(&victim, OLD_BOOK).expect("write");
    let link = tmp.path().join("book.txt");
    symlink(&victim, &link).expect("symlink");
    for force in [false, true] {
        let err = refused(&hoyito(&args_with(&link, agents, force)), "a link");
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
        let err = refused(&hoyito(&args_with(&dangling, agents, force)), "dangling");
        assert!(err.contains("symbolic link"), "{err}");
        assert!(!nowhere.exists());
    }
}

/// Runs `hoyito book --force` over `out` with the files it may write limited
/// to 512 bytes (RLIMIT_FSIZE, which binds root too), less than the book:
/// with SIGXFSZ ignored the write fails with EFBIG, as on a full disk; with
/// its default action handed down too, as the command ignores it itself.
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
fn a_failed_book_write_leaves_the_old_book_byte_for_byte() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let agents = Path::new(AGENTS);
    let out = tmp.path().join("book.txt");
    fs::write(&out, OLD_BOOK).expect("write");
    // The write fails (EFBIG, as ENOSPC on a full disk): refused, the old
    // book kept, the temporary file removed.
    let done = book_with_small_file_limit(&out, agents, true);
    let err = refused(&done, "a failed write");
    assert!(
        err.contains(&format!("cannot write {}", s(&out))) && err.contains("left as it was"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&out).expect("read"), OLD_BOOK);
    assert_eq!(named(tmp.path(), ""), vec!["book.txt".to_string()]);
    // The command ignores SIGXFSZ itself (a file-size limit is an error
    // that names the file, not a silent kill): even with the signal's
    // default action handed down, the write fails the same way.
    let done = book_with_small_file_limit(&out, agents, false);
    let err = refused(&done, "a failed write under the default SIGXFSZ");
    assert!(err.contains("left as it was"), "{err}");
    assert_eq!(fs::read_to_string(&out).expect("read"), OLD_BOOK);
    // A write killed in the middle leaves its partial temporary file, a
    // hidden one beside the book (planted here, as a kill -9 leaves it):
    // the old book is whole, and the next book replaces the temporary.
    fs::write(tmp.path().join(".book.txt.tmp"), [b'#'; 512]).expect("plant");
    run_ok(&args_with(&out, agents, true));
    assert!(fs::read_to_string(&out)
        .expect("read")
        .contains("# command: hoyito book"));
    assert_eq!(named(tmp.path(), ""), vec!["book.txt".to_string()]);
    // Something at the temporary name that cannot be removed as a file (a
    // directory): refused before a byte is written, the book kept.
    let before = fs::read(&out).expect("read");
    fs::create_dir(tmp.path().join(".book.txt.tmp")).expect("mkdir");
    let err = refused(&hoyito(&args_with(&out, agents, true)), "blocked temp");
    assert!(err.contains("cannot write"), "{err}");
    assert_eq!(fs::read(&out).expect("read"), before);
}
