//! Runs that decide or change while they play, end to end through the
//! binary: the SPRT that stops a run in game-id order, live standings on a
//! pipe, Ctrl-C with the command that resumes, a finished run extended with
//! a larger `--games`, and `hoyito match` (its agents from the shipped roster
//! beside one's own, its directory named after its settings).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{hoyito, hoyito_in, run_ok, s, stderr, AGENTS, BIN};

fn write(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, body).expect("writable temporary directory");
    path
}

fn bytes(path: PathBuf) -> Vec<u8> {
    fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// An SPRT experiment of two agents on Hoyito II 2x6, with a generous cap.
fn sprt_config(agents: &str, roster: &str) -> String {
    format!(
        "name = \"sprt\"\nseed = 7\ngames = 3000\n[rules]\nvariants = [\"ii\"]\nholes = [6]\n\
         [tournament]\nformat = \"round-robin\"\nagents = {agents}\n\
         [sprt]\nelo0 = 0.0\nelo1 = 20.0\n{roster}"
    )
}

fn data_rows(path: PathBuf) -> usize {
    String::from_utf8(bytes(path))
        .expect("utf-8")
        .lines()
        .count()
        - 1
}

#[test]
fn a_strong_agent_against_a_weak_one_accepts_h1_early_and_the_same_for_any_threads() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = write(
        tmp.path(),
        "sprt.toml",
        &sprt_config("[\"greedy\", \"random\"]", ""),
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let text = run_ok(&["run", s(&cfg), "--out", s(&a), "--threads", "1"]);
    run_ok(&["run", s(&cfg), "--out", s(&b), "--threads", "2"]);
    assert!(text.contains("H1 accepted"), "{text}");
    let rows = data_rows(a.join("games.csv"));
    assert!(rows < 3000, "stopped early: {rows} games");
    assert_eq!(rows % 2, 0, "stopped on a complete pair");
    for file in ["games.csv", "moves.csv", "summary.json", "report.md"] {
        assert_eq!(bytes(a.join(file)), bytes(b.join(file)), "{file}");
    }
    let report = String::from_utf8(bytes(a.join("report.md"))).expect("utf-8");
    assert!(report.contains("## SPRT"), "{report}");
    assert!(report.contains("**H1 accepted**"), "{report}");
    let summary = String::from_utf8(bytes(a.join("summary.json"))).expect("utf-8");
    assert!(summary.contains("\"decision\": \"H1\""), "{summary}");
    // Run again: the test is restored from games.csv and nothing is played.
    let again = run_ok(&["run", s(&cfg), "--out", s(&a)]);
    assert!(
        again.contains("nothing left to play: the SPRT was decided"),
        "{again}"
    );
    assert_eq!(data_rows(a.join("games.csv")), rows);
}

#[test]
fn two_copies_of_one_agent_under_different_names_do_not_accept_h1() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let roster = "[roster.greedy-a]\nkind = \"greedy\"\n[roster.greedy-b]\nkind = \"greedy\"\n";
    let cfg = write(
        tmp.path(),
        "same.toml",
        &sprt_config("[\"greedy-a\", \"greedy-b\"]", roster),
    );
    let out = tmp.path().join("out");
    let text = run_ok(&["run", s(&cfg), "--out", s(&out)]);
    assert!(!text.contains("H1 accepted"), "{text}");
    assert!(
        text.contains("H0 accepted") || text.contains("inconclusive at the cap"),
        "{text}"
    );
}

#[test]
fn standings_and_progress_are_plain_lines_on_a_pipe() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = write(
        tmp.path(),
        "rr.toml",
        "name = \"rr\"\nseed = 1\ngames = 40\n[rules]\nvariants = [\"ii\"]\nholes = [6]\n\
         [tournament]\nformat = \"round-robin\"\nagents = [\"random\", \"greedy\"]\n",
    );
    let out = tmp.path().join("out");
    let text = run_ok(&["run", s(&cfg), "--out", s(&out), "--report-every", "10"]);
    assert!(text.contains("progress: 10/40 games (25.0%)"), "{text}");
    assert!(
        text.contains("--- standings after 10 of 40 games ---"),
        "{text}"
    );
    assert!(
        text.contains("--- standings after 40 of 40 games ---"),
        "{text}"
    );
    assert!(
        text.contains("ii 2x6 s4: greedy vs random")
            || text.contains("ii 2x6 s4: random vs greedy")
    );
    assert!(text.contains("Ptnml(0-2): ["), "{text}");
    assert!(
        !text.contains('\r') && !text.contains('\u{1b}'),
        "no control characters"
    );
    let quiet = tmp.path().join("quiet");
    let text = run_ok(&["run", s(&cfg), "--out", s(&quiet), "--report-every", "0"]);
    // 0 turns off the periodic standings only: the final result still shows.
    assert_eq!(text.matches("--- standings after").count(), 1, "{text}");
    assert!(
        text.contains("--- standings after 40 of 40 games ---"),
        "{text}"
    );
    assert!(!text.contains("progress:"), "{text}");
}

