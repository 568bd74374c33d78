//! A run's games as PGN, so that users can rate agents with the tools they
//! already trust (Ordo, BayesElo), which read the Seven Tag Roster and the
//! result and nothing else.
//!
//! Source: Steven J. Edwards, "Standard: Portable Game Notation Specification
//! and Implementation Guide" (1994): tag pairs and their escapes (8.1), the
//! Seven Tag Roster in its order (8.1.1; unknown date `????.??.??`,
//! 8.1.1.3), other tags after it in ASCII order (8.1.1), brace comments (5),
//! game termination markers (8.2.6) and export lines of at most 79 columns
//! (8.2.2.2). White is South (who moves first), Black is North. Mancala moves
//! are not chess moves, so the movetext is only the result, with the game's
//! moves in comments: the plies of its opening (random plies or a book
//! line, not chosen by the players) first and marked, then the players'
//! moves: `{opening: 3 6} {moves: 5 pass 2} 1-0`. The `Opening` tag repeats
//! the opening plies, so a reader that skips comments still knows where the
//! players' game began.
//!
//! Export streams: one row of `games.csv` and one of `moves.csv` at a time.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::config::error::ConfigError;
use super::config::experiment::Experiment;
use crate::records::game_row::{GameRow, Winner};
use crate::records::moves_file::{MovesFileError, MovesReader, MovesRow, MOVES_FILE};
use crate::records::moves_hash::move_token;
use crate::records::run_files::{EXPERIMENT_FILE, GAMES_FILE};
use crate::records::safe_file::create_temp;

/// The longest line written (PGN export format).
const MAX_LINE: usize = 79;

