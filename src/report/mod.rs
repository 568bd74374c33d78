//! Reports of a tournament: `summary.json`, `report.md` and the charts, all
//! drawn from the rows of `games.csv` (and `metrics.csv` beside it), counted
//! in one pass into a [`Tally`] so that memory does not grow with the number
//! of games. The same pass checks every row by the one validation of a
//! run's rows (`crate::tournament::RunRows`), so that no report counts a
//! row that resume would refuse. A run that wrote every row itself hands
//! over the same counts, kept as it wrote them ([`RunTallies`]), and the
//! rows are not read back.
//!
//! Everything is first written into a staging folder inside the report's
//! directory and moved into place only once every file has been written, so a
//! failure leaves no half-written report behind.

mod balance;
mod caveats;
mod charts;
pub(crate) mod error;
mod format;
pub(crate) mod games_csv;
pub mod html;
mod markdown;
mod openings_summary;
mod rounds_md;
mod rounds_summary;
pub(crate) mod run_tallies;
mod setting_summary;
pub mod skill_study;
mod sprt_summary;
mod standings;
mod summary;

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::records::record_lines::RecordFileError;
use crate::records::run_files::{EXPERIMENT_FILE, GAMES_FILE};
use crate::records::safe_file::{create_new, is_symlink};
use crate::stats::sprt::SprtDecision;
use crate::stats::tally::Tally;
use crate::tournament::config::experiment::Experiment;
use crate::tournament::row_check::RowProblem;
use crate::tournament::run_rows::{RowFiles, RunRows};
use crate::tournament::schedule::Schedule;
use html::embed::Embedded;
use html::page::{report_page, PageInput};

pub use balance::{balance_summary, write_balance, BalanceSummary, COMPARED_BOARDS};
pub use caveats::{
    caveats, Caveat, OpeningCell, OpeningLine, RepeatCell, StallCell, ThinCell, THIN_UNITS,
};
pub use charts::{
    draw_advantage, draw_heatmap, draw_lengths, draw_ratings, draw_start_values, DrawResult,
    ValueSeries,
};
pub use error::ReportError;
pub use format::{ratio, significant};
pub use games_csv::{read_games_csv, tally_games_csv, try_read_games_csv};
pub use markdown::write_markdown;
pub use openings_summary::{openings_summary, write_openings, BookUse, OpeningsSummary};
pub use rounds_md::write_rounds;
pub use rounds_summary::{
    rounds_summary, LastSeeds, MatchPairing, RoundNumber, RoundsSetting, RoundsSummary,
};
pub use run_tallies::RunTallies;
pub use setting_summary::SettingSummary;
pub use sprt_summary::{sprt_summary, write_sprt, SprtSummary};
pub use standings::{write_standings, SprtLine};
pub use summary::{summarize, write_summary, Summary, FIRST_PLAYER};

/// Where the report's files were written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportFiles {
    /// `DIR/summary.json`.
    pub summary: PathBuf,
    /// `DIR/report.md`.
    pub report: PathBuf,
    /// `DIR/report.html`: the report as a web page, with the game viewer.
    pub html: PathBuf,
    /// `DIR/charts/*.png` and `*.svg`.
    pub charts: Vec<PathBuf>,
}

/// The staging folder's name inside the report directory.
const STAGING: &str = ".report.tmp";
pub use crate::records::run_files::{CHARTS, HTML_FILE, REPORT_FILE, SUMMARY_FILE};

/// Writes `summary.json`, `report.md` and `charts/` into `dir` from
/// `dir/games.csv`, agents ordered as in `agent_order` (unlisted ones after,
/// by name); when `None`, as in the `[tournament] agents` of
/// `dir/experiment.toml` if there is one, else in order of first appearance.
/// The no-capture limit marked on the length charts comes from
/// `dir/experiment.toml` too (no mark without it), and so does the check of
/// every row against the experiment's schedule (ids from 0 without gaps,
/// and every column the schedule fixes) and the count of planned games.
/// Existing report files are replaced only once all new ones are written.
/// `report.html` carries the games that [`html::GamePicker`] picks.
///
/// This is the report of a caller that has itself written or checked every
/// row with its moves: a run (its new rows played here, its kept rows
/// checked on resume) or a merge (every shard's rows checked before they
/// were joined). So the moves are not replayed a second time: the rows are
/// checked against the rules and the schedule, and `metrics.csv` row by row
/// by game id. [`write_report`], the report of a directory as found, replays
/// them.
pub fn write_report_from_csv(
    dir: &Path,
    agent_order: Option<&[String]>,
) -> Result<ReportFiles, ReportError> {
    draw_report(dir, agent_order, &[], Replay::Trusted)
}

