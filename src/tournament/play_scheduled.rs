//! Playing one scheduled game: the random opening, then the agents, then the
//! row of `games.csv`.
//!
//! The same function plays a game in a run and in `hoyito replay`, so that a
//! replay is the game itself, not a second implementation of it. The random
//! agent takes the engine's own fast path (`Game::play_random`), because
//! random-against-random games are the harness's speed benchmark.

use std::fmt::Write as _;

use thiserror::Error;

use crate::engine::agent_trait::AgentRng;
use crate::engine::forfeit::Forfeit;
use crate::engine::game::{Game, Outcome};
use crate::engine::game_loop::PlayError;
use crate::engine::moves::Move;
use crate::engine::side::{BySide, Side};
use crate::metrics::measures::MeasureRecorder;

use super::adjudication::Adjudicator;
use super::lineup::{Lineup, SeatError};
use super::schedule::{Opening, ScheduledGame};
use crate::engine::seeding::rng_from_seed;
use crate::records::game_row::{GameRow, Winner};
use crate::records::moves_hash::MovesHash;

/// A scheduled game that could not be played to its end: an agent's bug.
#[derive(Debug, Error)]
#[error("game {game_id}: agent {agent:?}: {cause}")]
pub struct GameFailure {
    /// The game.
    pub game_id: u64,
    /// The roster name of the agent at fault.
    pub agent: String,
    /// The illegal move and the game up to it.
    pub cause: PlayError,
}

/// Plays `scheduled` from its start ([`ScheduledGame::start`]: a round of a
/// match starts as its round says): its `opening` (the book plies, or uniformly
/// random plies from the pair's opening seed), then fresh players of the lineup with the game's
/// generator (told of the new game after the opening, and of every move after
/// it, as in [`crate::play_game`]). `on_move` sees the game after every ply,
/// opening included. An agent that forfeits (an external process that
/// crashed, hung, broke the protocol or named an illegal move) ends the game
/// there: [`Game::forfeit`] gives it to the other seat, with the captures as
/// they stand and a `forfeit-*` ending. With an `adjudicator`, before each
/// move an agent would make the game may end by adjudication instead
/// (`crate::tournament::adjudication`); two random seats then play move by
/// move too.
pub fn play_scheduled(
    scheduled: &ScheduledGame,
    opening: Opening<'_>,
    lineup: &Lineup,
    adjudicator: Option<&Adjudicator>,
    on_move: impl FnMut(&Game, Move),
) -> Result<Game, GameFailure> {
    play_measured(scheduled, opening, lineup, adjudicator, None, on_move).map(|(game, _)| game)
}

/// As [`play_scheduled`], and counts the game's design measures in
/// `measures` when given (started afresh here; every ply, opening
/// included, is counted). The measures never change the game: they only
/// read the positions and [`Game::last_effect`]. Also returns the forfeit
/// that ended the game, if one did. Seats come from the lineup
/// ([`Lineup::seat`], its seat maker's first) and go back to it
/// ([`Lineup::release`]) at the end.
pub fn play_measured(
    scheduled: &ScheduledGame,
    opening: Opening<'_>,
    lineup: &Lineup,
    adjudicator: Option<&Adjudicator>,
    mut measures: Option<&mut MeasureRecorder>,
    mut on_move: impl FnMut(&Game, Move),
) -> Result<(Game, Option<Forfeit>), GameFailure> {
    let rules = scheduled.rules;
    let mut game = scheduled.start();
    if let Some(m) = measures.as_deref_mut() {
        m.start(game.position());
    }
    match opening {
        Opening::Random { plies } => {
            let mut opening_rng = rng_from_seed(scheduled.opening_seed);
            play_randomly(
                &mut game,
                &mut opening_rng,
                plies,
                measures.as_deref_mut(),
                &mut on_move,
            );
        }
        Opening::Book { plies, .. } => {
            for &mv in plies {
                game.play(mv).expect(
                    "book entries are replayed under these rules when the experiment is read",
                );
                if let Some(m) = measures.as_deref_mut() {
                    m.record(mv, &game);
                }
                on_move(&game, mv);
            }
        }
    }
    let mut rng = rng_from_seed(scheduled.game_seed);
    let index = BySide {
        south: scheduled.south,
        north: scheduled.north,
    };
    let mut seats = index.map(|index| lineup.seat(index));
    for side in Side::BOTH {
        seats[side].new_game(&rules);
    }
    let mut failure = None;
    let mut forfeited = None;
    if seats.south.is_random() && seats.north.is_random() && adjudicator.is_none() {
        // Random self-play, the harness's benchmark: no seat to ask or tell.
        play_randomly(
            &mut game,
            &mut rng,
            u32::MAX,
            measures.as_deref_mut(),
            &mut on_move,
        );
    }
    while !game.is_over() {
        // Adjudication ends the game before a move whose result is known.
        if let Some(verdict) = adjudicator.and_then(|a| a.verdict(&game)) {
            game.adjudicate(verdict.ending, verdict.scores);
            break;
        }
        let side = game.position().side_to_move();
        let mv = match seats[side].play(&mut game, &mut rng) {
            Ok(mv) => mv,
            Err(SeatError::Forfeit(forfeit)) => {
                game.forfeit(forfeit.reason);
                forfeited = Some(forfeit);
                break;
            }
            Err(SeatError::Illegal(mv, reason)) => {
                failure = Some(GameFailure {
                    game_id: scheduled.game_id,
                    agent: lineup.name(index[side]).to_string(),
                    cause: PlayError {
                        side,
                        mv,
                        position: game.position().to_string(),
                        reason,
                        game: Box::new(game.clone()),
                    },
                });
                break;
            }
        };
        if let Some(m) = measures.as_deref_mut() {
            m.record(mv, &game);
        }
        for side in Side::BOTH {
            seats[side].observe(&game, mv);
        }
        on_move(&game, mv);
    }
    for mut seat in [seats.south, seats.north] {
        if failure.is_none() {
            seat.game_over(&game);
        }
        lineup.release(seat);
    }
    if let Some(failure) = failure {
        return Err(failure);
    }
    Ok((game, forfeited))
}

