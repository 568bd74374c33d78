//! The tournament harness: experiments of seeded self-play games, run in
//! parallel, streamed to `games.csv`.

mod config;
mod game_row;
mod seeding;

pub use config::{
    ConfigError, Experiment, Format, Openings, RulesConfig, TournamentConfig, DEFAULT_CONFIG,
    DEFAULT_CONFIG_NAME,
};
pub use game_row::{GameRow, Winner};
pub use seeding::{game_seed, opening_seed, rng_from_seed};
