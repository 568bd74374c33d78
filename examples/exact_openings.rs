//! Perfect play from the openings a study actually played, on boards the
//! solver reaches: for every pair of an agent's self-play games on one
//! variant and board in a `games.csv`, the exact result of the position
//! after the pair's opening (from the endgame tables) beside the result the
//! agent got. It tells whether the first-player advantage an agent shows
//! from random openings is the one perfect play gives from those openings,
//! which the start position's exact value cannot tell. Pairs that repeat
//! an earlier pair move for move count once, and games that ended inside
//! their opening (no agent moved) are left out, as the report leaves them. Prints one JSON object. Used
//! by `reports/first-player/exact.sh`.
//!
//!   cargo run --release --example exact_openings -- GAMES_CSV VARIANT HOLES AGENT TABLES_DIR
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use hoyito::report::read_games_csv;
use hoyito::solver::Tablebase;
use hoyito::tournament::{MovesHash, Winner};
use hoyito::{terminal_margin, Move, Position, Rules, Side, Variant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [games, variant, holes, agent, tables_dir] = args.as_slice() else {
        return Err("usage: exact_openings GAMES_CSV VARIANT HOLES AGENT TABLES_DIR".into());
    };
    let variant: Variant = variant.parse()?;
    let holes: u8 = holes.parse()?;
    let rules = Rules::new(variant).with_board(u32::from(holes), 4)?;
    let mut tables = Tablebase::new(variant, holes)?;
    let start = Position::start(&rules);
    tables.ensure(start.seeds_on_board(), Some(Path::new(tables_dir)), &|_| {})?;

    // pair id -> (opening, South's scores in its games, their move hashes)
    let mut pairs: BTreeMap<u64, (String, Vec<f64>, Vec<MovesHash>)> = BTreeMap::new();
    read_games_csv(Path::new(games), |row| {
        if row.variant == variant
            && row.holes == holes
            && row.south == *agent
            && row.north == *agent
            && !row.ended_in_opening()
        {
            let pair = pairs
                .entry(row.pair_id)
                .or_insert_with(|| (row.opening.clone(), Vec::new(), Vec::new()));
            pair.1.push(row.winner.south_score());
            pair.2.push(row.moves_hash);
        }
    })?;
    // A pair that replays an earlier pair move for move (same opening, same
    // games) is counted once, as the study's summary counts distinct pairs.
    let mut seen = HashSet::new();
    pairs.retain(|_, (_, _, hashes)| seen.insert(hashes.clone()));
    let (mut exact_sum, mut exact_sq, mut played_sum, mut agree) = (0.0, 0.0, 0.0, 0u64);
    for (opening, souths, _) in pairs.values() {
        let mut pos = start;
        for token in opening.split_whitespace() {
            let mv: Move = token.parse()?;
            pos = pos.play(&rules, mv)?.0;
        }
        // South's final margin under perfect play from here: the captures so
        // far plus, for a game still going, the table's margin to come.
        let mut margin = terminal_margin(&pos, Side::South);
        if !pos.is_over() {
            let to_come = tables.value(&pos).ok_or("position beyond the tables")?;
            margin += match pos.side_to_move() {
                Side::South => to_come.into(),
                Side::North => -i32::from(to_come),
            };
        }
        let winner = match margin.cmp(&0) {
            Ordering::Greater => Winner::S,
            Ordering::Equal => Winner::Draw,
            Ordering::Less => Winner::N,
        };
        let exact = winner.south_score() - 0.5;
        let played = souths.iter().sum::<f64>() / souths.len() as f64 - 0.5;
        exact_sum += exact;
        exact_sq += exact * exact;
        played_sum += played;
        agree += u64::from(exact.partial_cmp(&0.0) == played.partial_cmp(&0.0));
    }
    let n = pairs.len() as f64;
    let mean = exact_sum / n;
    let sd = ((exact_sq / n - mean * mean) * n / (n - 1.0))
        .max(0.0)
        .sqrt();
    let half = 1.96 * sd / n.sqrt();
    println!(
        "{{\"variant\": \"{variant}\", \"holes\": {holes}, \"agent\": \"{agent}\", \"pairs\": {}, \
         \"exact_advantage\": {{\"value\": {mean}, \"low\": {}, \"high\": {}}}, \
         \"played_advantage\": {}, \"pairs_agreeing_in_sign\": {agree}}}",
        pairs.len(),
        mean - half,
        mean + half,
        played_sum / n
    );
    Ok(())
}
