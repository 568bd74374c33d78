//! `report.md`: the summary as a person reads it. The answer comes first
//! (the ratings with their intervals, the first player's advantage, how long
//! games last and how they end, every setting in one table each), then the
//! caveats ranked by how much they can change a conclusion, then the methods
//! stated and cited beside the numbers, the charts, and each setting's
//! tables in full.

use std::io::{self, Write};

use crate::stats::elo::{Interval, SampleUnit, ScoreEstimate};
use crate::stats::endings::AgentForfeits;
use crate::stats::first_player::SeatStats;
use crate::stats::pairing::PairingStats;
use crate::stats::ratings::RatingTable;
use crate::stats::setting::Setting;
use crate::stats::wilson::Proportion;

use super::caveats::THIN_UNITS;
use super::format::{decimal, decimals_showing, ratio, signed, signed_interval, UNITS_ALIKE};
use super::openings_summary::write_openings;
use super::sprt_summary::write_sprt;
use super::standings::NELO_MISSING_WHY;

use super::setting_summary::SettingSummary;
use super::summary::Summary;

/// Writes the report. `charts` are (title, path relative to the report) of the
/// PNG charts to link.
pub fn write_markdown(
    mut out: impl Write,
    summary: &Summary,
    charts: &[(String, String)],
) -> io::Result<()> {
    writeln!(out, "# Hoyito tournament report\n")?;
    if let (false, Some(planned)) = (summary.complete, summary.planned_games) {
        writeln!(
            out,
            "**{} of {planned} planned games: the run is incomplete**; resume it with \
             `hoyito run DIR/experiment.toml --out DIR` (DIR being this report's directory).\n",
            summary.games
        )?;
    }
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
    write_answer(&mut out, summary)?;
    write_caveats(&mut out, summary)?;
    if let Some(openings) = &summary.openings {
        write_openings(&mut out, openings)?;
    }
    if let Some(sprt) = &summary.sprt {
        write_sprt(&mut out, sprt)?;
    }
    write_forfeits(&mut out, &summary.forfeits)?;
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

/// The answer, before anything else: ratings, the first player's advantage,
/// and game length and endings, one table each over every setting.
fn write_answer(out: &mut impl Write, summary: &Summary) -> io::Result<()> {
    writeln!(out, "## The answer\n")?;
    let rated: Vec<&SettingSummary> = summary
        .settings
        .iter()
        .filter(|s| s.ratings.is_some())
        .collect();
    if !rated.is_empty() {
        writeln!(out, "### Ratings (Elo scale, 95% intervals)\n")?;
        writeln!(
            out,
            "| setting | agent | Elo | 95% interval | games | points |"
        )?;
        writeln!(out, "|---|---|--:|---|--:|--:|")?;
        let mut held = false;
        for s in &rated {
            let table = s.ratings.as_ref().expect("filtered on ratings");
            for r in &table.ratings {
                let mark = if r.held_by_prior {
                    held = true;
                    " (held by the prior)"
                } else if r.agent == table.anchor {
                    " (anchor)"
                } else {
                    ""
                };
                writeln!(
                    out,
                    "| {} | {}{mark} | {} | [{}, {}] | {} | {} |",
                    s.setting,
                    r.agent,
                    signed(r.elo, 0),
                    signed(r.low, 0),
                    signed(r.high, 0),
                    r.games,
                    r.points
                )?;
            }
        }
        writeln!(out)?;
        if held {
            writeln!(
                out,
                "A rating marked \"held by the prior\" is one where every game between the \
                 agent's side and the anchor's went one way: its maximum-likelihood distance is \
                 infinite, and only the one virtual draw per pairing (BayesElo's prior) gives it \
                 a number. Read it as \"above (or below) every agent on the other side\", not \
                 as a distance.\n"
            )?;
        }
    }
    writeln!(out, "### First player (South seat)\n")?;
    writeln!(
        out,
        "South's score minus 0.5, a win 1 and a draw 1/2, with the 95% interval that takes \
         the seat-swapped pair as the cluster.\n"
    )?;
    writeln!(
        out,
        "| setting | group | games | advantage | advantage, every pair counted | normal endings only |"
    )?;
    writeln!(out, "|---|---|--:|---|---|---|")?;
    for s in &summary.settings {
        for r in &s.first_player {
            if matches!(r.scope, crate::stats::first_player::Scope::Pairing { .. }) {
                continue;
            }
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                s.setting,
                r.scope.label(),
                r.games.games,
                signed_interval(&r.advantage),
                if r.games.repeated() {
                    signed_interval(&r.advantage_all_pairs)
                } else {
                    "same (no repeats)".to_string()
                },
                if r.games.games_normal == 0 {
                    "no games".to_string()
                } else {
                    signed_interval(&r.advantage_normal)
                }
            )?;
        }
    }
    writeln!(out)?;
    writeln!(out, "### Length and endings\n")?;
    writeln!(
        out,
        "| setting | games | median plies | mean | 90th percentile | normal | settled by a stall rule |"
    )?;
    writeln!(out, "|---|--:|--:|--:|--:|--:|---|")?;
    for s in &summary.settings {
        let l = &s.length;
        let stalled = l.endings.stalled();
        writeln!(
            out,
            "| {} | {} | {:.1} | {:.1} | {} | {} | {} |",
            s.setting,
            l.games,
            l.median,
            l.mean,
            l.p90,
            l.endings.normal,
            percent(&crate::stats::wilson(
                stalled as f64,
                l.games,
                crate::stats::wilson::Z95
            ))
        )?;
    }
    writeln!(
        out,
        "\nThe share settled by a stall rule carries a per-game 95% Wilson interval.\n"
    )
}

