//! The messages of the agent protocol, version 1, with their exact text: one
//! message per line, words separated by single spaces (agents/PROTOCOL.md).
//!
//! Each message is a value that prints as its line and parses back from it, so
//! the harness, the tests and the documentation share one spelling. Parsing
//! names what is wrong with a line, because a forfeit for a protocol error must
//! tell the agent's author what their program wrote.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::Variant;
use crate::engine::side::{BySide, Side};

/// The protocol version this harness speaks (`hoyito 1`).
pub const PROTOCOL_VERSION: u32 = 1;

/// A line that is not a message of the protocol.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("not a protocol message ({problem}): {line:?}")]
pub struct ParseMessageError {
    /// The line as read, cut to 200 characters.
    pub line: String,
    /// What is wrong with it.
    pub problem: String,
}

impl ParseMessageError {
    fn new(line: &str, problem: impl Into<String>) -> ParseMessageError {
        ParseMessageError {
            line: line.chars().take(200).collect(),
            problem: problem.into(),
        }
    }
}

/// The result of a finished game, as `gameover` writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// A side won.
    Win(Side),
    /// Equal captures.
    Draw,
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Win(side) => f.write_str(side_letter(*side)),
            GameResult::Draw => f.write_str("draw"),
        }
    }
}

fn side_letter(side: Side) -> &'static str {
    match side {
        Side::South => "S",
        Side::North => "N",
    }
}

fn parse_side(word: &str) -> Option<Side> {
    match word {
        "S" => Some(Side::South),
        "N" => Some(Side::North),
        _ => None,
    }
}

/// A message from the harness to an agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HarnessMessage {
    /// `hoyito VERSION`: the handshake.
    Hello {
        /// The protocol version, [`PROTOCOL_VERSION`].
        version: u32,
    },
    /// `newgame VARIANT HOLES SEEDS SEAT seed=N [KEY=VALUE ...]`: a game starts.
    NewGame {
        /// Which Hoyito.
        variant: Variant,
        /// Holes per row.
        holes: u8,
        /// Seeds per hole at the start.
        seeds: u8,
        /// The agent's seat.
        seat: Side,
        /// A per-game seed from the game's generator.
        seed: u64,
        /// The rules options, `key=value` in the order written.
        options: Vec<(String, String)>,
    },
    /// `go POS legal M1 M2 ... [nodes=N] [time_ms=T]`: the agent is to move.
    Go {
        /// The position, in the notation of RULES.md.
        position: Position,
        /// The legal moves, in the engine's order.
        legal: Vec<Move>,
        /// An optional node budget.
        nodes: Option<u64>,
        /// An optional time budget in milliseconds.
        time_ms: Option<u64>,
    },
    /// `moved M`: a ply the agent did not choose (the opponent's or the opening's).
    Moved(Move),
    /// `gameover RESULT S-N ENDING`: the game is over.
    GameOver {
        /// Who won.
        result: GameResult,
        /// Final seeds of each side.
        captures: BySide<u8>,
        /// How the game ended, as `games.csv` names it.
        ending: String,
    },
    /// `quit`: the agent exits.
    Quit,
}

impl fmt::Display for HarnessMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HarnessMessage::Hello { version } => write!(f, "hoyito {version}"),
            HarnessMessage::NewGame {
                variant,
                holes,
                seeds,
                seat,
                seed,
                options,
            } => {
                let seat = side_letter(*seat);
                write!(f, "newgame {variant} {holes} {seeds} {seat} seed={seed}")?;
                for (key, value) in options {
                    write!(f, " {key}={value}")?;
                }
                Ok(())
            }
            HarnessMessage::Go {
                position,
                legal,
                nodes,
                time_ms,
            } => {
                write!(f, "go {position} legal")?;
                for mv in legal {
                    write!(f, " {mv}")?;
                }
                if let Some(n) = nodes {
                    write!(f, " nodes={n}")?;
                }
                if let Some(t) = time_ms {
                    write!(f, " time_ms={t}")?;
                }
                Ok(())
            }
            HarnessMessage::Moved(mv) => write!(f, "moved {mv}"),
            HarnessMessage::GameOver {
                result,
                captures,
                ending,
            } => write!(
                f,
                "gameover {result} {}-{} {ending}",
                captures.south, captures.north
            ),
            HarnessMessage::Quit => f.write_str("quit"),
        }
    }
}

