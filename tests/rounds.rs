//! Hoyito III in rounds (`[rules] rounds = K`): the config key, the
//! schedule of matches, the runner playing a match's rounds in order, and
//! the report's match scoring.

use std::fs;
use std::ops::Range;
use std::path::Path;

use hoyito::report::rounds_summary;
use hoyito::stats::{wilson, Wdl, Z95};
use hoyito::tournament::{
    check_moves, run_games, Experiment, GameRow, Lineup, MovesRow, RecordSinks, RoundColumns,
    Schedule, ScheduleCheck, Work, GAMES_FILE,
};
use hoyito::{play_match, round_setup, Move, Side};

fn experiment(text: &str) -> Experiment {
    let mut e = Experiment::parse(text, "t.toml").unwrap();
    e.round_to_pairs();
    e
}

const ROUNDS: &str = r#"
name = "r"
seed = 21
games = 4
[rules]
variants = ["iii"]
holes = [4, 6]
rounds = 5
[openings]
random_plies = 2
[tournament]
format = "round-robin"
agents = ["random", "greedy"]
self_play = true
[roster.random]
kind = "random"
[roster.greedy]
kind = "greedy"
"#;

/// The games and moves rows of games `ids`, as a run writes them.
fn run(e: &Experiment, ids: Range<u64>, threads: usize) -> (Vec<u8>, Vec<u8>) {
    let schedule = Schedule::new(e);
    let lineup = Lineup::new(e.agent_specs());
    let work = Work {
        schedule: &schedule,
        lineup: &lineup,
        adjudicator: None,
    };
    let (mut games, mut moves) = (Vec::new(), Vec::new());
    let sinks = RecordSinks {
        games: &mut games,
        moves: Some(&mut moves),
        metrics: None,
    };
    run_games(work, ids, threads, sinks, &mut |_| {}).unwrap();
    (games, moves)
}

