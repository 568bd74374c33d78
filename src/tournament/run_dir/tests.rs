//! Unit tests of `run_dir`, kept beside it in their own file so that the module stays short.
use super::*;
use crate::tournament::play_scheduled::empty_row;
use crate::tournament::rounds_row::csv_header;

/// An experiment that records no moves: `games.csv` alone.
fn experiment(seed: u64) -> Experiment {
    let mut e = with_moves(seed);
    e.record.moves = false;
    e
}

/// An experiment that records moves (the default).
fn with_moves(seed: u64) -> Experiment {
    let mut e = Experiment::parse(
        &format!(
            "name = \"t\"\nseed = {seed}\ngames = 6\n[tournament]\nformat = \"self-play\"\n\
             agents = [\"random\"]\n[roster.random]\nkind = \"random\"\n"
        ),
        "t.toml",
    )
    .unwrap();
    e.round_to_pairs();
    // These tests are about games.csv and moves.csv; metrics.csv's own
    // resume is tested in tests/metrics.rs.
    e.record.metrics = false;
    e
}

/// Game `id` of `with_moves(1)` (or `experiment(1)`), played: its row of
/// `games.csv` and of `moves.csv`.
fn played(id: u64) -> (String, String) {
    use crate::records::moves_file::push_moves_row;
    use crate::tournament::lineup::Lineup;
    use crate::tournament::play_scheduled::{fill_row, play_scheduled};
    use crate::tournament::schedule::Schedule;
    let e = with_moves(1);
    let schedule = Schedule::new(&e);
    let lineup = Lineup::new(e.agent_specs());
    let game = schedule.game(id);
    let opening = schedule.opening(&game);
    let finished = play_scheduled(&game, opening, &lineup, None, |_, _| {}).unwrap();
    let mut row = empty_row();
    fill_row(&mut row, &game, opening.plies(), &lineup, &finished);
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    writer.serialize(&row).unwrap();
    let games = String::from_utf8(writer.into_inner().unwrap()).unwrap();
    let mut moves = Vec::new();
    push_moves_row(&mut moves, id, finished.moves());
    (games, String::from_utf8(moves).unwrap())
}

fn row_line(id: u64) -> String {
    played(id).0
}

fn moves_line(id: u64) -> String {
    played(id).1
}

fn games_text(rows: u64, torn: &str) -> String {
    let mut text = String::from_utf8(csv_header()).unwrap();
    text.extend((0..rows).map(row_line));
    text + torn
}

fn moves_text(rows: u64, torn: &str) -> String {
    let mut text = MOVES_HEADER.to_string();
    text.extend((0..rows).map(moves_line));
    text + torn
}

#[test]
fn both_files_are_cut_to_the_games_they_both_hold() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let run = open_run_dir(dir, &with_moves(1), 6, false).unwrap();
    assert_eq!(
        fs::read_to_string(dir.join(MOVES_FILE)).unwrap(),
        MOVES_HEADER
    );
    assert!(run.moves.is_some());
    drop(run);
    for (games, moves) in [(3, 2), (2, 4), (0, 3), (3, 0)] {
        fs::write(dir.join(GAMES_FILE), games_text(games, "5,2,ii,6")).unwrap();
        fs::write(dir.join(MOVES_FILE), moves_text(moves, "9,1 2")).unwrap();
        let mut run = open_run_dir(dir, &with_moves(1), 6, false).unwrap();
        let done = games.min(moves);
        assert_eq!(run.done, done);
        let mut sinks = run.sinks();
        sinks.games.write_all(row_line(done).as_bytes()).unwrap();
        let moves_sink = sinks.moves.as_mut().unwrap();
        moves_sink.write_all(moves_line(done).as_bytes()).unwrap();
        drop(run);
        assert_eq!(
            fs::read_to_string(dir.join(GAMES_FILE)).unwrap(),
            games_text(done + 1, "")
        );
        assert_eq!(
            fs::read_to_string(dir.join(MOVES_FILE)).unwrap(),
            moves_text(done + 1, "")
        );
    }
    // A torn header of moves.csv is rewritten, and games.csv cut to nothing.
    fs::write(dir.join(MOVES_FILE), "game_i").unwrap();
    assert_eq!(open_run_dir(dir, &with_moves(1), 6, false).unwrap().done, 0);
    assert_eq!(
        fs::read_to_string(dir.join(MOVES_FILE)).unwrap(),
        MOVES_HEADER
    );
    assert_eq!(fs::read(dir.join(GAMES_FILE)).unwrap(), csv_header());
}

#[test]
fn a_missing_or_bad_moves_file_is_refused_and_nothing_is_cut() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    drop(open_run_dir(dir, &with_moves(1), 6, false).unwrap());
    fs::write(dir.join(GAMES_FILE), games_text(2, "")).unwrap();
    fs::remove_file(dir.join(MOVES_FILE)).unwrap();
    for _ in 0..2 {
        let err = open_run_dir(dir, &with_moves(1), 6, false).unwrap_err();
        assert!(
            err.to_string()
                .contains("moves.csv: line 1: missing, but games.csv holds 2 games"),
            "{err}"
        );
        assert!(!dir.join(MOVES_FILE).exists());
        assert_eq!(
            fs::read_to_string(dir.join(GAMES_FILE)).unwrap(),
            games_text(2, "")
        );
    }
    fs::write(dir.join(MOVES_FILE), moves_text(1, "") + &moves_line(3)).unwrap();
    let err = open_run_dir(dir, &with_moves(1), 6, false).unwrap_err();
    assert!(
        err.to_string()
            .contains("moves.csv: line 3: expected the row of game 1"),
        "{err}"
    );
    assert_eq!(
        fs::read_to_string(dir.join(GAMES_FILE)).unwrap(),
        games_text(2, "")
    );
}

