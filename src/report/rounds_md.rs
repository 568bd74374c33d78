//! The "Matches in rounds" section of `report.md`, drawn from a
//! [`RoundsSummary`]: written only for a run in rounds, so that every other
//! report keeps its shape.

use std::io::{self, Write};

use crate::stats::outcomes::Wdl;
use crate::stats::wilson::Proportion;

use super::format::{decimal, estimate_text, UNITS_ALIKE};
use super::rounds_summary::RoundsSummary;

fn share(p: &Proportion) -> String {
    estimate_text(p.value, p.low, p.high, 3, decimal, || {
        UNITS_ALIKE.to_string()
    })
}

fn wdl(w: &Wdl) -> String {
    format!("{}-{}-{}", w.wins, w.draws, w.losses)
}

fn optional(p: Option<&Proportion>) -> String {
    p.map_or_else(|| "-".to_string(), share)
}

/// Writes the section (a `##` heading and its tables).
pub fn write_rounds(out: &mut impl Write, rounds: &RoundsSummary) -> io::Result<()> {
    writeln!(out, "## Matches in rounds (Hoyito III)\n")?;
    writeln!(
        out,
        "Every scheduled game is a match of {} rounds between the same two agents, who keep \
         their seats; South moves first in odd rounds, North in even rounds; in rounds 1 and 2 \
         the last seeds go to the capturer, from round 3 to the previous round's winner (to \
         the capturer after a drawn round). A match is won on rounds won, then on total seeds. \
         {} complete matches{}.\n",
        rounds.rounds,
        rounds.matches,
        match rounds.incomplete_matches {
            0 => String::new(),
            n => format!(" ({n} left unfinished, not scored)"),
        }
    )?;
    for setting in &rounds.settings {
        writeln!(
            out,
            "### Hoyito {} on 2x{}\n",
            setting.variant.name().to_uppercase(),
            setting.holes
        )?;
        writeln!(
            out,
            "Match score with its 95% interval over seat-swapped match pairs, beside the \
             score over single rounds (pairs of the same round of both matches), and the \
             score of the previous round's winner in round 2 (single-game end rule) and in \
             rounds 3+ (the last seeds to that winner; Wilson 95% intervals): in self-play \
             the difference is the round rule's edge.\n"
        )?;
        writeln!(
            out,
            "| agent | opponent | matches W-D-L | by seeds | match score | rounds W-D-L | round score | previous winner, round 2 | previous winner, rounds 3+ |"
        )?;
        writeln!(out, "|---|---|---|---|---|---|---|---|---|")?;
        for p in &setting.pairings {
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                p.agent,
                p.opponent,
                wdl(&p.matches),
                p.by_seeds,
                optional(p.match_score.as_ref()),
                wdl(&p.rounds),
                optional(p.round_score.as_ref()),
                optional(p.previous_winner[0].as_ref()),
                optional(p.previous_winner[1].as_ref())
            )?;
        }
        writeln!(
            out,
            "\nBalance by round number: the first mover's score, and the score of the previous \
             round's winner (rounds 1-2: last seeds to the capturer, as in single games; \
             rounds 3+: to the previous round's winner). Wilson 95% intervals.\n"
        )?;
        writeln!(
            out,
            "| round | first mover | rounds | first mover's score | after a won round | previous winner's score |"
        )?;
        writeln!(out, "|---|---|---|---|---|---|")?;
        for r in &setting.by_round {
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                r.round,
                r.first,
                r.games,
                share(&r.first_mover),
                r.after_a_win,
                optional(r.previous_winner.as_ref())
            )?;
        }
        writeln!(
            out,
            "\nThe last seeds: *decided* = giving them to nobody would change the round's \
             result; *changed by the round rule* = they went to the previous round's winner, \
             not to the capturer, and giving them to the capturer would change the result. \
             Shares of all rounds of the group, Wilson 95% intervals.\n"
        )?;
        writeln!(
            out,
            "| rounds | played | last seeds given | not to the capturer | decided | changed by the round rule |"
        )?;
        writeln!(out, "|---|---|---|---|---|---|")?;
        for l in &setting.last_seeds {
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                l.group,
                l.games,
                l.given,
                l.not_to_capturer,
                share(&l.decided),
                share(&l.changed)
            )?;
        }
        writeln!(out)?;
    }
    Ok(())
}
