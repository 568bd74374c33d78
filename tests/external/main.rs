//! Agents in other processes: the Python examples play whole games
//! reproducibly, every broken agent under `tests/agents/` forfeits with the right
//! reason while every other game stays intact, no agent process outlives the
//! harness, not even a `kill -9`, and an agent is written on the command line
//! as `cmd=...`; what a misbehaving agent process can do to a run, and what
//! the harness does about it, in `misbehaving.rs`.

mod misbehaving;

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use hoyito::protocol::{AgentMessage, HarnessMessage};
use hoyito::tournament::{GameRow, Winner};
use hoyito::{
    turn_gain, Agent, Ending, ExternalAgent, ExternalCommand, Game, Move, Rules, Side, Variant,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::common::{hoyito, BIN, START};

/// A roster entry for `script`, with `mark` as an extra argument so that the
/// test can find its processes in /proc.
fn external(name: &str, script: &str, mark: &str, extra: &str) -> String {
    format!(
        "[roster.{name}]\nkind = \"external\"\ncommand = [\"python3\", \"{script}\", \"{mark}\"]\n{extra}\n"
    )
}

fn experiment(games: u32, agents: &[&str], format: &str, roster: &str) -> String {
    let list: Vec<String> = agents.iter().map(|a| format!("\"{a}\"")).collect();
    format!(
        "name = \"external-test\"\nseed = 5\ngames = {games}\nthreads = 1\n\
         [rules]\nvariants = [\"ii\"]\nholes = [6]\n[openings]\nrandom_plies = 2\n\
         [tournament]\n{format}\nagents = [{}]\n[roster.random]\nkind = \"random\"\n\
         [roster.greedy]\nkind = \"greedy\"\n{roster}",
        list.join(", ")
    )
}

fn rows(dir: &Path) -> Vec<GameRow> {
    csv::Reader::from_path(dir.join("games.csv"))
        .unwrap()
        .deserialize()
        .map(Result::unwrap)
        .collect()
}

/// The processes whose command line holds `mark` (zombies excluded).
fn processes_with(mark: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let cmdline = fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let stat = fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        if String::from_utf8_lossy(&cmdline).contains(mark) && !stat.contains(") Z") {
            found.push(pid);
        }
    }
    found
}

fn mark(test: &str) -> String {
    format!("hoyito-test-{test}-{}", std::process::id())
}

fn run(dir: &Path, config: &str, threads: &str) -> Output {
    let file = dir.join("experiment.toml");
    fs::write(&file, config).unwrap();
    let out = dir.join(format!("run-{threads}"));
    hoyito(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        threads,
    ])
}

#[test]
fn broken_agents_forfeit_with_their_reason_and_leave_no_process() {
    let mark = mark("broken");
    let broken = [
        ("crash", "tests/agents/crash.py", "", Ending::ForfeitCrash),
        (
            "silent",
            "tests/agents/silent.py",
            "move_timeout_ms = 300",
            Ending::ForfeitTimeout,
        ),
        (
            "garbage",
            "tests/agents/garbage.py",
            "",
            Ending::ForfeitProtocol,
        ),
        (
            "illegal",
            "tests/agents/illegal.py",
            "",
            Ending::ForfeitIllegal,
        ),
        // Hole 99 is on no board, but it is a move, so not a protocol fault.
        (
            "out-of-range",
            "tests/agents/out_of_range.py",
            "",
            Ending::ForfeitIllegal,
        ),
        ("flood", "tests/agents/flood.py", "", Ending::Normal),
    ];
    let mut roster = String::new();
    let mut agents = vec!["greedy"];
    for (name, script, extra, _) in broken {
        roster.push_str(&external(name, script, &mark, extra));
        agents.push(name);
    }
    let config = experiment(
        4,
        &agents,
        "format = \"gauntlet\"\nchampion = \"greedy\"",
        &roster,
    );
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), &config, "2");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let run_dir = dir.path().join("run-2");
    let rows = rows(&run_dir);
    assert_eq!(rows.len(), 4 * broken.len(), "every game is played");
    for row in &rows {
        let (name, side) = if row.south == "greedy" {
            (row.north.as_str(), Side::North)
        } else {
            (row.south.as_str(), Side::South)
        };
        let expected = broken.iter().find(|b| b.0 == name).unwrap().3;
        assert_eq!(row.ending, expected, "{name}: {row:?}");
        if expected != Ending::Normal {
            // The seat at fault loses, whatever the captures.
            let winner = match side {
                Side::South => Winner::N,
                Side::North => Winner::S,
            };
            assert_eq!(row.winner, winner, "{name}: {row:?}");
        } else {
            assert!(row.plies > 2, "{row:?}");
        }
    }
    // Standard error goes to the logs, not the terminal.
    let flood = fs::metadata(run_dir.join("agents/flood.stderr.log")).unwrap();
    assert!(flood.len() > 100_000, "{}", flood.len());
    let garbage = fs::read_to_string(run_dir.join("agents/garbage.stderr.log")).unwrap();
    assert!(garbage.contains("hoyito: forfeit (protocol)"), "{garbage}");
    assert!(!stderr.contains("xxxxxxxx"));
    // A forfeited game replays from its record to the same row.
    let garbage_game = rows
        .iter()
        .find(|r| r.ending == Ending::ForfeitProtocol)
        .unwrap();
    let id = garbage_game.game_id.to_string();
    let replay = hoyito(&["replay", run_dir.to_str().unwrap(), &id]);
    let text = String::from_utf8_lossy(&replay.stdout);
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    assert!(
        text.contains("ended: forfeit-protocol") && text.contains("matches the row"),
        "{text}"
    );
    // The report counts the forfeits per agent and reason.
    let report = fs::read_to_string(run_dir.join("report.md")).unwrap();
    assert!(report.contains("| silent | 0 | 4 | 0 | 0 |"), "{report}");
    assert_all_gone(&mark);
}

