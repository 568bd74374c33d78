//! The skill study (`hoyito skill`): what a deeper search is worth on each
//! board, from the games of ladder runs (`format = "ladder"`).
//!
//! Each run directory's `games.csv` is counted and checked as a report
//! counts it, and each of its variants and boards gives one ladder: the
//! steps between adjacent rungs, the spans of one search (depth, nodes,
//! playouts: `stats/skill.rs`), the skill chain, the ratings from
//! the lowest rung, and Ludii's SkillTrace where the ladder doubles a UCT's
//! playouts (`stats/skill_trace.rs`). It writes `skill.json` (every
//! figure), `skill.md` (the tables) and the chart of the Elo gained per
//! rung of depth against the board, one line per variant.

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;
use thiserror::Error;

use crate::agents::spec::AgentSpec;
use crate::engine::rules::Variant;
use crate::records::run_files::{EXPERIMENT_FILE, GAMES_FILE, TIMINGS_FILE};
use crate::stats::elo::{Interval, ScoreEstimate};
use crate::stats::outcomes::Pentanomial;
use crate::stats::pairing::pairings;
use crate::stats::skill::{skill_chain, spans, summed_elo, Separation, Span, Step, StepKind};
use crate::stats::skill_trace::{skill_trace, SkillTrace};
use crate::stats::wilson::Proportion;
use crate::tournament::config::error::ConfigError;
use crate::tournament::config::experiment::Experiment;
use crate::tournament::config::tournament_config::Format;
use crate::tournament::timings::read_timings;

use super::charts::skill_chart::{draw_elo_per_rung, RungSeries};
use super::error::ReportError;
use super::format::{fixed, signed};
use super::games_csv::tally_games_csv;

/// What can stop a skill study.
#[derive(Debug, Error)]
pub enum SkillError {
    /// A run's `experiment.toml` does not read (the error names the file).
    #[error(transparent)]
    Experiment(ConfigError),
    /// A run is not a ladder.
    #[error("{} is a {format} run, not a ladder (`format = \"ladder\"`)", dir.display())]
    NotLadder {
        /// The run's directory.
        dir: PathBuf,
        /// Its format.
        format: Format,
    },
    /// A run's games do not read.
    #[error(transparent)]
    Games(#[from] ReportError),
    /// Two adjacent rungs have no complete seat-swapped pair on a board.
    #[error(
        "{}: {upper} and {lower} have no complete seat-swapped pair on {setting}: \
         let the run finish (run it again to resume)",
        dir.display()
    )]
    NoPair {
        /// The run's directory.
        dir: PathBuf,
        /// Variant and board.
        setting: String,
        /// The upper rung.
        upper: String,
        /// The lower rung.
        lower: String,
    },
    /// A run's `timings.csv` does not read.
    #[error("{}, line {line}: {message}", path.display())]
    Timings {
        /// The file.
        path: PathBuf,
        /// The line, counted from 1 (the header is line 1).
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// No run was given.
    #[error("no run directory given")]
    NoRun,
    /// A file could not be written.
    #[error("cannot write {}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The chart could not be drawn.
    #[error("chart {}: {message}", path.display())]
    Chart {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
}

/// One run of the study.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StudyRun {
    /// The experiment's name.
    pub name: String,
    /// Its directory, as given.
    pub dir: String,
    /// Games counted.
    pub games: u64,
    /// Seat-swapped pairs planned per step, variant and board.
    pub pairs_per_step: u64,
    /// Uniformly random plies before the agents move (0 with a book).
    pub random_plies: u32,
    /// Whether a book gave the openings.
    pub book: bool,
    /// Whether a game ended once one side held more than half of the seeds.
    pub decided: bool,
    /// The rungs, lowest first.
    pub rungs: Vec<String>,
    /// What the run cost, from its `timings.csv` (`None` without one).
    pub cost: Option<RunCost>,
}

/// What a run cost, summed over its sittings (a resumed run appends rows).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunCost {
    /// Wall-clock seconds, summed over the sittings.
    pub wall_seconds: f64,
    /// The most worker threads of a sitting.
    pub threads: u64,
    /// Worker seconds, summed over every block: the CPU time of the games.
    pub worker_seconds: f64,
    /// Worker seconds per variant and board, in the order first met.
    pub boards: Vec<BoardCost>,
}