/// The report of a run directory as found (`hoyito report`): as
/// [`write_report_from_csv`], and every row passes the one validation of a
/// run's rows ([`RunRows`]): with `moves.csv`, its moves are hashed and
/// replayed and must end the game as the row says, and its row of
/// `metrics.csv` must be the measures counted again over them. A row that
/// fails is an error naming the file, the line and the column.
/// `report.html` also carries the games whose ids are in `games` (each must
/// be a row of `games.csv`).
pub fn write_report(
    dir: &Path,
    agent_order: Option<&[String]>,
    games: &[u64],
) -> Result<ReportFiles, ReportError> {
    draw_report(dir, agent_order, games, Replay::Moves)
}

/// Whether a report replays the moves of the rows it draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Replay {
    /// Every row with its moves, when `moves.csv` is there.
    Moves,
    /// None: the caller wrote or checked the rows (see
    /// [`write_report_from_csv`]).
    Trusted,
}

fn draw_report(
    dir: &Path,
    agent_order: Option<&[String]>,
    games: &[u64],
    replay: Replay,
) -> Result<ReportFiles, ReportError> {
    let experiment = run_experiment(dir)?;
    let mut tallies = RunTallies::new(experiment.as_ref(), games)?;
    // In a run directory the rows are games 0, 1, 2, ... of the experiment's
    // schedule, one line each: a gap names the missing id, and each row is
    // checked (with its moves and measures) by `RunRows`.
    let mut next_id = 0u64;
    let mut files = RowFiles::present(dir);
    files.moves &= replay == Replay::Moves;
    let mut rows = RunRows::new(dir, experiment.as_ref(), files);
    // A problem of moves.csv or metrics.csv, or one that a replay found:
    // it replaces the error that stopped the reading.
    let mut failure: Option<RecordFileError> = None;
    let read = try_read_games_csv(&dir.join(GAMES_FILE), |row| {
        if experiment.is_some() && row.game_id != next_id {
            return Err(RowProblem {
                column: "game_id",
                message: format!(
                    "game {}, but game {next_id} is missing: the rows of a run are \
                     games 0, 1, 2, ... without gaps",
                    row.game_id
                ),
            });
        }
        // The k-th row (from 0) is on line k + 2, after the header: a blank
        // line in a run directory is a gap, refused above.
        let measures = match rows.check(row, next_id + 2) {
            Ok(measures) => measures,
            Err(err) => {
                failure = Some(err);
                return Err(RowProblem {
                    column: "game_id",
                    message: "refused".into(),
                });
            }
        };
        next_id += 1;
        tallies.add(row, measures.as_ref());
        Ok(())
    });
    if let Some(err) = failure {
        return Err(row_file_error(err));
    }
    read?;
    rows.finish().map_err(row_file_error)?;
    finish_report(dir, experiment, agent_order, tallies)
}

/// The report of a run directory from counts its run kept while writing
/// the rows ([`RunTallies::add`], every row with its measures): what
/// [`write_report_from_csv`] draws, without reading the rows back.
pub fn write_report_from_tallies(
    dir: &Path,
    tallies: RunTallies,
) -> Result<ReportFiles, ReportError> {
    let experiment = run_experiment(dir)?;
    finish_report(dir, experiment, None, tallies)
}