/// An agent that cannot start, that dies before its handshake or that never
/// answers it stops the run before its first game, with a non-zero exit and
/// a message naming the agent, the program, what went wrong and its log:
/// no game is recorded as lost by forfeit. The command line's `match` says
/// the same.
#[test]
fn an_agent_that_fails_to_start_stops_the_run_before_its_first_game() {
    let mark = mark("unstarted");
    let cases = [
        (
            "absent",
            "command = [\"no-such-program-of-hoyito\"]\n".to_string(),
            "did not start: cannot start \"no-such-program-of-hoyito\"",
        ),
        (
            "dead",
            external("dead", "tests/agents/dead_at_start.py", &mark, ""),
            "did not start: the agent exited",
        ),
        (
            "mute",
            external(
                "mute",
                "tests/agents/mute.py",
                &mark,
                "startup_timeout_ms = 300",
            ),
            "did not answer the handshake",
        ),
    ];
    for (name, spec, says) in cases {
        let roster = if spec.starts_with("command") {
            format!("[roster.{name}]\nkind = \"external\"\n{spec}")
        } else {
            spec
        };
        let config = experiment(4, &["greedy", name], "format = \"round-robin\"", &roster);
        let dir = tempfile::tempdir().unwrap();
        let out = run(dir.path(), &config, "2");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{name}: {stderr}");
        let run_dir = dir.path().join("run-2");
        let log = run_dir.join(format!("agents/{name}.stderr.log"));
        for words in [
            format!("agent {name} {says}"),
            "its command: [".to_string(),
            log.display().to_string(),
            "no game was played".to_string(),
        ] {
            assert!(stderr.contains(&words), "{name}: {words}: {stderr}");
        }
        assert!(!run_dir.join("games.csv").exists(), "{name}: a game file");
        let logged = fs::read_to_string(&log).unwrap();
        assert!(logged.contains("hoyito: forfeit"), "{name}: {logged}");
    }
    // The shortcut of the command line, as a newcomer types it.
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("m");
    let out = hoyito(&[
        "match",
        "cmd=no-such-program-of-hoyito",
        "greedy",
        "--games",
        "4",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("did not start") && stderr.contains("no game was played"),
        "{stderr}"
    );
    assert!(!out_dir.join("games.csv").exists());
    assert_all_gone(&mark);
}

#[test]
fn python_examples_play_whole_games_identically_on_any_thread_count() {
    let mark = mark("examples");
    let dir = tempfile::tempdir().unwrap();
    // py-random runs under tee.py, which logs the exchange: one handshake per
    // worker thread (and the check before the first game) shows that one
    // process plays all of a thread's games.
    let exchange = dir.path().join("exchange.log");
    let mut roster = format!(
        "[roster.py-random]\nkind = \"external\"\ncommand = [\"python3\", \
         \"agents/examples/tee.py\", \"{}\", \"python3\", \"agents/examples/random.py\", \"{mark}\"]\n",
        exchange.display()
    );
    roster.push_str(&external(
        "py-greedy",
        "agents/examples/greedy.py",
        &mark,
        "",
    ));
    let config = experiment(
        6,
        &["random", "greedy", "py-random", "py-greedy"],
        "format = \"round-robin\"",
        &roster,
    );
    let mut handshakes = Vec::new();
    for threads in ["1", "2"] {
        let out = run(dir.path(), &config, threads);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let log = fs::read_to_string(&exchange).unwrap_or_default();
        handshakes.push(log.lines().filter(|l| *l == "> hoyito 1").count());
        fs::remove_file(&exchange).unwrap();
    }
    // One handshake checks the agent before the first game; then one
    // process per worker thread plays all of that thread's games.
    assert_eq!(handshakes[0], 2, "one thread, one process");
    assert!((2..=3).contains(&handshakes[1]), "{handshakes:?}");
    let one = fs::read(dir.path().join("run-1/games.csv")).unwrap();
    let two = fs::read(dir.path().join("run-2/games.csv")).unwrap();
    assert_eq!(one, two, "1 and 2 threads differ");
    let rows = rows(&dir.path().join("run-1"));
    assert_eq!(rows.len(), 6 * 6);
    for row in &rows {
        assert!(row.ending.forfeit_reason().is_none(), "{row:?}");
        assert!(row.plies > 10, "{row:?}");
    }
    assert_all_gone(&mark);
}

/// Starts a run whose `silent` agent never answers, waits for the agent, and
/// hands back the harness.
fn run_with_a_silent_agent(dir: &Path, mark: &str) -> std::process::Child {
    let roster = external(
        "silent",
        "tests/agents/silent.py",
        mark,
        "move_timeout_ms = 60000",
    );
    let config = experiment(
        2,
        &["random", "silent"],
        "format = \"round-robin\"",
        &roster,
    );
    let file = dir.join("experiment.toml");
    fs::write(&file, config).unwrap();
    let out = dir.join("run");
    let child = Command::new(BIN)
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The agent is started once to check it before the results directory
    // is opened, and quit: the games have begun once games.csv is there
    // and the agent runs again.
    let start = Instant::now();
    while !out.join("games.csv").exists() || processes_with(mark).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the agent never started"
        );
        thread::sleep(Duration::from_millis(20));
    }
    child
}

