//! The tournament harness: experiments of seeded self-play games, run in
//! parallel, streamed to `games.csv` (and every game's moves to `moves.csv`),
//! replayed and exported from those records.

pub mod adjudication;
pub(crate) mod config;
pub(crate) mod lineup;
mod merge;
mod pgn;
pub(crate) mod play_scheduled;
pub(crate) mod resources;
mod rounds_memory;
pub(crate) mod rounds_row;
pub(crate) mod row_check;
pub(crate) mod row_search;
pub(crate) mod run_dir;
mod run_lock;
pub(crate) mod run_rows;
pub(crate) mod runner;
pub(crate) mod schedule;
pub(crate) mod shard;
mod shard_manifest;
pub(crate) mod sprt_watch;
pub(crate) mod timings;

pub use crate::engine::seeding::{game_seed, opening_seed, rng_from_seed};
pub use crate::records::game_row::{GameRow, Winner};
pub use crate::records::moves_file::{
    push_moves_row, MovesFileError, MovesReader, MovesRow, MOVES_FILE, MOVES_HEADER,
};
pub use crate::records::moves_hash::{
    fnv1a, move_token, push_moves_text, MovesHash, MovesHasher, ParseMovesHashError,
    FNV_OFFSET_BASIS, FNV_PRIME,
};
pub use crate::records::record_lines::RecordFileError;
pub use crate::records::safe_file::{
    create_new, create_temp, is_symlink, open_append_no_follow, open_regular, write_atomic,
};
pub use adjudication::{AdjudicationConfig, AdjudicationError, Adjudicator, TableResults, Verdict};
pub use config::{
    check_regular_file, ConfigError, Experiment, Format, Openings, RecordConfig, RulesConfig,
    RunDate, TomlPlace, TournamentConfig, Unknown, UnknownKind, DEFAULT_CONFIG,
    DEFAULT_CONFIG_NAME, MAX_ROUNDS, MAX_THREADS, MAX_TOTAL_GAMES,
};
pub use lineup::{Lineup, Seat, SeatError, SeatMaker};
pub use merge::{merge_shards, MergeError, Merged};
pub use pgn::{export_pgn, export_pgn_file, pgn_result, write_pgn_game, PgnError, PgnSummary};
pub use play_scheduled::{empty_row, fill_row, play_measured, play_scheduled, GameFailure};
pub use resources::{bytes_per_game, check_resources, free_bytes, worker_threads, ResourceError};
pub use rounds_memory::MatchMemory;
pub use rounds_row::csv_header;
pub use rounds_row::{games_header, RoundColumns, RoundRow, SideLetter};
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
