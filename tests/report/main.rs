//! Statistics and reports: Wilson intervals, pentanomial counts, first-player
//! figures and Bradley-Terry ratings on the tally of hand-made rows, and
//! `hoyito report` on a small hand-written `games.csv`, good and malformed,
//! against the summary and report that the row-by-row code wrote for it.

use std::fs;
use std::path::Path;
use std::process::Command;

use hoyito::report::{
    summarize, tally_games_csv, write_markdown, write_report_from_csv, Caveat, ReportError,
};
use hoyito::stats::{
    bradley_terry, first_player, length_stats, pairings, wilson, Pentanomial, SampleUnit, Scope,
    SettingTally, Tally, Trinomial, Units, Wdl, Z95,
};
use hoyito::tournament::{GameRow, MovesHash, Winner};
use hoyito::{Ending, Variant};

fn game(id: u64, south: &str, north: &str, winner: Winner, plies: u32) -> GameRow {
    GameRow {
        game_id: id,
        pair_id: id / 2,
        variant: Variant::Ii,
        holes: 6,
        seeds: 4,
        south: south.to_string(),
        north: north.to_string(),
        game_seed: id,
        opening: String::new(),
        winner,
        south_captures: 24,
        north_captures: 24,
        plies,
        ending: Ending::Normal,
        moves_hash: MovesHash(id),
    }
}

/// A seat-swapped pair: `a` sits South in the first game, North in the second;
/// the winners are given by seat.
fn pair(id: u64, a: &str, b: &str, first: Winner, second: Winner) -> [GameRow; 2] {
    [
        game(2 * id, a, b, first, 50),
        game(2 * id + 1, b, a, second, 50),
    ]
}

fn order(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn tally(rows: &[GameRow]) -> Tally {
    Tally::from_rows(rows)
}

/// The one setting of a tally.
fn only(tally: &Tally) -> SettingTally<'_> {
    let mut settings = tally.settings();
    let setting = settings.next().expect("one setting");
    assert!(settings.next().is_none(), "only one setting");
    setting
}

fn hoyito(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .args(args)
        .output()
        .expect("the hoyito binary runs")
}

const CHART_STEMS: [&str; 5] = [
    "winrate_heatmap",
    "first_player_advantage",
    "game_length_ii",
    "game_length_iii",
    "ratings",
];

mod command;
mod statistics;
mod trust;
