//! The tournament harness: experiments of seeded self-play games, run in
//! parallel, streamed to `games.csv`.

mod game_row;

pub use game_row::{GameRow, Winner};
