//! Tables opened once per process and shared by every thread and agent.
//!
//! The tables of a board can be gigabytes, a tournament plays games on many
//! threads, and the harness makes a fresh agent (and a fresh adjudicator) for
//! every game: opening the tables for each would check every file's checksum
//! again and again, and holding a copy each would multiply the memory. So
//! [`open_shared`] keeps one [`OpenTables`] per table directory, rules and
//! size asked for, opened on first use with [`Tablebase::open`] (which maps
//! the files read-only and never builds), and hands out the same [`Arc`] to
//! every caller after that. Errors are not kept: a caller after a failure
//! (a table built meanwhile, say) tries again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::engine::position::Position;
use crate::engine::rules::{LastFour, Leftover, Rules, Variant};
use crate::solver::tablebase::Tablebase;
use crate::solver::SolveError;

/// The tables of a board up to a top layer, opened by [`open_shared`].
#[derive(Debug)]
pub struct OpenTables {
    /// The layers, mapped from their files.
    pub tables: Tablebase,
    /// The largest layer covered: every layer a game can reach up to it is
    /// in [`OpenTables::tables`].
    pub top: u32,
}

impl OpenTables {
    /// The exact value of `pos` (the capture margin still to come for the side
    /// to move under perfect play), or `None` when it holds more than
    /// [`OpenTables::top`] seeds or its layer is not in the tables.
    pub fn value(&self, pos: &Position) -> Option<i8> {
        if pos.seeds_on_board() > self.top {
            return None;
        }
        self.tables.value(pos)
    }
}

/// What tells one opening from another.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    dir: PathBuf,
    variant: Variant,
    holes: u8,
    seeds: u8,
    last_four: LastFour,
    leftover: Leftover,
    max_seeds: Option<u32>,
}

/// One opening, filled by the first caller that succeeds.
type Slot = Arc<Mutex<Option<Arc<OpenTables>>>>;

fn registry() -> &'static Mutex<HashMap<Key, Slot>> {
    static REGISTRY: OnceLock<Mutex<HashMap<Key, Slot>>> = OnceLock::new();
    REGISTRY.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The tables of `rules`' board in `dir` up to `max_seeds` (see
/// [`Tablebase::open`] for which layers, and its errors), opened once per
/// process: later calls with the same directory (however it is spelled),
/// rules and `max_seeds` return the same tables.
///
/// Callers opening the same tables at the same time wait for the one that
/// opens them; callers opening other tables do not wait.
pub fn open_shared(
    rules: &Rules,
    dir: &Path,
    max_seeds: Option<u32>,
) -> Result<Arc<OpenTables>, SolveError> {
    // A directory that cannot be resolved (one not there) has no tables: the
    // opening below fails with the files it looked for, and is not kept.
    let canonical = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let key = Key {
        dir: canonical,
        variant: rules.variant,
        holes: rules.holes,
        seeds: rules.seeds,
        last_four: rules.last_four,
        leftover: rules.stall.leftover,
        max_seeds,
    };
    // A panic elsewhere while holding a lock leaves the map and slots whole
    // (each is only read or set in one step), so a poisoned lock is used as is.
    let slot: Slot = registry()
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .entry(key)
        .or_default()
        .clone();
    let mut opened = slot.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(tables) = opened.as_ref() {
        return Ok(Arc::clone(tables));
    }
    let (tables, top) = Tablebase::open(rules, dir, max_seeds)?;
    let tables = Arc::new(OpenTables { tables, top });
    *opened = Some(Arc::clone(&tables));
    Ok(tables)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hoyito II on 2x4 with `seeds` seeds per hole.
    fn rules(seeds: u32) -> Rules {
        Rules::new(Variant::Ii)
            .with_board(4, seeds)
            .expect("a valid board")
    }

    fn build(dir: &Path, top: u32) -> Tablebase {
        let mut tb = Tablebase::new(Variant::Ii, 4).expect("a valid board");
        tb.ensure(top, Some(dir), &|_| {}).expect("built and saved");
        tb
    }

    #[test]
    fn open_tables_are_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<OpenTables>();
    }

    #[test]
    fn the_same_tables_are_opened_once() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        build(dir.path(), 8);
        let one = open_shared(&rules(2), dir.path(), None).expect("opened");
        let two = open_shared(&rules(2), dir.path(), None).expect("opened");
        assert!(Arc::ptr_eq(&one, &two));
        assert_eq!(one.top, 8);
        // However the directory is spelled.
        let spelled = dir.path().join(".");
        let three = open_shared(&rules(2), &spelled, None).expect("opened");
        assert!(Arc::ptr_eq(&one, &three));
        // From other threads.
        let others: Vec<Arc<OpenTables>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|_| s.spawn(|| open_shared(&rules(2), dir.path(), None).expect("opened")))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("no panic"))
                .collect()
        });
        assert!(others.iter().all(|t| Arc::ptr_eq(t, &one)));
        // Another size, another board: other openings.
        let sized = open_shared(&rules(2), dir.path(), Some(8)).expect("opened");
        assert!(!Arc::ptr_eq(&one, &sized));
        assert_eq!(sized.top, 8);
        let smaller = open_shared(&rules(2), dir.path(), Some(4)).expect("opened");
        assert!(!Arc::ptr_eq(&sized, &smaller));
        assert_eq!(smaller.top, 4);
        let board = open_shared(&rules(1), dir.path(), None).expect("opened");
        assert!(!Arc::ptr_eq(&one, &board));
    }

    #[test]
    fn values_come_only_from_the_covered_layers() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let tb = build(dir.path(), 8);
        let open = open_shared(&rules(2), dir.path(), Some(4)).expect("opened");
        assert_eq!(open.top, 4);
        // 8 seeds: a layer on disk, but above the top.
        let eight = Position::start(&rules(1));
        assert_eq!(open.value(&eight), None);
        let all = open_shared(&rules(2), dir.path(), None).expect("opened");
        assert_eq!(all.value(&eight), tb.value(&eight));
        assert!(all.value(&eight).is_some());
        // 16 seeds: beyond the tables.
        assert_eq!(all.value(&Position::start(&rules(2))), None);
        // 6 seeds: under the top, but no game from the start reaches it.
        let mut six = eight;
        six.board[0] = 0;
        six.board[1] = 0;
        assert_eq!(six.seeds_on_board(), 6);
        assert_eq!(all.value(&six), None);
        // 4 seeds: covered.
        let mut four = six;
        four.board[2] = 0;
        four.board[3] = 0;
        assert_eq!(open.value(&four), tb.value(&four));
        assert!(open.value(&four).is_some());
    }

    #[test]
    fn failures_are_not_kept() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let err = open_shared(&rules(1), dir.path(), None).expect_err("nothing yet");
        assert!(matches!(err, SolveError::NoTables { .. }), "{err}");
        build(dir.path(), 8);
        let open = open_shared(&rules(1), dir.path(), None).expect("opened now");
        assert_eq!(open.top, 8);
    }
}
