//! Helpers shared by the integration tests that drive the binary as a
//! subprocess (a module of the one test binary, `tests/integration.rs`; each
//! test file uses what it needs).

use std::path::Path;
use std::process::{Command, Output};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_hoyito");

/// Runs the binary with `args`.
pub fn hoyito(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs the binary, which must succeed; its standard error.
pub fn run_ok(args: &[&str]) -> String {
    let out = hoyito(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "hoyito {args:?} failed: {stderr}");
    stderr
}

/// A temporary path as a command-line argument.
pub fn s(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temporary path")
}
