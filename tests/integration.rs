//! Every integration test in one program. Each `tests/NAME.rs` is a module
//! here, and each `tests/NAME/main.rs` the module of its directory, so that
//! the test profile compiles and links one test binary instead of one per
//! file: measured on a fresh checkout on 2 cores, 289 s to build the tests
//! instead of 320 s, and 75 s to run them instead of 96 s (the tests of all
//! files share the test threads). One file's tests:
//! `cargo test --test integration NAME::`. A new file must be named below,
//! or its tests would never run: `every_test_file_is_a_module_here` fails
//! until it is.

mod common;

mod accuracy;
mod adjudication;
mod agents;
mod alphabeta;
mod architecture;
mod best;
#[path = "charts/main.rs"]
mod charts;
mod cli;
mod cli_flags;
mod config;
#[path = "external/main.rs"]
mod external;
mod harness;
mod html;
mod identity;
mod limits;
mod live;
mod mcts;
mod metrics;
mod openings;
mod outcome;
mod perfect_lines;
mod perft;
#[path = "play/main.rs"]
mod play;
mod properties;
mod records;
#[path = "report/main.rs"]
mod report;
mod report_from_run;
mod reports_readme;
mod rounds;
mod rules;
mod run_ending;
mod run_rows;
#[path = "safe_writes/main.rs"]
mod safe_writes;
mod shard;
mod skill;
mod solver;
mod start_solve;
mod statistics;
mod tables;
mod tune;
mod twins;

/// Cargo no longer finds test files by itself (`autotests = false`): every
/// `tests/NAME.rs` and `tests/NAME/main.rs` must be a module of this file.
#[test]
fn every_test_file_is_a_module_here() {
    let here = include_str!("integration.rs");
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut missing = Vec::new();
    let mut seen = 0;
    for entry in std::fs::read_dir(&tests).expect("tests/ is readable") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_stem().and_then(|n| n.to_str()).unwrap_or("");
        let is_test = if path.is_dir() {
            path.join("main.rs").is_file()
        } else {
            path.extension().is_some_and(|e| e == "rs") && name != "integration"
        };
        if is_test {
            seen += 1;
            let declared = format!("mod {name};");
            if !here.lines().any(|line| line == declared) {
                missing.push(path.display().to_string());
            }
        }
    }
    assert!(
        seen >= 29,
        "found only {seen} test files in {}",
        tests.display()
    );
    assert!(
        missing.is_empty(),
        "test files that are not modules of tests/integration.rs, so never run: {missing:?}"
    );
}
