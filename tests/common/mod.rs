//! Helpers shared by the integration tests that drive the binary as a
//! subprocess (a module of the one test binary, `tests/integration.rs`; each
//! test file uses what it needs).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_hoyito");

/// The shipped agents directory.
pub const AGENTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/agents");

/// The standard start of 2x6.
pub const START: &str = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0";

/// Random against greedy on I and II, 2x4 and 2x6, seed 11, 4 games a
/// setting: the run that the record and safe-write tests damage.
pub const SMALL_RUN: &str = r#"
name = "small"
seed = 11
games = 4
[rules]
variants = ["i", "ii"]
holes = [4, 6]
[openings]
random_plies = 2
[tournament]
format = "round-robin"
agents = ["random", "greedy"]
"#;

/// Runs the binary with `args`.
pub fn hoyito(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs the binary with `args` in `dir`, with `env` set.
pub fn hoyito_in(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut command = Command::new(BIN);
    command.args(args).current_dir(dir);
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("the binary runs")
}

/// Runs the binary, which must succeed; its standard error.
pub fn run_ok(args: &[&str]) -> String {
    let out = hoyito(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "hoyito {args:?} failed: {stderr}");
    stderr
}

/// Runs a command that must fail and returns its standard error, checked to
/// be one line without a panic.
pub fn one_line_error(args: &[&str]) -> String {
    let out = hoyito(args);
    assert!(!out.status.success(), "{args:?} should fail");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    err.trim_end().to_string()
}

/// The standard error of a command that must be refused with status 1 (a
/// refused request, not a usage error), after checking it did not panic.
pub fn refused(out: &Output, what: &str) -> String {
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(1), "{what} was not refused: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
    err
}

/// A command's standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A command's standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A temporary path as a command-line argument.
pub fn s(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temporary path")
}

/// A fresh, empty directory `name` under the system's temporary directory,
/// unique to this process, removed with everything in it when dropped (at
/// the end of a test, a failed one too: the drop runs as the panic unwinds).
pub fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("hoyito-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    Scratch(dir)
}

/// A directory removed when dropped; reads as its path.
#[derive(Debug)]
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Makes a FIFO at `path`.
pub fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}
