//! `hoyito tune`: deterministic for a seed whatever the thread count, writes
//! an agent file the roster reads and that plays, and refuses bad input with
//! one clear line.

use std::path::Path;

use crate::common::{hoyito, run_ok, s};
use hoyito::{AgentSpec, Game, Roster, Rules, Variant};

fn agents_dir() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("agents")
        .to_str()
        .expect("a UTF-8 path")
        .to_string()
}

/// The error line of a failing run.
fn error_of(args: &[&str]) -> String {
    let out = hoyito(args);
    assert!(!out.status.success(), "hoyito {args:?} succeeded");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

fn tune_args<'a>(agents: &'a str, out: &'a str, threads: &'a str) -> Vec<&'a str> {
    vec![
        "tune",
        "--agent",
        "greedy",
        "--variant",
        "iii",
        "--holes",
        "6",
        "--games",
        "20",
        "--seed",
        "9",
        "--threads",
        threads,
        "--agents-dir",
        agents,
        "--out",
        out,
    ]
}

#[test]
fn tune_writes_the_same_bytes_for_a_seed_on_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let agents = agents_dir();
    let one = dir.path().join("one.toml");
    let two = dir.path().join("two.toml");
    run_ok(&tune_args(&agents, s(&one), "1"));
    run_ok(&tune_args(&agents, s(&two), "2"));
    let text = std::fs::read_to_string(&one).unwrap();
    assert_eq!(text, std::fs::read_to_string(&two).unwrap());
    assert!(text.contains(
        "#   hoyito tune --agent greedy --variant iii --holes 6 --seeds 4 --games 20 --seed 9\n"
    ));
    assert!(text.contains("kind = \"learned\""), "{text}");
    // A different seed plays other games.
    let other = dir.path().join("other.toml");
    let mut args = tune_args(&agents, s(&other), "1");
    args[10] = "10";
    run_ok(&args);
    assert_ne!(text, std::fs::read_to_string(&other).unwrap());

    // The file is an agent of the roster, and it plays.
    let roster = Roster::load(dir.path()).unwrap();
    let spec = roster.get("one").unwrap().spec.clone();
    let AgentSpec::Alphabeta { depth, eval, .. } = &spec else {
        panic!("{spec:?}");
    };
    assert_eq!((*depth, eval.name()), (Some(4), "learned"));
    let rules = Rules::new(Variant::Iii);
    let mut game = Game::new(rules);
    let mut agent = spec.build();
    let mut rng = <hoyito::AgentRng as rand::SeedableRng>::seed_from_u64(1);
    while !game.is_over() {
        let mv = agent.choose(&game, &mut rng);
        game.play(mv).unwrap();
    }
}

#[test]
fn tune_refuses_bad_input_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let agents = agents_dir();
    let out = dir.path().join("t.toml");
    let out = s(&out);
    let with = |changes: &[(usize, &'static str)]| {
        let mut args = tune_args(&agents, out, "1");
        for &(i, v) in changes {
            args[i] = v;
        }
        error_of(&args)
    };
    assert!(with(&[(2, "nobody")]).contains("no agent named \"nobody\""));
    assert!(with(&[(4, "iv")]).contains("unknown variant"));
    // A usage error from clap (exit 2, as `iv`).
    assert!(with(&[(6, "17")]).contains("17 is not in 2..=16"));
    assert!(with(&[(8, "4")]).contains("--games 4 is out of range"));
    assert!(with(&[(2, "py-random")]).contains("cannot play reproducible self-play games"));
    std::fs::write(out, "kept").unwrap();
    assert!(with(&[]).contains("exists: choose another --out or pass --force"));
    assert_eq!(std::fs::read_to_string(out).unwrap(), "kept");
    let mut args = tune_args(&agents, out, "1");
    args.push("--force");
    run_ok(&args);
    assert!(std::fs::read_to_string(out)
        .unwrap()
        .contains("[eval.weights]"));
}
