//! `[openings]` of an experiment: how each seat-swapped pair begins.
//!
//! Deterministic agents replay one game from one start, so a pair must begin
//! somewhere else than the start position: after `random_plies` uniformly
//! random plies (the default is measured, see docs/experiments.md, "Openings"), or at the
//! next entry of an opening book for the setting. Books are read when the
//! experiment is read, and saved inline in `experiment.toml`, so that a run
//! directory replays without the book files and a changed book makes a
//! different experiment, as roster specs do.

use serde::{Deserialize, Serialize};

use crate::engine::moves::Move;
use crate::engine::rules::{Rules, Variant};

use super::book::{read_entries, Book, BookEntry, BookError};
use super::error::ConfigError;
use super::rules_config::RulesConfig;

/// Random plies when `[openings]` does not say: the smallest K of {0, 2, 4, 6,
/// 8} with under 1% repeated games for deterministic pairings on every board
/// from 2x4 to 2x16 (docs/experiments.md, "Openings").
pub const DEFAULT_RANDOM_PLIES: u32 = 8;

/// `[openings]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Openings {
    /// Uniformly random plies played before the agents take over, the same in
    /// both games of a pair, so that deterministic agents do not replay one
    /// game; for settings without a book.
    pub random_plies: u32,
    /// One book file (relative to the current directory).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub book: Option<String>,
    /// Book files, at most one per variant and board.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub books: Vec<String>,
    /// The books' contents, filled in when the experiment is read and saved in
    /// `experiment.toml`; a book listed here is not read again from its file.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inline: Vec<InlineBook>,
}

impl Default for Openings {
    fn default() -> Self {
        Openings {
            random_plies: DEFAULT_RANDOM_PLIES,
            book: None,
            books: Vec::new(),
            inline: Vec::new(),
        }
    }
}

/// A book as saved in `experiment.toml` (`[[openings.inline]]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InlineBook {
    /// The file it was read from, as listed in `book` or `books`.
    pub file: String,
    /// Which Hoyito.
    pub variant: Variant,
    /// Holes per row.
    pub holes: u32,
    /// Seeds per hole at the start.
    pub seeds: u32,
    /// The book's header lines: how it was made.
    pub header: Vec<String>,
    /// The entries, `<position> | <plies>`, in the order pairs play them.
    pub entries: Vec<String>,
}

impl InlineBook {
    /// The inline form of a book read from `file`.
    pub fn new(file: &str, book: &Book) -> InlineBook {
        InlineBook {
            file: file.to_string(),
            variant: book.variant,
            holes: book.holes as u32,
            seeds: book.seeds as u32,
            header: book.header.clone(),
            entries: book.entries.iter().map(BookEntry::line).collect(),
        }
    }

    /// The entries, replayed and checked under `rules`.
    pub fn read(&self, rules: &Rules) -> Result<Vec<BookEntry>, BookError> {
        read_entries(
            self.entries
                .iter()
                .enumerate()
                .map(|(i, e)| (i + 1, e.as_str())),
            rules,
            &format!("inline copy of {}", self.file),
        )
    }

    /// `ii 2x6, 4 seeds`.
    fn setting(&self) -> String {
        format!(
            "{} 2x{}, {} seeds per hole",
            self.variant, self.holes, self.seeds
        )
    }
}

impl Openings {
    /// The book files listed, `book` first.
    pub fn files(&self) -> impl Iterator<Item = &String> {
        self.book.iter().chain(&self.books)
    }

    /// Whether some setting plays from a book (the report says so).
    pub fn uses_book(&self) -> bool {
        !self.inline.is_empty()
    }

    /// The book of one setting, if any.
    pub fn book_for(&self, variant: Variant, holes: u8) -> Option<&InlineBook> {
        self.inline
            .iter()
            .find(|b| b.variant == variant && b.holes == holes as u32)
    }

    /// Reads the listed books that are not inline yet (from the current
    /// directory) and drops inline books no longer listed; `file` names the
    /// experiment in errors.
    pub fn load_books(&mut self, file: &str) -> Result<(), ConfigError> {
        let listed: Vec<String> = self.files().cloned().collect();
        self.inline.retain(|b| listed.contains(&b.file));
        for path in listed {
            if self.inline.iter().any(|b| b.file == path) {
                continue;
            }
            let book =
                Book::load(std::path::Path::new(&path)).map_err(|err| ConfigError::Invalid {
                    file: file.to_string(),
                    key: self.key().to_string(),
                    message: err.to_string(),
                })?;
            self.inline.push(InlineBook::new(&path, &book));
        }
        Ok(())
    }

    fn key(&self) -> &'static str {
        if self.book.is_some() {
            "openings.book"
        } else {
            "openings.books"
        }
    }

    /// Checks the books against the experiment's `[rules]`: each names a
    /// variant and board played with the experiment's seeds, at most one per
    /// setting, and every entry replays under the setting's rules.
    pub(crate) fn check(
        &self,
        rules: &RulesConfig,
        invalid: &dyn Fn(&str, String) -> ConfigError,
    ) -> Result<(), ConfigError> {
        if self.book.is_some() && !self.books.is_empty() {
            return Err(invalid(
                "openings.books",
                "give `book = \"FILE\"` or `books = [..]`, not both".to_string(),
            ));
        }
        let listed: Vec<&String> = self.files().collect();
        let key = self.key();
        if let Some(twice) = (1..listed.len()).find_map(|i| {
            let file = listed[i];
            listed[..i].contains(&file).then_some(file)
        }) {
            return Err(invalid(
                key,
                format!("{twice} is listed twice: give each book once"),
            ));
        }
        for (i, book) in self.inline.iter().enumerate() {
            if !listed.contains(&&book.file) {
                return Err(invalid(
                    "openings.inline",
                    format!("book {} is not listed in {key}", book.file),
                ));
            }
            let played = rules.variants.contains(&book.variant)
                && rules.holes.contains(&book.holes)
                && rules.seeds == book.seeds;
            if !played {
                let variants: Vec<String> = rules.variants.iter().map(|v| v.to_string()).collect();
                let holes: Vec<String> = rules.holes.iter().map(|h| format!("2x{h}")).collect();
                return Err(invalid(
                    key,
                    format!(
                        "book {} is for {}, which the experiment does not play \
                         (variants {}, boards {}, {} seeds per hole)",
                        book.file,
                        book.setting(),
                        variants.join(", "),
                        holes.join(", "),
                        rules.seeds
                    ),
                ));
            }
            if let Some(other) = self.inline[..i]
                .iter()
                .find(|b| b.variant == book.variant && b.holes == book.holes)
            {
                return Err(invalid(
                    key,
                    format!(
                        "books {} and {} are both for {}: give one book per variant and board",
                        other.file,
                        book.file,
                        book.setting()
                    ),
                ));
            }
            let board = rules.rules_for(book.variant, book.holes as u8);
            book.read(&board)
                .map_err(|err| invalid("openings.inline", err.to_string()))?;
        }
        Ok(())
    }

    /// The plies of each entry of the book of `rules`' setting, if it has one.
    /// The experiment must have been checked.
    pub fn book_plies(&self, rules: &Rules) -> Option<Vec<Vec<Move>>> {
        let book = self.book_for(rules.variant, rules.holes)?;
        let entries = book
            .read(rules)
            .expect("books are checked when the experiment is read");
        Some(entries.into_iter().map(|e| e.plies).collect())
    }
}
