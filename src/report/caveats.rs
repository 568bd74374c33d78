//! The caveats a careful referee would state right after the answer, found
//! automatically from the statistics and ranked by how much they can change
//! a conclusion: an unfinished run; settings and groups where stall rules,
//! not play, settled more than a fifth of the games; games that ended inside
//! their random opening, before any agent moved (left out of the agents'
//! figures, and what leaving them out does to South's advantage);
//! groups that played the same games again; and samples too thin for their
//! normal intervals. Each is stated once, with every cell it concerns.
//!
//! An interval that includes the value of no difference is a reading of a
//! table, not a caveat: the tables show the interval, and the reader sees it.

use serde::Serialize;

use crate::stats::first_player::Scope;
use crate::stats::pairing::GroupGames;
use crate::stats::setting::Setting;
use crate::stats::wilson::Proportion;

use super::format::{signed, signed_interval};
use super::setting_summary::SettingSummary;

/// Fewer independent units (pairs, or games without a partner) than this
/// make a thin sample: the normal intervals are somewhat narrow below about
/// 30 clusters (Cameron & Miller 2015 advise a t quantile there), and one
/// pair more or less can turn a sign.
pub const THIN_UNITS: u64 = 30;

/// One caveat, as written in `summary.json` (tagged by `kind`), in the order
/// of severity.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Caveat {
    /// The run stopped before its planned games (and not by its SPRT): every
    /// figure is of the games played so far.
    Incomplete {
        /// Games in the file.
        games: u64,
        /// Games the experiment plans.
        planned: u64,
    },
    /// Stall rules (repetition or the no-capture limit) settled more than a
    /// fifth of the games of these cells.
    StallRules {
        /// The settings (all games) and groups concerned.
        cells: Vec<StallCell>,
    },
    /// Games ended by adjudication (`[adjudication]`): their lengths stop at
    /// the adjudication, and the margins of those adjudicated as decided
    /// are lower bounds.
    Adjudicated {
        /// The settings concerned.
        cells: Vec<AdjudicatedCell>,
    },
    /// Games ended inside their random opening: no agent moved in them, and
    /// every figure leaves them out.
    OpeningEnded {
        /// The settings concerned.
        cells: Vec<OpeningCell>,
    },
    /// Groups that played some games more than once.
    RepeatedGames {
        /// The groups concerned.
        cells: Vec<RepeatCell>,
    },
    /// Groups with fewer than [`THIN_UNITS`] independent units.
    ThinSample {
        /// The groups concerned.
        cells: Vec<ThinCell>,
    },
}

/// A setting or group where stall rules settled more than a fifth of the
/// games.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StallCell {
    /// Variant and board.
    pub setting: Setting,
    /// The agents: none for all games of the setting, two for a pairing, one
    /// for self-play.
    pub agents: Vec<String>,
    /// Games played.
    pub games: u64,
    /// Games settled by repetition.
    pub repetition: u64,
    /// Games settled by the no-capture limit.
    #[serde(rename = "no-capture-limit")]
    pub no_capture_limit: u64,
}

/// A setting some of whose games were adjudicated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AdjudicatedCell {
    /// Variant and board.
    pub setting: Setting,
    /// Games played.
    pub games: u64,
    /// Games ended by the endgame tables.
    pub tablebase: u64,
    /// Games ended as decided.
    pub decided: u64,
}

/// A setting some of whose games ended inside the random opening.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpeningCell {
    /// Variant and board.
    pub setting: Setting,
    /// Games played, those that ended inside the opening included.
    pub games: u64,
    /// Games that ended inside the opening.
    pub opening_ended: u64,
    /// Each group with such games, with South's advantage both ways.
    pub lines: Vec<OpeningLine>,
}

/// One group's games that ended inside the opening, and what leaving them
/// out does to its first-player advantage.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpeningLine {
    /// The agents: two for a pairing, one for self-play.
    pub agents: Vec<String>,
    /// Games that ended inside the opening.
    pub opening_ended: u64,
    /// How many of them adjudication ended (the rest the rules did).
    pub adjudicated: u64,
    /// South's advantage over the games the agents played (the headline).
    pub advantage: Proportion,
    /// Over every opening, those games included with their exact result.
    pub all_openings: Proportion,
    /// Over the games that ended inside the opening alone.
    pub opening_ended_advantage: Proportion,
}

