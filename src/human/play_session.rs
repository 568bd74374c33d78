//! A person against an agent over any text streams: `hoyito play` runs it on
//! the terminal, the tests over in-memory buffers.
//!
//! The session owns the game, so it can take moves back: `undo` replays the
//! game from its start without the person's last move and the replies to it,
//! and tells the agent of the shortened game as of a new one. The agent draws
//! on a ChaCha generator seeded from the session's seed and the hint agent on
//! another stream of the same seed, so asking for a hint never changes what the
//! agent plays: the same seed and the same entries give the same game. An
//! agent that forfeits (an external program that crashed, hung or broke the
//! protocol) loses the game, as in a tournament.

use std::io::{self, BufRead, Write};

use rand::SeedableRng;
use thiserror::Error;

use crate::engine::agent_trait::{Agent, AgentRng};
use crate::engine::game::{Game, Outcome};
use crate::engine::game_loop::PlayError;
use crate::engine::moves::Move;
use crate::engine::rules::Rules;
use crate::engine::side::{BySide, Side};
use crate::engine::sowing::Trace;
use crate::human::entry::{read_entry, Entry};
use crate::human::view::{apply_line, board_view, legal_list, move_lines, move_text, result_line};

/// An agent with the name it is shown under.
pub struct Player {
    /// The roster name, e.g. `greedy`.
    pub name: String,
    /// The agent.
    pub agent: Box<dyn Agent>,
}

/// How the hint agent answers a position: its move and its search's `name
/// value` lines (as `hoyito best` prints them: `score`, `depth`, `pv`...),
/// or why it gave none. A closure, so that this layer needs no agent spec
/// (`hoyito play` passes `hoyito::analyse` over the agent's spec).
pub type HintFn = Box<dyn FnMut(&Game, &mut AgentRng) -> Result<(Move, Vec<String>), String>>;

/// The agent that answers `hint`, with its score and principal variation
/// where it searches.
pub struct HintAgent {
    /// The name it is shown under, e.g. `alphabeta-d16`.
    pub name: String,
    /// Asks it about a position.
    pub ask: HintFn,
}

/// Everything a session needs.
pub struct PlaySetup {
    /// The rules of the game.
    pub rules: Rules,
    /// The person's seat.
    pub human: Side,
    /// The agent in the other seat.
    pub opponent: Player,
    /// The agent that answers `hint`.
    pub hint: HintAgent,
    /// Seeds the generators of both agents.
    pub seed: u64,
    /// Writes each entry after its prompt, for input that is not typed on a
    /// terminal (which echoes it already), so that a transcript reads whole.
    pub echo: bool,
}

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionEnd {
    /// The game was played to its end.
    Finished(Outcome),
    /// The person quit (or the input ended) before the end.
    Quit,
}

/// The game as it stood when the session ended, and how it ended.
#[derive(Debug, Clone)]
pub struct SessionReport {
    /// The game, from its start to the last move played.
    pub game: Game,
    /// Finished or quit.
    pub end: SessionEnd,
}

