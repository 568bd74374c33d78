//! Opening books as text files: read, checked and written.
//!
//! A book is a list of start positions for seat-swapped pairs, each with the
//! plies that reach it from the start position, because the harness records
//! every game from the start. The file says how it was made in `#` header
//! lines (the machine-read keys `variant`, `holes` and `seeds` among them), then
//! holds one entry per line: `<position> | <plies>`, the position in the
//! notation of RULES.md and the plies as move tokens separated by spaces, e.g.
//! `6,6,2,7,1,6/1,6,6,6,0,1 N 0-0 | 3`. Reading replays every entry's plies and
//! refuses a line whose plies do not reach its position, or a position listed
//! twice, naming the file and the line.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use thiserror::Error;

use crate::engine::game::Game;
use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::{Rules, Variant};

/// A book that cannot be read, or cannot be made as asked.
#[derive(Debug, Error)]
pub enum BookError {
    /// The file could not be read or written.
    #[error("{file}: {cause}")]
    Io {
        /// The file.
        file: String,
        /// Why.
        cause: std::io::Error,
    },
    /// A header key is missing or has a bad value.
    #[error("{file}: header: {message}")]
    Header {
        /// The file.
        file: String,
        /// What is wrong and what is expected.
        message: String,
    },
    /// An entry cannot be read, does not replay, or repeats another.
    #[error("{file} line {line}: {message}")]
    Entry {
        /// The file.
        file: String,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The book has no entry.
    #[error("{file}: the book has no entry (lines `<position> | <plies>`)")]
    Empty {
        /// The file.
        file: String,
    },
    /// The agent named for a book has no evaluation, or not a reproducible one.
    #[error("agent {name:?} ({spec}) cannot evaluate positions for a book: {why}")]
    NoEvaluation {
        /// The roster name.
        name: String,
        /// Its spec, on one line.
        spec: String,
        /// Why not, and what would do.
        why: String,
    },
    /// A request that cannot be made (a bad number of plies or entries).
    #[error("{0}")]
    Request(String),
    /// Fewer positions than asked for within the sample budget.
    #[error(
        "only {found} of the {count} positions asked for were found in {samples} samples \
         ({distinct} distinct positions after the random plies, {evaluated} evaluated): \
         ask for fewer, allow a larger --max-eval, or play more --plies"
    )]
    Unreachable {
        /// Positions found.
        found: usize,
        /// Positions asked for.
        count: usize,
        /// Samples drawn (the budget).
        samples: u64,
        /// Distinct positions met.
        distinct: usize,
        /// Positions evaluated.
        evaluated: usize,
    },
    /// The tables directory could not be used.
    #[error("tables in {dir}: {message}")]
    Tables {
        /// The directory.
        dir: String,
        /// What went wrong.
        message: String,
    },
}

/// One opening: where the pair starts, and how it gets there from the start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookEntry {
    /// The position both games of the pair start the agents' play from.
    pub position: Position,
    /// The plies from the start position that reach it.
    pub plies: Vec<Move>,
}

impl BookEntry {
    /// The entry's line: `<position> | <plies>`.
    pub fn line(&self) -> String {
        let mut line = format!("{} |", self.position);
        for mv in &self.plies {
            write!(line, " {mv}").expect("writing to a String cannot fail");
        }
        line
    }

    /// Reads an entry line and replays its plies under `rules`; the message of
    /// the error says what is wrong (the caller adds file and line).
    pub fn parse(text: &str, rules: &Rules) -> Result<BookEntry, String> {
        let Some((position, plies)) = text.split_once('|') else {
            return Err(format!(
                "{text:?} is not `<position> | <plies>` (e.g. `6,6,2,7,1,6/1,6,6,6,0,1 N 0-0 | 3`)"
            ));
        };
        let position: Position = position
            .trim()
            .parse()
            .map_err(|e| format!("bad position {:?}: {e}", position.trim()))?;
        let plies = plies
            .split_whitespace()
            .map(|token| token.parse::<Move>().map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()?;
        let mut game = Game::new(*rules);
        for (i, &mv) in plies.iter().enumerate() {
            game.play(mv)
                .map_err(|e| format!("ply {} ({mv}) cannot be played: {e}", i + 1))?;
        }
        if *game.position() != position {
            return Err(format!(
                "the plies reach {}, not the position written ({position})",
                game.position()
            ));
        }
        Ok(BookEntry { position, plies })
    }
}

/// A checked opening book.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Book {
    /// Which Hoyito the book is for.
    pub variant: Variant,
    /// Holes per row.
    pub holes: u8,
    /// Seeds per hole at the start.
    pub seeds: u8,
    /// The header lines, without their `# `: how the book was made.
    pub header: Vec<String>,
    /// The openings, in the order pairs play them.
    pub entries: Vec<BookEntry>,
}

/// The value of header key `key` (a line `key: value`), if present.
fn header_value<'a>(header: &'a [String], key: &str) -> Option<&'a str> {
    header.iter().find_map(|line| {
        let (k, v) = line.split_once(':')?;
        (k.trim() == key).then(|| v.trim())
    })
}

