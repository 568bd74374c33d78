//! Openings: where the seat-swapped pairs of an experiment begin.
//!
//! Two deterministic agents play one game from one position, so a tournament
//! between them needs many start positions: random plies (the default, with a
//! measured number of plies), or an opening book of positions that a strong
//! agent judges balanced. This module holds the generation of books
//! (`generate`, behind `hoyito book`) and the warnings about repeated games
//! (`warnings`). The book files and the `[openings]` section of an
//! experiment are read with the experiment, a layer below, in
//! `tournament/config/` (`book.rs`, `openings.rs`); their names are
//! re-exported here.

mod generate;
pub(crate) mod warnings;

pub use crate::tournament::config::{
    read_entries, Book, BookEntry, BookError, InlineBook, Openings, DEFAULT_RANDOM_PLIES,
};
pub use generate::{
    evaluate_opening, generate_book, BookRequest, MAX_BOOK_PLIES, MIN_SAMPLES, SAMPLES_PER_ENTRY,
};
pub use warnings::{deterministic, opening_warnings};
