//! One game as the viewer plays it: every position the engine reached, per
//! ply and per lap, serialized as the JSON that the page embeds. The page's
//! script only shows these positions; it has no rule of the game in it.

use serde::Serialize;
use thiserror::Error;

use crate::engine::game::{Ending, Game, GameError};
use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::Rules;
use crate::engine::side::Side;
use crate::engine::sowing::{CaptureKind, Trace};

use super::laps::{move_laps, Lap, MoveLaps};

/// Who the players were and how the game began, for the viewer's title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameLabels {
    /// The game's id in the run.
    pub game_id: u64,
    /// Its seat-swapped pair.
    pub pair_id: u64,
    /// The agent in South's seat.
    pub south: String,
    /// The agent in North's seat.
    pub north: String,
    /// Plies of the opening (random or book) before the agents took over.
    pub opening_plies: u32,
    /// `random opening` or `book opening`.
    pub opening: &'static str,
}

/// A recorded game that cannot be shown as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ViewError {
    /// A recorded move is illegal where it was played.
    #[error("game {game_id}: {source}")]
    Illegal {
        /// The game.
        game_id: u64,
        /// The engine's reason.
        source: GameError,
    },
    /// The moves stop before the game is over.
    #[error("game {game_id}: the record stops after {plies} plies, before the game is over")]
    Unfinished {
        /// The game.
        game_id: u64,
        /// Plies recorded.
        plies: u32,
    },
    /// The replay ends otherwise than the row of `games.csv` says.
    #[error("game {game_id}: the moves end the game by {replayed}, but games.csv says {recorded}")]
    Ending {
        /// The game.
        game_id: u64,
        /// The recorded ending.
        recorded: Ending,
        /// The replayed ending.
        replayed: Ending,
    },
    /// The engine's trace and its positions disagree (a bug).
    #[error("game {game_id}, ply {ply}: the engine's trace does not match its positions")]
    Trace {
        /// The game.
        game_id: u64,
        /// The ply, from 1.
        ply: u32,
    },
}

/// A position as the page carries it.
#[derive(Debug, Clone, Serialize)]
struct PositionJson {
    /// Seeds per hole in sowing order.
    b: Vec<u8>,
    /// Side to move, `S` or `N` (the engine's, also once the game is over).
    t: char,
    /// Captures, South then North.
    c: [u8; 2],
}

#[derive(Debug, Clone, Serialize)]
struct LapJson {
    /// Pick-up hole (board index).
    f: u8,
    /// Seeds sown.
    s: u8,
    /// Hole of the last seed (board index).
    e: u8,
    /// Board after the lap.
    b: Vec<u8>,
    /// Captures after the lap, South then North.
    c: [u8; 2],
    /// Holes captured in the lap (board indices) and how.
    x: Vec<(u8, &'static str)>,
    /// The engine's words for the lap.
    d: String,
}

#[derive(Debug, Clone, Serialize)]
struct PlyJson {
    /// The mover, `S` or `N`.
    by: char,
    /// The move as recorded (`3`, `pass`).
    mv: String,
    /// Who chose it: an agent's name, or the opening.
    who: String,
    /// Seeds captured by the move.
    cap: u8,
    /// The mover moves again.
    xm: bool,
    /// The last seeds taken: side and count.
    ls: Option<(char, u8)>,
    laps: Vec<LapJson>,
    /// The position after the move.
    to: PositionJson,
}

#[derive(Debug, Clone, Serialize)]
struct GameJson {
    id: u64,
    pair: u64,
    title: String,
    south: String,
    north: String,
    /// Holes per row.
    n: u8,
    start: PositionJson,
    plies: Vec<PlyJson>,
    /// The ending's name, as in `games.csv`.
    ending: &'static str,
    /// The result in words.
    result: String,
}

/// A game ready for the viewer.
#[derive(Debug, Clone)]
pub struct GameView {
    json: GameJson,
}

impl GameView {
    /// Replays `moves` from the start position of `rules` with the engine,
    /// recording every ply and lap; a recorded forfeit (`ending`) ends the
    /// game after the last move, and any other ending must be the one the
    /// moves reach.
    pub fn replay(
        labels: &GameLabels,
        rules: &Rules,
        moves: &[Move],
        ending: Ending,
    ) -> Result<GameView, ViewError> {
        let game_id = labels.game_id;
        let mut game = Game::new(*rules);
        let start = position_json(game.position());
        let mut plies = Vec::with_capacity(moves.len());
        for &mv in moves {
            let before = *game.position();
            let mut trace = Trace::new();
            let effect = game
                .play_traced(mv, &mut trace)
                .map_err(|source| ViewError::Illegal { game_id, source })?;
            let ply = game.plies();
            let laps = move_laps(&before, game.position(), &trace)
                .map_err(|_| ViewError::Trace { game_id, ply })?;
            let who = match ply <= labels.opening_plies {
                true => labels.opening.to_string(),
                false => match before.side_to_move() {
                    Side::South => labels.south.clone(),
                    Side::North => labels.north.clone(),
                },
            };
            plies.push(ply_json(&before, mv, who, effect.captured, laps, &game));
        }
        if let Some(reason) = ending.forfeit_reason() {
            game.forfeit(reason);
        }
        let outcome = game.outcome().ok_or(ViewError::Unfinished {
            game_id,
            plies: game.plies(),
        })?;
        if outcome.ending != ending {
            return Err(ViewError::Ending {
                game_id,
                recorded: ending,
                replayed: outcome.ending,
            });
        }
        let result = match outcome.winner {
            Some(side) => format!("{side} wins"),
            None => "draw".to_string(),
        };
        let json = GameJson {
            id: game_id,
            pair: labels.pair_id,
            title: format!(
                "Hoyito {} on 2x{}, {} seeds per hole",
                rules.variant.name().to_uppercase(),
                rules.holes,
                rules.seeds
            ),
            south: labels.south.clone(),
            north: labels.north.clone(),
            n: rules.holes,
            start,
            plies,
            ending: ending.name(),
            result: format!(
                "{result}, South {} North {}, after {} plies; ended: {}",
                outcome.scores.south,
                outcome.scores.north,
                outcome.plies,
                ending_words(ending)
            ),
        };
        Ok(GameView { json })
    }

