//! `report.md`: the summary as a person reads it, with the methods stated and
//! cited beside the numbers and the charts linked in.

use std::io::{self, Write};

use crate::stats::{Proportion, RatingTable, SeatStats, Setting};

use super::summary::{SettingSummary, Summary};

/// Writes the report. `charts` are (title, path relative to the report) of the
/// PNG charts to link.
pub fn write_markdown(
    mut out: impl Write,
    summary: &Summary,
    charts: &[(String, String)],
) -> io::Result<()> {
    writeln!(out, "# Hoyito tournament report\n")?;
    let settings: Vec<String> = summary
        .settings
        .iter()
        .map(|s| s.setting.to_string())
        .collect();
    writeln!(
        out,
        "{} games; agents: {}; variants and boards: {}.\n",
        summary.games,
        summary.agents.join(", "),
        settings.join(", ")
    )?;
    write_methods(&mut out, summary)?;
    writeln!(out, "## Charts\n")?;
    for (title, path) in charts {
        writeln!(out, "![{title}]({path})\n")?;
    }
    for setting in &summary.settings {
        write_setting(&mut out, setting)?;
    }
    Ok(())
}

fn write_methods(out: &mut impl Write, summary: &Summary) -> io::Result<()> {
    writeln!(out, "## How to read this\n")?;
    writeln!(out, "- {}", summary.first_player)?;
    writeln!(
        out,
        "- A board `2xH sK` has two rows of H holes with K seeds in each at the start."
    )?;
    writeln!(
        out,
        "- Scores count a win as 1 and a draw as 1/2. Intervals are 95% Wilson score \
         intervals (E. B. Wilson, JASA 1927), taking a score as a proportion of games."
    )?;
    writeln!(
        out,
        "- Pairs: games come in seat-swapped pairs with the same opening; the pair \
         columns count pairs that scored 0, 1/2, 1, 3/2 and 2 points for the first agent \
         (pentanomial counts)."
    )?;
    writeln!(
        out,
        "- First-player advantage is South's score minus 0.5. Ludii's AdvantageP1 is \
         South's mean result with draws as half wins, and its Balance is 1 minus the gap \
         between the two seats' results (1 = even); see Ludii's \
         `metrics/single/outcome/AdvantageP1.java` and `Balance.java`."
    )?;
    writeln!(
        out,
        "- Ratings: Bradley-Terry maximum likelihood (Bradley & Terry 1952) fitted by \
         Hunter's MM algorithm (Annals of Statistics 2004), draws as half points, self-play \
         left out, on the Elo scale (400 / ln 10 per logit unit), anchored at `random` = 0 \
         when it plays, else at the first agent listed; 95% intervals from the observed \
         information matrix.\n"
    )
}

fn write_setting(out: &mut impl Write, s: &SettingSummary) -> io::Result<()> {
    writeln!(out, "## {} ({} games)\n", s.setting, s.games)?;
    if !s.pairings.is_empty() {
        writeln!(out, "### Pairings\n")?;
        writeln!(
            out,
            "| agent | opponent | wins | draws | losses | score | 95% interval | pairs 0 / ½ / 1 / 1½ / 2 | unpaired games |"
        )?;
        writeln!(out, "|---|---|--:|--:|--:|--:|---|---|--:|")?;
        for p in &s.pairings {
            let penta: Vec<String> = p.pentanomial.0.iter().map(u64::to_string).collect();
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {:.3} | {} | {} | {} |",
                p.agent,
                p.opponent,
                p.wdl.wins,
                p.wdl.draws,
                p.wdl.losses,
                p.score.value,
                interval(&p.score),
                penta.join(" / "),
                p.unpaired_games
            )?;
        }
        writeln!(out)?;
    }
    write_first_player(out, &s.first_player)?;
    if let Some(table) = &s.ratings {
        write_ratings(out, &s.setting, table)?;
    }
    let l = &s.length;
    writeln!(out, "### Game length (plies)\n")?;
    writeln!(
        out,
        "| games | mean | median | 90th percentile | max | normal | repetition | no-capture limit |"
    )?;
    writeln!(out, "|--:|--:|--:|--:|--:|--:|--:|--:|")?;
    writeln!(
        out,
        "| {} | {:.1} | {:.1} | {} | {} | {} | {} | {} |\n",
        l.games,
        l.mean,
        l.median,
        l.p90,
        l.max,
        l.endings.normal,
        l.endings.repetition,
        l.endings.no_capture_limit
    )
}

fn write_first_player(out: &mut impl Write, rows: &[SeatStats]) -> io::Result<()> {
    writeln!(out, "### First player (South seat)\n")?;
    writeln!(
        out,
        "| games (count) | S wins | draws | N wins | S win rate | draw rate | S loss rate | advantage (S score − 0.5) | AdvantageP1 | Balance |"
    )?;
    writeln!(out, "|---|--:|--:|--:|---|---|---|---|--:|--:|")?;
    for r in rows {
        writeln!(
            out,
            "| {} ({}) | {} | {} | {} | {} | {} | {} | {:+.3} [{:+.3}, {:+.3}] | {:.3} | {:.3} |",
            r.scope.label(),
            r.games,
            r.south_wins,
            r.draws,
            r.north_wins,
            percent(&r.south_win_rate),
            percent(&r.draw_rate),
            percent(&r.south_loss_rate),
            r.advantage.value,
            r.advantage.low,
            r.advantage.high,
            r.ludii_advantage_p1,
            r.ludii_balance
        )?;
    }
    writeln!(out)
}

fn write_ratings(out: &mut impl Write, setting: &Setting, t: &RatingTable) -> io::Result<()> {
    writeln!(
        out,
        "### Ratings ({setting}, Elo scale, {} = 0)\n",
        t.anchor
    )?;
    if t.virtual_draws {
        writeln!(
            out,
            "Some agent won or lost every game against the rest, so the plain maximum-likelihood \
             fit is infinite; one virtual draw was added to each pairing that played \
             (as BayesElo's prior does).\n"
        )?;
    }
    writeln!(out, "| agent | Elo | 95% interval | games | points |")?;
    writeln!(out, "|---|--:|---|--:|--:|")?;
    for r in &t.ratings {
        writeln!(
            out,
            "| {} | {:+.0} | [{:+.0}, {:+.0}] | {} | {} |",
            r.agent, r.elo, r.low, r.high, r.games, r.points
        )?;
    }
    if !t.unrated.is_empty() {
        writeln!(
            out,
            "\nNot rated (no games linking them to {}): {}.",
            t.anchor,
            t.unrated.join(", ")
        )?;
    }
    writeln!(out)
}

/// `[low, high]` to three decimals.
fn interval(p: &Proportion) -> String {
    format!("[{:.3}, {:.3}]", p.low, p.high)
}

/// `61.0% [55.2, 66.5]`.
fn percent(p: &Proportion) -> String {
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        100.0 * p.value,
        100.0 * p.low,
        100.0 * p.high
    )
}
