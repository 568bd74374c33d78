//! Checking a row of `games.csv` before it is trusted: against the rules (a
//! row no game could produce), against the experiment's schedule (a row of
//! another run, or edited), and against its moves (a flipped result).
//!
//! A resumed run keeps its old rows and a report counts every row, so a row
//! that was edited, or copied from a run with another seed, silently makes
//! the summary wrong. Everything the schedule fixes is compared with it:
//! `pair_id`, the variant, board and seeds, the agents in each seat, the
//! game's seed and its opening (a book entry's plies, or the random plies
//! replayed from the pair's opening seed: at most a few dozen random moves,
//! about a microsecond a game). The result columns are fixed only by the
//! moves, so where `moves.csv` is present the moves are hashed and replayed
//! through the engine ([`check_replay`]), which checks winner, captures,
//! plies and ending, and recomputes the game's row of `metrics.csv` when
//! it is given. Reading the three files in step is `super::run_rows`.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use crate::engine::game::{Ending, Game};
use crate::engine::moves::Move;
use crate::engine::rounds_match::round_setup_after;
use crate::engine::side::Side;
use crate::metrics::file::{metrics_values, METRICS_COLUMNS};
use crate::metrics::measures::{GameMeasures, MeasureRecorder};

use super::config::experiment::Experiment;
use super::schedule::{Opening, Schedule, ScheduledGame};
use crate::engine::seeding::rng_from_seed;
use crate::records::game_row::{GameRow, Winner};
use crate::records::moves_hash::MovesHash;

/// The smallest and largest number of holes per row the engine plays.
pub const HOLES: std::ops::RangeInclusive<u8> = 2..=16;

/// What is wrong with one row, and in which column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowProblem {
    /// The column of `games.csv` (or `moves` for `moves.csv`).
    pub column: &'static str,
    /// What is wrong with its value.
    pub message: String,
}

impl fmt::Display for RowProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column `{}`: {}", self.column, self.message)
    }
}

fn problem(column: &'static str, message: String) -> RowProblem {
    RowProblem { column, message }
}

/// Checks what the rules alone say of a row: a board of 2 to 16 holes with
/// at least one seed each; a winner that agrees with the captures; captures
/// that the seeds in play allow: all of them after a normal ending (the last
/// capturer takes the seeds left, RULES.md "End of the game"), except a game
/// over before its first ply with 4 seeds or fewer and nobody's; at most all
/// of them after a stall (the `leftover` policy may give the rest to nobody).
pub fn check_rules(row: &GameRow) -> Result<(), RowProblem> {
    if !HOLES.contains(&row.holes) {
        return Err(problem(
            "holes",
            format!("{}: a board has 2 to 16 holes per row", row.holes),
        ));
    }
    if row.seeds == 0 {
        return Err(problem(
            "seeds",
            "0: a board starts with at least 1 seed per hole".into(),
        ));
    }
    let expected = match row.south_captures.cmp(&row.north_captures) {
        std::cmp::Ordering::Greater => Winner::S,
        std::cmp::Ordering::Less => Winner::N,
        std::cmp::Ordering::Equal => Winner::Draw,
    };
    // A forfeit is lost whatever the captures, never drawn.
    let forfeit = row.ending.forfeit_reason().is_some();
    if (!forfeit && row.winner != expected) || (forfeit && row.winner == Winner::Draw) {
        return Err(problem(
            "winner",
            format!(
                "{}, but the captures are {}-{}",
                winner_name(row.winner),
                row.south_captures,
                row.north_captures
            ),
        ));
    }
    let in_play = 2 * u32::from(row.holes) * u32::from(row.seeds);
    let captured = u32::from(row.south_captures) + u32::from(row.north_captures);
    let fits = match row.ending {
        Ending::Normal => captured == in_play || (row.plies == 0 && captured == 0 && in_play <= 4),
        Ending::Repetition
        | Ending::NoCaptureLimit
        | Ending::ForfeitCrash
        | Ending::ForfeitTimeout
        | Ending::ForfeitProtocol
        | Ending::ForfeitIllegal
        | Ending::Tablebase => captured <= in_play,
        // The winner had more than half of all seeds.
        Ending::Decided => {
            captured <= in_play
                && 2 * u32::from(row.south_captures.max(row.north_captures)) > in_play
        }
    };
    if !fits {
        return Err(problem(
            "south_captures",
            format!(
                "{}-{} captured in a game of {in_play} seeds ending `{}`: {}",
                row.south_captures,
                row.north_captures,
                row.ending,
                match row.ending {
                    Ending::Normal => "a normal ending takes every seed",
                    Ending::Decided if captured <= in_play => {
                        "a decided game's winner holds more than half of all seeds"
                    }
                    _ => "more seeds than were in play",
                }
            ),
        ));
    }
    Ok(())
}

