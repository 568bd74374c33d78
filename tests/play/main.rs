//! A person at the board: the library session over in-memory buffers, and
//! `hoyito play` driven through piped standard input, entry by entry, as a
//! person would play it, hints included; a person in a tournament seat in
//! `human_seat.rs`.

mod human_seat;

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use hoyito::human::{play_session, HintAgent, PlaySetup, Player, SessionEnd, SessionError};
use hoyito::{
    Agent, AgentRng, AgentSpec, Forfeit, ForfeitReason, Game, Move, Rules, Side, Variant,
};

fn agents_dir() -> String {
    format!("{}/agents", env!("CARGO_MANIFEST_DIR"))
}

fn setup(human: Side, opponent: AgentSpec, seed: u64) -> PlaySetup {
    PlaySetup {
        rules: Rules::new(Variant::Ii),
        human,
        opponent: Player {
            name: opponent.kind().to_string(),
            agent: opponent.build(),
        },
        hint: HintAgent {
            name: "greedy".to_string(),
            ask: Box::new(|game, rng| {
                let analysis = hoyito::analyse(&AgentSpec::Greedy, game, rng);
                analysis.map(|a| (a.mv, a.lines)).map_err(|e| e.to_string())
            }),
        },
        seed,
        echo: true,
    }
}

/// Runs a session on `input` and returns its report and everything it wrote.
fn session(setup: PlaySetup, input: &str) -> (hoyito::human::SessionReport, String) {
    let mut out = Vec::new();
    let report = play_session(setup, &mut input.as_bytes(), &mut out).expect("the session runs");
    (report, String::from_utf8(out).expect("UTF-8 output"))
}

/// Entries that play any game to its end: every hole number in turn (the
/// illegal ones are refused and the next is tried) and a pass.
fn every_hole(rounds: usize) -> String {
    "1\n2\n3\n4\n5\n6\npass\n".repeat(rounds)
}

/// The moves of `game` replayed on a fresh game reach its position.
fn assert_replays(game: &Game) {
    let mut again = Game::new(*game.rules());
    for &mv in game.moves() {
        again.play(mv).expect("the recorded moves are legal");
    }
    assert_eq!(again.position(), game.position());
}

#[test]
fn a_whole_game_is_played_from_buffers_with_refusals() {
    let (report, text) = session(setup(Side::South, AgentSpec::Greedy, 7), &every_hole(400));
    let SessionEnd::Finished(outcome) = report.end else {
        panic!("the game should end: {text}");
    };
    assert_replays(&report.game);
    assert_eq!(report.game.outcome(), Some(outcome));
    assert!(text.contains("  refused: "), "{text}");
    assert!(text.contains("Game over: "), "{text}");
    assert!(text.contains(&format!("Final position: {}", report.game.position())));
    // Every seed is accounted for in a normal ending.
    if outcome.ending == hoyito::Ending::Normal {
        assert_eq!(
            outcome.scores.south as u32 + outcome.scores.north as u32,
            48
        );
    }
}

#[test]
fn the_same_seed_and_entries_give_the_same_transcript_and_hints_change_nothing() {
    let input = every_hole(400);
    let (a, text_a) = session(setup(Side::North, AgentSpec::Random, 3), &input);
    let (_, text_b) = session(setup(Side::North, AgentSpec::Random, 3), &input);
    assert_eq!(text_a, text_b);
    let hinted = input.replace("pass\n", "pass\nhint\n");
    let (c, text_c) = session(setup(Side::North, AgentSpec::Random, 3), &hinted);
    assert!(text_c.contains("  hint: greedy would play "), "{text_c}");
    assert_eq!(a.game.moves(), c.game.moves());
    let (d, _) = session(setup(Side::North, AgentSpec::Random, 4), &input);
    assert_ne!(a.game.moves(), d.game.moves(), "another seed, another game");
}

#[test]
fn north_sees_its_own_row_at_the_bottom_and_the_agent_opens() {
    let (report, text) = session(setup(Side::North, AgentSpec::Greedy, 1), "");
    assert_eq!(report.end, SessionEnd::Quit);
    let first = text.find("South (greedy) plays ").expect("the agent opens");
    let board = text
        .find("     S6   S5   S4   S3   S2   S1")
        .expect("South's row on top");
    assert!(first < board, "{text}");
    assert!(text.contains("     N1   N2   N3   N4   N5   N6\n  North (you): "));
    assert!(text.contains("You quit after "), "{text}");
}