impl Book {
    /// Reads and checks a book file.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        let file = path.display().to_string();
        let io = |cause| BookError::Io {
            file: file.clone(),
            cause,
        };
        // A FIFO would block the read forever: only regular files are books.
        crate::records::safe_file::check_regular_file(path).map_err(io)?;
        let text = std::fs::read_to_string(path).map_err(io)?;
        Book::parse(&text, &file)
    }

    /// Reads and checks book text; `file` names it in errors. Entries are
    /// replayed under the default options of RULES.md on the header's board.
    pub fn parse(text: &str, file: &str) -> Result<Book, BookError> {
        let header: Vec<String> = text
            .lines()
            .take_while(|line| line.starts_with('#') || line.trim().is_empty())
            .filter_map(|line| line.strip_prefix('#'))
            .map(|line| line.trim().to_string())
            .collect();
        let bad_header = |message: String| BookError::Header {
            file: file.to_string(),
            message,
        };
        let value = |key: &str| {
            header_value(&header, key).ok_or_else(|| {
                bad_header(format!(
                    "no `# {key}: ...` line (a book names its variant, holes and seeds)"
                ))
            })
        };
        let variant: Variant = value("variant")?
            .parse()
            .map_err(|e| bad_header(format!("variant: {e}")))?;
        let number = |key: &str| -> Result<u32, BookError> {
            let text = value(key)?;
            text.parse()
                .map_err(|_| bad_header(format!("{key}: {text:?} is not a number")))
        };
        let (holes, seeds) = (number("holes")?, number("seeds")?);
        let rules = Rules::new(variant)
            .with_board(holes, seeds)
            .map_err(|e| bad_header(e.to_string()))?;
        let mut book = Book {
            variant,
            holes: rules.holes,
            seeds: rules.seeds,
            header,
            entries: Vec::new(),
        };
        book.entries = read_entries(
            text.lines()
                .enumerate()
                .map(|(i, line)| (i + 1, line))
                .filter(|(_, line)| !line.starts_with('#') && !line.trim().is_empty()),
            &rules,
            file,
        )?;
        Ok(book)
    }

    /// The rules of the book's board with the default options of RULES.md.
    pub fn rules(&self) -> Rules {
        Rules {
            holes: self.holes,
            seeds: self.seeds,
            ..Rules::new(self.variant)
        }
    }

    /// The file: header lines, then one entry per line.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for line in &self.header {
            writeln!(text, "# {line}").expect("writing to a String cannot fail");
        }
        for entry in &self.entries {
            writeln!(text, "{}", entry.line()).expect("writing to a String cannot fail");
        }
        text
    }
}

/// Reads numbered entry lines under `rules`: each must replay to its position,
/// and no position may appear twice. `file` names the source in errors.
pub fn read_entries<'a>(
    lines: impl Iterator<Item = (usize, &'a str)>,
    rules: &Rules,
    file: &str,
) -> Result<Vec<BookEntry>, BookError> {
    let mut seen: HashMap<Position, usize> = HashMap::new();
    let mut entries = Vec::new();
    for (line, text) in lines {
        let bad = |message: String| BookError::Entry {
            file: file.to_string(),
            line,
            message,
        };
        let entry = BookEntry::parse(text, rules).map_err(bad)?;
        if let Some(first) = seen.insert(entry.position, line) {
            return Err(bad(format!(
                "position {} is already the entry of line {first}: entries must be distinct",
                entry.position
            )));
        }
        entries.push(entry);
    }
    if entries.is_empty() {
        return Err(BookError::Empty {
            file: file.to_string(),
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "# made by hand\n# variant: ii\n# holes: 6\n# seeds: 4\n";

    #[test]
    fn a_book_round_trips_through_its_text() {
        // South sows hole 3 (relay sowing), North to move.
        let text = format!("{HEADER}6,6,2,7,1,6/1,6,6,6,0,1 N 0-0 | 3\n");
        let book = Book::parse(&text, "b.txt").unwrap();
        assert_eq!((book.variant, book.holes, book.seeds), (Variant::Ii, 6, 4));
        assert_eq!(book.entries.len(), 1);
        assert_eq!(book.entries[0].plies, vec![Move::Sow(2)]);
        assert_eq!(book.to_text(), text);
    }

    #[test]
    fn wrong_plies_duplicates_and_missing_keys_are_named() {
        let wrong = format!("{HEADER}6,6,2,7,1,6/1,6,6,6,0,1 N 0-0 | 4\n");
        let err = Book::parse(&wrong, "b.txt").unwrap_err().to_string();
        assert!(err.starts_with("b.txt line 5: the plies reach"), "{err}");
        let twice = format!(
            "{HEADER}6,6,2,7,1,6/1,6,6,6,0,1 N 0-0 | 3\n6,6,2,7,1,6/1,6,6,6,0,1 N 0-0 | 3\n"
        );
        let err = Book::parse(&twice, "b.txt").unwrap_err().to_string();
        assert!(err.contains("line 6") && err.contains("line 5"), "{err}");
        let err = Book::parse("# variant: ii\n# holes: 6\n", "b.txt").unwrap_err();
        assert!(err.to_string().contains("seeds"), "{err}");
        let err = Book::parse(HEADER, "b.txt").unwrap_err();
        assert!(matches!(err, BookError::Empty { .. }), "{err}");
    }
}
