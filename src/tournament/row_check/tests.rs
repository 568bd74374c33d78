//! Unit tests of `row_check`, kept beside it in their own file so that the module stays short.
use super::*;
use crate::tournament::lineup::Lineup;
use crate::tournament::play_scheduled::{fill_row, play_scheduled};

/// A change to a row, and the column that should then be refused.
type Case = (&'static str, fn(&mut GameRow));

fn experiment() -> Experiment {
    let mut e = Experiment::parse(
        "name = \"t\"\nseed = 5\ngames = 2\n[rules]\nvariants = [\"ii\"]\nholes = [4]\n\
         [openings]\nrandom_plies = 3\n[tournament]\nformat = \"round-robin\"\n\
         agents = [\"random\", \"greedy\"]\n\
         [roster.random]\nkind = \"random\"\n[roster.greedy]\nkind = \"greedy\"\n",
        "t.toml",
    )
    .unwrap();
    e.round_to_pairs();
    e
}

/// Game 1 of the experiment, played: its row and moves.
fn game_one(e: &Experiment) -> (GameRow, Vec<Move>) {
    let schedule = Schedule::new(e);
    let lineup = Lineup::new(e.agent_specs());
    let game = schedule.game(1);
    let opening = schedule.opening(&game);
    let played = play_scheduled(&game, opening, &lineup, None, |_, _| {}).unwrap();
    let mut row = crate::tournament::play_scheduled::empty_row();
    fill_row(&mut row, &game, opening.plies(), &lineup, &played);
    (row, played.moves().to_vec())
}

#[test]
fn a_played_row_passes_every_check() {
    let e = experiment();
    let (row, moves) = game_one(&e);
    let mut check = ScheduleCheck::new(&e);
    assert_eq!(check.planned(), 2);
    check_rules(&row).unwrap();
    check.check(&row).unwrap();
    check.check_moves(&row, &moves).unwrap();
    assert_eq!(row.opening.split(' ').count(), 3);
}

#[test]
fn each_scheduled_column_is_checked() {
    let e = experiment();
    let (row, _) = game_one(&e);
    let mut check = ScheduleCheck::new(&e);
    let cases: [Case; 9] = [
        ("game_id", |r| r.game_id = 2),
        ("pair_id", |r| r.pair_id = 1),
        ("variant", |r| r.variant = crate::engine::rules::Variant::I),
        ("holes", |r| r.holes = 6),
        ("seeds", |r| r.seeds = 3),
        ("south", |r| r.south = "random".into()),
        ("north", |r| r.north = "greedy".into()),
        ("game_seed", |r| r.game_seed ^= 1),
        ("opening", |r| r.opening.push_str(" 1")),
    ];
    for (column, edit) in cases {
        let mut bad = row.clone();
        edit(&mut bad);
        assert_eq!(check.check(&bad).unwrap_err().column, column, "{column}");
    }
}

#[test]
fn a_flipped_result_is_caught_by_the_rules_or_by_replaying_the_moves() {
    let e = experiment();
    let (row, moves) = game_one(&e);
    let check = ScheduleCheck::new(&e);
    let mut flipped = row.clone();
    flipped.winner = match row.winner {
        Winner::S => Winner::N,
        _ => Winner::S,
    };
    assert_eq!(check_rules(&flipped).unwrap_err().column, "winner");
    assert_eq!(
        check.check_moves(&flipped, &moves).unwrap_err().column,
        "winner"
    );
    // Winner and captures swapped together agree with each other: only the
    // moves tell.
    let mut swapped = row.clone();
    std::mem::swap(&mut swapped.south_captures, &mut swapped.north_captures);
    swapped.winner = Winner::of(&crate::engine::game::Outcome {
        scores: crate::engine::side::BySide {
            south: swapped.south_captures,
            north: swapped.north_captures,
        },
        winner: match swapped.south_captures.cmp(&swapped.north_captures) {
            std::cmp::Ordering::Greater => Some(crate::engine::side::Side::South),
            std::cmp::Ordering::Less => Some(crate::engine::side::Side::North),
            std::cmp::Ordering::Equal => None,
        },
        ending: swapped.ending,
        plies: swapped.plies,
    });
    check_rules(&swapped).unwrap();
    if swapped != row {
        assert!(check.check_moves(&swapped, &moves).is_err());
    }
    let mut other = moves.clone();
    other.pop();
    assert_eq!(
        check.check_moves(&row, &other).unwrap_err().column,
        "moves_hash"
    );
}

#[test]
fn impossible_rows_are_refused_by_the_rules() {
    let e = experiment();
    let (row, _) = game_one(&e);
    let cases: [Case; 5] = [
        ("holes", |r| r.holes = 99),
        ("holes", |r| r.holes = 1),
        ("seeds", |r| r.seeds = 0),
        ("winner", |r| {
            (r.south_captures, r.north_captures, r.winner) = (20, 12, Winner::N)
        }),
        ("south_captures", |r| {
            (r.south_captures, r.north_captures, r.winner, r.ending) =
                (20, 11, Winner::S, Ending::Normal)
        }),
    ];
    for (column, edit) in cases {
        let mut bad = row.clone();
        edit(&mut bad);
        let err = check_rules(&bad).unwrap_err();
        assert_eq!(err.column, column, "{err}");
    }
    // 2x4 with 4 seeds: 32 in play; a stall may leave some to nobody.
    let mut stalled = row;
    (stalled.south_captures, stalled.north_captures) = (20, 11);
    (stalled.winner, stalled.ending) = (Winner::S, Ending::Repetition);
    check_rules(&stalled).unwrap();
    stalled.north_captures = 13;
    assert_eq!(check_rules(&stalled).unwrap_err().column, "south_captures");
}
