//! Unit tests of the session, kept beside it in their own file.
use std::path::PathBuf;

use super::*;
use crate::agents::roster::Roster;

fn experiment(extra: &str) -> Experiment {
    quick_experiment("depth = 2", extra)
}

/// Agent `quick` is alpha-beta with `limit`.
fn quick_experiment(limit: &str, extra: &str) -> Experiment {
    let text = format!(
        "name = \"s\"\nseed = 4\ngames = 4\n[rules]\nvariants = [\"ii\"]\nholes = [4]\n\
         [tournament]\nformat = \"round-robin\"\nagents = [\"quick\", \"random\"]\n\
         [roster.quick]\nkind = \"alphabeta\"\n{limit}\n{extra}"
    );
    let mut e = Experiment::parse(&text, "s.toml").unwrap();
    e.round_to_pairs();
    e.resolve_agents("s.toml", || Ok(Roster::builtin()))
        .unwrap();
    e
}

/// A directory for a run, not yet made, inside a temporary directory that
/// is removed when the guard drops.
fn temp_dir(name: &str) -> (tempfile::TempDir, PathBuf) {
    let guard = tempfile::Builder::new()
        .prefix("hoyito-session-")
        .tempdir()
        .expect("a temporary directory");
    let dir = guard.path().join(name);
    (guard, dir)
}

#[test]
fn a_shard_runs_into_its_own_directory_by_default() {
    let shard: Shard = "2/3".parse().unwrap();
    let plan = RunPlan::new(experiment(""), "s.toml", None, Some(shard));
    assert_eq!(plan.out, PathBuf::from("runs/s.shard-2-of-3"));
    let whole = RunPlan::new(experiment(""), "s.toml", None, None);
    assert_eq!(whole.out, PathBuf::from("runs/s"));
}

#[test]
fn warnings_come_back_as_values_naming_the_source() {
    let e = quick_experiment("time_ms = 5", "");
    let (_guard, dir) = temp_dir("warn");
    let session = Session::prepare(RunPlan::new(e, "s.toml", Some(dir.clone()), None)).unwrap();
    assert!(
        session
            .warnings()
            .iter()
            .any(|w| w.starts_with("s.toml: quick play(s) by the clock")),
        "{:?}",
        session.warnings()
    );
    drop(session);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_shard_of_an_sprt_run_is_refused_before_anything_is_written() {
    let e = experiment("[sprt]\nelo0 = 0\nelo1 = 10\n");
    let (_guard, dir) = temp_dir("sprt-shard");
    let shard: Shard = "1/2".parse().unwrap();
    let err = Session::prepare(RunPlan::new(e, "s.toml", Some(dir.clone()), Some(shard)))
        .err()
        .expect("refused");
    assert!(
        err.to_string().contains("cannot be split into shards"),
        "{err}"
    );
    assert!(!dir.exists());
}

#[test]
fn a_directory_of_another_experiment_is_refused_naming_what_differs() {
    let (_guard, dir) = temp_dir("diff");
    let mut session = Session::prepare(RunPlan::new(
        experiment(""),
        "s.toml",
        Some(dir.clone()),
        None,
    ))
    .unwrap();
    let played = session.play(&mut ()).unwrap();
    assert_eq!((played.games, played.stopped), (4, None));
    session.finish().unwrap().expect("a report");
    let mut other = experiment("");
    other.seed = 5;
    let err = Session::prepare(RunPlan::new(other, "s.toml", Some(dir.clone()), None))
        .err()
        .expect("refused");
    assert!(
        err.full_message()
            .contains("holds a different experiment: seed is 4 there, 5 here"),
        "{}",
        err.full_message()
    );
    // The same experiment resumes a complete run: nothing left to play.
    let mut again = Session::prepare(RunPlan::new(
        experiment(""),
        "s.toml",
        Some(dir.clone()),
        None,
    ))
    .unwrap();
    assert_eq!((again.first(), again.total()), (4, 4));
    assert_eq!(again.play(&mut ()).unwrap().games, 0);
    assert_eq!(again.tallies().tally().games(), 4);
    drop(again);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Seats the lineup's agent 1 as random play, whatever its spec says.
struct RandomSeat;

impl crate::tournament::lineup::SeatMaker for RandomSeat {
    fn seat(&self, index: usize) -> Option<crate::tournament::lineup::Seat> {
        (index == 1).then_some(crate::tournament::lineup::Seat::Random)
    }
}

/// An external agent that cannot start stops the session before its
/// directory is opened; one the seat maker seats (a Python callable, saved
/// as an external spec that names it) is not started as a program.
#[test]
fn an_agent_that_cannot_start_is_refused_unless_the_seat_maker_seats_it() {
    let absent = "[roster.random]\nkind = \"external\"\ncommand = [\"no-such-program-of-hoyito\"]";
    let (_guard, dir) = temp_dir("unstarted");
    let plan = RunPlan::new(experiment(absent), "s.toml", Some(dir.clone()), None);
    let err = Session::prepare(plan)
        .err()
        .expect("refused")
        .full_message();
    assert!(
        err.contains("agent random did not start") && err.contains("no game was played"),
        "{err}"
    );
    assert!(!dir.join(crate::records::run_files::GAMES_FILE).exists());
    let mut plan = RunPlan::new(experiment(absent), "s.toml", Some(dir.clone()), None);
    plan.seats = Some(std::sync::Arc::new(RandomSeat));
    let mut session = Session::prepare(plan).expect("the seat maker seats it");
    let played = session.play(&mut ()).expect("played");
    assert_eq!(played.games, 4);
}