/// Forfeits per agent and reason: games lost by an agent in another process
/// that crashed, hung, broke the protocol or named an illegal move.
fn write_forfeits(out: &mut impl Write, forfeits: &[AgentForfeits]) -> io::Result<()> {
    if forfeits.is_empty() {
        return Ok(());
    }
    writeln!(out, "## Forfeits\n")?;
    writeln!(
        out,
        "Games lost by forfeit (ending `forfeit-crash`, `-timeout`, `-protocol`, \
         `-illegal` in `games.csv`; the agent at fault loses, captures stand as they were; \
         its standard error is in `agents/NAME.stderr.log`). Forfeited games count in \
         the scores below but in none of the ending columns.\n"
    )?;
    writeln!(out, "| agent | crash | timeout | protocol | illegal |")?;
    writeln!(out, "|---|---|---|---|---|")?;
    for f in forfeits {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            f.agent, f.crash, f.timeout, f.protocol, f.illegal
        )?;
    }
    writeln!(out)
}

fn write_caveats(out: &mut impl Write, summary: &Summary) -> io::Result<()> {
    writeln!(out, "## Caveats\n")?;
    if summary.caveats.is_empty() {
        writeln!(
            out,
            "None found: no setting or group had more than a fifth of its games settled by a \
             stall rule, no game ended inside its opening, no game was played twice, and every \
             group had at least {THIN_UNITS} independent pairs.\n"
        )?;
    }
    // Most severe first (see `caveats`).
    for caveat in &summary.caveats {
        writeln!(out, "- {}", caveat.text())?;
    }
    if !summary.caveats.is_empty() {
        writeln!(out)?;
    }
    for table in summary.caveats.iter().filter_map(|c| c.table()) {
        writeln!(out, "{table}")?;
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
        "- The unit of sampling is the seat-swapped pair, not the game: both games of a pair \
         start from the same opening, so their results are correlated. A pair (or a game \
         without a partner) whose moves repeat an earlier one of the same agents is counted \
         once (games are told apart by the hash of their moves); the tables say how many games \
         and pairs were distinct, and the first-player tables also give the advantage with \
         every pair counted as often as it was played. A game that ended inside its random \
         opening, before any agent moved, is left out of every figure of the agents (the \
         caveats say how many, and give South's advantage over every opening with those games \
         counted: each is the exact result of its opening)."
    )?;
    writeln!(
        out,
        "- Pairings, the headline: the score (a win 1, a draw 1/2) with its 95% interval from \
         the pentanomial counts of the pairs (the pairs that scored 0, 1/2, 1, 3/2 and 2 \
         points for the first agent), by the normal approximation on the mean pair score and \
         its variance, as fastchess and Fishtest compute it; from the trinomial counts of the \
         games when no pair is complete. Elo is the logistic difference \
         `-400 log10(1/score - 1)`; nElo, normalized Elo, divides the score's distance from \
         1/2 by its per-pair standard deviation (Fishtest); LOS is the likelihood that the \
         first agent is the stronger."
    )?;
    writeln!(
        out,
        "- First-player advantage is South's score minus 0.5, with a 95% interval that takes \
         the pair as the cluster (a cluster-robust variance), self-play pairs too."
    )?;
    writeln!(
        out,
        "- Per-game intervals are 95% Wilson score intervals (E. B. Wilson, JASA 1927) that \
         take each game as an independent trial: they are kept, labelled \"per game\", for \
         comparison with other tools, and they are wrong in both directions here (too wide \
         for scores, where the swapped seats cancel, and too narrow for the first-player \
         advantage, where the shared opening favours the same seat twice)."
    )?;
    writeln!(
        out,
        "- Endings are named as in `games.csv`: `normal` (the last seeds were taken), \
         `repetition` and `no-capture-limit` (stall rules{}). The columns \"normal endings \
         only\" give the same figures over the games that ended normally; a pair with one \
         stalled game keeps its other game as a game without a partner.",
        match summary.no_capture_limit {
            Some(limit) => format!("; the limit was {limit} plies"),
            None => String::new(),
        }
    )?;
    writeln!(
        out,
        "- Ludii's AdvantageP1 is South's mean result with draws as half wins, and its \
         Balance is 1 minus the gap between the two seats' results (1 = even), both written \
         exactly from the counts; see Ludii's `metrics/single/outcome/AdvantageP1.java` and \
         `Balance.java`."
    )?;
    writeln!(
        out,
        "- Ratings: Bradley-Terry maximum likelihood (Bradley & Terry 1952) fitted by \
         Hunter's MM algorithm (Annals of Statistics 2004), draws as half points, self-play \
         left out, on the Elo scale (400 / ln 10 per logit unit), anchored at `random` = 0 \
         when it plays, else at the first agent listed; 95% intervals from a \
         cluster-robust (sandwich) covariance with the seat-swapped pair as the cluster \
         (the information-matrix interval, which takes games as independent, stays in \
         `summary.json` as `information_low` / `information_high`).\n"
    )
}