/// A group that played some games more than once, with its first-player
/// advantage counted both ways.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RepeatCell {
    /// Variant and board.
    pub setting: Setting,
    /// The agents: two for a pairing, one for self-play.
    pub agents: Vec<String>,
    /// Games played.
    pub games: u64,
    /// Different games among them.
    pub distinct_games: u64,
    /// Complete pairs played.
    pub pairs: u64,
    /// Different pairs among them.
    pub distinct_pairs: u64,
    /// First-player advantage over the distinct units (the headline).
    pub advantage: Proportion,
    /// The same over every pair, repeats counted as often as played.
    pub advantage_all_pairs: Proportion,
}

/// A group with fewer than [`THIN_UNITS`] independent units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThinCell {
    /// Variant and board.
    pub setting: Setting,
    /// The agents: two for a pairing, one for self-play.
    pub agents: Vec<String>,
    /// Independent units behind its headline: distinct pairs, or games when
    /// no pair is complete.
    pub units: u64,
}

/// The agents of a first-player line: none for all games.
fn scope_agents(scope: &Scope) -> Vec<String> {
    match scope {
        Scope::AllGames => Vec::new(),
        Scope::Pairing { agent, opponent } => vec![agent.clone(), opponent.clone()],
        Scope::SelfPlay { agent } => vec![agent.clone()],
    }
}

/// The distinct units of a group: its distinct pairs and the games without
/// a partner.
fn units(g: &GroupGames) -> u64 {
    g.distinct_pairs + g.unpaired_games
}

/// Every caveat of the settings, most severe first; the run's completeness
/// is added by the caller, which knows the plan.
pub fn caveats(settings: &[SettingSummary]) -> Vec<Caveat> {
    let mut stalls = Vec::new();
    let mut openings = Vec::new();
    let mut adjudicated = Vec::new();
    let mut repeats = Vec::new();
    let mut thin = Vec::new();
    for s in settings {
        let setting = s.setting;
        let mut opening_lines = Vec::new();
        for r in &s.first_player {
            let g: &GroupGames = &r.games;
            if g.endings.much_stalled() {
                stalls.push(StallCell {
                    setting,
                    agents: scope_agents(&r.scope),
                    games: g.games,
                    repetition: g.endings.repetition,
                    no_capture_limit: g.endings.no_capture_limit,
                });
            }
            if r.scope == Scope::AllGames {
                continue;
            }
            if let (Some(all), Some(ended)) = (r.advantage_all_openings, r.advantage_opening_ended)
            {
                opening_lines.push(OpeningLine {
                    agents: scope_agents(&r.scope),
                    opening_ended: g.opening_ended,
                    adjudicated: r.opening_ended_adjudicated.unwrap_or(0),
                    advantage: r.advantage,
                    all_openings: all,
                    opening_ended_advantage: ended,
                });
            }
            if g.repeated() {
                repeats.push(RepeatCell {
                    setting,
                    agents: scope_agents(&r.scope),
                    games: g.games,
                    distinct_games: g.distinct_games,
                    pairs: g.pairs,
                    distinct_pairs: g.distinct_pairs,
                    advantage: r.advantage,
                    advantage_all_pairs: r.advantage_all_pairs,
                });
            }
            if let Scope::SelfPlay { agent } = &r.scope {
                if g.games > 0 && units(g) < THIN_UNITS {
                    thin.push(ThinCell {
                        setting,
                        agents: vec![agent.clone()],
                        units: units(g),
                    });
                }
            }
        }
        for p in &s.pairings {
            let units = p.estimate.map_or(0, |e| e.units);
            if p.games.games > 0 && units < THIN_UNITS {
                thin.push(ThinCell {
                    setting,
                    agents: vec![p.agent.clone(), p.opponent.clone()],
                    units,
                });
            }
        }
        if let Some(all) = s.first_player.iter().find(|r| r.scope == Scope::AllGames) {
            let e = &all.games.endings;
            if e.tablebase + e.decided > 0 {
                adjudicated.push(AdjudicatedCell {
                    setting,
                    games: all.games.games,
                    tablebase: e.tablebase,
                    decided: e.decided,
                });
            }
        }
        if s.opening_ended > 0 {
            openings.push(OpeningCell {
                setting,
                games: s.games,
                opening_ended: s.opening_ended,
                lines: opening_lines,
            });
        }
    }
    let mut out = Vec::new();
    if !stalls.is_empty() {
        out.push(Caveat::StallRules { cells: stalls });
    }
    if !adjudicated.is_empty() {
        out.push(Caveat::Adjudicated { cells: adjudicated });
    }
    if !openings.is_empty() {
        out.push(Caveat::OpeningEnded { cells: openings });
    }
    if !repeats.is_empty() {
        out.push(Caveat::RepeatedGames { cells: repeats });
    }
    if !thin.is_empty() {
        out.push(Caveat::ThinSample { cells: thin });
    }
    out
}