#[test]
fn undo_takes_back_the_move_and_the_replies_and_end_of_input_quits() {
    let (report, text) = session(setup(Side::South, AgentSpec::Greedy, 1), "undo\n3\nundo\n");
    assert!(
        text.contains("  refused: nothing to undo: you have not moved yet"),
        "{text}"
    );
    assert!(text.contains("Undo: took back your move 3"), "{text}");
    assert_eq!(report.end, SessionEnd::Quit);
    assert!(report.game.moves().is_empty());
    assert!(text.ends_with(
        "Moves: \nFinal position: 4,4,4,4,4,4/4,4,4,4,4,4 S 0-0\n\
         Reproduce it with: hoyito apply --variant ii --position \"4,4,4,4,4,4/4,4,4,4,4,4 S 0-0\"\n"
    ));
}

/// An agent that always sows a hole beyond the row.
struct Broken;

impl Agent for Broken {
    fn choose(&mut self, _: &Game, _: &mut AgentRng) -> Move {
        Move::Sow(15)
    }
}

#[test]
fn an_agent_that_plays_an_illegal_move_stops_the_session_with_its_error() {
    let mut setup = setup(Side::North, AgentSpec::Random, 1);
    setup.opponent = Player {
        name: "broken".into(),
        agent: Box::new(Broken),
    };
    let err = play_session(setup, &mut "".as_bytes(), &mut Vec::new()).unwrap_err();
    assert!(matches!(err, SessionError::Agent(_)));
    assert!(err.to_string().contains("illegal move 16"), "{err}");
}

/// An agent that forfeits its first move, as a crashed program does.
struct Crashed;

impl Agent for Crashed {
    fn choose(&mut self, game: &Game, _: &mut AgentRng) -> Move {
        game.legal_moves()[0]
    }
    fn try_choose(&mut self, _: &Game, _: &mut AgentRng) -> Result<Move, Forfeit> {
        Err(Forfeit::new(ForfeitReason::Crash, "the process exited"))
    }
}

#[test]
fn an_agent_that_forfeits_loses_the_session_game() {
    let mut setup = setup(Side::North, AgentSpec::Random, 1);
    setup.opponent = Player {
        name: "crashed".into(),
        agent: Box::new(Crashed),
    };
    let (report, text) = session(setup, "");
    let SessionEnd::Finished(outcome) = report.end else {
        panic!("the forfeit ends the game: {text}");
    };
    assert_eq!(outcome.winner, Some(Side::North));
    assert_eq!(outcome.ending, hoyito::Ending::ForfeitCrash);
    assert!(
        text.contains("South (crashed) loses by forfeit (crash): the process exited"),
        "{text}"
    );
    assert!(
        text.contains("Game over: North (you) wins 0-0 (forfeit-crash, 0 plies)."),
        "{text}"
    );
}

/// `hoyito play` with its standard streams piped, read prompt by prompt.
struct Play {
    child: Child,
    stdin: ChildStdin,
    chunks: Receiver<Vec<u8>>,
    text: String,
    /// Where the text not yet handed out starts.
    read: usize,
}

