use super::*;

fn experiment(seed: u64) -> Experiment {
    let mut e = Experiment::parse(
        &format!(
            "name = \"t\"\nseed = {seed}\ngames = 2\n[tournament]\nformat = \"self-play\"\nagents = [\"random\"]\n"
        ),
        "t.toml",
    )
    .unwrap();
    e.round_to_pairs();
    e
}

fn row_line(id: u64) -> String {
    format!(
        "{id},{},ii,6,4,random,random,1,,S,30,18,40,normal,00000000000000{id:02x}\n",
        id / 2
    )
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