/// `1 group` or `N groups`.
fn groups(n: usize) -> String {
    match n {
        1 => "1 group".to_string(),
        n => format!("{n} groups"),
    }
}

/// The groups that played games more than once, in three kinds: where the
/// repetition changes a figure (the two weightings of the first-player
/// advantage differ to three decimals, or one interval leaves out 0 and
/// the other does not: a few units fewer only narrows it); one deterministic
/// agent's self-play whose only repeats are a pair's two games, alike by
/// design; and the rest, where both weightings agree.
fn repeat_kinds(cells: &[RepeatCell]) -> (Vec<&RepeatCell>, Vec<&RepeatCell>, Vec<&RepeatCell>) {
    let value = |p: &Proportion| signed(p.value, 3);
    let sign = |p: &Proportion| (p.low > 0.0, p.high < 0.0);
    let (mut changed, mut twins, mut alike) = (Vec::new(), Vec::new(), Vec::new());
    for c in cells {
        if value(&c.advantage) != value(&c.advantage_all_pairs)
            || sign(&c.advantage) != sign(&c.advantage_all_pairs)
        {
            changed.push(c);
        } else if c.agents.len() == 1
            && c.distinct_pairs == c.pairs
            && c.distinct_games + c.pairs == c.games
        {
            twins.push(c);
        } else {
            alike.push(c);
        }
    }
    (changed, twins, alike)
}

impl Caveat {
    /// The table that goes with the caveat, below the list, if any: the
    /// groups whose figures the repetition changes, with both weightings.
    pub fn table(&self) -> Option<String> {
        let Caveat::RepeatedGames { cells } = self else {
            return None;
        };
        let (changed, _, _) = repeat_kinds(cells);
        if changed.is_empty() {
            return None;
        }
        let mut out = String::from(
            "Games played more than once, where it changes a figure:\n\n\
             | group | games (distinct) | pairs (distinct) | first-player advantage, distinct \
             pairs | counting every pair |\n|---|--:|--:|---|---|\n",
        );
        for c in changed {
            out.push_str(&format!(
                "| {} | {} ({}) | {} ({}) | {} | {} |\n",
                cell_label(&c.setting, &c.agents),
                c.games,
                c.distinct_games,
                c.pairs,
                c.distinct_pairs,
                signed_interval(&c.advantage),
                signed_interval(&c.advantage_all_pairs)
            ));
        }
        Some(out)
    }
}

/// `i 2x6 s4 a vs b`, `i 2x6 s4 a self-play`, or `i 2x6 s4 all games`.
fn cell_label(setting: &Setting, agents: &[String]) -> String {
    match agents {
        [] => format!("{setting} all games"),
        [agent] => format!("{setting} {agent} self-play"),
        [agent, opponent, ..] => format!("{setting} {agent} vs {opponent}"),
    }
}

/// `12.3%` of `part / whole`.
fn share(part: u64, whole: u64) -> String {
    format!("{:.1}%", 100.0 * part as f64 / whole.max(1) as f64)
}