/// Worker seconds of one variant and board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardCost {
    /// Which Hoyito.
    pub variant: String,
    /// Holes per row.
    pub holes: u8,
    /// Worker seconds of its games.
    pub worker_seconds: f64,
}

/// The cost of the run in `dir` from its `timings.csv`; `None` when there
/// is none, an error naming the file and line when it does not read.
pub fn read_cost(dir: &Path) -> Result<Option<RunCost>, SkillError> {
    let path = dir.join(TIMINGS_FILE);
    if !path.exists() {
        return Ok(None);
    }
    let rows = read_timings(&path).map_err(|(line, message)| SkillError::Timings {
        path: path.clone(),
        line,
        message,
    })?;
    let mut cost = RunCost {
        wall_seconds: 0.0,
        threads: 0,
        worker_seconds: 0.0,
        boards: Vec::new(),
    };
    let mut sittings: Vec<u64> = Vec::new();
    for row in rows {
        if !sittings.contains(&row.first_game) {
            sittings.push(row.first_game);
            cost.wall_seconds += row.wall_seconds;
        }
        cost.threads = cost.threads.max(row.threads);
        cost.worker_seconds += row.worker_seconds;
        match cost
            .boards
            .iter_mut()
            .find(|b| b.variant == row.variant && b.holes == row.holes)
        {
            Some(b) => b.worker_seconds += row.worker_seconds,
            None => cost.boards.push(BoardCost {
                variant: row.variant,
                holes: row.holes,
                worker_seconds: row.worker_seconds,
            }),
        }
    }
    Ok(Some(cost))
}

/// One rung's rating: Elo above the ladder's lowest rung, with its 95%
/// interval (`None` past a step at an edge).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RungRating {
    /// The rung.
    pub agent: String,
    /// Elo above the lowest rung.
    pub elo: Option<Interval>,
}

/// One ladder: one run's rungs on one variant and board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ladder {
    /// The run's name.
    pub run: String,
    /// Which Hoyito.
    pub variant: Variant,
    /// Holes per row.
    pub holes: u8,
    /// The steps, lowest first.
    pub steps: Vec<Step>,
    /// The runs of steps of one search.
    pub spans: Vec<Span>,
    /// Rungs in the skill chain from the lowest (the lowest counts as one).
    pub chain: usize,
    /// Steps that tell their rungs apart at 95%.
    pub told_apart: usize,
    /// Steps whose upper rung scored below the lower at 95%.
    pub inverted: usize,
    /// Pairs played that repeated an earlier pair's moves (counted once).
    pub repeated_pairs: u64,
    /// Ratings from the lowest rung (Bradley-Terry on a chain).
    pub ratings: Vec<RungRating>,
    /// Ludii's SkillTrace, where the ladder doubles a UCT's playouts.
    pub skill_trace: Option<SkillTrace>,
}

impl Ladder {
    /// The span of `part` (`depth`, `nodes`, `playouts`), if any.
    pub fn span(&self, part: &str) -> Option<&Span> {
        self.spans.iter().find(|s| s.part == part)
    }
}

/// The whole study: its runs and every ladder.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillStudy {
    /// The runs read.
    pub runs: Vec<StudyRun>,
    /// Every ladder, in the order of the runs and their settings.
    pub ladders: Vec<Ladder>,
}

/// What one step of a ladder changes: the budget both rungs share the rest
/// of their settings with, or a link.
pub fn step_kind(lower: &AgentSpec, upper: &AgentSpec) -> StepKind {
    match (lower, upper) {
        (
            AgentSpec::Alphabeta {
                depth: d0,
                nodes: n0,
                time_ms: None,
                eval: e0,
                search: s0,
            },
            AgentSpec::Alphabeta {
                depth: d1,
                nodes: n1,
                time_ms: None,
                eval: e1,
                search: s1,
            },
        ) if e0 == e1 && s0 == s1 => match (d0, n0, d1, n1) {
            (Some(from), None, Some(to), None) if from != to => StepKind::Depth {
                from: *from,
                to: *to,
            },
            (None, Some(from), None, Some(to)) if from != to => StepKind::Nodes {
                from: *from,
                to: *to,
            },
            _ => StepKind::Link,
        },
        (AgentSpec::Mcts { iterations: i0, .. }, AgentSpec::Mcts { iterations: i1, .. })
            if i0 != i1 && same_but_iterations(lower, upper) =>
        {
            StepKind::Playouts {
                from: u64::from(*i0),
                to: u64::from(*i1),
            }
        }
        _ => StepKind::Link,
    }
}

