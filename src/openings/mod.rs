//! Openings: where the seat-swapped pairs of an experiment begin.
//!
//! Two deterministic agents play one game from one position, so a tournament
//! between them needs many start positions: random plies (the default, with a
//! measured number of plies), or an opening book of positions that a strong
//! agent judges balanced. This module holds the book files (`book`), their
//! generation (`generate`, behind `hoyito book`), the `[openings]` section of
//! an experiment (`settings`) and the warnings about repeated games
//! (`warnings`).

mod book;
mod generate;
mod settings;
mod warnings;

pub use book::{read_entries, Book, BookEntry, BookError};
pub use generate::{
    evaluate_opening, generate_book, BookRequest, MAX_BOOK_PLIES, MIN_SAMPLES, SAMPLES_PER_ENTRY,
};
pub use settings::{InlineBook, Openings, DEFAULT_RANDOM_PLIES};
pub use warnings::{deterministic, opening_warnings};
