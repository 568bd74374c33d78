//! The games the report page carries: the picks replayed through the engine
//! from `moves.csv` until the page's budget is spent (games asked for by id
//! are carried up to a far larger limit), the table that links them, and what
//! the viewer says of a game the page does not carry.
//!
//! The budget is checked before a game is replayed or serialised, from its
//! length and a lower bound on the bytes of a ply: a game of 1,999,999 plies
//! replayed and serialised whole only to be left out would make the report
//! take 2.75 GB.

use std::fmt::Write as _;
use std::path::Path;

use crate::records::game_row::Winner;
use crate::records::moves_file::{MovesRow, MOVES_FILE};
use crate::tournament::config::experiment::Experiment;
use crate::tournament::row_search::find_row_line;
use crate::tournament::schedule::{Opening, Schedule};

use super::super::error::ReportError;
use super::blocks::{escape, inline, table_html, Align};
use super::game_view::{GameLabels, GameView};
use super::pick::{GamePicker, Pick, Reason};
use super::viewer::game_data;

/// Bytes of game data the page carries at most, beyond the games asked for.
pub const BUDGET: usize = 2_000_000;

/// Bytes of game data that one game asked for by id may take at most: a page
/// beyond that is more than a browser shows with ease, and the game is read
/// better in text (`hoyito replay`).
pub const ASKED_LIMIT: usize = 20 * BUDGET;

/// The fewest bytes one ply takes in a game's JSON on 2x`holes`: its fields
/// and the position after it, counted as if it were a move of one digit with
/// no laps and no capture (`{"by":"S","mv":"1","who":"","cap":0,"xm":false,`
/// `"ls":null,"laps":[],"to":{"b":[0,..],"t":"S","c":[0,0]}}`, and the comma
/// after it); every real ply, a pass or a move with its laps, takes more.
fn least_ply_bytes(holes: u8) -> usize {
    const FIELDS: usize = 100;
    // `2 x holes` counts of at least one digit, with a comma between two.
    FIELDS + 4 * usize::from(holes) - 1
}