fn write_setting(out: &mut impl Write, s: &SettingSummary) -> io::Result<()> {
    writeln!(out, "## {} ({} games)\n", s.setting, s.games)?;
    if !s.pairings.is_empty() {
        write_pairings(out, &s.pairings)?;
    }
    write_games(out, &s.first_player)?;
    write_first_player(out, &s.first_player)?;
    if let Some(table) = &s.ratings {
        write_rating_notes(out, &s.setting, table)?;
    }
    let l = &s.length;
    writeln!(out, "### Game length (plies)\n")?;
    writeln!(out, "| games | mean | median | 90th percentile | max |")?;
    writeln!(out, "|--:|--:|--:|--:|--:|")?;
    writeln!(
        out,
        "| {} | {:.1} | {:.1} | {} | {} |\n",
        l.games, l.mean, l.median, l.p90, l.max
    )
}

fn write_pairings(out: &mut impl Write, pairings: &[PairingStats]) -> io::Result<()> {
    writeln!(out, "### Pairings\n")?;
    writeln!(
        out,
        "| agent | opponent | pairs | score | 95% interval | Elo | nElo | LOS | pairs 0 / ½ / 1 / 1½ / 2 | score, normal endings only | unpaired games |"
    )?;
    writeln!(out, "|---|---|--:|--:|---|---|---|--:|---|---|--:|")?;
    for p in pairings {
        let penta: Vec<String> = p.pentanomial.0.iter().map(u64::to_string).collect();
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            p.agent,
            p.opponent,
            headline(p.estimate.as_ref()),
            penta.join(" / "),
            score(&p.score_normal, p.games.games_normal),
            p.games.unpaired_games
        )?;
    }
    writeln!(out)?;
    let no_nelo = |p: &&PairingStats| p.estimate.as_ref().is_some_and(|e| e.nelo.is_none());
    if pairings.iter().any(|p| no_nelo(&p)) {
        writeln!(
            out,
            "nElo is `{NELO_NOTE_CELL}` where {NELO_MISSING_WHY}: nElo divides the score's \
             distance from 1/2 by the pairs' spread, and is given only where the normal \
             interval holds.\n"
        )?;
    }
    writeln!(out, "Per game, for comparison:\n")?;
    writeln!(
        out,
        "| agent | opponent | games | distinct games | wins | draws | losses | score | 95% interval, per game |"
    )?;
    writeln!(out, "|---|---|--:|--:|--:|--:|--:|--:|---|")?;
    for p in pairings {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {:.3} | {} |",
            p.agent,
            p.opponent,
            p.games.games,
            p.games.distinct_games,
            p.wdl.wins,
            p.wdl.draws,
            p.wdl.losses,
            p.score_wilson.value,
            interval(&p.score_wilson),
        )?;
    }
    writeln!(out)
}

fn write_games(out: &mut impl Write, rows: &[SeatStats]) -> io::Result<()> {
    writeln!(out, "### Games and how they ended\n")?;
    writeln!(
        out,
        "| group | played | distinct games | pairs (distinct) | normal | repetition | no-capture-limit | settled by a stall rule |"
    )?;
    writeln!(out, "|---|--:|--:|--:|--:|--:|--:|--:|")?;
    for r in rows {
        let g = &r.games;
        writeln!(
            out,
            "| {} | {} | {} | {} ({}) | {} | {} | {} | {:.1}% |",
            r.scope.label(),
            g.games,
            g.distinct_games,
            g.pairs,
            g.distinct_pairs,
            g.endings.normal,
            g.endings.repetition,
            g.endings.no_capture_limit,
            100.0 * g.endings.stalled() as f64 / g.games.max(1) as f64
        )?;
    }
    writeln!(out)
}

