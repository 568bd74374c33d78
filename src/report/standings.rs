//! Live standings: what a long run has shown so far, printed every few
//! games while it plays, in the form engine authors know from fastchess
//! (`matchmaking/output`): per pairing, games, W-L-D, points, Elo and nElo
//! with their intervals, LOS, the share of drawn games (`draws`) and
//! fastchess's DrawRatio (the share of pairs scoring one point, under its
//! own name), the pentanomial counts and the SPRT's log-likelihood ratio
//! when one runs.
//!
//! The figures are the report's own (pair-based, distinct pairs counted once),
//! computed from a [`Tally`] of the games written so far, so the last
//! standings of a finished run agree with its report.

use std::io::{self, Write};

use crate::stats::pairing::{pairings, PairingStats};
use crate::stats::sprt::SprtStatus;
use crate::stats::tally::Tally;

/// More groups than this print as one table line each rather than blocks.
const MAX_BLOCKS: usize = 6;

/// The SPRT part of the standings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtLine {
    /// The test on the pairs so far.
    pub status: SprtStatus,
    /// The H0 bound, in the model's Elo.
    pub elo0: f64,
    /// The H1 bound.
    pub elo1: f64,
}

/// Writes the standings of the games tallied so far (`written` of `planned`),
/// each pairing of each setting sorted by score, best first, from the point
/// of view of the agent listed first in `agent_order`.
pub fn write_standings(
    out: &mut impl Write,
    tally: &Tally,
    agent_order: &[String],
    planned: u64,
    sprt: Option<SprtLine>,
) -> io::Result<()> {
    let mut groups: Vec<(String, PairingStats)> = Vec::new();
    for setting in tally.settings() {
        let mut stats = pairings(&setting, agent_order);
        stats.sort_by(|a, b| score(b).total_cmp(&score(a)));
        groups.extend(
            stats
                .into_iter()
                .map(|s| (setting.setting().to_string(), s)),
        );
    }
    writeln!(
        out,
        "--- standings after {} of {planned} games ---",
        tally.games()
    )?;
    if groups.is_empty() {
        writeln!(out, "(self-play only: no pairing to rank)")?;
    } else if groups.len() <= MAX_BLOCKS {
        for (setting, stats) in &groups {
            write_block(out, setting, stats)?;
        }
    } else {
        write_table(out, &groups)?;
    }
    if let Some(line) = sprt {
        writeln!(
            out,
            "LLR: {:.2} ({:.2}, {:.2}) [{:.2}, {:.2}]",
            line.status.llr, line.status.lower_bound, line.status.upper_bound, line.elo0, line.elo1
        )?;
    }
    writeln!(out, "---")
}

/// The score that orders the standings: the pair-based estimate, else 0.5.
fn score(stats: &PairingStats) -> f64 {
    stats.estimate.map_or(0.5, |e| e.score.value)
}

/// Why a pairing has no nElo, in the standings and in the report's note
/// under its table: a score this close to 0 or 1, or units that all scored
/// alike, have no normal interval, and nElo divides by the spread it needs.
pub(crate) const NELO_MISSING_WHY: &str =
    "the score's normal interval would pass 0 or 1 (a near sweep, or few pairs), \
     or every pair scored alike";

/// Elo, nElo and LOS as text: `12.3 +/- 4.5`.
fn figures(stats: &PairingStats) -> (String, String, String) {
    match &stats.estimate {
        Some(e) => (
            e.elo.text(1),
            e.nelo
                .map_or_else(|| format!("- ({NELO_MISSING_WHY})"), |n| n.text(1)),
            format!("{:.1} %", 100.0 * e.los),
        ),
        None => ("-".to_string(), "-".to_string(), "-".to_string()),
    }
}

/// The share of drawn games, over every game of the pairing.
fn draw_share(stats: &PairingStats) -> String {
    let games = stats.wdl.games();
    if games == 0 {
        return "-".to_string();
    }
    format!("{:.1} %", 100.0 * stats.wdl.draws as f64 / games as f64)
}

/// The share of complete distinct pairs that scored one point (a win and a
/// loss, or two draws): fastchess's DrawRatio for pentanomial counts.
fn draw_ratio(stats: &PairingStats) -> String {
    let pairs = stats.pentanomial.pairs();
    if pairs == 0 {
        return "-".to_string();
    }
    format!(
        "{:.1} %",
        100.0 * stats.pentanomial.0[2] as f64 / pairs as f64
    )
}

fn write_block(out: &mut impl Write, setting: &str, stats: &PairingStats) -> io::Result<()> {
    let (elo, nelo, los) = figures(stats);
    let wdl = stats.wdl;
    let games = wdl.games();
    writeln!(out, "{setting}: {} vs {}", stats.agent, stats.opponent)?;
    writeln!(
        out,
        "  Games: {games}, W-L-D: {}-{}-{}, Points: {:.1} ({:.2} %)",
        wdl.wins,
        wdl.losses,
        wdl.draws,
        wdl.points(),
        100.0 * wdl.points() / games.max(1) as f64
    )?;
    writeln!(
        out,
        "  Elo: {elo}, nElo: {nelo}, LOS: {los}, draws: {}, DrawRatio: {}",
        draw_share(stats),
        draw_ratio(stats)
    )?;
    let p = stats.pentanomial.0;
    writeln!(
        out,
        "  Ptnml(0-2): [{}, {}, {}, {}, {}], distinct pairs: {} of {}",
        p[0], p[1], p[2], p[3], p[4], stats.games.distinct_pairs, stats.games.pairs
    )
}