/// Plays up to `plies` uniformly random plies of `game` (fewer if it ends)
/// with `rng` (`Game::play_random`), counting each in `measures` and showing
/// it to `on_move`: a random opening, and a game between two random seats
/// (which have nothing to be told), without asking a seat for each move.
fn play_randomly(
    game: &mut Game,
    rng: &mut AgentRng,
    plies: u32,
    mut measures: Option<&mut MeasureRecorder>,
    on_move: &mut impl FnMut(&Game, Move),
) {
    for _ in 0..plies {
        if game.is_over() {
            break;
        }
        let mv = game.play_random(rng);
        if let Some(m) = measures.as_deref_mut() {
            m.record(mv, game);
        }
        on_move(game, mv);
    }
}

/// Writes the record of a finished game into `row`, reusing its strings.
pub fn fill_row(
    row: &mut GameRow,
    scheduled: &ScheduledGame,
    random_plies: u32,
    lineup: &Lineup,
    game: &Game,
) {
    let outcome = game.outcome().expect("play_game plays to the end");
    fill_row_from(row, scheduled, random_plies, lineup, game.moves(), &outcome);
}

/// As [`fill_row`], from what the row needs of a finished game: its moves
/// (hashed here) and its outcome, so that the game itself need not be kept
/// until its row is written.
pub fn fill_row_from(
    row: &mut GameRow,
    scheduled: &ScheduledGame,
    random_plies: u32,
    lineup: &Lineup,
    moves: &[Move],
    outcome: &Outcome,
) {
    row.game_id = scheduled.game_id;
    row.pair_id = scheduled.pair_id;
    row.variant = scheduled.rules.variant;
    row.holes = scheduled.rules.holes;
    row.seeds = scheduled.rules.seeds;
    row.south.clear();
    row.south.push_str(lineup.name(scheduled.south));
    row.north.clear();
    row.north.push_str(lineup.name(scheduled.north));
    row.game_seed = scheduled.game_seed;
    row.opening.clear();
    for (i, mv) in moves.iter().take(random_plies as usize).enumerate() {
        if i > 0 {
            row.opening.push(' ');
        }
        write!(row.opening, "{mv}").expect("writing to a String cannot fail");
    }
    row.winner = Winner::of(outcome);
    row.south_captures = outcome.scores.south;
    row.north_captures = outcome.scores.north;
    row.plies = outcome.plies;
    row.ending = outcome.ending;
    row.moves_hash = MovesHash::of_moves(moves);
}

/// A row to be filled by [`fill_row`].
pub fn empty_row() -> GameRow {
    GameRow {
        game_id: 0,
        pair_id: 0,
        variant: crate::engine::rules::Variant::I,
        holes: 0,
        seeds: 0,
        south: String::new(),
        north: String::new(),
        game_seed: 0,
        opening: String::new(),
        winner: Winner::Draw,
        south_captures: 0,
        north_captures: 0,
        plies: 0,
        ending: crate::engine::game::Ending::Normal,
        moves_hash: MovesHash(0),
    }
}
