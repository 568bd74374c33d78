//! How the run's games opened, in its report: the random plies, or the
//! opening books with where they came from, so that a reader knows what the
//! first-player and strength figures were measured from (a book of balanced
//! positions and 8 random plies do not ask the same question).

use std::io::{self, Write};

use serde::Serialize;

use crate::tournament::config::experiment::Experiment;

/// The openings of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpeningsSummary {
    /// Uniformly random plies before the agents play, on settings without a book.
    pub random_plies: u32,
    /// The books, one per variant and board that has one.
    pub books: Vec<BookUse>,
}

/// One opening book as a run used it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BookUse {
    /// The book's file, as the experiment named it.
    pub file: String,
    /// The variant and board it opens, e.g. `ii 2x6 s4`.
    pub setting: String,
    /// Its entries.
    pub entries: u64,
    /// Seat-swapped pairs per pairing on that setting: more than `entries`
    /// means the book was cycled and openings repeat.
    pub pairs_per_pairing: u64,
    /// How the book was made: its `# command:` header line, if it has one.
    pub made_by: Option<String>,
}

/// The openings of `experiment`.
pub fn openings_summary(experiment: &Experiment) -> OpeningsSummary {
    let pairs_per_pairing = experiment.games.div_ceil(2);
    let books = experiment
        .openings
        .inline
        .iter()
        .map(|book| BookUse {
            file: book.file.clone(),
            setting: format!("{} 2x{} s{}", book.variant, book.holes, book.seeds),
            entries: book.entries.len() as u64,
            pairs_per_pairing,
            made_by: book
                .header
                .iter()
                .map(|line| line.trim_start_matches('#').trim())
                .find_map(|line| line.strip_prefix("command:"))
                .map(|command| command.trim().to_string()),
        })
        .collect();
    OpeningsSummary {
        random_plies: experiment.openings.random_plies,
        books,
    }
}

/// The report's line (or lines) on openings.
pub fn write_openings(out: &mut impl Write, s: &OpeningsSummary) -> io::Result<()> {
    if s.books.is_empty() {
        return writeln!(
            out,
            "Openings: every seat-swapped pair starts after {} uniformly random plies, the same \
             in both of its games.\n",
            s.random_plies
        );
    }
    writeln!(
        out,
        "Openings: the pair of round k plays entry k of its setting's book (both games from \
         it); settings without a book start after {} random plies.\n",
        s.random_plies
    )?;
    for book in &s.books {
        let cycled = if book.pairs_per_pairing > book.entries {
            format!(
                "; {} pairs per pairing, so the book was cycled and openings repeat",
                book.pairs_per_pairing
            )
        } else {
            String::new()
        };
        let made = book
            .made_by
            .as_ref()
            .map_or(String::new(), |c| format!(", made by `{c}`"));
        writeln!(
            out,
            "- {}: `{}`, {} entries{made}{cycled}",
            book.setting, book.file, book.entries
        )?;
    }
    writeln!(out)
}
