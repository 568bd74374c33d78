//! The caveats a careful referee would state before anyone reads the tables,
//! found automatically from the statistics: settings where stall rules, not
//! play, decided many games; groups that played the same games again, so
//! that their games are not independent trials; and figures whose interval
//! includes the value of "no difference", so that the sign of the estimate
//! says nothing.

use serde::Serialize;

use crate::stats::{GroupGames, Proportion, Scope, Setting};

use super::summary::SettingSummary;

/// One caveat, as written in `summary.json` (tagged by `kind`).
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
    /// More than a quarter of a setting's games were settled by a stall rule
    /// (repetition or the no-capture limit).
    StallRules {
        /// Variant and board.
        setting: Setting,
        /// Games of the setting.
        games: u64,
        /// Games settled by repetition.
        repetition: u64,
        /// Games settled by the no-capture limit.
        #[serde(rename = "no-capture-limit")]
        no_capture_limit: u64,
        /// The groups (pairings, self-play) where more than a quarter were.
        groups: Vec<StalledGroup>,
    },
    /// A group played some game more than once: its pair-based figures count
    /// each distinct pair once.
    RepeatedGames {
        /// Variant and board.
        setting: Setting,
        /// The agents: two for a pairing, one for self-play.
        agents: Vec<String>,
        /// Games played.
        games: u64,
        /// Different games among them.
        distinct_games: u64,
        /// Complete pairs played.
        pairs: u64,
        /// Different pairs among them.
        distinct_pairs: u64,
    },
    /// A figure's 95% interval includes the value of no difference.
    NoDirection {
        /// Variant and board.
        setting: Setting,
        /// The agents: none for all games, two for a pairing, one for
        /// self-play or a rating.
        agents: Vec<String>,
        /// Which figure.
        figure: Figure,
        /// Its estimate.
        value: f64,
        /// Lower end of its 95% interval.
        low: f64,
        /// Upper end.
        high: f64,
        /// The value of no difference inside the interval.
        null: f64,
    },
}

/// A group where stall rules settled more than a quarter of the games.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StalledGroup {
    /// The agents: two for a pairing, one for self-play.
    pub agents: Vec<String>,
    /// Games played.
    pub games: u64,
    /// Games settled by a stall rule.
    pub stalled: u64,
}

/// A figure that a caveat is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Figure {
    /// A pairing's pair-based score (and so its Elo difference).
    Score,
    /// South's score minus 0.5, pair-clustered.
    FirstPlayerAdvantage,
    /// A Bradley-Terry rating against the anchor's 0.
    Rating,
}

/// The agents of a first-player line: none for all games.
fn scope_agents(scope: &Scope) -> Vec<String> {
    match scope {
        Scope::AllGames => Vec::new(),
        Scope::Pairing { agent, opponent } => vec![agent.clone(), opponent.clone()],
        Scope::SelfPlay { agent } => vec![agent.clone()],
    }
}

/// Whether the interval includes `null` while the estimate is not `null`, so
/// that a reader might take the estimate's side for a direction.
fn undirected(p: &Proportion, null: f64) -> bool {
    p.value != null && p.low <= null && null <= p.high
}