/// Draws and writes the report from the counts of every row.
fn finish_report(
    dir: &Path,
    experiment: Option<Experiment>,
    agent_order: Option<&[String]>,
    tallies: RunTallies,
) -> Result<ReportFiles, ReportError> {
    let RunTallies {
        tally,
        balance,
        picker,
        sprt,
        ..
    } = tallies;
    let planned_games = experiment.as_ref().map(|e| Schedule::new(e).len());
    if tally.games() == 0 {
        return Err(ReportError::NoGames {
            path: dir.to_path_buf(),
        });
    }
    if let Some(&game_id) = picker.missing().first() {
        return Err(ReportError::NoSuchGame {
            path: dir.join(GAMES_FILE),
            game_id,
        });
    }
    let embedded = Embedded::build(dir, experiment.as_ref(), &picker, tally.games())?;
    let experiment_text = match experiment {
        Some(_) => Some(read_text(&dir.join(EXPERIMENT_FILE))?),
        None => None,
    };
    let order = agent_order
        .or(experiment.as_ref().map(|e| e.tournament.agents.as_slice()))
        .unwrap_or(tally.agents());
    let limit = experiment.as_ref().map(|e| e.rules.no_capture_limit);
    let mut summary = summarize(&tally, order, limit);
    summary.sprt = sprt.map(|(tracker, cap)| sprt_summary(&tracker, cap));
    summary.openings = experiment.as_ref().map(openings_summary);
    summary.rounds = rounds_summary(
        &dir.join(GAMES_FILE),
        experiment.as_ref().map(|e| e.rules.rounds),
    )?;
    // Rows are counted with their measures only where `metrics.csv` holds
    // them: no measures, no balance.
    summary.balance = Some(balance_summary(&balance)).filter(|b| b.games > 0);
    mark_planned(&mut summary, planned_games);
    let staging = dir.join(STAGING);
    let write_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReportError::Write { path, source }
    };
    // The staging folder is ours by name: whatever is there (a folder left by
    // a killed report, or a planted link, which `remove_dir_all` removes
    // without following) goes, and a fresh one is made with mkdir, which
    // fails rather than follow a link planted in the meantime.
    if staging.exists() || is_symlink(&staging) {
        fs::remove_dir_all(&staging).map_err(write_error(&staging))?;
    }
    fs::create_dir(&staging).map_err(write_error(&staging))?;
    fs::create_dir(staging.join(CHARTS)).map_err(write_error(&staging))?;
    let page = PageParts {
        experiment: experiment_text.as_deref(),
        games: &embedded,
    };
    let staged = stage(&staging, &summary, &tally, &page);
    let relative = match staged {
        Ok(relative) => relative,
        Err(err) => {
            // The error being reported matters more than a failed clean-up.
            let _ = fs::remove_dir_all(&staging);
            return Err(err);
        }
    };
    let charts = dir.join(CHARTS);
    if is_symlink(&charts) {
        // The charts would be moved into the link's target.
        let _ = fs::remove_dir_all(&staging);
        return Err(ReportError::Link { path: charts });
    }
    fs::create_dir_all(&charts).map_err(write_error(&charts))?;
    let mut placed = Vec::new();
    for rel in &relative {
        let target = dir.join(rel);
        fs::rename(staging.join(rel), &target).map_err(write_error(&target))?;
        placed.push(target);
    }
    fs::remove_dir_all(&staging).map_err(write_error(&staging))?;
    remove_stale_charts(&dir.join(CHARTS), &placed)?;
    Ok(ReportFiles {
        summary: dir.join(SUMMARY_FILE),
        report: dir.join(REPORT_FILE),
        html: dir.join(HTML_FILE),
        charts: placed
            .into_iter()
            .filter(|p| p.starts_with(dir.join(CHARTS)))
            .collect(),
    })
}

/// Removes the charts that an earlier report of the directory drew and this
/// one left out (a ratings chart or heatmap that now has nothing to show, a
/// variant no longer played), so that no chart is left that the report does
/// not link. Only the report's own chart names are touched.
fn remove_stale_charts(charts: &Path, placed: &[PathBuf]) -> Result<(), ReportError> {
    for stem in charts::all_stems() {
        for ext in ["png", "svg"] {
            let path = charts.join(format!("{stem}.{ext}"));
            if !placed.contains(&path) && path.exists() {
                fs::remove_file(&path).map_err(|source| ReportError::Write {
                    path: path.clone(),
                    source,
                })?;
            }
        }
    }
    Ok(())
}

/// Records how many games the run planned and whether it played them: a run
/// is complete when it holds every planned game, or when its SPRT was
/// decided (it stops there by design); an incomplete run gets a caveat.
fn mark_planned(summary: &mut Summary, planned_games: Option<u64>) {
    summary.planned_games = planned_games;
    let decided = summary
        .sprt
        .as_ref()
        .is_some_and(|s| matches!(s.decision, SprtDecision::H0 | SprtDecision::H1));
    summary.complete = decided || !planned_games.is_some_and(|planned| summary.games < planned);
    if let (false, Some(planned)) = (summary.complete, planned_games) {
        summary.caveats.insert(
            0,
            Caveat::Incomplete {
                games: summary.games,
                planned,
            },
        );
    }
}