fn number<T: FromStr>(line: &str, word: &str, what: &str) -> Result<T, ParseMessageError> {
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseMessageError::new(
            line,
            format!("{what} {word:?} is not a number"),
        ));
    }
    word.parse()
        .map_err(|_| ParseMessageError::new(line, format!("{what} {word:?} is out of range")))
}

fn parse_move(line: &str, word: &str) -> Result<Move, ParseMessageError> {
    word.parse()
        .map_err(|e: crate::engine::moves::ParseMoveError| {
            ParseMessageError::new(line, e.to_string())
        })
}

impl FromStr for HarnessMessage {
    type Err = ParseMessageError;

    fn from_str(line: &str) -> Result<HarnessMessage, ParseMessageError> {
        let words: Vec<&str> = line.split(' ').collect();
        let wrong = |problem: &str| ParseMessageError::new(line, problem);
        match words[..] {
            ["hoyito", version] => Ok(HarnessMessage::Hello {
                version: number(line, version, "version")?,
            }),
            ["newgame", variant, holes, seeds, seat, ref rest @ ..] => {
                let variant = variant
                    .parse()
                    .map_err(|_| wrong("unknown variant: expected i, ii or iii"))?;
                let seat = parse_side(seat).ok_or_else(|| wrong("seat must be S or N"))?;
                let mut seed = None;
                let mut options = Vec::new();
                for word in rest {
                    let (key, value) = word
                        .split_once('=')
                        .ok_or_else(|| wrong("options are written key=value"))?;
                    if key == "seed" {
                        seed = Some(number(line, value, "seed")?);
                    } else {
                        options.push((key.to_string(), value.to_string()));
                    }
                }
                Ok(HarnessMessage::NewGame {
                    variant,
                    holes: number(line, holes, "holes")?,
                    seeds: number(line, seeds, "seeds")?,
                    seat,
                    seed: seed.ok_or_else(|| wrong("seed=N is missing"))?,
                    options,
                })
            }
            ["go", board, side, captures, "legal", ref rest @ ..] => {
                let position = format!("{board} {side} {captures}").parse().map_err(
                    |e: crate::engine::notation::ParsePositionError| wrong(&e.to_string()),
                )?;
                let mut legal = Vec::new();
                let (mut nodes, mut time_ms) = (None, None);
                for word in rest {
                    match word.split_once('=') {
                        Some(("nodes", n)) => nodes = Some(number(line, n, "nodes")?),
                        Some(("time_ms", t)) => time_ms = Some(number(line, t, "time_ms")?),
                        Some(_) => {
                            return Err(wrong("unknown budget: expected nodes= or time_ms="))
                        }
                        None => legal.push(parse_move(line, word)?),
                    }
                }
                if legal.is_empty() {
                    return Err(wrong("no legal move listed"));
                }
                Ok(HarnessMessage::Go {
                    position,
                    legal,
                    nodes,
                    time_ms,
                })
            }
            ["moved", mv] => Ok(HarnessMessage::Moved(parse_move(line, mv)?)),
            ["gameover", result, captures, ending] => {
                let result = match result {
                    "draw" => GameResult::Draw,
                    side => GameResult::Win(
                        parse_side(side).ok_or_else(|| wrong("result must be S, N or draw"))?,
                    ),
                };
                let (south, north) = captures
                    .split_once('-')
                    .ok_or_else(|| wrong("captures are written S-N"))?;
                Ok(HarnessMessage::GameOver {
                    result,
                    captures: BySide {
                        south: number(line, south, "captures")?,
                        north: number(line, north, "captures")?,
                    },
                    ending: ending.to_string(),
                })
            }
            ["quit"] => Ok(HarnessMessage::Quit),
            _ => Err(wrong("unknown message or wrong number of words")),
        }
    }
}

/// A message from an agent to the harness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentMessage {
    /// `ready NAME`: the handshake's answer; the name is informative.
    Ready(String),
    /// `move M`: the agent's choice.
    Move(Move),
}

impl fmt::Display for AgentMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentMessage::Ready(name) => write!(f, "ready {name}"),
            AgentMessage::Move(mv) => write!(f, "move {mv}"),
        }
    }
}

impl FromStr for AgentMessage {
    type Err = ParseMessageError;