/// Waits up to 5 s for every process with `mark` to go: an agent killed with
/// the harness is reaped a moment later.
fn assert_all_gone(mark: &str) {
    let start = Instant::now();
    while !processes_with(mark).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "agent processes outlived the harness: {:?}",
            processes_with(mark)
        );
        thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn agents_die_with_an_interrupted_harness() {
    let mark = mark("ctrl-c");
    let dir = tempfile::tempdir().unwrap();
    let mut child = run_with_a_silent_agent(dir.path(), &mark);
    // Ctrl-C twice: the second exits at once, with games in hand.
    for _ in 0..2 {
        // SAFETY: sends SIGINT to our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        thread::sleep(Duration::from_millis(100));
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_all_gone(&mark);
}

#[test]
fn agents_die_with_a_killed_harness() {
    let mark = mark("kill9");
    let dir = tempfile::tempdir().unwrap();
    let mut child = run_with_a_silent_agent(dir.path(), &mark);
    child.kill().unwrap(); // SIGKILL: no destructor runs in the harness.
    child.wait().unwrap();
    assert_all_gone(&mark);
}

#[test]
fn protocol_lines_round_trip() {
    for line in [
        "hoyito 1",
        "newgame iii 3 2 N seed=99 no_capture_limit=200 repetitions=3 leftover=none last_four=capturer",
        "go 2,2,0/0,3,1 S 0-4 legal 1 2",
        "go 0,0,0/1,0,2 S 5-4 legal pass nodes=500 time_ms=20",
        "moved pass",
        "gameover S 10-2 forfeit-illegal",
        "quit",
    ] {
        let msg: HarnessMessage = line.parse().unwrap();
        assert_eq!(msg.to_string(), line);
    }
    for line in ["ready anything goes here", "move 7", "move pass"] {
        let msg: AgentMessage = line.parse().unwrap();
        assert_eq!(msg.to_string(), line);
    }
    assert!("move seven".parse::<AgentMessage>().is_err());
}

/// The gain the built-in greedy agent gives `mv`: its capture plus, after an
/// extra move, the best of the rest of the turn.
fn gain(game: &Game, mv: Move) -> u32 {
    let pos = game.position();
    let me = pos.side_to_move();
    let mut gain = None;
    pos.for_each_child(game.rules(), |m, child, effect| {
        if m == mv {
            let own = u32::from(child.captures()[me] - pos.captures()[me]);
            let rest = if effect.extra_move {
                turn_gain(&child, game.rules())
            } else {
                0
            };
            gain = Some(own + rest);
        }
    });
    gain.expect("a legal move")
}

/// py-greedy's simulator agrees with the engine: in every position of random
/// games of every variant, the move it picks has the built-in greedy's best gain.
#[test]
fn py_greedy_picks_a_move_of_the_best_gain_in_every_variant() {
    let mut agent = ExternalAgent::new(
        ExternalCommand {
            command: vec!["python3".into(), "agents/examples/greedy.py".into()],
            working_dir: None,
            move_timeout_ms: 10_000,
            startup_timeout_ms: 10_000,
        },
        None,
    );
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut checked = 0;
    for variant in [Variant::I, Variant::Ii, Variant::Iii] {
        for holes in [4, 6] {
            let rules = Rules::new(variant).with_board(holes, 4).unwrap();
            for _ in 0..8 {
                let mut game = Game::new(rules);
                agent.new_game(&rules);
                while !game.is_over() {
                    if game.position().side_to_move() == Side::North {
                        game.play_random(&mut rng);
                        continue;
                    }
                    let best = game.legal_moves().iter().map(|&m| gain(&game, m)).max();
                    let mv = agent.try_choose(&game, &mut rng).expect("py-greedy plays");
                    assert_eq!(
                        Some(gain(&game, mv)),
                        best,
                        "{variant} {}: {mv}",
                        game.position()
                    );
                    game.play(mv).unwrap();
                    checked += 1;
                }
                agent.game_over(&game);
            }
        }
    }
    assert!(checked > 500, "{checked}");
}

/// An external agent from `cmd=`, as cutechess-cli takes one.
#[test]
fn an_external_agent_from_cmd() {
    let script = format!("{}/agents/examples/random.py", env!("CARGO_MANIFEST_DIR"));
    let agent = format!("cmd=python3 {script}");
    let out = hoyito(&["best", "--agent", &agent, "-p", START]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.starts_with("agent cmd-python3-"), "{text}");
    assert!(text.lines().last().unwrap().starts_with("move "), "{text}");
}

/// A link at `DIR/agents` or at an external agent's `NAME.stderr.log`:
/// extending the run wrote no log and warned nothing, losing the reasons of
/// the new games' forfeits. The run is refused, naming the link, and the
/// link's target is untouched.
#[test]
fn a_link_at_an_agents_log_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let script = format!("{}/agents/examples/random.py", env!("CARGO_MANIFEST_DIR"));
    let agent = format!("cmd=python3 {script}");
    let args = |games: &'static str| {
        vec![
            "match".to_string(),
            agent.clone(),
            "random".into(),
            "--games".into(),
            games.into(),
            "--holes".into(),
            "4".into(),
            "--report-every".into(),
            "0".into(),
            "--out".into(),
            out.display().to_string(),
        ]
    };
    let first: Vec<String> = args("2");
    let made = hoyito(&first.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let logs = out.join("agents");
    let log = fs::read_dir(&logs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".stderr.log"))
        .expect("the external agent's log");
    let target = dir.path().join("elsewhere.log");
    fs::write(&target, "kept\n").unwrap();
    let extend: Vec<String> = args("4");
    let extend: Vec<&str> = extend.iter().map(String::as_str).collect();
    // The log a link, then the agents directory a link.
    fs::remove_file(&log).unwrap();
    std::os::unix::fs::symlink(&target, &log).unwrap();
    let refused = hoyito(&extend);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{err}");
    assert!(err.contains(".stderr.log: is a symbolic link"), "{err}");
    fs::remove_file(&log).unwrap();
    let moved = dir.path().join("agents-real");
    fs::rename(&logs, &moved).unwrap();
    std::os::unix::fs::symlink(&moved, &logs).unwrap();
    let refused = hoyito(&extend);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{err}");
    assert!(err.contains("agents: is a symbolic link"), "{err}");
    assert_eq!(fs::read_to_string(&target).unwrap(), "kept\n");
    assert_eq!(rows(&out).len(), 2);
}