/// A run directory that cannot be exported.
#[derive(Debug, Error)]
pub enum PgnError {
    /// `experiment.toml` is missing or invalid.
    #[error(transparent)]
    Experiment(#[from] ConfigError),
    /// `games.csv` cannot be read.
    #[error("{}: {message}", path.display())]
    Games {
        /// The file.
        path: PathBuf,
        /// What is wrong, with the line when known.
        message: String,
    },
    /// `moves.csv` cannot be read.
    #[error(transparent)]
    Moves(#[from] MovesFileError),
    /// The two files do not hold the same games.
    #[error("{}: {message}", path.display())]
    Mismatch {
        /// `moves.csv`.
        path: PathBuf,
        /// Which game and how.
        message: String,
    },
    /// The PGN could not be written (the cause is the source, not repeated
    /// in the message).
    #[error("cannot write the PGN")]
    Write(#[from] io::Error),
}

/// What an export wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PgnSummary {
    /// Games written.
    pub games: u64,
    /// Whether they carry their moves (the run recorded them).
    pub with_moves: bool,
}

/// The PGN result token of a game: White is South.
pub fn pgn_result(winner: Winner) -> &'static str {
    match winner {
        Winner::S => "1-0",
        Winner::N => "0-1",
        Winner::Draw => "1/2-1/2",
    }
}

/// Writes every game of the run directory `dir` to `out` as PGN, in game-id
/// order, with its moves when the run recorded them (`moves.csv` present and
/// `[record] moves` on); each record is checked against the game's hash.
pub fn export_pgn(dir: &Path, mut out: impl Write) -> Result<PgnSummary, PgnError> {
    let experiment = Experiment::load(&dir.join(EXPERIMENT_FILE))?;
    let games_path = dir.join(GAMES_FILE);
    let moves_path = dir.join(MOVES_FILE);
    let games_error = |message: String| PgnError::Games {
        path: games_path.clone(),
        message,
    };
    let file = crate::records::safe_file::open_regular(&games_path)
        .map_err(|e| games_error(e.to_string()))?;
    let mut games = csv::Reader::from_reader(file);
    let headers = games
        .headers()
        .map_err(|e| games_error(e.to_string()))?
        .clone();
    let mut moves = match experiment.record.moves && moves_path.exists() {
        true => Some(MovesReader::open(&moves_path)?),
        false => None,
    };
    let mismatch = |message: String| PgnError::Mismatch {
        path: moves_path.clone(),
        message,
    };
    let mut record = csv::StringRecord::new();
    let mut moves_row = MovesRow::default();
    let mut written = 0;
    while games
        .read_record(&mut record)
        .map_err(|e| games_error(e.to_string()))?
    {
        let row: GameRow = record.deserialize(Some(&headers)).map_err(|e| {
            let line = record.position().map_or(0, |p| p.line());
            games_error(format!("line {line}: {e}"))
        })?;
        let game_moves = match moves.as_mut() {
            None => None,
            Some(reader) => {
                if !reader.next_row(&mut moves_row)? {
                    return Err(mismatch(format!(
                        "no row for game {} (is the run still going? rerun it to finish)",
                        row.game_id
                    )));
                }
                if moves_row.game_id != row.game_id {
                    return Err(mismatch(format!(
                        "line {}: game {} where {GAMES_FILE} has game {}",
                        reader.line(),
                        moves_row.game_id,
                        row.game_id
                    )));
                }
                if moves_row.hash() != row.moves_hash {
                    return Err(mismatch(format!(
                        "line {}: the moves of game {} do not match its moves_hash in {GAMES_FILE}",
                        reader.line(),
                        row.game_id
                    )));
                }
                Some(moves_row.moves.as_slice())
            }
        };
        let date = experiment.date.pgn();
        write_pgn_game(&mut out, &experiment.name, &date, &row, game_moves)?;
        written += 1;
    }
    out.flush()?;
    Ok(PgnSummary {
        games: written,
        with_moves: moves.is_some(),
    })
}

/// Writes one game: the Seven Tag Roster, the hoyito tags, a blank line, the
/// movetext (moves as a comment when given, then the result) and a blank line.
/// `date` is the `Date` tag's value, `YYYY.MM.DD` or `????.??.??` when not
/// known ([`crate::tournament::RunDate::pgn`]).
pub fn write_pgn_game(
    out: &mut impl Write,
    event: &str,
    date: &str,
    row: &GameRow,
    moves: Option<&[crate::engine::moves::Move]>,
) -> io::Result<()> {
    let result = pgn_result(row.winner);
    let tags: [(&str, String); 15] = [
        ("Event", event.to_string()),
        ("Site", "hoyito".to_string()),
        ("Date", date.to_string()),
        ("Round", (row.game_id + 1).to_string()),
        ("White", row.south.clone()),
        ("Black", row.north.clone()),
        ("Result", result.to_string()),
        // Then the others, in ASCII order of their names.
        ("Board", format!("2x{}", row.holes)),
        (
            "Captures",
            format!("{}-{}", row.south_captures, row.north_captures),
        ),
        ("Ending", row.ending.name().to_string()),
        ("GameId", row.game_id.to_string()),
        ("Opening", row.opening.clone()),
        ("PlyCount", row.plies.to_string()),
        ("Seeds", row.seeds.to_string()),
        (
            "Variant",
            format!("Hoyito {}", row.variant.name().to_uppercase()),
        ),
    ];
    for (name, value) in &tags {
        writeln!(out, "[{name} \"{}\"]", escape(value))?;
    }
    writeln!(out)?;
    let mut line = String::with_capacity(MAX_LINE + 8);
    let mut word = |out: &mut dyn Write, w: &str| -> io::Result<()> {
        if !line.is_empty() && line.len() + 1 + w.len() > MAX_LINE {
            writeln!(out, "{line}")?;
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
        Ok(())
    };
    if let Some(moves) = moves {
        // The opening's plies are the first moves of the game (a game can
        // end inside its opening: then they are all of them).
        let opening = row.opening.split_whitespace().count().min(moves.len());
        let (opening_moves, played) = moves.split_at(opening);
        if !opening_moves.is_empty() {
            comment(out, &mut word, "{opening:", opening_moves)?;
        }
        if !played.is_empty() || opening_moves.is_empty() {
            comment(out, &mut word, "{moves:", played)?;
        }
    }
    word(out, result)?;
    writeln!(out, "{line}")?;
    writeln!(out)
}

/// Writes a brace comment of moves, `{label m1 m2 ... mk}`, word by word.
fn comment<W: Write>(
    out: &mut W,
    word: &mut impl FnMut(&mut dyn Write, &str) -> io::Result<()>,
    label: &str,
    moves: &[crate::engine::moves::Move],
) -> io::Result<()> {
    word(out, label)?;
    for (i, &mv) in moves.iter().enumerate() {
        if i + 1 == moves.len() {
            word(out, &format!("{}}}", move_token(mv)))?;
        } else {
            word(out, move_token(mv))?;
        }
    }
    if moves.is_empty() {
        word(out, "}")?;
    }
    Ok(())
}

/// A PGN string token's text: `\` and `"` escaped with a backslash (8.1).
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Exports `dir` to the file `path` (see [`export_pgn`]), through the
/// temporary file `path.tmp` created afresh (a link planted at either name is
/// replaced, never written through) and renamed into place once complete.
pub fn export_pgn_file(dir: &Path, path: &Path) -> Result<PgnSummary, PgnError> {
    let mut tmp_name = path.as_os_str().to_owned();
    tmp_name.push(".tmp");
    let tmp = PathBuf::from(tmp_name);
    let written = create_temp(&tmp).map_err(PgnError::from).and_then(|file| {
        let mut out = io::BufWriter::with_capacity(1 << 16, file);
        let summary = export_pgn(dir, &mut out)?;
        out.into_inner()
            .map_err(io::IntoInnerError::into_error)?
            .sync_all()?;
        Ok(summary)
    });
    match written {
        Ok(summary) => {
            std::fs::rename(&tmp, path)?;
            Ok(summary)
        }
        Err(err) => {
            // The error being reported matters more than a failed clean-up.
            let _ = std::fs::remove_file(&tmp);
            Err(err)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::Ending;
    use crate::engine::moves::Move;
    use crate::engine::rules::Variant;
    use crate::records::moves_hash::MovesHash;

    fn row() -> GameRow {
        GameRow {
            game_id: 6,
            pair_id: 3,
            variant: Variant::Iii,
            holes: 12,
            seeds: 4,
            south: "alpha\"beta".into(),
            north: "greedy".into(),
            game_seed: 1,
            opening: "3".into(),
            winner: Winner::N,
            south_captures: 40,
            north_captures: 56,
            plies: 4,
            ending: Ending::NoCaptureLimit,
            moves_hash: MovesHash(0),
        }
    }

    #[test]
    fn a_game_is_the_seven_tag_roster_then_ours_then_the_result() {
        let mut out = Vec::new();
        let moves = [Move::Sow(2), Move::Pass, Move::Sow(11), Move::Sow(0)];
        write_pgn_game(&mut out, "ladder", "????.??.??", &row(), Some(&moves)).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "[Event \"ladder\"]\n[Site \"hoyito\"]\n[Date \"????.??.??\"]\n[Round \"7\"]\n\
             [White \"alpha\\\"beta\"]\n[Black \"greedy\"]\n[Result \"0-1\"]\n\
             [Board \"2x12\"]\n[Captures \"40-56\"]\n[Ending \"no-capture-limit\"]\n\
             [GameId \"6\"]\n[Opening \"3\"]\n[PlyCount \"4\"]\n[Seeds \"4\"]\n\
             [Variant \"Hoyito III\"]\n\n\
             {opening: 3} {moves: pass 12 1} 0-1\n\n"
        );
        let mut out = Vec::new();
        let mut draw = row();
        draw.winner = Winner::Draw;
        write_pgn_game(&mut out, "e", "2025.05.01", &draw, None).unwrap();
        assert!(String::from_utf8(out)
            .unwrap()
            .ends_with("\"]\n\n1/2-1/2\n\n"));
        // A game that ended inside its opening has no players' moves, and a
        // game without an opening has no opening comment.
        let mut out = Vec::new();
        let mut short = row();
        short.opening = "3 pass 12 1 5".into();
        write_pgn_game(&mut out, "e", "2025.05.01", &short, Some(&moves)).unwrap();
        assert!(String::from_utf8(out)
            .unwrap()
            .ends_with("\n\n{opening: 3 pass 12 1} 0-1\n\n"));
        let mut out = Vec::new();
        let mut none = row();
        none.opening = String::new();
        write_pgn_game(&mut out, "e", "2025.05.01", &none, Some(&moves)).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.ends_with("\n\n{moves: 3 pass 12 1} 0-1\n\n"), "{text}");
        assert!(text.contains("[Opening \"\"]"));
    }

    #[test]
    fn long_games_wrap_at_79_columns() {
        let moves: Vec<Move> = (0..300).map(|i| Move::Sow((i % 16) as u8)).collect();
        let mut out = Vec::new();
        write_pgn_game(&mut out, "e", "2025.05.01", &row(), Some(&moves)).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.lines().all(|l| l.len() <= MAX_LINE));
        let movetext = text.split("\n\n").nth(1).unwrap();
        let words: Vec<&str> = movetext.split_whitespace().collect();
        assert_eq!(words.len(), 303);
        assert_eq!(
            (words[0], words[1], words[2]),
            ("{opening:", "1}", "{moves:")
        );
        assert_eq!(words[302], "0-1");
        assert_eq!(words[301], "12}");
    }
}
