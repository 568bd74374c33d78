//! The names of the files in a run directory: the records a run writes and
//! the report drawn from them, named once for the run, the report, the
//! merge and every reader.

/// The game records.
pub const GAMES_FILE: &str = "games.csv";
/// The resolved experiment.
pub const EXPERIMENT_FILE: &str = "experiment.toml";
/// Worker time per block and run (kept out of `games.csv` so that it stays
/// the same on every machine).
pub const TIMINGS_FILE: &str = "timings.csv";
/// What the endgame tables of `[adjudication] tablebase` covered when the
/// run's games were adjudicated: the largest layer of each board. A resume
/// with tables of another coverage would mix two adjudications.
pub const COVERAGE_FILE: &str = "adjudication.toml";
/// The charts' folder, relative to the report directory.
pub const CHARTS: &str = "charts";
/// The statistics file, relative to the report directory.
pub const SUMMARY_FILE: &str = "summary.json";
/// The readable report, relative to the report directory.
pub const REPORT_FILE: &str = "report.md";
/// The report as a web page, relative to the report directory.
pub const HTML_FILE: &str = "report.html";
