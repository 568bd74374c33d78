//! The report a run draws at its end from the counts it kept while writing its
//! rows (so that the end of a run does not read its rows back) is the report
//! `hoyito report` draws from the files, byte for byte: summary, markdown,
//! page and every chart, for a round robin with measures, an SPRT that stops
//! the run, a run in rounds, and a resumed (extended) run, which draws from
//! the files.

use std::fs;
use std::path::Path;

use crate::common::{run_ok, s};

/// Every file of the report of `dir`, by path relative to it.
fn report_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for name in ["summary.json", "report.md", "report.html"] {
        let bytes = fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        files.push((name.to_string(), bytes));
    }
    let mut charts: Vec<_> = fs::read_dir(dir.join("charts"))
        .expect("the run drew charts")
        .map(|entry| entry.expect("a chart").path())
        .collect();
    charts.sort();
    for path in charts {
        let name = format!("charts/{}", path.file_name().unwrap().to_string_lossy());
        files.push((name, fs::read(&path).expect("a chart reads")));
    }
    files
}

/// Runs `config` into `out`, then draws `hoyito report` of the same rows
/// into a copy, and compares the two reports file by file.
fn assert_same_report(tmp: &Path, config: &str, extra: &[&str]) {
    let cfg = tmp.join("experiment.toml");
    fs::write(&cfg, config).expect("writable temporary directory");
    let out = tmp.join("run");
    let mut args = vec!["run", s(&cfg), "--out", s(&out), "--report-every", "0"];
    args.extend_from_slice(extra);
    run_ok(&args);
    let from_run = report_files(&out);
    assert!(from_run.len() > 3, "the run drew no charts: {from_run:?}");
    run_ok(&["report", s(&out)]);
    let from_files = report_files(&out);
    assert_eq!(
        from_run.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        from_files.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        "the same files"
    );
    for ((name, a), (_, b)) in from_run.iter().zip(&from_files) {
        assert!(
            a == b,
            "{name}: the run's report differs from `hoyito report`'s"
        );
    }
}

#[test]
fn a_round_robin_with_measures_reports_as_hoyito_report_does() {
    let tmp = tempfile::tempdir().expect("tempdir");
    assert_same_report(
        tmp.path(),
        "name = \"rr\"\nseed = 3\ngames = 20\n[rules]\nvariants = [\"i\", \"ii\"]\n\
         holes = [4, 6]\n[openings]\nrandom_plies = 2\n[tournament]\n\
         format = \"round-robin\"\nagents = [\"greedy\", \"random\", \"alphabeta-d4\"]\n",
        &["--threads", "2"],
    );
}

#[test]
fn an_sprt_that_stops_the_run_reports_as_hoyito_report_does() {
    let tmp = tempfile::tempdir().expect("tempdir");
    assert_same_report(
        tmp.path(),
        "name = \"sprt\"\nseed = 7\ngames = 3000\n[rules]\nvariants = [\"ii\"]\nholes = [6]\n\
         [tournament]\nformat = \"round-robin\"\nagents = [\"greedy\", \"random\"]\n\
         [sprt]\nelo0 = 0.0\nelo1 = 20.0\n",
        &["--threads", "1"],
    );
}

#[test]
fn a_run_in_rounds_reports_as_hoyito_report_does() {
    let tmp = tempfile::tempdir().expect("tempdir");
    assert_same_report(
        tmp.path(),
        "name = \"rounds\"\nseed = 5\ngames = 8\n[rules]\nvariants = [\"iii\"]\nholes = [4]\n\
         rounds = 3\n[tournament]\nformat = \"round-robin\"\nagents = [\"greedy\", \"random\"]\n",
        &[],
    );
}

#[test]
fn an_extended_run_draws_its_report_from_the_files() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let config = "name = \"ext\"\nseed = 9\ngames = 20\n[rules]\nvariants = [\"ii\"]\n\
                  holes = [5]\n[tournament]\nformat = \"self-play\"\nagents = [\"random\"]\n";
    let cfg = tmp.path().join("experiment.toml");
    fs::write(&cfg, config).expect("writable temporary directory");
    let out = tmp.path().join("run");
    run_ok(&["run", s(&cfg), "--out", s(&out), "--report-every", "0"]);
    // Extended: the first 20 games were counted from games.csv alone.
    run_ok(&["run", s(&cfg), "--out", s(&out), "--games", "60"]);
    let extended = report_files(&out);
    let summary = String::from_utf8(extended[0].1.clone()).expect("utf-8");
    assert!(summary.contains("\"games\": 60"), "{summary}");
    run_ok(&["report", s(&out)]);
    assert!(extended == report_files(&out), "the extended run's report");
}

/// A run long enough that its workers fill chunks the writer has written and
/// handed back (40 chunks of 512 random games, at most 16 in flight on one
/// thread): its rows, moves and measures are those of a run on two threads,
/// whose chunks go back in another order, and `hoyito report` (which replays
/// every game, checks its moves hash and recomputes its measures) finds them
/// whole and draws the same report.
#[test]
fn a_long_random_run_fills_recycled_chunks_with_whole_rows() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let config = "name = \"long\"\nseed = 5\ngames = 20000\nthreads = 1\n\
                  [rules]\nvariants = [\"ii\"]\nholes = [6]\n\
                  [tournament]\nformat = \"self-play\"\nagents = [\"random\"]\n";
    assert_same_report(tmp.path(), config, &[]);
    let other = tmp.path().join("two");
    run_ok(&[
        "run",
        s(&tmp.path().join("experiment.toml")),
        "--out",
        s(&other),
        "--threads",
        "2",
        "--report-every",
        "0",
    ]);
    for name in ["games.csv", "moves.csv", "metrics.csv"] {
        let one = fs::read(tmp.path().join("run").join(name)).expect("written");
        let two = fs::read(other.join(name)).expect("written");
        assert!(one == two, "{name}: one thread and two differ");
        assert_eq!(
            one.iter().filter(|&&b| b == b'\n').count(),
            20_001,
            "{name}: a header and a row a game"
        );
    }
}