impl Caveat {
    /// The caveat as one paragraph of the report.
    pub fn text(&self) -> String {
        match self {
            Caveat::Incomplete { games, planned } => format!(
                "**The run is incomplete: {games} of {planned} planned games.** Every figure \
                 is of the games played so far; resume the run to finish it."
            ),
            Caveat::StallRules { cells } => {
                let listed: Vec<String> = cells
                    .iter()
                    .map(|c| {
                        let stalled = c.repetition + c.no_capture_limit;
                        format!(
                            "{} {stalled} of {} ({}; repetition {}, no-capture-limit {})",
                            cell_label(&c.setting, &c.agents),
                            c.games,
                            share(stalled, c.games),
                            c.repetition,
                            c.no_capture_limit
                        )
                    })
                    .collect();
                format!(
                    "**Stall rules, not play to the end, settled more than a fifth of the \
                     games** in: {}. There the scores and advantages say how the stall rules \
                     share the seeds as much as who plays better; see the figures among games \
                     that ended normally.",
                    listed.join("; ")
                )
            }
            Caveat::Adjudicated { cells } => {
                let listed: Vec<String> = cells
                    .iter()
                    .map(|c| {
                        format!(
                            "{} {} of {} by the tables, {} as decided",
                            c.setting, c.tablebase, c.games, c.decided
                        )
                    })
                    .collect();
                let decided = cells.iter().any(|c| c.decided > 0);
                format!(
                    "**Games were ended by adjudication**: {}. Their lengths stop where \
                     they were adjudicated, so game lengths are shorter than play to the \
                     end{}.",
                    listed.join("; "),
                    if decided {
                        "; the margins (captures, scores by seeds) of games adjudicated as \
                         decided are lower bounds: the winner is exact, the margin could \
                         only have grown"
                    } else {
                        ""
                    }
                )
            }
            Caveat::OpeningEnded { cells } => {
                let listed: Vec<String> = cells
                    .iter()
                    .map(|c| {
                        format!(
                            "{} {} of {} ({})",
                            c.setting,
                            c.opening_ended,
                            c.games,
                            share(c.opening_ended, c.games)
                        )
                    })
                    .collect();
                let lines: Vec<String> = cells
                    .iter()
                    .flat_map(|c| c.lines.iter().map(move |l| (c, l)))
                    .map(|(c, l)| {
                        format!(
                            "{}: {} over every opening, {} over the games played, {} over \
                             the {} that ended in the opening ({} of them adjudicated)",
                            cell_label(&c.setting, &l.agents),
                            signed_interval(&l.all_openings),
                            signed_interval(&l.advantage),
                            signed_interval(&l.opening_ended_advantage),
                            l.opening_ended,
                            l.adjudicated
                        )
                    })
                    .collect();
                format!(
                    "**Games that ended inside their random opening, before any agent moved, \
                     are left out of the agents' figures**: {}. They say nothing about the \
                     agents, but each is the exact result of its opening: the rules ended it \
                     during the random plies, or adjudication did (the endgame tables' perfect \
                     play, or a winner that can no longer change). So the figures of the games \
                     played are of a selection of the openings, those that leave the game \
                     undecided; South's advantage over every opening, these games included \
                     with their result, shows what the selection does: {}.",
                    listed.join("; "),
                    lines.join("; ")
                )
            }
            Caveat::RepeatedGames { cells } => {
                let (changed, twins, alike) = repeat_kinds(cells);
                let mut text = "**Some games were played more than once.** The headline \
                                figures count each distinct pair once; counting every pair as \
                                often as its opening was drawn estimates the same quantity \
                                weighted by how often the openings occur, and where the two \
                                disagree in sign the data do not settle it."
                    .to_string();
                if !changed.is_empty() {
                    text.push_str(&format!(
                        " The repetition changes a figure in {} (the table below gives both).",
                        groups(changed.len())
                    ));
                }
                let labels = |list: &[&RepeatCell]| {
                    let names: Vec<String> = list
                        .iter()
                        .map(|c| cell_label(&c.setting, &c.agents))
                        .collect();
                    names.join(", ")
                };
                if !twins.is_empty() {
                    text.push_str(&format!(
                        " It changes no figure in {} of one deterministic agent's self-play, \
                         whose two games of a pair are one game by design: {}.",
                        groups(twins.len()),
                        labels(&twins)
                    ));
                }
                if !alike.is_empty() {
                    text.push_str(&format!(
                        " Both weightings agree to three decimals, on the same side of 0, in {}{}: {}.",
                        groups(alike.len()),
                        if twins.is_empty() { "" } else { " more" },
                        labels(&alike)
                    ));
                }
                text
            }
            Caveat::ThinSample { cells } => {
                let listed: Vec<String> = cells
                    .iter()
                    .map(|c| {
                        let unit = if c.units == 1 { "unit" } else { "units" };
                        format!("{} ({} {unit})", cell_label(&c.setting, &c.agents), c.units)
                    })
                    .collect();
                format!(
                    "**Thin samples**, fewer than {THIN_UNITS} independent pairs (or games \
                     without a partner): their normal intervals are somewhat too narrow and one \
                     pair can turn a sign: {}.",
                    listed.join("; ")
                )
            }
        }
    }
}