/// The fewest bytes a game of `plies` plies takes on 2x`holes`.
fn least_game_bytes(plies: usize, holes: u8) -> usize {
    plies.saturating_mul(least_ply_bytes(holes))
}

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
            let asked = pick.reasons.contains(&Reason::Asked);
            let room = match asked {
                true => ASKED_LIMIT,
                false => BUDGET.saturating_sub(spent),
            };
            let status = match (&schedule, source) {
                (Some(schedule), Source::Moves) => {
                    match replay_pick(&moves, schedule, &pick, room)? {
                        Replayed::View(view) => {
                            let size = view.to_json().len();
                            if asked || spent + size <= BUDGET {
                                spent += size;
                                views.push(view);
                                Status::Embedded
                            } else {
                                Status::OverBudget
                            }
                        }
                        Replayed::TooLong { least } if asked => Status::Left(format!(
                            "{} plies take at least {} MB, more than the {} MB a game asked \
                             for may take; read it with `hoyito replay DIR {}`",
                            pick.brief.plies,
                            least.div_ceil(1_000_000),
                            ASKED_LIMIT / 1_000_000,
                            pick.brief.game_id
                        )),
                        Replayed::TooLong { .. } => Status::OverBudget,
                        Replayed::Left(reason) => Status::Left(reason),
                    }
                }
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
                "To carry more, ask for them by id: `hoyito report DIR --game-ids 17,42` \
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
                 stay small. Add it with: hoyito report DIR --game-ids {{id}} (DIR being this \
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

/// What became of one picked game's replay.
enum Replayed {
    /// The game, replayed.
    View(GameView),
    /// Not replayed: its plies take at least `least` bytes, more than the room left.
    TooLong {
        /// The fewest bytes its data would take.
        least: usize,
    },
    /// Not replayed, for the reason given.
    Left(String),
}

/// The view of one picked game, or why there is none, if its data can fit
/// in `room` bytes: its length is checked against that before its row is
/// read (from `games.csv`) and again before it is replayed (from its moves);
/// `Err` only when `moves.csv` cannot be read.
fn replay_pick(
    moves: &Path,
    schedule: &Schedule,
    pick: &Pick,
    room: usize,
) -> Result<Replayed, ReportError> {
    let id = pick.brief.game_id;
    if id >= schedule.len() {
        return Ok(Replayed::Left(
            "not in the experiment's schedule".to_string(),
        ));
    }
    let holes = schedule.game(id).rules.holes;
    let too_long = |plies: usize| {
        let least = least_game_bytes(plies, holes);
        (least > room).then_some(Replayed::TooLong { least })
    };
    if let Some(skip) = too_long(pick.brief.plies as usize) {
        return Ok(skip);
    }
    let line = find_row_line(moves, id).map_err(|source| ReportError::Read {
        path: moves.to_path_buf(),
        source,
    })?;
    let Some(line) = line else {
        return Ok(Replayed::Left(format!("no row in {MOVES_FILE}")));
    };
    let mut row = MovesRow::default();
    if let Err(message) = row.parse_into(&line) {
        return Ok(Replayed::Left(format!("{MOVES_FILE}: {message}")));
    }
    if let Some(skip) = too_long(row.moves.len()) {
        return Ok(skip);
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
        match GameView::replay(&labels, &scheduled.rules, &row.moves, pick.brief.ending) {
            Ok(view) => Replayed::View(view),
            Err(err) => Replayed::Left(err.to_string()),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::super::pick::Brief;
    use super::*;
    use crate::engine::game::Game;
    use crate::engine::rules::{Rules, Variant};
    use rand::SeedableRng;

    /// The budget is checked from a lower bound of a game's bytes: it must
    /// never exceed what the game really takes, on any board.
    #[test]
    fn the_least_size_of_a_game_is_a_lower_bound() {
        for holes in [2u32, 6, 16] {
            for seed in 0..20 {
                let rules = Rules::new(Variant::Ii).with_board(holes, 1).unwrap();
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let mut game = Game::new(rules);
                while !game.is_over() {
                    game.play_random(&mut rng);
                }
                let labels = GameLabels {
                    game_id: 0,
                    pair_id: 0,
                    south: String::new(),
                    north: String::new(),
                    opening_plies: 0,
                    opening: "random opening",
                };
                let ending = game.outcome().unwrap().ending;
                let view = GameView::replay(&labels, &rules, game.moves(), ending).unwrap();
                let least = least_game_bytes(game.moves().len(), rules.holes);
                let size = view.to_json().len();
                assert!(least <= size, "2x{holes} seed {seed}: {least} > {size}");
            }
        }
    }

    /// A game of 1,999,999 plies (2x2, one seed per hole, `repetitions =
    /// 1000000`), which replayed and serialised whole before the budget is
    /// checked makes the report take 2.75 GB, is left out from its length
    /// alone: its moves are not even read (here there is no `moves.csv` to
    /// read, which would be an error).
    #[test]
    fn a_game_too_long_for_the_page_is_left_out_before_it_is_read() {
        let experiment = Experiment::parse(
            "name = \"long\"\nseed = 1\ngames = 2\n[rules]\nvariants = [\"ii\"]\n\
             holes = [2]\nseeds = 1\n[tournament]\nformat = \"self-play\"\n\
             agents = [\"greedy\"]\n",
            "t.toml",
        )
        .unwrap();
        let schedule = Schedule::new(&experiment);
        let pick = |reason| Pick {
            brief: Brief {
                game_id: 0,
                pair_id: 0,
                setting: "ii 2x2 s1".to_string(),
                south: "greedy".to_string(),
                north: "greedy".to_string(),
                winner: Winner::Draw,
                scores: (0, 0),
                plies: 1_999_999,
                ending: crate::engine::game::Ending::Repetition,
            },
            reasons: vec![reason],
        };
        let missing = Path::new("/nonexistent/moves.csv");
        for (reason, room) in [(Reason::Longest, BUDGET), (Reason::Asked, ASKED_LIMIT)] {
            match replay_pick(missing, &schedule, &pick(reason), room) {
                Ok(Replayed::TooLong { least }) => assert!(least >= 200_000_000, "{least}"),
                Ok(Replayed::View(_)) => panic!("replayed"),
                Ok(Replayed::Left(why)) => panic!("left out for another reason: {why}"),
                Err(err) => panic!("read moves.csv: {err}"),
            }
        }
    }
}
