//! A person in a seat of a tournament: `kind = "human"` (in an experiment's
//! `[roster.NAME]`). The agent asks for each move on the terminal with the
//! board, prompt and refusals of `hoyito play` ([`crate::human`]), and shows
//! every move of the game lap by lap. The run plays one game at a time and
//! draws no progress bar while a person sits at the board.
//!
//! The harness owns the game, so `undo` is refused here; `hint` asks an
//! alpha-beta search of [`HumanAgent::HINT_DEPTH`] plies. The trait gives an
//! agent no way to stop the run, so `quit` (or the end of the input) ends the
//! process as a second Ctrl-C does: every game already recorded is kept, and
//! the same command resumes the run from the game that was cut short.

use std::io::{self, BufRead, IsTerminal, Write};

use rand::SeedableRng;
use thiserror::Error;

use crate::agents::alphabeta::{AlphaBeta, AlphaBetaBudget};
use crate::engine::agent_trait::{Agent, AgentRng};
use crate::engine::game::Game;
use crate::engine::moves::Move;
use crate::engine::rules::Rules;
use crate::engine::side::{BySide, Side};
use crate::engine::sowing::Trace;
use crate::human::entry::{read_entry, Entry};
use crate::human::play_session::{prompt, read_line};
use crate::human::view::{board_view, move_lines};

/// Where a human agent reads entries: standard input, or a buffer in tests.
enum Input {
    Stdin,
    Buffer(Box<dyn BufRead + Send>),
}

/// A person choosing moves at a prompt.
pub struct HumanAgent {
    input: Input,
    out: Box<dyn Write + Send>,
    /// The person's seat, known from the first move asked of them.
    seat: Option<Side>,
    /// Whether `quit` and the end of input end the process (the terminal
    /// agent) or make the agent play its first legal move (a test seat).
    exits: bool,
    /// Writes each entry after its prompt when the input is not a terminal
    /// (which echoes it already), so that a transcript reads whole.
    echo: bool,
}

/// Why a person cannot take a seat.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HumanSeatError {
    /// Standard input is closed.
    #[error("standard input is closed, so a human agent cannot read moves: run from a terminal")]
    Closed,
    /// Standard input is a device that is not a terminal, such as /dev/null.
    #[error(
        "standard input is not a terminal and has nothing to read (a device such as /dev/null), \
         so a human agent cannot read moves: run from a terminal or pipe the moves in"
    )]
    NotReadable,
}

/// Checks that standard input can give a person's moves: a terminal, a pipe or
/// a file, not a closed descriptor or a device such as /dev/null.
pub fn check_human_input() -> Result<(), HumanSeatError> {
    let stdin = io::stdin();
    if stdin.is_terminal() {
        return Ok(());
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::FileTypeExt;
        let fd = stdin
            .as_fd()
            .try_clone_to_owned()
            .map_err(|_| HumanSeatError::Closed)?;
        let meta = std::fs::File::from(fd)
            .metadata()
            .map_err(|_| HumanSeatError::Closed)?;
        if meta.file_type().is_char_device() {
            return Err(HumanSeatError::NotReadable);
        }
    }
    Ok(())
}

impl HumanAgent {
    /// Plies of the alpha-beta search that answers `hint`.
    pub const HINT_DEPTH: u32 = 8;

    /// A person at this terminal: entries from standard input, everything shown
    /// on standard error (standard output stays for the run's own lines).
    pub fn terminal() -> HumanAgent {
        HumanAgent {
            input: Input::Stdin,
            out: Box::new(io::stderr()),
            seat: None,
            exits: true,
            echo: !io::stdin().is_terminal(),
        }
    }

    /// A person whose entries come from `input` and who sees `out`. A test
    /// seat never ends the process: after `quit` or the end of the input it
    /// plays its first legal move.
    pub fn with_streams(input: Box<dyn BufRead + Send>, out: Box<dyn Write + Send>) -> HumanAgent {
        HumanAgent {
            input: Input::Buffer(input),
            out,
            seat: None,
            exits: false,
            echo: true,
        }
    }

