//! The report's Balance section: the game-design metrics of every variant
//! and board (from `metrics.csv` beside `games.csv`), per setting and per
//! pairing, the standard 2x6 against the extended 2x12, and the charts of
//! each metric family against board size. Present only when the run has
//! measures; a report without them keeps its shape.

use std::io::{self, Write};

use super::format::{estimate_text, fixed, no_interval_reason};

use serde::Serialize;

use crate::metrics::aggregate::{BalanceTally, Family, GroupMetrics, Metric};
use crate::metrics::compare::{compare_boards, BoardComparison};
use crate::metrics::interval::Estimate;

/// The boards compared side by side: the standard and the extended board.
pub const COMPARED_BOARDS: (u8, u8) = (6, 12);

/// The Balance section's figures, as in `summary.json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BalanceSummary {
    /// Games with measures.
    pub games: u64,
    /// Per variant and board: the whole setting (`pairing` empty), then each
    /// pairing.
    pub groups: Vec<GroupMetrics>,
    /// Every metric of each variant on 2x6 against 2x12, when both were played.
    pub boards: Vec<BoardComparison>,
}

/// The Balance figures of the tallied games.
pub fn balance_summary(tally: &BalanceTally) -> BalanceSummary {
    let groups = tally.metrics();
    let boards = compare_boards(&groups, COMPARED_BOARDS.0, COMPARED_BOARDS.1);
    BalanceSummary {
        games: tally.games(),
        groups,
        boards,
    }
}

/// How a metric's value is written: shares and rates with three decimals,
/// counts with one, more where rounding would hide the interval's width;
/// an estimate with no interval (one pair, or pairs that all measured the
/// same) is written alone, with `why`.
fn cell(metric: Metric, e: &Estimate, why: impl FnOnce() -> String) -> String {
    let decimals = match metric {
        Metric::Duration | Metric::LeadChanges | Metric::QuietEnd => 1,
        Metric::Branching | Metric::Laps => 2,
        _ => 3,
    };
    estimate_text(e.value, e.low, e.high, decimals, fixed, why)
}

/// Writes the Balance section: definitions, one table per metric family,
/// the board comparison and the charts (`(title, path)` links).
pub fn write_balance(
    out: &mut impl Write,
    balance: &BalanceSummary,
    charts: &[(String, String)],
) -> io::Result<()> {
    writeln!(out, "## Balance\n")?;
    writeln!(
        out,
        "Game-design metrics of {} games, counted move by move during play \
         (`metrics.csv`), after Ludii's metrics (`metrics/single/...`) and C. Browne, \
         \"Automatic Generation and Evaluation of Recombination Games\" (2008). Each is a \
         ratio of sums over the seat-swapped pairs with a 95% interval that takes the pair \
         as the cluster (Cochran 1977, §6.4; the first line of each setting is all its \
         pairings together). Pairs are counted as the first-player figures count them: a pair \
         repeated move for move once, and games that ended inside their random opening not \
         at all. Adapted to Hoyito: the score is the seeds captured; \
         *advantage* is South's score − 0.5; *balance* is 1 − |P(South wins) − P(North \
         wins)|; *completion* is the share of games won by play, neither drawn nor stalled \
         (Ludii's Completion); *stalls* are games ended by a repetition or the no-capture \
         limit (Ludii's timeouts); *duration* counts every ply, passes and extra moves included; \
         *decision share* is the share of plies with more than one sowable hole and \
         *branching* the sowable holes per ply (a sowing that would be endless counts as \
         an option, see `src/metrics/measures.rs`); *LeadChange* is Ludii's: the changes of \
         the side ahead on captures per ply of a game, averaged over games, and *lead changes \
         per game* the count itself (longer games have more of them at the same rate); *drama* is the winner's largest capture deficit as a \
         share of the seeds in play and *decided at* the share of the game after which the \
         winner led on captures for good, both over decisive games; Hoyito's own: capturing \
         moves and extra moves per ply, relay laps per sowing move, plies without capture \
         at the end.\n",
        balance.games
    )?;
    for family in Family::ALL {
        let metrics: Vec<Metric> = Metric::ALL
            .into_iter()
            .filter(|m| m.family() == family)
            .collect();
        writeln!(out, "### Balance: {}\n", family.name())?;
        write!(out, "| setting | pairing | pairs |")?;
        for m in &metrics {
            write!(out, " {} |", m.label())?;
        }
        writeln!(out)?;
        writeln!(out, "|---|---|--:|{}", "--:|".repeat(metrics.len()))?;
        for g in &balance.groups {
            let pairing = if g.key.pairing.is_empty() {
                "all"
            } else {
                &g.key.pairing
            };
            write!(
                out,
                "| {} 2x{} | {} | {} |",
                g.key.variant, g.key.holes, pairing, g.pairs
            )?;
            for &m in &metrics {
                match g.get(m) {
                    Some(e) => {
                        let why = || no_interval_reason(g.pairs, "pair");
                        write!(out, " {} |", cell(m, e, why))?
                    }
                    None => write!(out, " - |")?,
                }
            }
            writeln!(out)?;
        }
        writeln!(out)?;
    }
    if !balance.boards.is_empty() {
        let (a, b) = COMPARED_BOARDS;
        writeln!(out, "### Balance: 2x{a} against 2x{b}\n")?;
        writeln!(
            out,
            "All pairings of each variant together; the difference is 2x{b} − 2x{a}, its \
             interval from the two standard errors in quadrature (the boards' games are \
             independent).\n"
        )?;
        writeln!(out, "| variant | metric | 2x{a} | 2x{b} | difference |")?;
        writeln!(out, "|---|---|--:|--:|--:|")?;
        for c in &balance.boards {
            writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                c.variant,
                c.metric.label(),
                cell(c.metric, &c.a, || format!("no spread on 2x{a}")),
                cell(c.metric, &c.b, || format!("no spread on 2x{b}")),
                cell(c.metric, &c.difference, || "no spread on either board"
                    .to_string())
            )?;
        }
        writeln!(out)?;
    }
    for (title, path) in charts {
        writeln!(out, "![{title}]({path})\n")?;
    }
    Ok(())
}
