//! `kind = "human"`: a person in a seat of a tournament, driven through
//! piped standard input, refused when standard input has nothing to read.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use hoyito::{Agent, AgentRng, Game, Move, Rules, Variant};

use super::agents_dir;

/// An experiment with a person (`me`, kind human) against random on 2x4.
fn human_experiment(dir: &std::path::Path) -> std::path::PathBuf {
    let config = dir.join("human.toml");
    std::fs::write(
        &config,
        "name = \"human\"\nseed = 3\ngames = 2\nthreads = 4\n\
         [rules]\nvariants = [\"ii\"]\nholes = [4]\nseeds = 2\n\
         [openings]\nrandom_plies = 0\n\
         [tournament]\nformat = \"round-robin\"\nagents = [\"me\", \"random\"]\n\
         [roster.me]\nkind = \"human\"\n",
    )
    .expect("the config is written");
    config
}

fn run_human(config: &std::path::Path, out: &std::path::Path, input: Stdio) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .arg("run")
        .arg(config)
        .arg("--out")
        .arg(out)
        .args(["--agents-dir", &agents_dir()])
        .stdin(input)
        .output()
        .expect("the binary runs")
}

#[test]
fn a_human_seat_is_refused_when_standard_input_has_nothing_to_read() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let config = human_experiment(dir.path());
    let out = dir.path().join("run");
    let output = run_human(&config, &out, Stdio::null());
    assert_eq!(output.status.code(), Some(1));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains(
            "a human agent plays: standard input is not a terminal and has nothing to read"
        ),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        !out.exists(),
        "refused before the results directory is made"
    );
}

#[test]
fn a_human_seat_plays_a_tournament_one_game_at_a_time_from_piped_moves() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let config = human_experiment(dir.path());
    let out = dir.path().join("run");
    let mut child = Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .arg("run")
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .args(["--agents-dir", &agents_dir()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let entries = format!("undo\nhint\n9\n{}", "1\n2\n3\n4\npass\n".repeat(200));
    let mut stdin = child.stdin.take().expect("piped");
    // The run may stop reading once its games are over: a closed pipe is fine.
    let _ = stdin.write_all(entries.as_bytes());
    drop(stdin);
    let output = child.wait_with_output().expect("the run ends");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{err}");
    assert!(err.contains("2 games (0 done), 1 threads"), "{err}");
    assert!(err.contains(
        "  South (you): 0 captured  <- to move\nYour move (South), legal: 1 2 3 4 > undo"
    ));
    assert!(
        err.contains("  refused: undo is for `hoyito play`"),
        "{err}"
    );
    assert!(
        err.contains("  hint: alpha-beta to 8 plies would play "),
        "{err}"
    );
    assert!(
        err.contains("  refused: hole 9 is out of range: your holes are 1..4"),
        "{err}"
    );
    assert!(err.contains("North (opponent) plays "), "{err}");
    assert_eq!(err.matches("Game over: ").count(), 2, "{err}");
    let games = std::fs::read_to_string(out.join("games.csv")).expect("games.csv");
    assert_eq!(games.lines().count(), 3, "{games}");
    assert!(games.contains(",me,random,") && games.contains(",random,me,"));
}

#[test]
fn quitting_a_human_seat_stops_the_run_so_that_it_resumes() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let config = human_experiment(dir.path());
    let out = dir.path().join("run");
    let mut child = Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .arg("run")
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .args(["--agents-dir", &agents_dir()])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("piped");
    stdin.write_all(b"quit\n").expect("the run reads");
    drop(stdin);
    let output = child.wait_with_output().expect("the run ends");
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{err}");
    assert!(
        err.contains("quit: the run stops in the middle of this game"),
        "{err}"
    );
    // The same command resumes the run and plays every game.
    let mut child = Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .arg("run")
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .args(["--agents-dir", &agents_dir()])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("piped");
    let _ = stdin.write_all("1\n2\n3\n4\npass\n".repeat(200).as_bytes());
    drop(stdin);
    let output = child.wait_with_output().expect("the run ends");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{err}");
    let games = std::fs::read_to_string(out.join("games.csv")).expect("games.csv");
    assert_eq!(games.lines().count(), 3, "{games}");
}

/// Output shared with the test while an agent owns it.
#[derive(Clone, Default)]
struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("not poisoned").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn the_human_agent_refuses_bad_entries_and_returns_the_move_typed() {
    let out = Shared::default();
    let input = std::io::Cursor::new(b"x\n0\npass\n5\n".to_vec());
    let mut agent = hoyito::HumanAgent::with_streams(Box::new(input), Box::new(out.clone()));
    let rules = Rules::new(Variant::Iii);
    agent.new_game(&rules);
    let game = Game::new(rules);
    let mut rng = <AgentRng as rand::SeedableRng>::seed_from_u64(1);
    assert_eq!(agent.choose(&game, &mut rng), Move::Sow(4));
    let text = String::from_utf8(out.0.lock().expect("not poisoned").clone()).expect("UTF-8");
    for reason in [
        "refused: \"x\" is not a number",
        "refused: hole 0 is out of range: your holes are 1..6",
        "refused: you cannot pass: you have a legal move",
    ] {
        assert!(text.contains(reason), "{reason}: {text}");
    }
    assert!(text.contains("A new game: Hoyito iii on 2x6 with 4 seeds per hole."));
    // After the end of the input a test seat plays its first legal move.
    assert_eq!(agent.choose(&game, &mut rng), Move::Sow(0));
}