/// Why a session stopped before its end.
#[derive(Debug, Error)]
pub enum SessionError {
    /// The input cannot be read or the output written.
    #[error("cannot talk to the player")]
    Io(#[from] io::Error),
    /// The agent chose an illegal move: a bug in that agent.
    #[error(transparent)]
    Agent(#[from] Box<PlayError>),
}

/// The commands, as `help` prints them.
const HELP: &str = "  a hole number: sow that hole of yours (1 is on your left)\n  \
     pass: only when no sowing is legal\n  \
     undo: take back your last move and the replies to it\n  \
     hint: the move the hint agent would play, with its score and expected line\n  \
     quit: stop here (so does the end of the input)";

/// The prompt for `side` in `game`, listing the legal moves.
pub fn prompt(game: &Game, side: Side) -> String {
    format!("Your move ({side}), legal: {} > ", legal_list(game))
}

/// Reads one line; `None` at the end of the input. Bytes that are not UTF-8
/// are replaced, so they are refused as an entry rather than ending the game.
pub fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut bytes = Vec::new();
    if input.read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

/// Plays a whole session: the person's entries come from `input`, everything
/// the person sees goes to `out`.
pub fn play_session(
    setup: PlaySetup,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<SessionReport, SessionError> {
    let mut session = Session::new(setup);
    session.run(input, out)
}

struct Session {
    game: Game,
    human: Side,
    opponent: Player,
    hint: HintAgent,
    names: BySide<String>,
    rng: AgentRng,
    hint_rng: AgentRng,
    echo: bool,
}

impl Session {
    fn new(setup: PlaySetup) -> Session {
        let mut names = BySide::new(String::new(), String::new());
        names[setup.human] = "you".to_string();
        names[setup.human.opponent()] = setup.opponent.name.clone();
        let rng = AgentRng::seed_from_u64(setup.seed);
        let mut hint_rng = AgentRng::seed_from_u64(setup.seed);
        hint_rng.set_stream(1);
        let mut opponent = setup.opponent;
        opponent.agent.new_game(&setup.rules);
        Session {
            game: Game::new(setup.rules),
            human: setup.human,
            opponent,
            hint: setup.hint,
            names,
            rng,
            hint_rng,
            echo: setup.echo,
        }
    }

    fn run(
        &mut self,
        input: &mut impl BufRead,
        out: &mut impl Write,
    ) -> Result<SessionReport, SessionError> {
        let rules = self.game.rules();
        writeln!(
            out,
            "Hoyito {} on 2x{} with {} seeds per hole: you are {} against {} ({}); South moves first.",
            rules.variant,
            rules.holes,
            rules.seeds,
            self.human,
            self.opponent.name,
            self.human.opponent()
        )?;
        writeln!(
            out,
            "Type a hole number to sow it, or pass, undo, hint, quit, help."
        )?;
        let mut draw = true;
        while !self.game.is_over() {
            if self.game.position().side_to_move() != self.human {
                self.agent_move(out)?;
                draw = true;
                continue;
            }
            if draw {
                writeln!(out, "\n{}", self.board())?;
            }
            write!(out, "{}", prompt(&self.game, self.human))?;
            out.flush()?;
            let Some(line) = read_line(input)? else {
                writeln!(out)?;
                return self.quit(out);
            };
            draw = false;
            if self.echo {
                writeln!(out, "{}", line.trim_end())?;
            }
            match read_entry(&line, &self.game) {
                Err(reason) => writeln!(out, "  refused: {reason}")?,
                Ok(Entry::Move(mv)) => {
                    self.play(mv, out)?;
                    draw = true;
                }
                Ok(Entry::Undo) => draw = self.undo(out)?,
                Ok(Entry::Hint) => self.give_hint(out)?,
                Ok(Entry::Help) => writeln!(out, "{HELP}")?,
                Ok(Entry::Quit) => return self.quit(out),
            }
        }
        let outcome = self.game.outcome().expect("the loop ends with the game");
        self.opponent.agent.game_over(&self.game);
        writeln!(out, "\n{}", self.board())?;
        writeln!(out, "Game over: {}.", result_line(&outcome, &self.names))?;
        self.summary(out)?;
        Ok(SessionReport {
            game: self.game.clone(),
            end: SessionEnd::Finished(outcome),
        })
    }

    fn board(&self) -> String {
        board_view(self.game.position(), self.human, &self.names)
    }

    /// Plays a legal move and shows it step by step.
    fn play(&mut self, mv: Move, out: &mut impl Write) -> io::Result<()> {
        let side = self.game.position().side_to_move();
        let mut trace = Trace::new();
        self.game
            .play_traced(mv, &mut trace)
            .expect("the move was checked");
        self.opponent.agent.observe(&self.game, mv);
        writeln!(
            out,
            "{}",
            move_lines(side, &self.names[side], mv, &trace, self.game.position())
        )
    }

    fn agent_move(&mut self, out: &mut impl Write) -> Result<(), SessionError> {
        let side = self.game.position().side_to_move();
        let mv = match self.opponent.agent.try_choose(&self.game, &mut self.rng) {
            Ok(mv) => mv,
            Err(forfeit) => {
                writeln!(out, "{side} ({}) loses by {forfeit}", self.opponent.name)?;
                self.game.forfeit(forfeit.reason);
                return Ok(());
            }
        };
        if let Err(reason) = self.game.position().play(self.game.rules(), mv) {
            let game = self.game.clone();
            return Err(Box::new(PlayError {
                side,
                mv,
                position: game.position().to_string(),
                reason: crate::engine::game::GameError::Illegal {
                    mv,
                    ply: game.plies(),
                    reason,
                },
                game: Box::new(game),
            })
            .into());
        }
        self.play(mv, out)?;
        Ok(())
    }

    /// Takes back the person's last move and every move after it; says whether
    /// the board changed.
    fn undo(&mut self, out: &mut impl Write) -> io::Result<bool> {
        let rules = *self.game.rules();
        let moves = self.game.moves().to_vec();
        let mut replay = Game::from_position(rules, *self.game.start());
        let mut movers = Vec::with_capacity(moves.len());
        for &mv in &moves {
            movers.push(replay.position().side_to_move());
            replay.play(mv).expect("the game's own moves replay");
        }
        let Some(last) = movers.iter().rposition(|&side| side == self.human) else {
            writeln!(out, "  refused: nothing to undo: you have not moved yet")?;
            return Ok(false);
        };
        let mut game = Game::from_position(rules, *self.game.start());
        self.opponent.agent.new_game(&rules);
        for &mv in &moves[..last] {
            game.play(mv).expect("the game's own moves replay");
            self.opponent.agent.observe(&game, mv);
        }
        self.game = game;
        let replies = &moves[last + 1..];
        if replies.is_empty() {
            writeln!(out, "Undo: took back your move {}.", moves[last])?;
        } else {
            writeln!(
                out,
                "Undo: took back your move {} and the replies {}.",
                moves[last],
                move_text(replies)
            )?;
        }
        Ok(true)
    }

    /// The hint agent's move, then what its search says of it: the score
    /// (the final seed margin for the person with best play on both sides,
    /// as far as the search sees) and the line it expects.
    fn give_hint(&mut self, out: &mut impl Write) -> io::Result<()> {
        let name = &self.hint.name;
        match (self.hint.ask)(&self.game, &mut self.hint_rng) {
            Ok((mv, lines)) => {
                writeln!(out, "  hint: {name} would play {mv}")?;
                if let Some(line) = hint_search_line(&lines) {
                    writeln!(out, "  hint: {line}")?;
                }
                Ok(())
            }
            Err(err) => writeln!(out, "  hint: {name} gave no move: {err}"),
        }
    }

    fn quit(&mut self, out: &mut impl Write) -> Result<SessionReport, SessionError> {
        writeln!(
            out,
            "You quit after {} plies; the game is unfinished.",
            self.game.plies()
        )?;
        self.summary(out)?;
        Ok(SessionReport {
            game: self.game.clone(),
            end: SessionEnd::Quit,
        })
    }

    /// The moves, the position reached and the command that reproduces it.
    fn summary(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "Moves: {}", move_text(self.game.moves()))?;
        writeln!(out, "Final position: {}", self.game.position())?;
        writeln!(out, "Reproduce it with: {}", apply_line(&self.game))?;
        out.flush()
    }
}

/// One line from an analysis's `name value` lines: the score, depth and
/// principal variation of a search, or the mean reward of MCTS; `None` for
/// an agent that reports only its move.
fn hint_search_line(lines: &[String]) -> Option<String> {
    let value = |name: &str| {
        lines
            .iter()
            .find_map(|l| l.strip_prefix(name).and_then(|v| v.strip_prefix(' ')))
    };
    if let Some(score) = value("score") {
        let depth = value("depth").unwrap_or("?");
        let pv = value("pv").unwrap_or("");
        Some(format!(
            "score {score} seeds for you (final margin with best play, searched {depth} plies); \
             expected line {pv}"
        ))
    } else {
        value("mean").map(|mean| {
            let playouts = value("iterations").unwrap_or("?");
            format!("mean reward {mean} for you over {playouts} playouts (0 lost, 1 won)")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hint_reports_the_search_it_has() {
        let ab = ["depth 6", "score +3", "nodes 9", "visited 9", "pv 6 2 1"].map(String::from);
        assert_eq!(
            hint_search_line(&ab).unwrap(),
            "score +3 seeds for you (final margin with best play, searched 6 plies); \
             expected line 6 2 1"
        );
        let mcts = ["iterations 300", "root_visits 300", "mean 0.610"].map(String::from);
        assert!(hint_search_line(&mcts)
            .unwrap()
            .starts_with("mean reward 0.610"));
        assert_eq!(hint_search_line(&[]), None);
    }
}