    /// The game's id.
    pub fn game_id(&self) -> u64 {
        self.json.id
    }

    /// The JSON the page embeds, safe inside a `<script>` element.
    pub fn to_json(&self) -> String {
        let text = serde_json::to_string(&self.json).expect("plain data serializes");
        text.replace("</", "<\\/")
    }
}

/// The ending as the viewer states it.
fn ending_words(ending: Ending) -> String {
    let how = match ending {
        Ending::Normal => "the last seeds were taken",
        Ending::Repetition => "a position occurred for the third time since the last capture",
        Ending::NoCaptureLimit => "the no-capture limit was reached",
        Ending::ForfeitCrash => "the side to move forfeited: its agent crashed",
        Ending::ForfeitTimeout => "the side to move forfeited: its agent ran out of time",
        Ending::ForfeitProtocol => "the side to move forfeited: its agent broke the protocol",
        Ending::ForfeitIllegal => "the side to move forfeited: its agent named an illegal move",
        Ending::Tablebase => {
            "adjudicated by the endgame tables: the rest of the game is perfect play's, \
             its captures credited so that the margin is the tables' exact value"
        }
        Ending::Decided => {
            "adjudicated as decided: one side had captured more than half of all seeds; \
             the margin is a lower bound"
        }
    };
    format!("{} ({how})", ending.name())
}

fn position_json(pos: &Position) -> PositionJson {
    let c = pos.captures();
    PositionJson {
        b: pos.board().to_vec(),
        t: pos.side_to_move().letter(),
        c: [c.south, c.north],
    }
}

fn capture_name(kind: CaptureKind) -> &'static str {
    match kind {
        CaptureKind::EnPassant => "en passant",
        CaptureKind::Casa => "casa",
        CaptureKind::Chain => "chain",
    }
}

fn lap_json(lap: Lap) -> LapJson {
    LapJson {
        f: lap.from,
        s: lap.seeds,
        e: lap.last,
        b: lap.board,
        c: [lap.stores.south, lap.stores.north],
        x: lap
            .captures
            .into_iter()
            .map(|(hole, kind)| (hole, capture_name(kind)))
            .collect(),
        d: lap.text.join("; "),
    }
}

fn ply_json(
    before: &Position,
    mv: Move,
    who: String,
    captured: u8,
    laps: MoveLaps,
    game: &Game,
) -> PlyJson {
    PlyJson {
        by: before.side_to_move().letter(),
        mv: mv.to_string(),
        who,
        cap: captured + laps.last_seeds.map_or(0, |(_, seeds)| seeds),
        xm: laps.extra_move,
        ls: laps.last_seeds.map(|(side, seeds)| (side.letter(), seeds)),
        laps: laps.laps.into_iter().map(lap_json).collect(),
        to: position_json(game.position()),
    }
}