fn winner_name(winner: Winner) -> &'static str {
    match winner {
        Winner::S => "S",
        Winner::N => "N",
        Winner::Draw => "draw",
    }
}

/// Checks rows against the schedule of one experiment.
#[derive(Debug, Clone)]
pub struct ScheduleCheck {
    schedule: Schedule,
    agents: Vec<String>,
    opening: String,
    /// In a run in rounds: each match under way, with its last round
    /// checked and that round's winner (rows come in id order).
    matches: BTreeMap<u64, (u32, Winner)>,
    /// The previous round's winner of the row last checked, if it has one.
    previous: Option<Winner>,
}

impl ScheduleCheck {
    /// The checker of a checked experiment (`games` rounded up to pairs).
    pub fn new(experiment: &Experiment) -> ScheduleCheck {
        ScheduleCheck {
            schedule: Schedule::new(experiment),
            agents: experiment.tournament.agents.clone(),
            opening: String::new(),
            matches: BTreeMap::new(),
            previous: None,
        }
    }

    /// The games the schedule plans.
    pub fn planned(&self) -> u64 {
        self.schedule.len()
    }

    /// Checks every column of `row` that the schedule fixes: the game exists,
    /// and its pair, variant, board, seeds, agents, game seed and opening are
    /// the schedule's.
    pub fn check(&mut self, row: &GameRow) -> Result<(), RowProblem> {
        if row.game_id >= self.schedule.len() {
            return Err(problem(
                "game_id",
                format!(
                    "game {}, but the experiment has only {} games",
                    row.game_id,
                    self.schedule.len()
                ),
            ));
        }
        let game = self.schedule.game(row.game_id);
        let rules = game.rules;
        let differs = |column: &'static str, found: String, expected: String| {
            problem(
                column,
                format!(
                    "{found}, but the experiment's game {} has {expected}",
                    row.game_id
                ),
            )
        };
        if row.pair_id != game.pair_id {
            return Err(differs(
                "pair_id",
                row.pair_id.to_string(),
                game.pair_id.to_string(),
            ));
        }
        if row.variant != rules.variant {
            return Err(differs(
                "variant",
                row.variant.to_string(),
                rules.variant.to_string(),
            ));
        }
        if row.holes != rules.holes {
            return Err(differs(
                "holes",
                row.holes.to_string(),
                rules.holes.to_string(),
            ));
        }
        if row.seeds != rules.seeds {
            return Err(differs(
                "seeds",
                row.seeds.to_string(),
                rules.seeds.to_string(),
            ));
        }
        for (column, found, index) in [
            ("south", &row.south, game.south),
            ("north", &row.north, game.north),
        ] {
            let expected = &self.agents[index];
            if found != expected {
                return Err(differs(
                    column,
                    format!("{found:?}"),
                    format!("{expected:?}"),
                ));
            }
        }
        if row.game_seed != game.game_seed {
            return Err(differs(
                "game_seed",
                row.game_seed.to_string(),
                format!("{} (is it a run with another seed?)", game.game_seed),
            ));
        }
        self.opening.clear();
        match self.schedule.opening(&game) {
            Opening::Book { plies, .. } => push_moves(&mut self.opening, plies.iter().copied()),
            Opening::Random { plies } => {
                let mut board = game.start();
                let mut rng = rng_from_seed(game.opening_seed);
                let mut moves = Vec::with_capacity(plies as usize);
                for _ in 0..plies {
                    if board.is_over() {
                        break;
                    }
                    moves.push(board.play_random(&mut rng));
                }
                push_moves(&mut self.opening, moves.into_iter());
            }
        }
        if row.opening != self.opening {
            return Err(differs(
                "opening",
                format!("{:?}", row.opening),
                format!("{:?}", self.opening),
            ));
        }
        self.remember_round(&game, row.winner);
        Ok(())
    }

    /// Notes the winner of a round of a match (nothing without rounds), and
    /// the previous round's winner for [`ScheduleCheck::check_moves`].
    fn remember_round(&mut self, game: &ScheduledGame, winner: Winner) {
        if self.schedule.match_rounds() == 1 {
            return;
        }
        self.previous = self
            .matches
            .get(&game.match_id)
            .filter(|(round, _)| *round + 1 == game.match_round)
            .map(|&(_, winner)| winner);
        if game.match_round >= self.schedule.match_rounds() {
            self.matches.remove(&game.match_id);
        } else {
            self.matches
                .insert(game.match_id, (game.match_round, winner));
        }
    }

    /// Checks `moves` (the game's row of `moves.csv`) against `row`, which
    /// [`ScheduleCheck::check`] accepted (the row just before it, so that a
    /// round of a match is replayed after the previous round's result): see
    /// [`check_moves`].
    pub fn check_moves(&self, row: &GameRow, moves: &[Move]) -> Result<(), RowProblem> {
        check_replay(row, self.start(row), moves, None)
    }

    /// The game of `row`, which [`ScheduleCheck::check`] accepted just
    /// before, at its start: a round of a match starts with its own first
    /// mover, and from round 3 with the last seeds to the previous round's
    /// winner.
    pub fn start(&self, row: &GameRow) -> Game {
        let game = self.schedule.game(row.game_id);
        let previous = self.previous.map(|winner| match winner {
            Winner::S => Some(Side::South),
            Winner::N => Some(Side::North),
            Winner::Draw => None,
        });
        let (rules, _) = round_setup_after(&game.rules, game.match_round, previous.flatten());
        ScheduledGame { rules, ..game }.start()
    }
}