/// The experiment saved beside the games, if there is one.
fn run_experiment(dir: &Path) -> Result<Option<Experiment>, ReportError> {
    let path = dir.join(EXPERIMENT_FILE);
    if !path.exists() {
        return Ok(None);
    }
    Experiment::load(&path)
        .map(Some)
        .map_err(|source| ReportError::Experiment { source })
}

/// What `report.html` adds to the summary and the charts.
struct PageParts<'a> {
    /// The text of `experiment.toml`.
    experiment: Option<&'a str>,
    /// The games the page carries.
    games: &'a Embedded,
}

/// The whole text of `path`.
fn read_text(path: &Path) -> Result<String, ReportError> {
    fs::read_to_string(path).map_err(|source| ReportError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes every file into `staging`, returning their paths relative to it.
fn stage(
    staging: &Path,
    summary: &Summary,
    tally: &Tally,
    parts: &PageParts<'_>,
) -> Result<Vec<PathBuf>, ReportError> {
    let mut charts = charts::render_all(&staging.join(CHARTS), summary, tally)?;
    let balance_charts = match &summary.balance {
        Some(balance) => charts::render_balance(&staging.join(CHARTS), balance)?,
        None => Vec::new(),
    };
    let links = png_links(&charts);
    let balance_links = png_links(&balance_charts);
    charts.extend(balance_charts);
    write_file(&staging.join(SUMMARY_FILE), |w| write_summary(w, summary))?;
    let mut markdown = Vec::new();
    write_markdown(&mut markdown, summary, &links)
        .and_then(|()| match &summary.balance {
            Some(balance) => write_balance(&mut markdown, balance, &balance_links),
            None => Ok(()),
        })
        .and_then(|()| match &summary.rounds {
            Some(rounds) => write_rounds(&mut markdown, rounds),
            None => Ok(()),
        })
        .map_err(|source| ReportError::Write {
            path: staging.join(REPORT_FILE),
            source,
        })?;
    write_file(&staging.join(REPORT_FILE), |w| w.write_all(&markdown))?;
    // The page inlines each chart's SVG where report.md links its PNG.
    let mut svgs = BTreeMap::new();
    for (_, path) in charts
        .iter()
        .filter(|(_, p)| p.extension().is_some_and(|e| e == "svg"))
    {
        let (Some(stem), Some(name)) = (path.file_stem(), path.file_name()) else {
            continue;
        };
        let link = format!("{CHARTS}/{}.png", stem.to_string_lossy());
        let text = read_text(&staging.join(CHARTS).join(name))?;
        svgs.insert(link, text);
    }
    let page = report_page(&PageInput {
        markdown: &String::from_utf8_lossy(&markdown),
        charts: &svgs,
        experiment: parts.experiment,
        games: parts.games,
    });
    write_file(&staging.join(HTML_FILE), |w| w.write_all(page.as_bytes()))?;
    let mut relative = vec![
        PathBuf::from(SUMMARY_FILE),
        PathBuf::from(REPORT_FILE),
        PathBuf::from(HTML_FILE),
    ];
    for (_, path) in &charts {
        if let Some(name) = path.file_name() {
            relative.push(Path::new(CHARTS).join(name));
        }
    }
    Ok(relative)
}

/// The (title, relative path) links of the PNG charts among `charts`.
fn png_links(charts: &[(String, PathBuf)]) -> Vec<(String, String)> {
    charts
        .iter()
        .filter(|(_, path)| path.extension().is_some_and(|e| e == "png"))
        .filter_map(|(title, path)| {
            let name = path.file_name()?.to_string_lossy();
            Some((title.clone(), format!("{CHARTS}/{name}")))
        })
        .collect()
}

/// A problem of a row file as the report's error: the file and line.
fn row_file_error(err: RecordFileError) -> ReportError {
    match err {
        RecordFileError::Read { path, cause } => ReportError::Read {
            path,
            source: cause,
        },
        RecordFileError::Parse {
            path,
            line,
            message,
        } => ReportError::Parse {
            path,
            line,
            message,
        },
    }
}

/// Creates `path`, which must not exist (it is in the fresh staging folder:
/// `O_EXCL`, so a link is never followed), and fills it with `write`,
/// flushing before returning.
fn write_file(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> Result<(), ReportError> {
    let result = create_new(path).and_then(|file| {
        let mut out = BufWriter::new(file);
        write(&mut out)?;
        out.flush()
    });
    result.map_err(|source| ReportError::Write {
        path: path.to_path_buf(),
        source,
    })
}