fn config_error(rounds: &str, variants: &str) -> String {
    let text = ROUNDS
        .replace("rounds = 5", rounds)
        .replace(r#"variants = ["iii"]"#, variants);
    Experiment::parse(&text, "t.toml").unwrap_err().to_string()
}

#[test]
fn the_rounds_key_is_checked_and_left_out_of_the_saved_experiment_when_1() {
    let zero = config_error("rounds = 0", r#"variants = ["iii"]"#);
    assert!(
        zero.starts_with("t.toml: key `rules.rounds`: 0 rounds"),
        "{zero}"
    );
    assert_eq!(zero.lines().count(), 1);
    let not_iii = config_error("rounds = 3", r#"variants = ["ii", "iii"]"#);
    assert!(
        not_iii.starts_with(
            "t.toml: key `rules.rounds`: 3 rounds: matches in rounds are Hoyito III's"
        ),
        "{not_iii}"
    );
    let many = config_error("rounds = 101", r#"variants = ["iii"]"#);
    assert!(many.contains("at most 100 rounds"), "{many}");
    let negative = config_error("rounds = -1", r#"variants = ["iii"]"#);
    assert!(negative.contains("rounds"), "{negative}");
    // Single games in any variant; `rounds = 1` is not saved.
    let one = experiment(
        &ROUNDS
            .replace("rounds = 5", "rounds = 1")
            .replace(r#"variants = ["iii"]"#, r#"variants = ["i", "iii"]"#),
    );
    assert!(!one.to_toml().contains("rounds"));
    assert!(experiment(ROUNDS).to_toml().contains("rounds = 5"));
}

#[test]
fn single_games_write_the_same_bytes_as_before_rounds_existed() {
    // The golden files were written by `hoyito run` before this feature.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rounds");
    let e = experiment(&fs::read_to_string(data.join("single.toml")).unwrap());
    let schedule = Schedule::new(&e);
    let (games, moves) = run(&e, 0..schedule.len(), 2);
    let header = hoyito::tournament::games_header(1);
    let expected = fs::read(data.join("single_games.csv")).unwrap();
    assert_eq!([header, games].concat(), expected);
    let expected_moves = fs::read(data.join("single_moves.csv")).unwrap();
    assert_eq!(
        [b"game_id,moves\n".to_vec(), moves].concat(),
        expected_moves
    );
    for id in 0..schedule.len() {
        let g = schedule.game(id);
        assert_eq!((g.match_id, g.match_round, g.first), (id, 1, Side::South));
    }
}

/// The rows of a run in rounds, with their round columns and moves.
fn rows(games: &[u8], moves: &[u8]) -> Vec<(GameRow, RoundColumns, Vec<Move>)> {
    let text = [hoyito::tournament::games_header(5), games.to_vec()].concat();
    let mut reader = csv::Reader::from_reader(text.as_slice());
    let headers = reader.headers().unwrap().clone();
    let moves = String::from_utf8(moves.to_vec()).unwrap();
    reader
        .records()
        .zip(moves.lines())
        .map(|(record, line)| {
            let record = record.unwrap();
            let mut row = MovesRow::default();
            row.parse_into(line).unwrap();
            (
                record.deserialize(Some(&headers)).unwrap(),
                record.deserialize(Some(&headers)).unwrap(),
                row.moves,
            )
        })
        .collect()
}

#[test]
fn a_match_plays_its_rounds_as_round_match_says() {
    let e = experiment(ROUNDS);
    let schedule = Schedule::new(&e);
    assert_eq!(schedule.len(), 2 * 3 * 4 * 5);
    let (games, moves) = run(&e, 0..schedule.len(), 2);
    let rows = rows(&games, &moves);
    assert_eq!(rows.len() as u64, schedule.len());
    let mut matches = 0;
    for first in (0..rows.len()).step_by(10) {
        for seat in 0..2 {
            // The rounds of one match: ids first + seat, + 2, + 4, ...
            let ids: Vec<usize> = (0..5).map(|r| first + seat + 2 * r).collect();
            let (row0, _, _) = &rows[ids[0]];
            for (r, &id) in ids.iter().enumerate() {
                let (row, columns, _) = &rows[id];
                assert_eq!(
                    (row.pair_id, row.south.as_str()),
                    (id as u64 / 2, row0.south.as_str())
                );
                assert_eq!(
                    (columns.round, columns.match_id),
                    (r as u32 + 1, (first / 10 * 2 + seat) as u64)
                );
            }
            // The same moves through the engine's own match player.
            let base = schedule.game(ids[0] as u64).rules;
            let mut round = 0;
            let mut ply = 0;
            let result = play_match(&base, 5, |game| {
                if game.plies() == 0 && ply > 0 {
                    round += 1;
                    ply = 0;
                }
                let (_, _, moves) = &rows[ids[round]];
                if ply == 0 {
                    let (_, start) = round_setup(&base, round as u32 + 1, None);
                    // Odd rounds South first, even rounds North.
                    assert_eq!(game.position().side_to_move(), start.side_to_move());
                }
                ply += 1;
                moves[ply - 1]
            })
            .unwrap();
            for (outcome, &id) in result.rounds.iter().zip(&ids) {
                let (row, columns, _) = &rows[id];
                assert_eq!(
                    (row.south_captures, row.north_captures, row.plies),
                    (outcome.scores.south, outcome.scores.north, outcome.plies),
                    "game {id}"
                );
                if columns.last_seeds > 0 {
                    assert_eq!(row.ending, hoyito::Ending::Normal);
                }
            }
            matches += 1;
        }
    }
    assert_eq!(matches, 24);
    // Rounds from 3 on give the last seeds to the previous round's winner.
    let mut to_previous = 0;
    for (id, (row, columns, _)) in rows.iter().enumerate() {
        if columns.round >= 3 && columns.last_seeds > 0 {
            let previous = &rows[id - 2].0;
            let winner = match previous.winner {
                hoyito::tournament::Winner::S => Some(hoyito::tournament::SideLetter::S),
                hoyito::tournament::Winner::N => Some(hoyito::tournament::SideLetter::N),
                hoyito::tournament::Winner::Draw => columns.last_capturer,
            };
            assert_eq!(columns.last_to, winner, "game {id} ({row:?})");
            to_previous += usize::from(columns.last_to != columns.last_capturer);
        }
    }
    assert!(to_previous > 0, "no round where the rule mattered");
}

#[test]
fn threads_and_a_resume_inside_a_match_write_the_same_bytes() {
    let e = experiment(ROUNDS);
    let len = Schedule::new(&e).len();
    let one = run(&e, 0..len, 1);
    assert_eq!(run(&e, 0..len, 2), one);
    // Stopped after round 2 of the second match pair's first match: the
    // resumed run replays rounds 1 and 2 before playing round 3.
    for cut in [13, 17, 19] {
        let (g1, m1) = run(&e, 0..cut, 2);
        let (g2, m2) = run(&e, cut..len, 2);
        assert_eq!(([g1, g2].concat(), [m1, m2].concat()), one, "cut at {cut}");
    }
    // The rows check against the schedule, moves and round rule included.
    let mut check = ScheduleCheck::new(&e);
    for (row, _, moves) in rows(&one.0, &one.1) {
        check.check(&row).unwrap();
        check.check_moves(&row, &moves).unwrap();
    }
}

#[test]
fn a_later_round_replayed_under_single_game_rules_does_not_check() {
    // check_moves under plain rules (South first) refuses an even round.
    let e = experiment(ROUNDS);
    let len = Schedule::new(&e).len();
    let (games, moves) = run(&e, 0..len, 1);
    let rows = rows(&games, &moves);
    let (id, (row, _, moves)) = rows
        .iter()
        .enumerate()
        .find(|(_, (row, c, _))| c.round == 2 && row.south_captures != row.north_captures)
        .unwrap();
    let base = Schedule::new(&e).game(id as u64).rules;
    assert!(check_moves(row, base, moves).is_err());
}

/// A line of games.csv in rounds.
#[allow(clippy::too_many_arguments)]
fn line(
    id: u64,
    south: &str,
    north: &str,
    winner: &str,
    s: u8,
    n: u8,
    round: u32,
    last: &str,
) -> String {
    format!(
        "{id},{},iii,4,4,{south},{north},1,,{winner},{s},{n},10,normal,0000000000000000,{},{round},{last}\n",
        id / 2,
        (id / 6) * 2 + id % 2
    )
}

#[test]
fn matches_are_scored_on_rounds_then_seeds_by_hand() {
    // Two match pairs of 3 rounds, a (South in even matches) against b; 32
    // seeds on 2x4.
    let mut text = String::from_utf8(hoyito::tournament::games_header(3)).unwrap();
    let rows = [
        // Match 0 (a South): a wins rounds 1 and 3 -> a wins 2-1.
        line(0, "a", "b", "S", 20, 12, 1, "4,S,S"),
        // Match 1 (b South): b wins round 1.
        line(1, "b", "a", "S", 18, 14, 1, "0,,S"),
        line(2, "a", "b", "N", 12, 20, 2, "4,N,N"),
        // b won round 1 of match 1; a wins round 2 (North).
        line(3, "b", "a", "N", 10, 22, 2, "0,,N"),
        // Round 3 of match 0: the previous winner (b, North) got the last 4,
        // which decided nothing (18-10 without them is still S), nor would
        // giving them to the capturer, S (22-10).
        line(4, "a", "b", "S", 18, 14, 3, "4,N,S"),
        // Match 1 round 3: previous winner a (North) got 4 seeds that made
        // 14-18 out of 14-14: decided; to the capturer (S) it is 18-14:
        // changed by the rule. Match 1: b 1, a 2 rounds: a wins.
        line(5, "b", "a", "N", 14, 18, 3, "4,N,S"),
        // Match pair 1: match 2 (a South) drawn on rounds (1-1, a draw) and
        // on seeds: 16+16+16 = 48 each side.
        line(6, "a", "b", "S", 20, 12, 1, "0,,S"),
        line(7, "b", "a", "draw", 16, 16, 1, "0,,S"),
        line(8, "a", "b", "N", 12, 20, 2, "0,,N"),
        line(9, "b", "a", "S", 20, 12, 2, "0,,S"),
        line(10, "a", "b", "draw", 16, 16, 3, "0,,N"),
        // Match 3 (b South): b won round 2, a draw, then S: b 2 rounds, a 0.
        line(11, "b", "a", "S", 17, 15, 3, "0,,S"),
    ];
    for row in &rows {
        text += row;
    }
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join(GAMES_FILE);
    fs::write(&path, text).unwrap();
    for rounds in [Some(3), None] {
        let summary = rounds_summary(&path, rounds).unwrap().unwrap();
        assert_eq!(
            (summary.rounds, summary.matches, summary.incomplete_matches),
            (3, 4, 0)
        );
        let setting = &summary.settings[0];
        let p = &setting.pairings[0];
        assert_eq!((p.agent.as_str(), p.opponent.as_str()), ("a", "b"));
        // a: match 0 won, match 1 won, match 2 drawn (rounds 1-1, seeds
        // 48-48), match 3 lost.
        assert_eq!(
            p.matches,
            Wdl {
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(p.by_seeds, 0);
        // Pair scores for a: 1 + 1 = 2, 0.5 + 0 = 0.5.
        assert_eq!(p.match_pairs.0, [0, 1, 0, 0, 1]);
        let score = p.match_score.unwrap();
        assert!((score.value - 0.625).abs() < 1e-12);
        // Rounds from a's side: W L W | L W W (match 1: b S wins; a N wins
        // twice) | W D L ... counted per row.
        assert_eq!(p.rounds.wins + p.rounds.draws + p.rounds.losses, 12);
        // The previous winner: round 2 lost 3 of 3; rounds 3+ 2.5 of 4.
        assert_eq!(
            p.previous_winner,
            [Some(wilson(0.0, 3, Z95)), Some(wilson(2.5, 4, Z95))]
        );
        // Round 1: first mover South scores S, S, S, draw = 3.5 of 4.
        let r1 = &setting.by_round[0];
        assert_eq!((r1.round, r1.first, r1.games), (1, "South", 4));
        assert_eq!(r1.first_mover, wilson(3.5, 4, Z95));
        // Round 2 (North first): N, N, N, S -> 3 of 4; previous winners:
        // S (match 0) lost, S (match 1) lost, S (match 2) lost, draw -> none.
        let r2 = &setting.by_round[1];
        assert_eq!(
            (r2.first, r2.first_mover.value, r2.after_a_win),
            ("North", 0.75, 3)
        );
        assert_eq!(r2.previous_winner, Some(wilson(0.0, 3, Z95)));
        // Round 3: previous winners N, N, N, S; results S, N, draw, S ->
        // 0 + 1 + 0.5 + 1.
        let r3 = &setting.by_round[2];
        assert_eq!(r3.previous_winner, Some(wilson(2.5, 4, Z95)));
        // The last seeds: rounds 1-2 gave 4 seeds twice, to the capturer;
        // match 0 round 1 (20-12 -> 16-12 without) and round 2 (12-20 ->
        // 12-16) decided nothing.
        let early = &setting.last_seeds[0];
        assert_eq!((early.games, early.given, early.not_to_capturer), (8, 2, 0));
        assert_eq!(early.decided.value, 0.0);
        let late = &setting.last_seeds[1];
        assert_eq!((late.games, late.given, late.not_to_capturer), (4, 2, 2));
        assert_eq!(late.decided, wilson(1.0, 4, Z95));
        assert_eq!(late.changed, wilson(1.0, 4, Z95));
    }
}

#[test]
fn a_file_of_single_games_has_no_rounds_section() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rounds/single_games.csv");
    assert_eq!(rounds_summary(&data, None).unwrap(), None);
}

fn hoyito(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "hoyito {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn shards_of_match_pairs_merge_to_the_whole_run_and_rounds_replay() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("r.toml");
    fs::write(&cfg, ROUNDS).unwrap();
    let p = |name: &str| tmp.path().join(name).to_str().unwrap().to_string();
    hoyito(&["run", &p("r.toml"), "--out", &p("whole"), "--threads", "2"]);
    for k in 0..3 {
        let shard = format!("{k}/3");
        hoyito(&[
            "run",
            &p("r.toml"),
            "--shard",
            &shard,
            "--out",
            &p(&format!("s{k}")),
        ]);
    }
    hoyito(&["merge", &p("merged"), &p("s0"), &p("s1"), &p("s2")]);
    for file in [GAMES_FILE, "moves.csv"] {
        assert_eq!(
            fs::read(tmp.path().join("whole").join(file)).unwrap(),
            fs::read(tmp.path().join("merged").join(file)).unwrap(),
            "{file}"
        );
    }
    // Round 4 of a match: North first, replayed from moves.csv.
    let text = hoyito(&["replay", &p("whole"), "7"]);
    assert!(text.contains("round 4 of 5 of match 1"), "{text}");
    assert!(text.contains("matches the row of games.csv"), "{text}");
    let report = fs::read_to_string(tmp.path().join("whole/report.md")).unwrap();
    assert!(
        report.contains("## Matches in rounds (Hoyito III)"),
        "{report}"
    );
    let summary = fs::read_to_string(tmp.path().join("whole/summary.json")).unwrap();
    assert!(summary.contains("\"rounds\": {"), "{summary}");
}

/// A row whose round columns disagree with its game id (an edited
/// `games.csv`) is refused by name, not scored as another round.
#[test]
fn round_columns_that_disagree_with_the_game_id_are_refused() {
    let mut text = String::from_utf8(hoyito::tournament::games_header(3)).unwrap();
    text += &line(0, "a", "b", "S", 20, 12, 1, "0,,S");
    text += &line(1, "b", "a", "S", 18, 14, 1, "0,,S");
    // Game 2 is round 2 of match 0: this row says round 3.
    text += &line(2, "a", "b", "N", 12, 20, 3, "0,,N");
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join(GAMES_FILE);
    fs::write(&path, &text).unwrap();
    let err = rounds_summary(&path, Some(3)).unwrap_err().to_string();
    assert!(
        err.contains("line 4")
            && err.contains("game 2 says match 0 round 3")
            && err.contains("round 2 of match 0"),
        "{err}"
    );
    // The same file with the right round is read.
    fs::write(&path, text.replace(",0,3,0,,N", ",0,2,0,,N")).unwrap();
    assert!(rounds_summary(&path, Some(3)).unwrap().is_some());
}