/// Checks that `moves` hash to the row's `moves_hash` and, replayed under
/// `rules` from the start position, are legal and end the game as the row
/// says: winner, captures, plies and ending. About 10 microseconds a game.
pub fn check_moves(
    row: &GameRow,
    rules: crate::engine::rules::Rules,
    moves: &[Move],
) -> Result<(), RowProblem> {
    check_replay(row, Game::new(rules), moves, None)
}

/// The one check of a game's result: `moves` (its row of `moves.csv`) must
/// hash to the row's `moves_hash`, replay legally from `game` (its start,
/// see [`ScheduleCheck::start`]) and end it as the row says: winner,
/// captures, plies and ending (an adjudicated game where its moves stop,
/// with scores the adjudication can give). With `measures` (its row of
/// `metrics.csv`), the measures are counted again over the replayed moves,
/// as the run counted them, and must be the same; a problem there names
/// the column of `metrics.csv`.
pub fn check_replay(
    row: &GameRow,
    mut game: Game,
    moves: &[Move],
    measures: Option<&GameMeasures>,
) -> Result<(), RowProblem> {
    let hash = MovesHash::of_moves(moves);
    if hash != row.moves_hash {
        return Err(problem(
            "moves_hash",
            format!("{}, but the game's moves hash to {hash}", row.moves_hash),
        ));
    }
    let mut recorder = measures.map(|_| {
        let mut recorder = MeasureRecorder::new();
        recorder.start(game.position());
        recorder
    });
    for &mv in moves {
        game.play(mv)
            .map_err(|err| problem("moves", format!("the recorded moves do not replay: {err}")))?;
        if let Some(recorder) = recorder.as_mut() {
            recorder.record(mv, &game);
        }
    }
    // A forfeit ends the game where it stands: the side to move lost.
    if let Some(reason) = row.ending.forfeit_reason() {
        game.forfeit(reason);
    }
    // An adjudicated game ends where its moves stop, with the row's scores
    // if they can be the adjudication's: decided, the captures as they
    // stand, a side past half of all seeds; by the tables, the captures so
    // far plus the seeds left (all of them, or all but one), shared. Which
    // share is exact only the tables say (`hoyito replay` checks it).
    if row.ending.is_adjudication() && !game.is_over() {
        let pos = *game.position();
        let now = pos.captures();
        let scores = crate::engine::side::BySide {
            south: row.south_captures,
            north: row.north_captures,
        };
        let left = pos.seeds_on_board();
        let added = |side: Side| i64::from(scores[side]) - i64::from(now[side]);
        let fits = match row.ending {
            Ending::Decided => {
                scores == now
                    && 2 * u32::from(now.south.max(now.north)) > game.rules().total_seeds()
            }
            _ => {
                let shared = added(Side::South) + added(Side::North);
                added(Side::South) >= 0
                    && added(Side::North) >= 0
                    && (shared == i64::from(left) || shared + 1 == i64::from(left))
            }
        };
        if !fits {
            return Err(problem(
                "south_captures",
                format!(
                    "{}-{} ending `{}`, but the game's moves stop at {}-{} with {left} seeds \
                     left, which that adjudication cannot give",
                    row.south_captures, row.north_captures, row.ending, now.south, now.north
                ),
            ));
        }
        game.adjudicate(row.ending, scores);
    }
    let Some(outcome) = game.outcome() else {
        return Err(problem(
            "moves",
            format!(
                "the game is not over after its {} recorded plies",
                moves.len()
            ),
        ));
    };
    let replayed = |column: &'static str, found: String, expected: String| {
        problem(
            column,
            format!("{found}, but the game's moves end with {expected}"),
        )
    };
    let winner = Winner::of(&outcome);
    if row.winner != winner {
        return Err(replayed(
            "winner",
            winner_name(row.winner).into(),
            winner_name(winner).into(),
        ));
    }
    for (column, found, expected) in [
        ("south_captures", row.south_captures, outcome.scores.south),
        ("north_captures", row.north_captures, outcome.scores.north),
    ] {
        if found != expected {
            return Err(replayed(column, found.to_string(), expected.to_string()));
        }
    }
    if row.plies != outcome.plies {
        return Err(replayed(
            "plies",
            row.plies.to_string(),
            outcome.plies.to_string(),
        ));
    }
    if row.ending != outcome.ending {
        return Err(replayed(
            "ending",
            row.ending.to_string(),
            outcome.ending.to_string(),
        ));
    }
    if let (Some(found), Some(recorder)) = (measures, recorder) {
        let counted = recorder.finish(outcome.winner);
        let pairs = metrics_values(found)
            .into_iter()
            .zip(metrics_values(&counted));
        if let Some((column, (found, counted))) = METRICS_COLUMNS
            .iter()
            .zip(pairs)
            .find(|(_, (found, counted))| found != counted)
        {
            return Err(problem(
                column,
                format!("{found}, but the game's moves give {counted}"),
            ));
        }
    }
    Ok(())
}

/// Appends moves as the `opening` column writes them: space-separated.
fn push_moves(out: &mut String, moves: impl Iterator<Item = Move>) {
    for (i, mv) in moves.enumerate() {
        if i > 0 {
            out.push(' ');
        }
        write!(out, "{mv}").expect("writing to a String cannot fail");
    }
}

#[cfg(test)]
mod tests;