/// Whether two MCTS specs differ in their playouts alone.
fn same_but_iterations(a: &AgentSpec, b: &AgentSpec) -> bool {
    let mut b = b.clone();
    if let (AgentSpec::Mcts { iterations, .. }, AgentSpec::Mcts { iterations: to, .. }) =
        (a, &mut b)
    {
        *to = *iterations;
    }
    *a == b
}

/// The ladders of one run directory.
pub fn read_run(dir: &Path) -> Result<(StudyRun, Vec<Ladder>), SkillError> {
    let path = dir.join(EXPERIMENT_FILE);
    let experiment = Experiment::load(&path).map_err(SkillError::Experiment)?;
    if experiment.tournament.format != Format::Ladder {
        return Err(SkillError::NotLadder {
            dir: dir.to_path_buf(),
            format: experiment.tournament.format,
        });
    }
    let tally = tally_games_csv(&dir.join(GAMES_FILE))?;
    let rungs = experiment.tournament.agents.clone();
    let spec = |name: &str| experiment.roster.get(name);
    let mut ladders = Vec::new();
    for setting in tally.settings() {
        let stats = pairings(&setting, &rungs);
        let at = setting.setting();
        let mut steps = Vec::new();
        let mut repeated_pairs = 0;
        for k in 1..rungs.len() {
            let (lower, upper) = (&rungs[k - 1], &rungs[k]);
            let found = stats.iter().find_map(|p| {
                if (&p.agent, &p.opponent) == (upper, lower) {
                    Some((p, p.pentanomial))
                } else if (&p.agent, &p.opponent) == (lower, upper) {
                    Some((p, p.pentanomial.flipped()))
                } else {
                    None
                }
            });
            let no_pair = || SkillError::NoPair {
                dir: dir.to_path_buf(),
                setting: at.to_string(),
                upper: upper.clone(),
                lower: lower.clone(),
            };
            let (pairing, penta) = found.ok_or_else(no_pair)?;
            let estimate: ScoreEstimate =
                ScoreEstimate::from_pentanomial(&penta).ok_or_else(no_pair)?;
            repeated_pairs += pairing.games.pairs - pairing.games.distinct_pairs;
            let kind = match (spec(lower), spec(upper)) {
                (Some(l), Some(u)) => step_kind(l, u),
                _ => StepKind::Link,
            };
            steps.push(Step::new(upper, lower, kind, &penta, &estimate));
        }
        let (chain, told_apart) = skill_chain(&steps);
        let ratings = (0..rungs.len())
            .map(|k| RungRating {
                agent: rungs[k].clone(),
                // The lowest rung sums no step: 0 [0, 0].
                elo: summed_elo(&steps[..k]),
            })
            .collect();
        let spans = spans(&steps);
        let skill_trace = doubling_playouts(&steps).and_then(|levels| {
            let seed = u64::from(at.holes) * 16 + at.variant as u64;
            skill_trace(&levels, seed)
        });
        ladders.push(Ladder {
            run: experiment.name.clone(),
            variant: at.variant,
            holes: at.holes,
            inverted: steps
                .iter()
                .filter(|s| s.told_apart == Separation::Weaker)
                .count(),
            steps,
            spans,
            chain,
            told_apart,
            repeated_pairs,
            ratings,
            skill_trace,
        });
    }
    let run = StudyRun {
        name: experiment.name.clone(),
        dir: dir.display().to_string(),
        games: tally.games(),
        pairs_per_step: experiment.games / 2,
        random_plies: experiment.openings.random_plies,
        book: experiment.openings.book.is_some() || !experiment.openings.books.is_empty(),
        decided: experiment.adjudication.decided,
        rungs,
        cost: read_cost(dir)?,
    };
    Ok((run, ladders))
}

/// The levels of Ludii's SkillTrace: the pentanomial counts of a ladder
/// whose every step doubles a UCT's playouts, or `None`.
fn doubling_playouts(steps: &[Step]) -> Option<Vec<Pentanomial>> {
    if steps.is_empty() {
        return None;
    }
    steps
        .iter()
        .map(|s| match s.kind {
            StepKind::Playouts { from, to } if to == 2 * from => Some(s.pentanomial),
            _ => None,
        })
        .collect()
}

