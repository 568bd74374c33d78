//! Perfect play from the openings a study actually played, on boards the
//! solver reaches: for every pair of an agent's self-play games on one
//! variant and board in a `games.csv`, the exact result of the position
//! after the pair's opening (from the endgame tables) beside the result the
//! agent got. It tells whether the first-player advantage an agent shows
//! from random openings is the one perfect play gives from those openings,
//! which the start position's exact value cannot tell. Pairs that repeat
//! an earlier pair move for move count once. Prints one JSON object. Used by `reports/first-player/exact.sh`.
//!
//!   cargo run --release --example exact_openings -- GAMES_CSV VARIANT HOLES AGENT TABLES_DIR
use std::collections::BTreeMap;

use hoyito::solver::Tablebase;
use hoyito::{Move, Position, Rules, Side, Variant};

/// South's score (win 1, draw ½) for a capture margin South minus North.
fn score(margin: i32) -> f64 {
    match margin.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    }
}

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
    tables.ensure(
        start.seeds_on_board(),
        Some(std::path::Path::new(tables_dir)),
        &|_| {},
    )?;

    // pair id -> (opening, South's scores in its games, their move hashes)
    let mut pairs: BTreeMap<u64, (String, Vec<f64>, Vec<String>)> = BTreeMap::new();
    let text = std::fs::read_to_string(games)?;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f[2] != variant.to_string()
            || f[3] != holes.to_string()
            || f[5] != agent
            || f[6] != agent
        {
            continue;
        }
        let south = match f[9] {
            "S" => 1.0,
            "N" => 0.0,
            _ => 0.5,
        };
        let entry = pairs
            .entry(f[1].parse()?)
            .or_insert_with(|| (f[8].to_string(), Vec::new(), Vec::new()));
        entry.1.push(south);
        entry.2.push(f[14].to_string());
    }
    // A pair that replays an earlier pair move for move (same opening, same
    // games) is counted once, as the study's summary counts distinct pairs.
    let mut seen = std::collections::HashSet::new();
    pairs.retain(|_, (_, _, hashes)| seen.insert(hashes.clone()));
    let (mut exact_sum, mut exact_sq, mut played_sum, mut agree) = (0.0, 0.0, 0.0, 0u64);
    for (opening, souths, _) in pairs.values() {
        let mut pos = start;
        for token in opening.split_whitespace() {
            let mv: Move = token.parse()?;
            pos = pos.play(&rules, mv)?.0;
        }
        let caps = pos.captures();
        let so_far = i32::from(caps.south) - i32::from(caps.north);
        let margin = if pos.is_over() {
            so_far
        } else {
            let value = i32::from(tables.value(&pos).ok_or("position beyond the tables")?);
            so_far
                + if pos.side_to_move() == Side::South {
                    value
                } else {
                    -value
                }
        };
        let exact = score(margin) - 0.5;
        let played = souths.iter().sum::<f64>() / souths.len() as f64 - 0.5;
        exact_sum += exact;
        exact_sq += exact * exact;
        played_sum += played;
        agree += u64::from((exact > 0.0) == (played > 0.0) && (exact < 0.0) == (played < 0.0));
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