fn write_table(out: &mut impl Write, groups: &[(String, PairingStats)]) -> io::Result<()> {
    writeln!(
        out,
        "{:<10} {:<34} {:>7} {:>17} {:>7} {:>16} {:>16} {:>7} {:>6} {:>9}  Ptnml(0-2)",
        "setting", "pairing", "games", "W-L-D", "score", "Elo", "nElo", "LOS", "draws", "DrawRatio"
    )?;
    for (setting, stats) in groups {
        let (elo, nelo, los) = figures(stats);
        let wdl = stats.wdl;
        let p = stats.pentanomial.0;
        writeln!(
            out,
            "{:<10} {:<34} {:>7} {:>17} {:>7.3} {:>16} {:>16} {:>7} {:>6} {:>9}  [{}, {}, {}, {}, {}]",
            setting,
            format!("{} vs {}", stats.agent, stats.opponent),
            wdl.games(),
            format!("{}-{}-{}", wdl.wins, wdl.losses, wdl.draws),
            score(stats),
            elo,
            nelo,
            los,
            draw_share(stats),
            draw_ratio(stats),
            p[0],
            p[1],
            p[2],
            p[3],
            p[4]
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::game_row::{GameRow, Winner};
    use crate::stats::sprt::{Sprt, SprtConfig, SprtModel};
    use crate::tournament::play_scheduled::empty_row;

    fn row(id: u64, south: &str, north: &str, winner: Winner) -> GameRow {
        let mut row = empty_row();
        row.game_id = id;
        row.pair_id = id / 2;
        row.holes = 6;
        row.seeds = 4;
        row.south = south.to_string();
        row.north = north.to_string();
        row.winner = winner;
        row.moves_hash = crate::records::moves_hash::MovesHash(id);
        row
    }

    fn text(tally: &Tally, sprt: Option<SprtLine>) -> String {
        let mut out = Vec::new();
        let order = ["a".to_string(), "b".to_string()];
        write_standings(&mut out, tally, &order, 100, sprt).expect("writing to memory");
        String::from_utf8(out).expect("utf-8")
    }

    /// A near sweep printed `nElo: -` with no reason beside another
    /// pairing's figure: the dash now says why.
    #[test]
    fn a_missing_nelo_says_why() {
        let mut tally = Tally::new();
        // a wins every game: every pair scores 2, no spread.
        for id in 0..8u64 {
            let (s, n, w) = match id % 2 {
                0 => ("a", "b", Winner::S),
                _ => ("b", "a", Winner::N),
            };
            tally.add(&row(id, s, n, w));
        }
        let text = text(&tally, None);
        assert!(
            text.contains(
                "nElo: - (the score's normal interval would pass 0 or 1 (a near sweep, or few \
                 pairs), or every pair scored alike)"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_block_per_pairing_with_the_pair_counts() {
        let mut tally = Tally::new();
        // Pairs for a: (win, win) = 2, (win, draw) = 1.5, (loss, win) = 1.
        let results = [
            ("a", "b", Winner::S),
            ("b", "a", Winner::N),
            ("a", "b", Winner::S),
            ("b", "a", Winner::Draw),
            ("a", "b", Winner::N),
            ("b", "a", Winner::N),
        ];
        for (id, (s, n, w)) in results.into_iter().enumerate() {
            tally.add(&row(id as u64, s, n, w));
        }
        let text = text(&tally, None);
        assert!(
            text.contains("--- standings after 6 of 100 games ---"),
            "{text}"
        );
        assert!(text.contains("i 2x6 s4: a vs b"), "{text}");
        assert!(
            text.contains("W-L-D: 4-1-1, Points: 4.5 (75.00 %)"),
            "{text}"
        );
        assert!(text.contains("Ptnml(0-2): [0, 0, 1, 1, 1]"), "{text}");
        // One of six games was drawn; one of three pairs scored one point.
        assert!(text.contains("draws: 16.7 %, DrawRatio: 33.3 %"), "{text}");
        assert!(!text.contains("LLR"), "{text}");
    }

    #[test]
    fn the_sprt_line_when_a_test_runs() {
        let mut tally = Tally::new();
        tally.add(&row(0, "a", "b", Winner::S));
        tally.add(&row(1, "b", "a", Winner::N));
        let sprt = Sprt::new(SprtConfig {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Normalized,
        })
        .expect("valid");
        let status = sprt.status(&crate::stats::outcomes::Pentanomial([0, 0, 0, 0, 1]));
        let line = SprtLine {
            status,
            elo0: 0.0,
            elo1: 10.0,
        };
        let text = text(&tally, Some(line));
        assert!(text.contains("LLR: "), "{text}");
        assert!(text.contains("(-2.94, 2.94) [0.00, 10.00]"), "{text}");
    }
}