/// Every caveat of the settings, setting by setting: stall rules, then
/// repeated games, then figures without a direction.
pub fn caveats(settings: &[SettingSummary]) -> Vec<Caveat> {
    let mut out = Vec::new();
    for s in settings {
        let setting = s.setting;
        let endings = s.length.endings;
        if endings.mostly_stalled() {
            let groups = s
                .first_player
                .iter()
                .filter(|r| r.scope != Scope::AllGames && r.games.endings.mostly_stalled())
                .map(|r| StalledGroup {
                    agents: scope_agents(&r.scope),
                    games: r.games.games,
                    stalled: r.games.endings.stalled(),
                })
                .collect();
            out.push(Caveat::StallRules {
                setting,
                games: endings.games(),
                repetition: endings.repetition,
                no_capture_limit: endings.no_capture_limit,
                groups,
            });
        }
        for r in s.first_player.iter().filter(|r| r.scope != Scope::AllGames) {
            let g: &GroupGames = &r.games;
            if g.repeated() {
                out.push(Caveat::RepeatedGames {
                    setting,
                    agents: scope_agents(&r.scope),
                    games: g.games,
                    distinct_games: g.distinct_games,
                    pairs: g.pairs,
                    distinct_pairs: g.distinct_pairs,
                });
            }
        }
        let mut undirected_figure = |agents: Vec<String>, figure, p: &Proportion, null| {
            if undirected(p, null) {
                out.push(Caveat::NoDirection {
                    setting,
                    agents,
                    figure,
                    value: p.value,
                    low: p.low,
                    high: p.high,
                    null,
                });
            }
        };
        for p in &s.pairings {
            if let Some(estimate) = &p.estimate {
                let agents = vec![p.agent.clone(), p.opponent.clone()];
                undirected_figure(agents, Figure::Score, &estimate.score, 0.5);
            }
        }
        for r in &s.first_player {
            let agents = scope_agents(&r.scope);
            undirected_figure(agents, Figure::FirstPlayerAdvantage, &r.advantage, 0.0);
        }
        for r in s.ratings.iter().flat_map(|t| &t.ratings) {
            let p = Proportion {
                value: r.elo,
                low: r.low,
                high: r.high,
            };
            undirected_figure(vec![r.agent.clone()], Figure::Rating, &p, 0.0);
        }
    }
    out
}

/// `a vs b`, `a self-play`, or `all games`.
fn group_label(agents: &[String]) -> String {
    match agents {
        [] => "all games".to_string(),
        [agent] => format!("{agent} self-play"),
        [agent, opponent, ..] => format!("{agent} vs {opponent}"),
    }
}

/// `12.3%` of `part / whole`.
fn share(part: u64, whole: u64) -> String {
    format!("{:.1}%", 100.0 * part as f64 / whole.max(1) as f64)
}

impl Caveat {
    /// The caveat as one sentence of the report.
    pub fn text(&self) -> String {
        match self {
            Caveat::Incomplete { games, planned } => format!(
                "**The run is incomplete: {games} of {planned} planned games.** Every figure \
                 is of the games played so far; resume the run to finish it."
            ),
            Caveat::StallRules {
                setting,
                games,
                repetition,
                no_capture_limit,
                groups,
            } => {
                let stalled = repetition + no_capture_limit;
                let mut text = format!(
                    "**{setting}: {stalled} of {games} games ({}) were settled by a stall rule** \
                     (repetition {repetition}, no-capture-limit {no_capture_limit}), not by play \
                     to the end",
                    share(stalled, *games)
                );
                if !groups.is_empty() {
                    let listed: Vec<String> = groups
                        .iter()
                        .map(|g| {
                            format!(
                                "{} {} of {} ({})",
                                group_label(&g.agents),
                                g.stalled,
                                g.games,
                                share(g.stalled, g.games)
                            )
                        })
                        .collect();
                    text.push_str(&format!("; most of all in {}", listed.join(", ")));
                }
                text.push_str(
                    ". Its scores and advantages say how the stall rules share the seeds as much \
                     as who plays better; see the figures among games that ended normally.",
                );
                text
            }
            Caveat::RepeatedGames {
                setting,
                agents,
                games,
                distinct_games,
                pairs,
                distinct_pairs,
            } => format!(
                "{setting}, {}: only {distinct_games} of {games} games are distinct \
                 ({distinct_pairs} of {pairs} pairs): the same games were played again, so they \
                 are not independent trials; its pair-based figures count each distinct pair once.",
                group_label(agents)
            ),
            Caveat::NoDirection {
                setting,
                agents,
                figure,
                value,
                low,
                high,
                null,
            } => {
                let (name, text) = match figure {
                    Figure::Score => (
                        "score",
                        format!("{value:.3} [{low:.3}, {high:.3}] includes {null}"),
                    ),
                    Figure::FirstPlayerAdvantage => (
                        "first-player advantage",
                        format!("{value:+.3} [{low:+.3}, {high:+.3}] includes {null}"),
                    ),
                    Figure::Rating => (
                        "rating",
                        format!("{value:+.0} [{low:+.0}, {high:+.0}] includes the anchor's {null}"),
                    ),
                };
                let who = match figure {
                    Figure::Rating => agents.join(", "),
                    _ => group_label(agents),
                };
                format!(
                    "{setting}, {who}: the {name} {text}: the data do not say which way it goes."
                )
            }
        }
    }
}
