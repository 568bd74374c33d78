//! Regression tests for issue 9 (configs, rules options, agent limits): each
//! runs the binary on the exact case the issue reports and checks that it is
//! refused with a clear one-line error, a non-zero exit, and no output
//! directory left behind.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const AGENTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/agents");

const BASE: &str = r#"
name = "h"
seed = 1
games = 2
[rules]
variants = ["ii"]
holes = [6]
[tournament]
format = "round-robin"
agents = ["random", "greedy"]
"#;

fn hoyito(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A config in a fresh directory and where its run would write.
struct Case {
    dir: tempfile::TempDir,
}

impl Case {
    fn new(config: &str) -> Case {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("c.toml"), config).unwrap();
        Case { dir }
    }

    fn config(&self) -> PathBuf {
        self.dir.path().join("c.toml")
    }

    fn out(&self) -> PathBuf {
        self.dir.path().join("out")
    }

    /// Runs `hoyito run` on the config with `extra` flags; it must fail
    /// without panicking or leaving the output directory. Returns stderr.
    fn refused(&self, extra: &[&str]) -> String {
        let config = self.config();
        let out = self.out();
        let mut args = vec![
            "run",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--agents-dir",
            AGENTS,
        ];
        args.extend_from_slice(extra);
        refused(&args, &out)
    }
}