/// The study of several run directories.
pub fn skill_study(dirs: &[PathBuf]) -> Result<SkillStudy, SkillError> {
    if dirs.is_empty() {
        return Err(SkillError::NoRun);
    }
    let mut runs = Vec::new();
    let mut ladders = Vec::new();
    for dir in dirs {
        let (run, mut more) = read_run(dir)?;
        runs.push(run);
        ladders.append(&mut more);
    }
    ladders.sort_by_key(|l| (l.run.clone(), l.variant, l.holes));
    Ok(SkillStudy { runs, ladders })
}

/// Files written by [`write_skill_study`].
#[derive(Debug, Clone)]
pub struct SkillFiles {
    /// `skill.json`.
    pub json: PathBuf,
    /// `skill.md`.
    pub markdown: PathBuf,
    /// The chart, PNG then SVG.
    pub charts: Vec<PathBuf>,
}

/// Writes `skill.json`, `skill.md` and `charts/elo_per_rung.{png,svg}` into
/// `out` (created if missing), each file whole or not at all.
pub fn write_skill_study(study: &SkillStudy, out: &Path) -> Result<SkillFiles, SkillError> {
    let charts = out.join("charts");
    fs::create_dir_all(&charts).map_err(|source| SkillError::Write {
        path: charts.clone(),
        source,
    })?;
    let json = out.join("skill.json");
    let mut text = serde_json::to_string_pretty(study).expect("a study serializes");
    text.push('\n');
    write_whole(&json, text.as_bytes())?;
    let markdown = out.join("skill.md");
    write_whole(&markdown, skill_markdown(study).as_bytes())?;
    let series = elo_per_rung_series(study);
    let png = charts.join("elo_per_rung.png");
    let svg = charts.join("elo_per_rung.svg");
    draw_elo_per_rung(&png, &svg, &series)
        .map_err(|(path, message)| SkillError::Chart { path, message })?;
    Ok(SkillFiles {
        json,
        markdown,
        charts: vec![png, svg],
    })
}

/// Writes `bytes` to a temporary file beside `path`, then renames it.
fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), SkillError> {
    let staging = path.with_extension("partial");
    let write = |p: &Path, e| SkillError::Write {
        path: p.to_path_buf(),
        source: e,
    };
    fs::write(&staging, bytes).map_err(|e| write(&staging, e))?;
    fs::rename(&staging, path).map_err(|e| write(path, e))
}

/// The chart's series: per variant, on each board that has one, the Elo
/// per rung of its longest depth span, and of that span's upper half.
pub fn elo_per_rung_series(study: &SkillStudy) -> Vec<RungSeries> {
    Variant::ALL
        .into_iter()
        .filter_map(|variant| {
            // Per board, the longest depth span (a control that plays only
            // the upper rungs, from books, is not drawn beside the ladder).
            let mut longest: Vec<(u8, &Span)> = Vec::new();
            for l in study.ladders.iter().filter(|l| l.variant == variant) {
                let Some(span) = l.span("depth") else {
                    continue;
                };
                match longest.iter_mut().find(|(h, _)| *h == l.holes) {
                    Some(kept) if kept.1.steps < span.steps => kept.1 = span,
                    Some(_) => {}
                    None => longest.push((l.holes, span)),
                }
            }
            let mut points: Vec<(u8, Interval, Option<Interval>)> = longest
                .into_iter()
                .filter_map(|(holes, span)| Some((holes, span.per_step?, span.upper_half)))
                .collect();
            points.sort_by_key(|p| p.0);
            (!points.is_empty()).then_some((variant, points))
        })
        .collect()
}

fn elo(i: &Option<Interval>) -> String {
    match i {
        Some(i) => format!(
            "{} [{}, {}]",
            signed(i.value, 0),
            signed(i.low, 0),
            signed(i.high, 0)
        ),
        None => "unbounded (a step won every pair)".to_string(),
    }
}

fn share(p: &Proportion) -> String {
    format!(
        "{}% [{}, {}]",
        fixed(100.0 * p.value, 0),
        fixed(100.0 * p.low, 0),
        fixed(100.0 * p.high, 0)
    )
}

fn told(s: Separation) -> &'static str {
    match s {
        Separation::Stronger => "yes",
        Separation::Weaker => "inverted",
        Separation::Not => "no",
    }
}