#[test]
fn ctrl_c_stops_cleanly_prints_the_resume_command_and_the_resumed_run_is_identical() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = write(
        tmp.path(),
        "long.toml",
        "name = \"long\"\nseed = 5\ngames = 4000\n[rules]\nvariants = [\"ii\"]\nholes = [6]\n\
         [tournament]\nformat = \"round-robin\"\nagents = [\"greedy\", \"alphabeta-d8\"]\n",
    );
    let out = tmp.path().join("out");
    let child = Command::new(BIN)
        .args(["run", s(&cfg), "--out", s(&out), "--report-every", "0"])
        .stderr(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // Wait for some games, then send SIGINT as Ctrl-C does.
    let games = out.join("games.csv");
    let start = Instant::now();
    while fs::metadata(&games).map_or(0, |m| m.len()) < 2000 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no games written"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let output = child.wait_with_output().expect("the run ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("--- standings after"), "{stderr}");
    let line = stderr
        .lines()
        .find(|l| l.starts_with("interrupted: ") && l.contains("resume with: "))
        .unwrap_or_else(|| panic!("no resume line in {stderr}"));
    let command = line.split("resume with: ").nth(1).expect("a command");
    assert!(
        command.contains(" run ") && command.contains(s(&out)),
        "{command}"
    );
    let recorded = data_rows(out.join("games.csv"));
    assert!(recorded > 0 && recorded < 4_000, "{recorded}");
    assert_eq!(data_rows(out.join("moves.csv")), recorded);
    // Resume with the printed command's arguments; compare with one uninterrupted run.
    let args: Vec<&str> = command.split(' ').skip(1).collect();
    run_ok(&args);
    let whole = tmp.path().join("whole");
    run_ok(&["run", s(&cfg), "--out", s(&whole), "--report-every", "0"]);
    for file in ["games.csv", "moves.csv", "summary.json"] {
        assert_eq!(bytes(out.join(file)), bytes(whole.join(file)), "{file}");
    }
}

#[test]
fn a_finished_run_grows_with_a_larger_games_and_equals_a_run_of_that_size() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = write(
        tmp.path(),
        "grow.toml",
        "name = \"grow\"\nseed = 3\ngames = 20\n[rules]\nvariants = [\"i\", \"ii\"]\nholes = [4, 6]\n\
         [tournament]\nformat = \"round-robin\"\nagents = [\"random\", \"greedy\", \"alphabeta-d4\"]\n\
         self_play = true\n",
    );
    let (grown, fresh) = (tmp.path().join("grown"), tmp.path().join("fresh"));
    run_ok(&["run", s(&cfg), "--out", s(&grown)]);
    let text = run_ok(&["run", s(&cfg), "--out", s(&grown), "--games", "60"]);
    assert!(text.contains("extending"), "{text}");
    assert!(text.contains("the 480 games recorded are kept"), "{text}");
    run_ok(&["run", s(&cfg), "--out", s(&fresh), "--games", "60"]);
    for file in ["games.csv", "moves.csv", "summary.json", "report.md"] {
        assert_eq!(bytes(grown.join(file)), bytes(fresh.join(file)), "{file}");
    }
    // Asking for fewer games than the directory holds is refused, naming the count.
    let out = hoyito(&["run", s(&cfg), "--out", s(&grown)]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("pass --games 60"), "{err}");
}

