//! The tournament harness: experiments of seeded self-play games, run in
//! parallel, streamed to `games.csv`.

mod config;
mod game_row;
mod lineup;
mod play;
mod run_dir;
mod runner;
mod schedule;
mod seeding;
mod timings;

pub use config::{
    ConfigError, Experiment, Format, Openings, RulesConfig, TournamentConfig, DEFAULT_CONFIG,
    DEFAULT_CONFIG_NAME,
};
pub use game_row::{GameRow, Winner};
pub use lineup::{Lineup, Seat};
pub use play::{empty_row, fill_row, play_scheduled, GameFailure};
pub use run_dir::{
    csv_header, open_run_dir, RunDir, RunDirError, EXPERIMENT_FILE, GAMES_FILE, TIMINGS_FILE,
};
pub use runner::{chunk_size, run_games, BlockTimes, RunError, Work};
pub use schedule::{Opening, Schedule, ScheduledGame};
pub use seeding::{game_seed, opening_seed, rng_from_seed};
pub use timings::{append_timings, RunTimes};