fn write_first_player(out: &mut impl Write, rows: &[SeatStats]) -> io::Result<()> {
    writeln!(out, "### First player (South seat)\n")?;
    writeln!(
        out,
        "| games (count) | S wins | draws | N wins | S win rate | draw rate | S loss rate | advantage (S score − 0.5) | advantage, normal endings only | advantage, per game | AdvantageP1 | Balance |"
    )?;
    writeln!(out, "|---|--:|--:|--:|---|---|---|---|---|---|--:|--:|")?;
    for r in rows {
        let n = r.south_wins + r.draws + r.north_wins;
        writeln!(
            out,
            "| {} ({}) | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.scope.label(),
            r.games.games,
            r.south_wins,
            r.draws,
            r.north_wins,
            percent(&r.south_win_rate),
            percent(&r.draw_rate),
            percent(&r.south_loss_rate),
            signed_interval(&r.advantage),
            if r.games.games_normal == 0 {
                "no games".to_string()
            } else {
                signed_interval(&r.advantage_normal)
            },
            signed_interval(&r.advantage_wilson),
            ratio(2 * r.south_wins + r.draws, 2 * n),
            ratio(n - r.south_wins.abs_diff(r.north_wins), n)
        )?;
    }
    writeln!(
        out,
        "\nWin, draw and loss rates carry per-game 95% Wilson intervals.\n"
    )
}

/// What the ratings table of the answer leaves out for one setting: the
/// prior, and the agents that could not be rated.
fn write_rating_notes(out: &mut impl Write, setting: &Setting, t: &RatingTable) -> io::Result<()> {
    if !t.virtual_draws && t.unrated.is_empty() {
        return Ok(());
    }
    writeln!(out, "### Ratings ({setting}, {} = 0)\n", t.anchor)?;
    if t.virtual_draws {
        writeln!(
            out,
            "Some agent won or lost every game against the rest, so the plain maximum-likelihood \
             fit is infinite; one virtual draw was added to each pairing that played \
             (as BayesElo's prior does).\n"
        )?;
    }
    if !t.unrated.is_empty() {
        writeln!(
            out,
            "Not rated (no games linking them to {}): {}.\n",
            t.anchor,
            t.unrated.join(", ")
        )?;
    }
    Ok(())
}

/// The nElo cell of a pairing that has none: the note under the table says
/// why.
const NELO_NOTE_CELL: &str = "- (see below)";

/// The headline cells of a pairing: units, score, interval, Elo, nElo, LOS.
fn headline(estimate: Option<&ScoreEstimate>) -> String {
    let Some(e) = estimate else {
        return "none | - | - | - | - | -".to_string();
    };
    let units = match e.unit {
        SampleUnit::Pair => e.units.to_string(),
        SampleUnit::Game => format!("none ({} games)", e.units),
    };
    format!(
        "{units} | {:.3} | {} | {} | {} | {:.1}%",
        e.score.value,
        interval(&e.score),
        elo(&e.elo),
        e.nelo.as_ref().map_or(NELO_NOTE_CELL.to_string(), elo),
        100.0 * e.los
    )
}

/// `+123 [+80, +166]`.
fn elo(p: &Interval) -> String {
    if p.value == f64::INFINITY {
        format!("+inf (>= {})", signed(p.low, 0))
    } else if p.value == f64::NEG_INFINITY {
        format!("-inf (<= {})", signed(p.high, 0))
    } else {
        format!(
            "{} [{}, {}]",
            signed(p.value, 0),
            signed(p.low, 0),
            signed(p.high, 0)
        )
    }
}

/// `0.512 [0.430, 0.594] (96 games)`, or `no games`.
fn score(p: &Proportion, games: u64) -> String {
    if games == 0 {
        return "no games".to_string();
    }
    format!("{:.3} {} ({games} games)", p.value, interval(p))
}

/// `[low, high]` to three decimals, more where rounding would hide the
/// width; `(no interval: every unit alike)` where it has none.
fn interval(p: &Proportion) -> String {
    match decimals_showing(p.low, p.high, 3, decimal) {
        Some(d) => format!("[{}, {}]", decimal(p.low, d), decimal(p.high, d)),
        None => format!("(no interval: {UNITS_ALIKE})"),
    }
}

/// `61.0% [55.2, 66.5]`, with more decimals where rounding would hide the
/// width.
fn percent(p: &Proportion) -> String {
    let write = |x: f64, d: usize| format!("{:.d$}", 100.0 * x);
    match decimals_showing(p.low, p.high, 1, write) {
        Some(d) => format!(
            "{}% [{}, {}]",
            write(p.value, d),
            write(p.low, d),
            write(p.high, d)
        ),
        None => format!("{}% (no interval: {UNITS_ALIKE})", write(p.value, 1)),
    }
}