#[test]
fn switching_moves_on_or_off_is_another_experiment() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    drop(open_run_dir(dir, &with_moves(1), 6, false).unwrap());
    let err = open_run_dir(dir, &experiment(1), 6, false).unwrap_err();
    assert!(
        err.to_string()
            .contains("`[record] moves = true, metrics = false`, this experiment has moves = false, metrics = false")
            && err.to_string().contains("--force"),
        "{err}"
    );
    let run = open_run_dir(dir, &experiment(1), 6, true).unwrap();
    assert!(run.moves.is_none() && !dir.join(MOVES_FILE).exists());
    drop(run);
    let err = open_run_dir(dir, &with_moves(1), 6, false).unwrap_err();
    assert!(
        err.to_string()
            .contains("moves = false, metrics = false`, this experiment has moves = true"),
        "{err}"
    );
}

#[test]
fn header_names_the_row_fields_in_order() {
    let header = String::from_utf8(csv_header()).unwrap();
    assert!(header.starts_with("game_id,pair_id,variant,holes,seeds,south,north,"));
    assert!(header.ends_with("plies,ending,moves_hash\n"));
}

#[test]
fn a_new_directory_gets_the_experiment_and_a_header() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let run = open_run_dir(&dir, &experiment(1), 6, false).unwrap();
    assert_eq!(run.done, 0);
    assert_eq!(fs::read(dir.join(GAMES_FILE)).unwrap(), csv_header());
    let saved = fs::read_to_string(dir.join(EXPERIMENT_FILE)).unwrap();
    assert_eq!(Experiment::parse(&saved, "saved").unwrap(), experiment(1));
}

#[test]
fn resuming_cuts_a_partial_line_and_counts_whole_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    drop(open_run_dir(dir, &experiment(1), 6, false).unwrap());
    let mut text = String::from_utf8(csv_header()).unwrap();
    text += &row_line(0);
    text += &row_line(1);
    let whole = text.clone();
    text += "2,1,ii,6,4,ran";
    fs::write(dir.join(GAMES_FILE), &text).unwrap();
    let mut run = open_run_dir(dir, &experiment(1), 6, false).unwrap();
    assert_eq!(run.done, 2);
    run.games.write_all(row_line(2).as_bytes()).unwrap();
    drop(run);
    let after = fs::read_to_string(dir.join(GAMES_FILE)).unwrap();
    assert_eq!(after, whole + &row_line(2));
}

#[test]
fn a_partial_header_is_rewritten() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    drop(open_run_dir(dir, &experiment(1), 6, false).unwrap());
    fs::write(dir.join(GAMES_FILE), "game_id,pa").unwrap();
    let run = open_run_dir(dir, &experiment(1), 6, false).unwrap();
    assert_eq!(run.done, 0);
    assert_eq!(fs::read(dir.join(GAMES_FILE)).unwrap(), csv_header());
}

#[test]
fn another_experiment_is_refused_unless_forced() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    drop(open_run_dir(dir, &experiment(1), 6, false).unwrap());
    fs::write(
        dir.join(GAMES_FILE),
        [csv_header(), row_line(0).into_bytes()].concat(),
    )
    .unwrap();
    let err = open_run_dir(dir, &experiment(2), 6, false).unwrap_err();
    assert!(err.to_string().contains("--force"), "{err}");
    let mut threads = experiment(1);
    threads.threads = 7;
    assert_eq!(open_run_dir(dir, &threads, 6, false).unwrap().done, 1);
    let run = open_run_dir(dir, &experiment(2), 6, true).unwrap();
    assert_eq!(run.done, 0);
    let saved = fs::read_to_string(dir.join(EXPERIMENT_FILE)).unwrap();
    assert!(saved.contains("seed = 2"));
}

/// `--force` deletes the old report with the old games: report.html too,
/// and the charts folder, which describe games that are gone.
#[test]
fn force_deletes_every_old_result() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    drop(open_run_dir(dir, &experiment(1), 6, false).unwrap());
    fs::write(dir.join("report.html"), "old").unwrap();
    fs::write(dir.join("report.md"), "old").unwrap();
    fs::create_dir(dir.join("charts")).unwrap();
    fs::write(dir.join("charts").join("old.svg"), "old").unwrap();
    fs::write(dir.join("notes.txt"), "mine").unwrap();
    drop(open_run_dir(dir, &experiment(2), 6, true).unwrap());
    for gone in ["report.html", "report.md", "charts"] {
        assert!(!dir.join(gone).exists(), "{gone}");
    }
    assert!(dir.join("notes.txt").exists(), "not a result: kept");
}

#[test]
fn rows_out_of_order_are_reported_with_their_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    drop(open_run_dir(dir, &experiment(1), 6, false).unwrap());
    let text = [
        csv_header(),
        row_line(0).into_bytes(),
        row_line(5).into_bytes(),
    ]
    .concat();
    fs::write(dir.join(GAMES_FILE), text).unwrap();
    let err = open_run_dir(dir, &experiment(1), 6, false).unwrap_err();
    assert!(
        err.to_string()
            .contains("line 3: expected the row of game 1"),
        "{err}"
    );
}

#[test]
fn an_unwritable_place_leaves_nothing_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("plain-file");
    fs::write(&file, "x").unwrap();
    let err = open_run_dir(&file.join("run"), &experiment(1), 6, false).unwrap_err();
    assert!(
        err.to_string().contains("cannot create the directory"),
        "{err}"
    );
}
