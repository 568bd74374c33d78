//! The games the report page carries: the picks replayed through the engine
//! from `moves.csv` until the page's budget is spent (games asked for by id
//! are always carried), the table that links them, and what the viewer says
//! of a game the page does not carry.

use std::fmt::Write as _;
use std::path::Path;

use crate::tournament::{
    find_row_line, Experiment, MovesRow, Opening, Schedule, Winner, MOVES_FILE,
};

use super::super::error::ReportError;
use super::blocks::{escape, inline, Align};
use super::game_view::{GameLabels, GameView};
use super::page::table_html;
use super::pick::{GamePicker, Pick, Reason};
use super::viewer::game_data;

/// Bytes of game data the page carries at most, beyond the games asked for.
pub const BUDGET: usize = 2_000_000;

/// Where a run's games can be had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// `moves.csv` records them.
    Moves,
    /// The run did not record its moves.
    NoMoves,
    /// There is no `experiment.toml`, so no rules to replay them by.
    NoExperiment,
}

/// What became of a picked game.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Status {
    /// In the page.
    Embedded,
    /// Left out to keep the page small.
    OverBudget,
    /// Not in the page, for the reason given.
    Left(String),
}

/// The games a page carries, and the ones it names without carrying.
#[derive(Debug, Clone)]
pub struct Embedded {
    source: Source,
    games: u64,
    picks: Vec<(Pick, Status)>,
    views: Vec<GameView>,
}

impl Embedded {
    /// Replays the picks of `picker` from `dir/moves.csv`; `games` is the
    /// number of games in the run.
    pub fn build(
        dir: &Path,
        experiment: Option<&Experiment>,
        picker: &GamePicker,
        games: u64,
    ) -> Result<Embedded, ReportError> {
        let moves = dir.join(MOVES_FILE);
        let source = match experiment {
            None => Source::NoExperiment,
            Some(e) if e.record.moves && moves.exists() => Source::Moves,
            Some(_) => Source::NoMoves,
        };
        let schedule = experiment.map(Schedule::new);
        let mut spent = 0;
        let mut picks = Vec::new();
        let mut views = Vec::new();
        for pick in picker.picks() {
            let status = match (&schedule, source) {
                (Some(schedule), Source::Moves) => match replay_pick(&moves, schedule, &pick)? {
                    Ok(view) => {
                        let size = view.to_json().len();
                        let asked = pick.reasons.contains(&Reason::Asked);
                        if asked || spent + size <= BUDGET {
                            spent += size;
                            views.push(view);
                            Status::Embedded
                        } else {
                            Status::OverBudget
                        }
                    }
                    Err(reason) => Status::Left(reason),
                },
                (_, Source::NoExperiment) => Status::Left("no experiment.toml".to_string()),
                _ => Status::Left("no moves recorded".to_string()),
            };
            picks.push((pick, status));
        }
        views.sort_by_key(GameView::game_id);
        Ok(Embedded {
            source,
            games,
            picks,
            views,
        })
    }

