//! What a run directory holds, below everything that reads or writes one: a
//! `games.csv` row, the moves hash and `moves.csv`, the line-by-line record
//! readers, the CSV text written by hand, where in a TOML file (an
//! experiment, an agent file) a problem is, and the safe creation and
//! opening of files. The tournament re-exports what its users name
//! (`hoyito::tournament::GameRow`, ...).

pub(crate) mod csv_text;
pub(crate) mod game_row;
pub(crate) mod moves_file;
pub(crate) mod moves_hash;
pub(crate) mod record_lines;
pub(crate) mod run_files;
pub(crate) mod safe_file;
pub(crate) mod toml_place;
