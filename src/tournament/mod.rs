//! The tournament harness: experiments of seeded self-play games, run in
//! parallel, streamed to `games.csv` (and every game's moves to `moves.csv`),
//! replayed and exported from those records.

pub mod adjudication;
pub(crate) mod config;
mod lineup;
mod match_rounds;
mod merge;
mod pgn;
mod play;
mod resources;
mod round_row;
mod row_check;
mod row_search;
mod run_dir;
mod run_lock;
mod run_rows;
mod runner;
mod schedule;
pub(crate) use crate::seeding::splitmix64_nth;
mod shard;
mod shard_manifest;
mod sprt_watch;
mod timings;

pub use crate::records::game_row::{GameRow, Winner};
pub use crate::records::moves_file::{
    push_moves_row, MovesFileError, MovesReader, MovesRow, MOVES_FILE, MOVES_HEADER,
};
pub use crate::records::moves_hash::{
    fnv1a, move_token, push_moves_text, MovesHash, MovesHasher, ParseMovesHashError,
    FNV_OFFSET_BASIS, FNV_PRIME,
};
pub use crate::records::record_lines::RecordFileError;
pub(crate) use crate::records::record_lines::RecordLines;
pub use crate::records::safe_file::{
    create_new, create_temp, is_symlink, open_append_no_follow, open_regular, write_atomic,
};
pub use crate::seeding::{game_seed, opening_seed, rng_from_seed};
pub use adjudication::{AdjudicationConfig, AdjudicationError, Adjudicator, TableResults, Verdict};
pub use config::{
    check_regular_file, ConfigError, Experiment, Format, Openings, RecordConfig, RulesConfig,
    RunDate, TomlPlace, TournamentConfig, Unknown, UnknownKind, DEFAULT_CONFIG,
    DEFAULT_CONFIG_NAME, MAX_ROUNDS, MAX_THREADS, MAX_TOTAL_GAMES,
};
pub use lineup::{Lineup, Seat, SeatError, SeatMaker};
pub use match_rounds::MatchMemory;
pub use merge::{merge_shards, MergeError, Merged};
pub use pgn::{export_pgn, export_pgn_file, pgn_result, write_pgn_game, PgnError, PgnSummary};
pub use play::{empty_row, fill_row, play_measured, play_scheduled, GameFailure};
pub use resources::{bytes_per_game, check_resources, free_bytes, worker_threads, ResourceError};
pub use round_row::csv_header;
pub use round_row::{games_header, RoundColumns, RoundRow, SideLetter};
pub use row_check::{check_moves, check_replay, check_rules, RowProblem, ScheduleCheck, HOLES};
pub use row_search::find_row_line;
pub use run_dir::{
    open_run_dir, open_slice_dir, RunDir, RunDirError, EXPERIMENT_FILE, GAMES_FILE, TIMINGS_FILE,
};
pub use run_lock::{lock_exclusive, lock_shared, DirLock, LockError, LOCK_FILE};
pub use run_rows::{check_run_rows, RowFiles, RunRows};
pub use runner::{
    chunk_size, run_games, BlockTimes, Flow, GameForfeit, RecordSinks, RunError, RunOutcome,
    Stopped, Watch, Work,
};
pub use schedule::{Opening, Schedule, ScheduledGame};
pub use shard::{GameIds, Shard, ShardError};
pub use shard_manifest::{Fingerprint, ShardManifest, CODE_VERSION, SHARD_FILE};
pub use sprt_watch::SprtTracker;
pub use timings::{append_timings, RunTimes};
