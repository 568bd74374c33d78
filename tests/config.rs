//! Experiment configs through the binary, as a newcomer writes them: each
//! bad config is refused with a clear error (one line, or every problem at
//! once, each naming its key, its place and the name meant), a non-zero exit
//! and no output directory left behind; variants are read in any case; and
//! the run's date reaches the PGN export (recorded in the run's
//! `experiment.toml`, never in its games).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::{hoyito, mkfifo, run_ok, s, AGENTS};

/// A round robin of random and greedy on II 2x6, the base of the refused
/// configs.
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

/// `err`, checked to be one line.
fn one_line(err: &str) -> &str {
    assert_eq!(err.lines().count(), 1, "not one line: {err}");
    err.trim_end()
}

#[test]
fn the_largest_i64_game_count_is_refused_not_a_panic() {
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
fn game_counts_that_wrap_are_refused() {
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
fn games_that_need_not_end_are_refused() {
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
fn too_many_threads_are_refused_before_the_directory() {
    let line = one_line(&Case::new(&format!("threads = 5000\n{BASE}")).refused(&[])).to_string();
    assert!(
        line.contains("`threads`") && line.contains("1024"),
        "{line}"
    );
    let line = one_line(&Case::new(BASE).refused(&["--threads", "5000"])).to_string();
    assert!(line.contains("at most 1024"), "{line}");
}

#[test]
fn fifos_are_refused_not_read() {
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
fn agent_names_are_refused_unless_usable() {
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
fn runs_that_cannot_fit_are_refused_with_the_estimate() {
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
fn a_search_without_a_budget_is_announced() {
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

#[test]
fn toml_errors_are_one_line_with_their_place() {
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
fn every_invalid_key_is_reported_at_once() {
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

/// A file with seven mistakes of every kind: an unknown key, an unknown
/// value, a missing `seed`, a missing `tournament.format`, a value of the
/// wrong type, `seeds = 0` and an unknown agent. Each used to come in its
/// own run (reading stopped at the first missing key); all seven are named
/// in one, each on its line with its key.
#[test]
fn seven_mistakes_of_every_kind_are_named_in_one_pass() {
    let config = r#"name = "seven"
games = 10
thraeds = 2
[rules]
variants = ["ii", "iv"]
holes = [6]
seeds = 0
[openings]
random_plies = "four"
[tournament]
agents = ["random", "grredy"]
"#;
    let err = Case::new(config).refused(&[]);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 7, "{err}");
    for wanted in [
        "unknown key `thraeds` (line 3): did you mean `threads`?",
        "unknown value `iv` for `rules.variants`",
        "key `seed`: missing: give the master seed",
        "key `tournament.format`: missing: give one of \"round-robin\"",
        "key `openings.random_plies`: invalid type: string \"four\"",
        "key `rules.seeds`: seeds per hole must be at least 1",
        "unknown agent `grredy`: did you mean `greedy`?",
    ] {
        assert!(
            lines.iter().any(|l| l.contains(wanted)),
            "{wanted:?} not in {err}"
        );
    }
    // A [sprt] without its hypotheses, and a key of it of the wrong type.
    let err = Case::new(&format!("{BASE}[sprt]\nalpha = \"x\"\n")).refused(&[]);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    for wanted in [
        "`sprt.elo0`: missing",
        "`sprt.elo1`: missing",
        "`sprt.alpha`: invalid type",
    ] {
        assert!(err.contains(wanted), "{wanted:?} not in {err}");
    }
}

/// A round robin of random and greedy on II 2x4, which runs.
const SMALL: &str = r#"name = "newcomer"
seed = 7
games = 2
[rules]
variants = ["ii"]
holes = [4]
[tournament]
format = "round-robin"
agents = ["random", "greedy"]
"#;

/// Runs `hoyito run` on `config` in `dir`; its output and standard error.
fn run(dir: &Path, config: &str, out: &str) -> (std::process::Output, String) {
    let cfg = dir.join("c.toml");
    fs::write(&cfg, config).unwrap();
    let out = dir.join(out);
    let output = hoyito(&["run", s(&cfg), "--out", s(&out), "--agents-dir", AGENTS]);
    let err = String::from_utf8_lossy(&output.stderr).to_string();
    (output, err)
}

#[test]
fn every_unknown_key_and_value_is_named_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let config = "name = \"first\"\nseed = 1\ngames = 2\nvariant = [\"ii\"]\n\n[rules]\n\
                  hole = [6]\n\n[openings]\nrandom_ply = 4\n\n[tournament]\n\
                  format = \"round-robbin\"\nagents = [\"randm\", \"greedy\"]\n";
    let (output, err) = run(dir.path(), config, "never");
    assert!(!output.status.success(), "accepted: {err}");
    for wanted in [
        "c.toml: unknown key `variant` (line 4): did you mean `rules.variants`?",
        "c.toml: unknown key `rules.hole` (line 7): did you mean `holes`?",
        "c.toml: unknown key `openings.random_ply` (line 10): did you mean `random_plies`?",
        "c.toml: unknown value `round-robbin` for `tournament.format` (line 13): \
         did you mean `round-robin`?",
    ] {
        assert!(err.contains(wanted), "{wanted:?} not in {err}");
    }
    assert!(!dir.path().join("never").exists());
    // Fixed, the unknown agents come next: all of them, each with its fix.
    let config = SMALL.replace(r#"["random", "greedy"]"#, r#"["randm", "greedy", "gredy"]"#);
    let (output, err) = run(dir.path(), &config, "never");
    assert!(!output.status.success(), "accepted: {err}");
    for wanted in [
        "c.toml: key `tournament.agents`: unknown agent `randm`: did you mean `random`?",
        "c.toml: key `tournament.agents`: unknown agent `gredy`: did you mean `greedy`?",
    ] {
        assert!(err.contains(wanted), "{wanted:?} not in {err}");
    }
    assert!(!dir.path().join("never").exists());
}

#[test]
fn all_five_names_at_once_when_the_roster_is_known() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.toml");
    let config = SMALL
        .replace("games = 2", "games = 2\nvariant = [\"ii\"]")
        .replace("holes = [4]", "hole = [4]\nrandom_ply = 2")
        .replace("round-robin", "round-robbin")
        .replace(r#""random""#, r#""randm""#);
    fs::write(&path, config).unwrap();
    let err = hoyito::tournament::Experiment::load_naming_agents(&path, || {
        hoyito::Roster::load(Path::new(AGENTS))
    })
    .unwrap_err()
    .to_string();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 5, "{err}");
    for (line, wanted) in lines.iter().zip([
        "`variant`",
        "`rules.hole`",
        "`rules.random_ply`",
        "`round-robbin`",
        "`randm`: did you mean `random`?",
    ]) {
        assert!(line.contains(wanted), "{wanted} not in {line}");
    }
    // `random_ply` in [rules] belongs to [openings]: said so.
    assert!(
        lines[2].contains("did you mean `openings.random_plies`?"),
        "{err}"
    );
}

#[test]
fn variants_are_read_in_any_case() {
    let dir = tempfile::tempdir().unwrap();
    let config = SMALL.replace(r#"["ii"]"#, r#"["II", "Iii"]"#);
    let (output, err) = run(dir.path(), &config, "out");
    assert!(output.status.success(), "{err}");
    let saved = fs::read_to_string(dir.path().join("out/experiment.toml")).unwrap();
    assert!(saved.contains(r#"variants = ["ii", "iii"]"#), "{saved}");
    let config = SMALL.replace(r#"["ii"]"#, r#"["IV"]"#);
    let (output, err) = run(dir.path(), &config, "never");
    assert!(!output.status.success());
    assert!(
        err.contains("unknown value `IV` for `rules.variants` (line 5)")
            && err.contains("(one of `i`, `ii`, `iii`)"),
        "{err}"
    );
}

#[test]
fn the_pgn_date_is_the_runs_and_never_enters_the_games() {
    let dir = tempfile::tempdir().unwrap();
    // Without a date in the config: the run records the day it started.
    let (output, err) = run(dir.path(), SMALL, "a");
    assert!(output.status.success(), "{err}");
    let saved = fs::read_to_string(dir.path().join("a/experiment.toml")).unwrap();
    let date = saved
        .lines()
        .find_map(|l| l.strip_prefix("date = \""))
        .and_then(|l| l.strip_suffix('"'))
        .unwrap_or_else(|| panic!("no date in {saved}"))
        .to_string();
    assert_eq!(date.len(), 10, "{date}");
    // Resuming is the same experiment, and so is the config with a date.
    run_ok(&[
        "run",
        s(&dir.path().join("c.toml")),
        "--out",
        s(&dir.path().join("a")),
        "--agents-dir",
        AGENTS,
    ]);
    let dated = SMALL.replace("games = 2", "games = 2\ndate = \"2024-02-29\"");
    let (output, err) = run(dir.path(), &dated, "b");
    assert!(output.status.success(), "{err}");
    let games = |d: &str| fs::read(dir.path().join(d).join("games.csv")).unwrap();
    assert_eq!(games("a"), games("b"));
    let (output, err) = run(dir.path(), &dated, "a");
    assert!(output.status.success(), "resuming with a date: {err}");
    // The PGN carries the recorded dates.
    for (run_dir, tag) in [
        ("a", format!("[Date \"{}\"]", date.replace('-', "."))),
        ("b", "[Date \"2024.02.29\"]".to_string()),
    ] {
        let pgn = dir.path().join(format!("{run_dir}.pgn"));
        run_ok(&["export", s(&dir.path().join(run_dir)), "--pgn", s(&pgn)]);
        let text = fs::read_to_string(&pgn).unwrap();
        assert!(text.contains(&tag), "{tag} not in {text}");
        assert!(!text.contains("????.??.??"), "{text}");
        assert!(text.contains("[Opening \""), "{text}");
    }
    // A date that is not a day is refused, naming the key.
    let (output, err) = run(
        dir.path(),
        &SMALL.replace("games = 2", "games = 2\ndate = \"2023-02-29\""),
        "never",
    );
    assert!(!output.status.success());
    assert!(
        err.contains("c.toml: key `date`: \"2023-02-29\" is not a date"),
        "{err}"
    );
}