#[test]
fn match_runs_two_agents_from_flags_and_writes_its_experiment() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("m");
    let text = run_ok(&[
        "match",
        "greedy",
        "random",
        "--games",
        "40",
        "--holes",
        "4",
        "--out",
        s(&out),
    ]);
    // The name carries the settings.
    assert!(
        text.contains("greedy-vs-random-ii-2x4-seed1: 40 games"),
        "{text}"
    );
    let experiment = String::from_utf8(bytes(out.join("experiment.toml"))).expect("utf-8");
    assert!(
        experiment.contains("name = \"greedy-vs-random-ii-2x4-seed1\""),
        "{experiment}"
    );
    assert!(experiment.contains("holes = [4]"), "{experiment}");
    assert_eq!(data_rows(out.join("games.csv")), 40);
    // The same match with an SPRT stops as soon as it decides.
    let sprt = tmp.path().join("s");
    let text = run_ok(&[
        "match",
        "greedy",
        "random",
        "--sprt",
        "0,20",
        "--out",
        s(&sprt),
    ]);
    assert!(text.contains("H1 accepted"), "{text}");
    let experiment = String::from_utf8(bytes(sprt.join("experiment.toml"))).expect("utf-8");
    assert!(experiment.contains("[sprt]"), "{experiment}");
    // Bad flags: one line naming the problem.
    for (args, needle) in [
        (vec!["match", "greedy", "greedy"], "two different agents"),
        (vec!["match", "greedy", "random", "--sprt", "10"], "--sprt"),
        (vec!["match", "greedy", "nobody"], "nobody"),
    ] {
        let out = hoyito(&args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn an_sprt_that_cannot_run_is_refused_naming_the_key_and_writing_nothing() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for (body, needle) in [
        (
            sprt_config("[\"greedy\", \"random\"]", "").replace("elo1 = 20.0", "elo1 = -5.0"),
            "key `sprt`: elo0 (0) must be less than elo1 (-5)",
        ),
        (
            sprt_config("[\"greedy\", \"random\"]", "").replace("holes = [6]", "holes = [6, 12]"),
            "an SPRT tests one variant on one board",
        ),
        (
            sprt_config("[\"greedy\", \"random\", \"alphabeta-d4\"]", ""),
            "an SPRT tests two agents against each other",
        ),
    ] {
        let cfg = write(tmp.path(), "bad.toml", &body);
        let out = tmp.path().join("out");
        let result = hoyito(&["run", s(&cfg), "--out", s(&out)]);
        let err = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(1), "{err}");
        assert!(err.contains(needle), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(!out.exists(), "nothing written");
    }
}

/// `match bighole greedy --agents-dir DIR` finds `greedy` among the shipped
/// agents (not "no agent named greedy"), and the match saves every agent it
/// plays in its experiment.
#[test]
fn shipped_agents_stay_reachable_beside_an_agents_dir() {
    let dir = tempfile::tempdir().unwrap();
    let agents = dir.path().join("mine");
    std::fs::create_dir(&agents).unwrap();
    std::fs::write(
        agents.join("bighole.toml"),
        "kind = \"alphabeta\"\ndepth = 2\n",
    )
    .unwrap();
    let out = dir.path().join("run");
    run_ok(&[
        "match",
        "bighole",
        "greedy",
        "--agents-dir",
        s(&agents),
        "--games",
        "2",
        "--threads",
        "1",
        "--out",
        s(&out),
    ]);
    let saved = std::fs::read_to_string(out.join("experiment.toml")).unwrap();
    assert!(
        saved.contains("[roster.bighole]") && saved.contains("[roster.greedy]"),
        "{saved}"
    );
    run_ok(&[
        "match",
        "alphabeta:depth=1",
        "random",
        "--agents-dir",
        s(&agents),
        "--games",
        "2",
        "--threads",
        "1",
        "--out",
        s(&dir.path().join("kinds")),
    ]);
    let games = std::fs::read_to_string(dir.path().join("kinds/games.csv")).unwrap();
    assert!(games.contains("alphabeta-depth1"), "{games}");
}

/// The default directory is named after the settings, so a III match after
/// a II one runs (not refused as the II one's runs/A-vs-B); an explicit --out
/// that holds another experiment names the setting that differs and the ways
/// on.
#[test]
fn match_directories_follow_the_settings() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "match",
        "alphabeta-d4",
        "greedy",
        "--games",
        "2",
        "--threads",
        "1",
    ];
    let with = |extra: &[&str]| {
        let mut args: Vec<&str> = base.to_vec();
        args.extend(["--agents-dir", AGENTS]);
        args.extend(extra);
        hoyito_in(dir.path(), &args, &[])
    };
    assert!(with(&[]).status.success());
    let out = with(&["--variant", "iii"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir
        .path()
        .join("runs/alphabeta-d4-vs-greedy-ii-2x6-seed1/games.csv")
        .is_file());
    assert!(dir
        .path()
        .join("runs/alphabeta-d4-vs-greedy-iii-2x6-seed1/games.csv")
        .is_file());
    let out = with(&[
        "--out",
        "runs/alphabeta-d4-vs-greedy-ii-2x6-seed1",
        "--seed",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("seed is 1 there, 2 here"), "{err}");
    assert!(
        err.contains("--force") && err.contains("another --out"),
        "{err}"
    );
}