impl Play {
    fn start(args: &[&str]) -> Play {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hoyito"))
            .arg("play")
            .args(["--agents-dir", &agents_dir()])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let stdin = child.stdin.take().expect("piped");
        let mut stdout = child.stdout.take().expect("piped");
        let (send, chunks) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = stdout.read(&mut buf) {
                if send.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Play {
            child,
            stdin,
            chunks,
            text: String::new(),
            read: 0,
        }
    }

    /// The output up to the next prompt (`None` when the program ended first)
    /// and the legal moves that prompt lists.
    fn until_prompt(&mut self) -> (String, Option<Vec<String>>) {
        loop {
            let tail = &self.text[self.read..];
            if let Some(at) = tail.rfind(", legal: ") {
                if let Some(list) = tail[at..].strip_suffix(" > ") {
                    let legal = list[", legal: ".len()..]
                        .split(' ')
                        .map(str::to_string)
                        .collect();
                    let out = tail.to_string();
                    self.read = self.text.len();
                    return (out, Some(legal));
                }
            }
            match self.chunks.recv_timeout(Duration::from_secs(120)) {
                Ok(chunk) => self.text.push_str(&String::from_utf8_lossy(&chunk)),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let out = self.text[self.read..].to_string();
                    self.read = self.text.len();
                    return (out, None);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => panic!("no prompt: {}", self.text),
            }
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the program reads its input");
    }

    fn finish(mut self) -> (String, Output) {
        let rest = self.until_prompt().0;
        drop(self.stdin);
        let status = self.child.wait().expect("the program ends");
        let mut stderr = Vec::new();
        if let Some(mut err) = self.child.stderr.take() {
            err.read_to_end(&mut stderr).expect("stderr reads");
        }
        (
            rest,
            Output {
                status,
                stdout: self.text.into_bytes(),
                stderr,
            },
        )
    }
}

/// The board drawn last in `text`: the six lines before the prompt.
fn last_board(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines.len() - 1;
    lines[end - 6..end].join("\n")
}

/// Splits the `hoyito apply` line printed at the end into its arguments.
fn apply_args(line: &str) -> Vec<String> {
    let rest = line.strip_prefix("hoyito apply ").expect("an apply line");
    let (before, quoted) = rest.split_once(" \"").expect("a quoted position");
    let (position, moves) = quoted.split_once('"').expect("a closing quote");
    let mut args: Vec<String> = vec!["apply".into()];
    args.extend(before.split(' ').map(str::to_string));
    args.push(position.to_string());
    args.extend(moves.split_whitespace().map(str::to_string));
    args
}

#[test]
fn hoyito_play_a_whole_game_against_random_with_a_bad_entry_an_undo_and_a_hint() {
    let mut play = Play::start(&[
        "--vs",
        "random",
        "--seed",
        "5",
        "--hint-agent",
        "alphabeta-d4",
    ]);
    let (opening, legal) = play.until_prompt();
    let legal = legal.expect("a first prompt");
    assert_eq!(legal, ["1", "2", "3", "4", "5", "6"]);
    let start_board = last_board(&opening);
    assert!(
        start_board.contains("South (you): 0 captured  <- to move"),
        "{opening}"
    );

    // A bad entry is refused with its reason and asked again.
    play.send("7");
    let (refusal, again) = play.until_prompt();
    assert!(
        refusal.contains("refused: hole 7 is out of range: your holes are 1..6"),
        "{refusal}"
    );
    assert_eq!(again.expect("asked again"), legal);

    // A move, the agent's reply lap by lap, then undo restores the board.
    play.send("2");
    let (moved, _) = play.until_prompt();
    assert!(
        moved.contains("South (you) plays 2:\n    pick up 4 from S2 and sow"),
        "{moved}"
    );
    assert!(moved.contains("North (random) plays "), "{moved}");
    assert!(moved.contains("    last seed in "), "{moved}");
    play.send("undo");
    let (undone, after_undo) = play.until_prompt();
    assert!(
        undone.contains("Undo: took back your move 2 and the replies "),
        "{undone}"
    );
    assert_eq!(last_board(&undone), start_board);
    assert_eq!(after_undo.expect("asked again"), legal);

    // A hint names a legal move.
    play.send("hint");
    let (hinted, _) = play.until_prompt();
    let hint = hinted
        .lines()
        .find_map(|l| l.strip_prefix("  hint: alphabeta-d4 would play "))
        .unwrap_or_else(|| panic!("no hint line: {hinted}"));
    assert!(legal.iter().any(|m| m == hint), "{hint}");

    // Then the first legal move every time, to the end.
    let mut legal = legal;
    let mut moves = 0;
    loop {
        play.send(&legal[0]);
        moves += 1;
        assert!(moves < 1000, "the game does not end");
        match play.until_prompt() {
            (_, Some(next)) => legal = next,
            (_, None) => break,
        }
    }
    let (_, output) = play.finish();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let line = |prefix: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} line: {text}"))
            .to_string()
    };
    let result = line("Game over: ");
    assert!(
        result.contains(" wins ") || result.starts_with("draw "),
        "{result}"
    );
    let final_position = line("Final position: ");
    let recorded = line("Moves: ");
    assert!(recorded.split(' ').count() >= moves, "{recorded}");

    // The apply line reproduces the final position.
    let apply = Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .args(apply_args(&line("Reproduce it with: ")))
        .output()
        .expect("apply runs");
    assert!(apply.status.success(), "{apply:?}");
    let printed = String::from_utf8_lossy(&apply.stdout);
    assert_eq!(printed.lines().last(), Some(final_position.as_str()));
    // Under the default rules (no leftover) the score is the captures.
    let captures = final_position.rsplit(' ').next().expect("captures");
    assert!(result.contains(&format!(" {captures} (")), "{result}");
}

#[test]
fn hoyito_play_refuses_bad_flags_in_one_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .args(["play", "--agents-dir", &agents_dir(), "--vs", "nobody"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no agent named \"nobody\""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let out = Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .args(["play", "--agents-dir", &agents_dir(), "--holes", "17"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    // A usage error, from clap (exit 2 like --variant iv).
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("17 is not in 2..=16"), "{err}");
}

/// A hint gives the score and the expected line, as `best` does.
#[test]
fn a_hint_has_a_score_and_a_line() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .args([
            "play",
            "--hint-agent",
            "alphabeta:depth=4",
            "--agents-dir",
            &agents_dir(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"hint\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("  hint: alphabeta-depth4 would play "),
        "{text}"
    );
    assert!(
        text.contains("  hint: score ") && text.contains("searched 4 plies); expected line "),
        "{text}"
    );
}
