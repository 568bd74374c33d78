//! Unit tests of `run_rows`: a run's files written by the runner pass, and
//! each kind of edit is refused at its file and line.
use std::fs;

use super::*;
use crate::tournament::lineup::Lineup;
use crate::tournament::run_dir::open_run_dir;
use crate::tournament::runner::{run_games, Work};
use crate::tournament::schedule::Schedule;

fn experiment() -> Experiment {
    let mut e = Experiment::parse(
        "name = \"t\"\nseed = 3\ngames = 6\n[rules]\nvariants = [\"ii\"]\nholes = [4]\n\
         [openings]\nrandom_plies = 2\n[tournament]\nformat = \"self-play\"\n\
         agents = [\"random\"]\n[roster.random]\nkind = \"random\"\n",
        "t.toml",
    )
    .unwrap();
    e.round_to_pairs();
    e
}

/// A finished run of `experiment()` in `dir`.
fn run(dir: &Path, e: &Experiment) {
    let schedule = Schedule::new(e);
    let mut run_dir = open_run_dir(dir, e, schedule.len(), false).unwrap();
    let lineup = Lineup::new(e.agent_specs());
    let work = Work {
        schedule: &schedule,
        lineup: &lineup,
        adjudicator: None,
    };
    run_games(work, 0..schedule.len(), 1, run_dir.sinks(), &mut |_| {}).unwrap();
}

fn check(dir: &Path, e: &Experiment) -> Result<u64, RecordFileError> {
    let len = Schedule::new(e).len();
    check_run_rows(dir, e, 0..len, None, RowFiles::present(dir))
}

/// Replaces line `line` (from 1) of `dir/name` by what `edit` makes of it.
fn edit(dir: &Path, name: &str, line: usize, edit: impl FnOnce(&str) -> String) {
    let path = dir.join(name);
    let text = fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[line - 1] = edit(&lines[line - 1]);
    fs::write(&path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn the_rows_a_run_writes_pass_and_an_edit_is_refused_at_its_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let e = experiment();
    run(dir, &e);
    assert_eq!(check(dir, &e).unwrap(), 6);
    let pristine: Vec<(&str, Vec<u8>)> = [GAMES_FILE, MOVES_FILE, METRICS_FILE]
        .into_iter()
        .map(|name| (name, fs::read(dir.join(name)).unwrap()))
        .collect();
    // An extra ply in games.csv: column `plies` (the 13th field).
    edit(dir, GAMES_FILE, 4, |l| {
        let mut f: Vec<String> = l.split(',').map(str::to_string).collect();
        f[12] = (f[12].parse::<u32>().unwrap() + 1).to_string();
        f.join(",")
    });
    let err = check(dir, &e).unwrap_err().to_string();
    assert!(err.contains("games.csv, line 4: column `plies`"), "{err}");
    for (name, bytes) in &pristine {
        fs::write(dir.join(name), bytes).unwrap();
    }
    // A measure of game 4 changed in metrics.csv: column `laps`.
    edit(dir, METRICS_FILE, 6, |l| {
        let mut f: Vec<String> = l.split(',').map(str::to_string).collect();
        f[8] = (f[8].parse::<u32>().unwrap() + 1).to_string();
        f.join(",")
    });
    let err = check(dir, &e).unwrap_err().to_string();
    assert!(err.contains("metrics.csv, line 6: column `laps`"), "{err}");
    assert!(err.contains("but the game's moves give"), "{err}");
}