    fn read(&mut self) -> io::Result<Option<String>> {
        match &mut self.input {
            Input::Stdin => read_line(&mut io::stdin().lock()),
            Input::Buffer(input) => read_line(input),
        }
    }

    fn names(&self) -> BySide<String> {
        let mut names = BySide::new("South".to_string(), "North".to_string());
        if let Some(seat) = self.seat {
            names[seat] = "you".to_string();
            names[seat.opponent()] = "opponent".to_string();
        }
        names
    }

    /// The person quit or the input ended.
    fn stop(&mut self, game: &Game) -> Move {
        let _ = writeln!(
            self.out,
            "\nquit: the run stops in the middle of this game; the games recorded are kept, \
             and the same command resumes the run"
        );
        let _ = self.out.flush();
        if self.exits {
            std::process::exit(130);
        }
        game.legal_moves().first().copied().unwrap_or(Move::Pass)
    }

    fn hint(&mut self, game: &Game) -> Move {
        let mut search = AlphaBeta::new(AlphaBetaBudget {
            depth: Self::HINT_DEPTH,
            nodes: None,
            time_ms: None,
        });
        search.new_game(game.rules());
        // The hint's own generator: asking never draws on the game's.
        search.choose(game, &mut AgentRng::seed_from_u64(0))
    }
}

impl Agent for HumanAgent {
    fn new_game(&mut self, rules: &Rules) {
        let _ = writeln!(
            self.out,
            "\nA new game: Hoyito {} on 2x{} with {} seeds per hole.",
            rules.variant, rules.holes, rules.seeds
        );
    }

    fn choose(&mut self, game: &Game, _rng: &mut AgentRng) -> Move {
        let side = game.position().side_to_move();
        self.seat = Some(side);
        let names = self.names();
        let _ = writeln!(self.out, "\n{}", board_view(game.position(), side, &names));
        loop {
            let _ = write!(self.out, "{}", prompt(game, side));
            let _ = self.out.flush();
            let line = match self.read() {
                Ok(Some(line)) => line,
                Ok(None) | Err(_) => return self.stop(game),
            };
            if self.echo {
                let _ = writeln!(self.out, "{}", line.trim_end());
            }
            let refusal = match read_entry(&line, game) {
                Ok(Entry::Move(mv)) => return mv,
                Ok(Entry::Quit) => return self.stop(game),
                Ok(Entry::Hint) => {
                    let mv = self.hint(game);
                    format!(
                        "  hint: alpha-beta to {} plies would play {mv}",
                        Self::HINT_DEPTH
                    )
                }
                Ok(Entry::Undo) => {
                    "  refused: undo is for `hoyito play`; in a tournament every move stands"
                        .to_string()
                }
                Ok(Entry::Help) => "  a hole number (1 is on your left), pass when nothing \
                     else is legal, hint, or quit (the run resumes with the same command)"
                    .to_string(),
                Err(reason) => format!("  refused: {reason}"),
            };
            let _ = writeln!(self.out, "{refusal}");
        }
    }

    fn observe(&mut self, game: &Game, mv: Move) {
        // Replays the game to the position before `mv` to show its steps.
        let moves = game.moves();
        let mut before = *game.start();
        for &m in &moves[..moves.len().saturating_sub(1)] {
            let Ok((next, _)) = before.play(game.rules(), m) else {
                return;
            };
            before = next;
        }
        let mut trace = Trace::new();
        if before.play_traced(game.rules(), mv, &mut trace).is_err() {
            return;
        }
        let side = before.side_to_move();
        let names = self.names();
        let _ = writeln!(
            self.out,
            "{}",
            move_lines(side, &names[side], mv, &trace, game.position())
        );
        if let Some(outcome) = game.outcome() {
            let _ = writeln!(
                self.out,
                "Game over: {}.",
                crate::human::view::result_line(&outcome, &names)
            );
        }
    }
}