/// Runs a command that must fail cleanly and leave `out` absent; its stderr.
fn refused(args: &[&str], out: &Path) -> String {
    let output = hoyito(args);
    let err = String::from_utf8_lossy(&output.stderr).to_string();
    assert_eq!(output.status.code(), Some(1), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(!out.exists(), "{args:?} left {}", out.display());
    err
}

fn one_line(err: &str) -> &str {
    assert_eq!(err.lines().count(), 1, "not one line: {err}");
    err.trim_end()
}

#[test]
fn issue9_item1_the_largest_i64_count_is_refused_not_a_panic() {
    let case = Case::new(BASE);
    let err = case.refused(&["--games", "9223372036854775807"]);
    let line = one_line(&err);
    assert!(line.contains("`games`") && line.contains("2^53"), "{line}");
    // 1 pairing x 1 setting: 2^53 games in all at most.
    assert!(line.contains("give at most 9007199254740992"), "{line}");
    let case = Case::new(&BASE.replace("games = 2", "games = 9223372036854775807"));
    let line = one_line(&case.refused(&[])).to_string();
    assert!(line.contains("give at most 9007199254740992"), "{line}");
}

#[test]
fn issue9_item2_counts_that_wrap_are_refused() {
    let case = Case::new(BASE);
    let line = one_line(&case.refused(&["--games", "18446744073709551615"])).to_string();
    assert!(
        line.contains("make 18446744073709551616 games") && line.contains("give at most"),
        "{line}"
    );
    // 2 variants x 2 boards x 1 pairing: 4 x 2^62 wrapped the schedule to 0.
    let config = BASE
        .replace("games = 2", "games = 4611686018427387904")
        .replace(r#"["ii"]"#, r#"["ii", "iii"]"#)
        .replace("holes = [6]", "holes = [6, 8]");
    let line = one_line(&Case::new(&config).refused(&[])).to_string();
    assert!(line.contains("give at most 2251799813685248"), "{line}");
}

#[test]
fn issue9_item4_games_that_need_not_end_are_refused() {
    let config = BASE
        .replace(
            "holes = [6]",
            "holes = [2]\nseeds = 1\nno_capture_limit = 0\nrepetitions = 0",
        )
        .replace("round-robin", "self-play")
        .replace(r#"["random", "greedy"]"#, r#"["greedy"]"#);
    let line = one_line(&Case::new(&config).refused(&[])).to_string();
    assert!(
        line.contains("rules.no_capture_limit") && line.contains("forever"),
        "{line}"
    );
}

#[test]
fn issue9_item5_too_many_threads_are_refused_before_the_directory() {
    let line = one_line(&Case::new(&format!("threads = 5000\n{BASE}")).refused(&[])).to_string();
    assert!(
        line.contains("`threads`") && line.contains("1024"),
        "{line}"
    );
    let line = one_line(&Case::new(BASE).refused(&["--threads", "5000"])).to_string();
    assert!(line.contains("at most 1024"), "{line}");
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

#[test]
fn issue9_item5_fifos_are_refused_not_read() {
    let start = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("experiment.toml");
    mkfifo(&fifo);
    let out = dir.path().join("out");
    let args = [
        "run",
        fifo.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let line = one_line(&refused(&args, &out)).to_string();
    assert!(line.contains("not a regular file"), "{line}");
    // A FIFO as a book.
    let book = dir.path().join("book.txt");
    mkfifo(&book);
    let config = format!("{BASE}[openings]\nbook = {:?}\n", book.to_str().unwrap());
    let case = Case::new(&config);
    let line = one_line(&case.refused(&[])).to_string();
    assert!(line.contains("not a regular file"), "{line}");
    // A FIFO in the agents directory.
    let agents = dir.path().join("agents");
    std::fs::create_dir(&agents).unwrap();
    std::fs::copy(
        Path::new(AGENTS).join("random.toml"),
        agents.join("random.toml"),
    )
    .unwrap();
    mkfifo(&agents.join("greedy.toml"));
    let out = Case::new(BASE);
    let (config, out) = (out.config(), out.out());
    let args = [
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--agents-dir",
        agents.to_str().unwrap(),
    ];
    let line = one_line(&refused(&args, &out)).to_string();
    assert!(
        line.contains("greedy.toml") && line.contains("not a regular file"),
        "{line}"
    );
    assert!(start.elapsed() < Duration::from_secs(30), "a FIFO blocked");
}

#[test]
fn issue9_item10_agent_names_are_refused_unless_usable() {
    let inline = format!("{BASE}\n[roster.\"a\\nb\"]\nkind = \"random\"\n")
        .replace(r#"["random", "greedy"]"#, r#"["random", "a\nb"]"#);
    let err = Case::new(&inline).refused(&[]);
    assert!(err.lines().all(|l| l.starts_with("error: ")), "{err}");
    assert!(err.contains("not a usable agent name"), "{err}");
    for name in ["", " "] {
        let config = BASE.replace(r#""greedy""#, &format!("{name:?}"));
        let line = one_line(&Case::new(&config).refused(&[])).to_string();
        assert!(line.contains("not a usable agent name"), "{line}");
    }
    // A file of the agents directory whose name is not a usable name.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("my agent.toml"), "kind = \"random\"\n").unwrap();
    let output = hoyito(&["agents", "--agents-dir", dir.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        one_line(&err).contains("my agent.toml") && err.contains("not a usable agent name"),
        "{err}"
    );
}

#[test]
fn issue9_item16_runs_that_cannot_fit_are_refused_with_the_estimate() {
    // 2^52 self-play games write petabytes.
    let config = BASE
        .replace("games = 2", "games = 4503599627370496")
        .replace("round-robin", "self-play")
        .replace(r#"["random", "greedy"]"#, r#"["random"]"#);
    let line = one_line(&Case::new(&config).refused(&[])).to_string();
    assert!(
        line.contains("would write about") && line.contains("is free on its file system"),
        "{line}"
    );
    // MCTS of ten million iterations on 1024 threads: terabytes of trees.
    let config =
        format!("threads = 1024\n{BASE}[roster.big]\nkind = \"mcts\"\niterations = 10000000\n")
            .replace(r#"["random", "greedy"]"#, r#"["random", "big"]"#);
    let line = one_line(&Case::new(&config).refused(&[])).to_string();
    assert!(
        line.contains("random vs big on 2x6") && line.contains("with 1024 threads"),
        "{line}"
    );
}

#[test]
fn issue9_item18_toml_errors_are_one_line_with_their_place() {
    let line = one_line(&Case::new("name = \"x\"\nseed = \n").refused(&[])).to_string();
    assert!(line.contains("c.toml: line 2, column 8: "), "{line}");
    let line = one_line(&Case::new(&BASE.replace("seed = 1", "seed = 1\nsede = 2")).refused(&[]))
        .to_string();
    assert!(
        line.contains("c.toml: unknown key `sede` (line 4): did you mean `seed`?"),
        "{line}"
    );
    let line =
        one_line(&Case::new(&BASE.replace("holes = [6]", "holes = [6]\nseeds = 40")).refused(&[]))
            .to_string();
    assert!(
        line.contains("`rules.seeds`") && line.contains("at most 21 seeds per hole"),
        "{line}"
    );
}

#[test]
fn issue9_item19_v_is_not_variant() {
    let output = hoyito(&["book", "-v", "ii", "--holes", "6"]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(one_line(&err).contains("'-v'"), "{err}");
    for command in ["run", "match", "book", "replay", "agents"] {
        let output = hoyito(&[command, "--help"]);
        let help = String::from_utf8_lossy(&output.stdout);
        assert!(help.contains("--agents-dir <DIR>"), "{command}: {help}");
    }
}

#[test]
fn issue9_item20_every_invalid_key_is_reported_at_once() {
    let config = BASE
        .replace("games = 2", "games = 0")
        .replace("holes = [6]", "holes = [17]\nseeds = 0")
        .replace(r#""h""#, r#""../up""#);
    let err = Case::new(&config).refused(&[]);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 4, "{err}");
    for key in ["`name`", "`games`", "`rules.holes`", "`rules.seeds`"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("error: ") && l.contains(key)),
            "{key}: {err}"
        );
    }
}

#[test]
fn issue9_item5_a_fifo_as_a_table_file_is_refused_not_read() {
    use hoyito::solver::table::{load, TableKey};
    use hoyito::{LastFour, Leftover, Variant};
    let dir = tempfile::tempdir().unwrap();
    let key = TableKey {
        variant: Variant::Ii,
        holes: 2,
        seeds: 4,
        last_four: LastFour::Capturer,
        leftover: Leftover::None,
    };
    let fifo = dir.path().join(key.file_name());
    mkfifo(&fifo);
    let err = load(&fifo, key).unwrap_err();
    let chain = format!("{err}: {}", std::error::Error::source(&err).unwrap());
    assert!(chain.contains("not a regular file"), "{chain}");
}

#[test]
fn issue9_item2_book_counts_are_bounded() {
    let output = hoyito(&[
        "book",
        "--variant",
        "ii",
        "--holes",
        "6",
        "--plies",
        "8",
        "--count",
        "18446744073709551615",
        "--agent",
        "greedy",
        "--max-eval",
        "2",
        "--out",
        "x.book",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(one_line(&err).contains("--count"), "{err}");
    assert!(!Path::new("x.book").exists());
}

#[test]
fn issue9_item16_a_search_without_a_budget_is_announced() {
    // The warning is printed when the run starts; the library says it.
    let config = format!("{BASE}[roster.deep]\nkind = \"alphabeta\"\ndepth = 64\n")
        .replace(r#"["random", "greedy"]"#, r#"["random", "deep"]"#);
    let case = Case::new(&config);
    let mut experiment = hoyito::tournament::Experiment::load(&case.config()).unwrap();
    experiment
        .resolve_agents("c.toml", || hoyito::Roster::load(Path::new(AGENTS)))
        .unwrap();
    let warnings = hoyito::tournament::check_resources(&experiment, &case.out(), 2).unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("agent deep searches to depth 64"),
        "{warnings:?}"
    );
    assert!(!case.out().exists());
}