    /// Reads an agent's line; a trailing carriage return (Windows line ends) is
    /// forgiven, nothing else is.
    fn from_str(line: &str) -> Result<AgentMessage, ParseMessageError> {
        let text = line.strip_suffix('\r').unwrap_or(line);
        match text.split_once(' ') {
            Some(("ready", name)) if !name.is_empty() => Ok(AgentMessage::Ready(name.to_string())),
            Some(("move", mv)) => Ok(AgentMessage::Move(parse_move(line, mv)?)),
            _ => Err(ParseMessageError::new(
                line,
                "expected \"ready NAME\" or \"move M\"",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(line: &str) -> HarnessMessage {
        let msg: HarnessMessage = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(msg.to_string(), line);
        msg
    }

    #[test]
    fn every_harness_message_prints_and_parses_back() {
        assert_eq!(round_trip("hoyito 1"), HarnessMessage::Hello { version: 1 });
        let newgame =
            round_trip("newgame ii 6 4 N seed=17 no_capture_limit=200 repetitions=3 leftover=none");
        assert_eq!(
            newgame,
            HarnessMessage::NewGame {
                variant: Variant::Ii,
                holes: 6,
                seeds: 4,
                seat: Side::North,
                seed: 17,
                options: vec![
                    ("no_capture_limit".into(), "200".into()),
                    ("repetitions".into(), "3".into()),
                    ("leftover".into(), "none".into()),
                ],
            }
        );
        let go = round_trip("go 4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 legal 1 2 3 4 5 6");
        let HarnessMessage::Go {
            legal,
            nodes,
            time_ms,
            ..
        } = go
        else {
            panic!("{go:?}")
        };
        assert_eq!(legal.len(), 6);
        assert_eq!((nodes, time_ms), (None, None));
        let budget = round_trip("go 0,0,0/1,0,2 S 5-4 legal pass nodes=1000 time_ms=50");
        assert!(matches!(
            budget,
            HarnessMessage::Go {
                nodes: Some(1000),
                time_ms: Some(50),
                ..
            }
        ));
        assert_eq!(round_trip("moved pass"), HarnessMessage::Moved(Move::Pass));
        assert_eq!(round_trip("moved 12"), HarnessMessage::Moved(Move::Sow(11)));
        assert_eq!(
            round_trip("gameover N 20-28 normal"),
            HarnessMessage::GameOver {
                result: GameResult::Win(Side::North),
                captures: BySide {
                    south: 20,
                    north: 28
                },
                ending: "normal".into(),
            }
        );
        round_trip("gameover draw 24-24 forfeit-timeout");
        assert_eq!(round_trip("quit"), HarnessMessage::Quit);
    }

    #[test]
    fn agent_messages_print_and_parse_back() {
        for (line, msg) in [
            (
                "ready py-random 0.1",
                AgentMessage::Ready("py-random 0.1".into()),
            ),
            ("move 3", AgentMessage::Move(Move::Sow(2))),
            ("move pass", AgentMessage::Move(Move::Pass)),
        ] {
            assert_eq!(line.parse::<AgentMessage>(), Ok(msg.clone()));
            assert_eq!(msg.to_string(), line);
        }
        assert_eq!(
            "move 4\r".parse::<AgentMessage>(),
            Ok(AgentMessage::Move(Move::Sow(3)))
        );
    }

    #[test]
    fn bad_lines_are_refused_with_the_reason() {
        for (line, problem) in [
            ("move", "expected"),
            ("move 0", "cannot read move"),
            ("move  3", "cannot read move"),
            ("moves 3", "expected"),
            ("ready", "expected"),
            ("hello", "expected"),
        ] {
            let err = line.parse::<AgentMessage>().unwrap_err();
            assert!(err.problem.contains(problem), "{line}: {err}");
        }
        for (line, problem) in [
            ("newgame iv 6 4 S seed=1", "variant"),
            ("newgame ii 6 4 S", "seed=N is missing"),
            ("newgame ii 6 4 X seed=1", "seat"),
            ("go 4,4/4,4 S 0-0 legal", "no legal move"),
            ("go 4,4/4,4 S 0-0 legal 1 depth=3", "unknown budget"),
            ("go 4,4/4 S 0-0 legal 1", "different length"),
            ("gameover S 20:28 normal", "S-N"),
            ("hoyito one", "not a number"),
            ("quit now", "unknown message"),
        ] {
            let err = line.parse::<HarnessMessage>().unwrap_err();
            assert!(err.problem.contains(problem), "{line}: {err}");
        }
    }
}