    /// The section that lists the games.
    pub fn section_html(&self) -> String {
        let mut out = String::new();
        let left = self
            .picks
            .iter()
            .filter(|(_, s)| *s == Status::OverBudget)
            .count();
        let _ = write!(
            out,
            "<p id=\"games-embedded\" data-embedded=\"{}\">This page carries <b>{} of the run's {} \
             games</b> for the viewer: for each pairing and setting the first seat-swapped pair, \
             the shortest and the longest game, and the first game of each ending other than \
             normal (stall rules, forfeits), plus any asked for",
            self.views.len(),
            self.views.len(),
            self.games
        );
        match left {
            0 => out.push_str(". "),
            n => {
                let _ = write!(
                    out,
                    "; {n} more were left out to keep the page under {} MB. ",
                    BUDGET / 1_000_000 + 1
                );
            }
        }
        out.push_str(&match self.source {
            Source::Moves => inline(
                "To carry more, ask for them by id: `hoyito report DIR --games 17,42` \
                 (DIR being this page's directory). Every game id below opens the viewer.",
            ),
            Source::NoMoves => inline(
                "This run did not record its moves (`[record] moves = false`), so no game can be \
                 shown here: `hoyito replay DIR ID` plays one again by its agents, in text, and a \
                 run with `[record] moves = true` records every game for the viewer.",
            ),
            Source::NoExperiment => inline(
                "This directory has no `experiment.toml`, so its games cannot be replayed: the \
                 viewer needs a run directory written by `hoyito run`.",
            ),
        });
        out.push_str("</p>\n");
        out.push_str(
            "<form id=\"open-game\"><label>Open game <input type=\"number\" id=\"open-game-id\" \
             min=\"0\" step=\"1\"></label> <button type=\"submit\">open</button></form>\n",
        );
        if self.picks.is_empty() {
            return out;
        }
        let header: Vec<String> = [
            "game",
            "pair",
            "setting",
            "South",
            "North",
            "result",
            "plies",
            "ending",
            "why",
            "in this page",
        ]
        .map(String::from)
        .to_vec();
        let mut align = vec![Align::Right; 2];
        align.extend([Align::Left; 4]);
        align.push(Align::Right);
        align.extend([Align::Left; 3]);
        let mut rows: Vec<Vec<String>> = self
            .picks
            .iter()
            .map(|(pick, status)| {
                let b = &pick.brief;
                let result = match b.winner {
                    Winner::S => "South wins",
                    Winner::N => "North wins",
                    Winner::Draw => "draw",
                };
                let reasons: Vec<String> = pick.reasons.iter().map(|r| r.text()).collect();
                vec![
                    b.game_id.to_string(),
                    b.pair_id.to_string(),
                    b.setting.clone(),
                    b.south.clone(),
                    b.north.clone(),
                    format!("{result} {}-{}", b.scores.0, b.scores.1),
                    b.plies.to_string(),
                    b.ending.to_string(),
                    reasons.join(", "),
                    match status {
                        Status::Embedded => "yes".to_string(),
                        Status::OverBudget => "no: over the page's size budget".to_string(),
                        Status::Left(why) => format!("no: {why}"),
                    },
                ]
            })
            .collect();
        rows.sort_by_key(|r| r[0].parse::<u64>().unwrap_or(u64::MAX));
        out.push_str(&table_html(&header, &align, &rows, |k, text| match k {
            0 => format!(
                "<a href=\"#game-{0}\" class=\"game-link\" data-game=\"{0}\">{0}</a>",
                escape(text)
            ),
            _ => escape(text),
        }));
        out
    }

    /// The games' data and the viewer's settings, as `<script>` elements.
    pub fn data_html(&self) -> String {
        let mut out = String::new();
        for view in &self.views {
            out.push_str(&game_data(view));
        }
        let missing = match self.source {
            Source::Moves => format!(
                "Game {{id}} is not carried by this page, which holds {} of the run's {} games to \
                 stay small. Add it with: hoyito report DIR --games {{id}} (DIR being this \
                 page's directory), or read it in text with: hoyito replay DIR {{id}}",
                self.views.len(),
                self.games
            ),
            Source::NoMoves => "This run did not record its moves ([record] moves = false), so \
                                game {id} cannot be shown: hoyito replay DIR {id} plays it again \
                                by its agents, in text."
                .to_string(),
            Source::NoExperiment => "This directory has no experiment.toml: game {id} cannot be \
                                     replayed."
                .to_string(),
        };
        let config = serde_json::json!({ "games": self.games, "open": null, "missing": missing });
        let _ = writeln!(
            out,
            "<script type=\"application/json\" id=\"viewer-config\">{}</script>",
            config.to_string().replace("</", "<\\/")
        );
        out
    }
}

/// The view of one picked game, or why there is none; `Err` only when
/// `moves.csv` cannot be read.
fn replay_pick(
    moves: &Path,
    schedule: &Schedule,
    pick: &Pick,
) -> Result<Result<GameView, String>, ReportError> {
    let id = pick.brief.game_id;
    if id >= schedule.len() {
        return Ok(Err("not in the experiment's schedule".to_string()));
    }
    let line = find_row_line(moves, id).map_err(|source| ReportError::Read {
        path: moves.to_path_buf(),
        source,
    })?;
    let Some(line) = line else {
        return Ok(Err(format!("no row in {MOVES_FILE}")));
    };
    let mut row = MovesRow::default();
    if let Err(message) = row.parse_into(&line) {
        return Ok(Err(format!("{MOVES_FILE}: {message}")));
    }
    let scheduled = schedule.game(id);
    let opening = schedule.opening(&scheduled);
    let labels = GameLabels {
        game_id: id,
        pair_id: pick.brief.pair_id,
        south: pick.brief.south.clone(),
        north: pick.brief.north.clone(),
        opening_plies: opening.plies(),
        opening: match opening {
            Opening::Random { .. } => "random opening",
            Opening::Book { .. } => "book opening",
        },
    };
    Ok(
        GameView::replay(&labels, &scheduled.rules, &row.moves, pick.brief.ending)
            .map_err(|err| err.to_string()),
    )
}