/// `skill.md`: the study's tables.
pub fn skill_markdown(study: &SkillStudy) -> String {
    let mut md = String::new();
    md.push_str("# Skill ladders: what a deeper search is worth on each board\n\n");
    md.push_str(
        "Each rung plays the rung below it in seat-swapped pairs (both games of a pair \
         from the same opening, the agents in both seats). Figures are the upper rung's, \
         with 95% intervals; the pair is the unit. Made by `hoyito skill` from the runs' \
         `games.csv`.\n\n",
    );
    md.push_str(
        "| run | games | pairs per step | openings | games ended | rungs, lowest first |\n",
    );
    md.push_str("|---|--:|--:|---|---|---|\n");
    for run in &study.runs {
        let openings = if run.book {
            "a balanced book".to_string()
        } else {
            format!("{} uniformly random plies", run.random_plies)
        };
        let ended = if run.decided {
            "once one side held more than half of the seeds (the winner is exact)"
        } else {
            "played out"
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {openings} | {ended} | {} |",
            run.name,
            run.games,
            run.pairs_per_step,
            run.rungs.join(", ")
        );
    }
    if study.runs.iter().any(|r| r.cost.is_some()) {
        md.push_str(
            "\nWhat the runs cost (`timings.csv`): wall time summed over sittings, worker \
             (CPU) seconds of the games; charts and reports not included.\n\n\
             | run | wall | threads | CPU | CPU by board |\n|---|--:|--:|--:|---|\n",
        );
        for run in &study.runs {
            let Some(cost) = &run.cost else { continue };
            let boards: Vec<String> = cost
                .boards
                .iter()
                .map(|b| format!("{} 2x{} {}", b.variant, b.holes, duration(b.worker_seconds)))
                .collect();
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} |",
                run.name,
                duration(cost.wall_seconds),
                cost.threads,
                duration(cost.worker_seconds),
                boards.join(", ")
            );
        }
    }
    let with = |part: &str| study.ladders.iter().any(|l| l.span(part).is_some());
    if with("depth") || with("nodes") {
        md.push_str(
            "\n## Elo gained per rung\n\n\
             The depth span runs from the lowest depth to the deepest; its Elo per rung is \
             the Elo from the one to the other divided by the rungs between them, with the \
             halves below and above its middle rung beside it. The node span gives the Elo \
             per doubling of the nodes a move. The top step is the last of the span: \
             \"still gaining\" where its rungs are told apart at 95%. The chain counts the \
             rungs, from the lowest, each of which beat the one below at 95% (Lantz et al. \
             2017); \"told apart\" counts such steps in the whole ladder. Split pairs: the \
             share of pairs in which each side won one game or both drew (the pentanomial \
             DrawRatio), pooled over the depth span.\n\n",
        );
        md.push_str(
            "| variant | board | depth span | Elo per rung | lower half | upper half | top step | nodes span | Elo per doubling | top node step | chain | told apart | split pairs (depth) |\n",
        );
        md.push_str("|---|---|---|---|---|---|---|---|---|---|--:|---|---|\n");
        for l in study
            .ladders
            .iter()
            .filter(|l| l.span("depth").is_some() || l.span("nodes").is_some())
        {
            let top = |part: &str| {
                l.steps
                    .iter()
                    .rev()
                    .find(|s| s.kind.part() == Some(part))
                    .map(|s| {
                        format!(
                            "{} {}",
                            elo(&Some(s.elo)),
                            if s.told_apart == Separation::Stronger {
                                "(still gaining)"
                            } else {
                                "(not told apart)"
                            }
                        )
                    })
                    .unwrap_or_else(|| "-".into())
            };
            let (d, n) = (l.span("depth"), l.span("nodes"));
            let _ = writeln!(
                md,
                "| {} | 2x{} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} of {} | {} |",
                l.variant,
                l.holes,
                d.map_or("-".into(), |s| format!("{} → {}", s.from, s.to)),
                d.map_or("-".into(), |s| elo(&s.per_step)),
                d.map_or("-".into(), |s| format!(
                    "{} (to {})",
                    elo(&s.lower_half),
                    s.middle
                )),
                d.map_or("-".into(), |s| elo(&s.upper_half)),
                top("depth"),
                n.map_or("-".into(), |s| format!("{} → {}", s.from, s.to)),
                n.map_or("-".into(), |s| elo(&s.per_doubling)),
                top("nodes"),
                l.chain,
                l.told_apart,
                l.steps.len(),
                d.map_or("-".into(), |s| share(&s.split)),
            );
        }
        md.push_str(
            "\n![Elo gained per rung of depth against the board](charts/elo_per_rung.png)\n",
        );
    }
    if study.ladders.iter().any(|l| l.skill_trace.is_some()) {
        md.push_str(
            "\n## Ludii's SkillTrace\n\n\
             UCT against a UCT with twice the playouts, level by level; each level's result \
             is the stronger side's mean with a win 1, a draw 0 and a loss −1. Ludii fits a \
             line to the results, reads it one level past the last (clamped to [0, 1]) and \
             adds the mean positive result's share of the rest. The interval is a percentile \
             bootstrap over each level's pairs (2,000 draws).\n\n\
             | variant | board | SkillTrace | results by level | slope per level | Elo per doubling of playouts |\n\
             |---|---|---|---|---|---|\n",
        );
        for l in study.ladders.iter().filter(|l| l.skill_trace.is_some()) {
            let t = l.skill_trace.as_ref().expect("filtered");
            let results: Vec<String> = t.results.iter().map(|r| signed(*r, 2)).collect();
            let _ = writeln!(
                md,
                "| {} | 2x{} | {} [{}, {}] | {} | {} | {} |",
                l.variant,
                l.holes,
                fixed(t.value.value, 3),
                fixed(t.value.low, 3),
                fixed(t.value.high, 3),
                results.join(", "),
                signed(t.slope, 3),
                l.span("playouts")
                    .map_or("-".into(), |s| elo(&s.per_doubling)),
            );
        }
    }
    md.push_str("\n## Every step\n");
    for l in &study.ladders {
        let _ = writeln!(
            md,
            "\n### {} 2x{} ({})\n\n| upper rung | lower rung | pairs | score | Elo | split pairs | told apart | rating from {} |\n|---|---|--:|---|---|---|---|---|",
            l.variant, l.holes, l.run, l.ratings[0].agent
        );
        for (k, s) in l.steps.iter().enumerate() {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} [{}, {}] | {} | {} | {} | {} |",
                s.upper,
                s.lower,
                s.pairs,
                fixed(s.score.value, 3),
                fixed(s.score.low, 3),
                fixed(s.score.high, 3),
                elo_step(&s.elo),
                share(&s.split),
                told(s.told_apart),
                elo(&l.ratings[k + 1].elo),
            );
        }
        if l.repeated_pairs > 0 {
            let _ = writeln!(
                md,
                "\n{} pairs repeated an earlier pair's moves and are counted once.",
                l.repeated_pairs
            );
        }
    }
    md.push_str(
        "\n## How to read this\n\n\
         - Ratings are Bradley-Terry's on the Elo scale (400 / ln 10 per logit unit), \
         anchored at the ladder's lowest rung. On a ladder each rung meets only its \
         neighbours, so the fit reproduces every step's score and a rating is the sum of \
         the steps' logits below it; its interval is the delta method's on that sum, the \
         cluster-robust interval of `report.md`'s ratings. The steps count distinct pairs, \
         `report.md`'s fit every game: the two agree where no pair repeats.\n\
         - A step's score interval is the pentanomial one of `report.md` (fastchess's); its \
         Elo interval is the Elo of the score interval's ends.\n\
         - \"Still gaining\": the top step of a span still tells its rungs apart, so the \
         ladder ends before the search stops paying; a smaller gain on one board than on \
         another is then a slope, not a ceiling.\n\
         - Deterministic rungs (alpha-beta) play a pair's two games differently only \
         through the random opening; a pair that repeats an earlier one is counted once.\n",
    );
    md
}

/// Seconds as `1 h 02 min`, `3 min 04 s` or `12 s`.
fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    if s >= 3600 {
        let minutes = (s + 30) / 60;
        format!("{} h {:02} min", minutes / 60, minutes % 60)
    } else if s >= 60 {
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        format!("{s} s")
    }
}

/// A step's Elo: its interval is asymmetric (the Elo of each end of the
/// score interval), and infinite at a sweep.
fn elo_step(i: &Interval) -> String {
    if i.value.is_finite() && i.low.is_finite() && i.high.is_finite() {
        elo(&Some(*i))
    } else {
        i.text(0)
    }
}
