//! Every integration test in one program. Each `tests/NAME.rs` is a module
//! here, and each `tests/NAME/main.rs` the module of its directory, so that
//! the test profile compiles and links one test binary instead of one per
//! file: measured on a fresh checkout on 2 cores, 289 s to build the tests
//! instead of 320 s, and 75 s to run them instead of 96 s (the tests of all
//! files share the test threads). One file's tests:
//! `cargo test --test integration NAME::`.

mod common;

mod accuracy;
mod agents;
mod alphabeta;
mod best;
#[path = "charts/main.rs"]
mod charts;
mod cli;
mod external;
mod hardening_config;
mod hardening_data;
mod hardening_solver;
mod harness;
mod html;
mod identity;
mod live;
mod mcts;
mod metrics;
mod openings;
mod perft;
#[path = "play/main.rs"]
mod play;
mod properties;
mod records;
#[path = "report/main.rs"]
mod report;
mod reports_readme;
mod rounds;
mod rules;
mod shard;
mod solver;
mod statistics;
mod tune;
