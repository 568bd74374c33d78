//! The output directory of a merge: what a stopped merge left beside it
//! cleared, the staging directory made and locked, and the finished staging
//! directory moved into place as `OUT`, keeping what a used `OUT` holds
//! besides the results (notes of one's own, hard-linked in).
//!
//! POSIX.1-2008 rename(): a directory may replace an empty directory, so a
//! missing or empty `OUT` is replaced by one rename; a used one is swapped
//! ([`super::swap`]).

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use super::error::{io_error, MergeError};
use super::names::{aside_path, parent_of, staging_path};
use super::swap::{replace, Swap};
use crate::tournament::run_dir::RESULTS;
use crate::tournament::run_lock::{lock_exclusive, DirLock, LockError, LOCK_FILE};

/// Clears what a merge into `out` that was stopped (killed, or its machine
/// lost) left beside it, telling `note` what it did: the staging directory
/// (a partial merge, or the old results it was swapped with) is deleted,
/// unless a live merge holds its lock, which refuses this one; the old
/// results set aside are moved back to `out` when `out` is missing, else
/// deleted (`out` holds the merged results that replaced them).
pub(super) fn clear_stopped_merge(
    out: &Path,
    note: &mut dyn FnMut(String),
) -> Result<(), MergeError> {
    let staging = staging_path(out);
    if let Ok(meta) = fs::symlink_metadata(&staging) {
        if meta.is_dir() {
            // A merge still writing it holds its lock; a killed one holds
            // nothing any more (the kernel released it).
            match lock_exclusive(&staging) {
                Err(err @ LockError::Held { .. }) => return Err(err.into()),
                Ok(_) | Err(LockError::Io { .. }) => {}
            }
            fs::remove_dir_all(&staging).map_err(io_error(&staging, "delete it"))?;
        } else {
            // A link or a file at a name that is ours: removed, not followed.
            fs::remove_file(&staging).map_err(io_error(&staging, "delete it"))?;
        }
        note(format!(
            "deleted {}, left by a merge into {} that was stopped (not results: {} itself \
             was left whole)",
            staging.display(),
            out.display(),
            out.display()
        ));
    }
    let aside = aside_path(out);
    if let Ok(meta) = fs::symlink_metadata(&aside) {
        let out_meta = fs::symlink_metadata(out);
        if !meta.is_dir() {
            fs::remove_file(&aside).map_err(io_error(&aside, "delete it"))?;
        } else if matches!(&out_meta, Err(err) if err.kind() == io::ErrorKind::NotFound) {
            fs::rename(&aside, out).map_err(io_error(out, "move the old results back"))?;
            note(format!(
                "{} restored: a merge stopped while replacing it had set its old results \
                 aside in {}",
                out.display(),
                aside.display()
            ));
            return Ok(());
        } else if out_meta.is_ok_and(|m| m.is_dir()) {
            fs::remove_dir_all(&aside).map_err(io_error(&aside, "delete it"))?;
        } else {
            return Err(MergeError::Aside {
                out: out.to_path_buf(),
                aside,
            });
        }
        note(format!(
            "deleted {}: the old results of {}, which a merge that was stopped had already \
             replaced",
            aside.display(),
            out.display()
        ));
    }
    Ok(())
}

/// A fresh staging directory beside `out` (what a stopped merge left there
/// is gone, see [`clear_stopped_merge`]), locked, so that another merge into
/// `out` does not take it for a stopped one's.
pub(super) fn staging_dir(out: &Path) -> Result<(PathBuf, DirLock), MergeError> {
    let parent = parent_of(out);
    fs::create_dir_all(&parent).map_err(io_error(&parent, "create the directory"))?;
    let staging = staging_path(out);
    fs::create_dir(&staging).map_err(io_error(&staging, "create it"))?;
    match lock_exclusive(&staging) {
        Ok(lock) => Ok((staging, lock)),
        Err(err) => {
            let _ = fs::remove_dir_all(&staging);
            Err(err.into())
        }
    }
}

/// Moves the complete staging directory into place as `out`: renamed over a
/// missing or empty `out`; swapped with a used one (`force`), after what it
/// holds besides the results is linked into the staging directory.
pub(super) fn place(
    staging: &Path,
    out: &Path,
    force: bool,
    note: &mut dyn FnMut(String),
) -> Result<(), MergeError> {
    let meta = match fs::symlink_metadata(out) {
        Ok(meta) => meta,
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            fs::rename(staging, out).map_err(io_error(out, "move the merged files into it"))?;
            sync_dir(&parent_of(out));
            return Ok(());
        }
        Err(err) => return Err(io_error(out, "read it")(err)),
    };
    let empty = fs::read_dir(out)
        .map_err(io_error(out, "read it"))?
        .next()
        .is_none();
    if !empty {
        if !force {
            return Err(MergeError::OutExists {
                out: out.to_path_buf(),
            });
        }
        carry_over(out, staging)?;
    }
    // The output keeps its permissions (a shared folder stays shared).
    fs::set_permissions(staging, meta.permissions())
        .map_err(io_error(staging, "set its permissions"))?;
    if empty {
        // rename(2) replaces an empty directory whole.
        fs::rename(staging, out).map_err(io_error(out, "move the merged files into it"))?;
    } else {
        replace(staging, out, Swap::Exchange, &mut || false, note)?;
    }
    sync_dir(&parent_of(out));
    Ok(())
}

/// Flushes a directory's entries (the renames in it) to the disk; a failure
/// only loses durability, and the results are in place: not reported.
fn sync_dir(dir: &Path) {
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
}

/// Puts into `staging` what the used output `out` holds besides the results
/// a run writes (and its lock): notes, files of one's own, so that replacing
/// the directory replaces only the results, as `--force` promises. Files
/// are hard-linked (copied where a link is refused), folders made anew.
pub(super) fn carry_over(out: &Path, staging: &Path) -> Result<(), MergeError> {
    for entry in fs::read_dir(out).map_err(io_error(out, "read it"))? {
        let entry = entry.map_err(io_error(out, "read it"))?;
        let name = entry.file_name();
        if name == LOCK_FILE || RESULTS.iter().any(|r| name == *r) {
            continue;
        }
        link_tree(&entry.path(), &staging.join(name))?;
    }
    Ok(())
}

/// Recreates `from` at `to`: a folder with its contents, anything else as a
/// hard link to the same file (a link itself, not what it points to).
fn link_tree(from: &Path, to: &Path) -> Result<(), MergeError> {
    let meta = fs::symlink_metadata(from).map_err(io_error(from, "read it"))?;
    if meta.is_dir() {
        fs::create_dir(to).map_err(io_error(to, "create it"))?;
        for entry in fs::read_dir(from).map_err(io_error(from, "read it"))? {
            let entry = entry.map_err(io_error(from, "read it"))?;
            link_tree(&entry.path(), &to.join(entry.file_name()))?;
        }
        // After it is filled: a read-only folder is filled too.
        return fs::set_permissions(to, meta.permissions())
            .map_err(io_error(to, "set its permissions"));
    }
    match fs::hard_link(from, to) {
        Ok(()) => Ok(()),
        // Another user's file (protected_hardlinks), or another file system.
        Err(_) if meta.is_file() => fs::copy(from, to)
            .map(|_| ())
            .map_err(io_error(from, "copy it into the merged directory")),
        Err(cause) => Err(io_error(from, "keep it in the merged directory")(cause)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::run_lock::LOCK_FILE;
    use std::collections::BTreeMap;

    /// What a directory holds: each file and folder under it, relative, with
    /// the file's bytes (a folder: `None`); its lock left out.
    type Tree = BTreeMap<PathBuf, Option<Vec<u8>>>;

    fn tree(dir: &Path) -> Tree {
        fn walk(root: &Path, dir: &Path, into: &mut Tree) {
            for entry in fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                let rel = path.strip_prefix(root).unwrap().to_path_buf();
                if rel == Path::new(LOCK_FILE) {
                    continue;
                }
                if path.is_dir() {
                    into.insert(rel, None);
                    walk(root, &path, into);
                } else {
                    into.insert(rel, Some(fs::read(&path).unwrap()));
                }
            }
        }
        let mut into = Tree::new();
        walk(dir, dir, &mut into);
        into
    }

    fn fill(dir: &Path, files: &[(&str, &str)]) {
        for (name, text) in files {
            let path = dir.join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
    }

    /// What is in `parent` besides `out`: leftovers of a merge.
    fn others(parent: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(parent)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != "out")
            .collect();
        names.sort();
        names
    }

    /// `merge --force` killed while replacing the results must not leave `OUT`
    /// half replaced (say with `summary.json` and the reports but no
    /// `games.csv`). The replacement is stopped, as a kill stops it, before
    /// and after each of its steps, on both paths (the exchange, and the two
    /// renames through the aside name): `OUT` is always the whole old
    /// directory or the whole new one, or (between the two renames) missing
    /// with the whole old one aside; and the next merge's clean-up leaves
    /// `OUT` whole, with nothing beside it, and says what it removed or
    /// restored.
    #[test]
    fn a_replaced_output_is_whole_old_or_whole_new_wherever_the_merge_stops() {
        let old_files = [
            ("games.csv", "old games\n"),
            ("summary.json", "{\"games\": 2}"),
            ("report.md", "old report"),
            ("charts/elo.svg", "old chart"),
            ("notes.txt", "mine"),
            ("keep/deep.txt", "mine too"),
        ];
        let new_files = [
            ("games.csv", "new games\nmore\n"),
            ("summary.json", "{\"games\": 3}"),
            ("report.md", "new report"),
            ("charts/wins.svg", "new chart"),
        ];
        for swap in [Swap::Exchange, Swap::Aside] {
            let mut seen_old = false;
            let mut seen_new = false;
            for stop_at in 0.. {
                let tmp = tempfile::tempdir().unwrap();
                let out = tmp.path().join("out");
                let staging = staging_path(&out);
                fs::create_dir(&out).unwrap();
                fill(&out, &old_files);
                fs::create_dir(&staging).unwrap();
                fill(&staging, &new_files);
                carry_over(&out, &staging).unwrap();
                let old = tree(&out);
                let new = tree(&staging);
                assert_eq!(new[Path::new("notes.txt")].as_deref(), Some(&b"mine"[..]));
                assert!(new.contains_key(Path::new("keep/deep.txt")));
                assert!(!new.contains_key(Path::new("charts/elo.svg")));
                let mut calls = 0;
                let mut notes = Vec::new();
                replace(
                    &staging,
                    &out,
                    swap,
                    &mut || {
                        calls += 1;
                        calls > stop_at
                    },
                    &mut |n| notes.push(n),
                )
                .unwrap();
                assert!(notes.is_empty(), "{notes:?}");
                let stopped = calls > stop_at;
                let at = format!("{swap:?}, stopped at step {stop_at}");
                if out.exists() {
                    let now = tree(&out);
                    assert!(now == old || now == new, "{at}: a mixed output {now:?}");
                    seen_old |= now == old;
                    seen_new |= now == new;
                } else {
                    assert_eq!(swap, Swap::Aside, "{at}: no output");
                    assert_eq!(tree(&aside_path(&out)), old, "{at}");
                }
                let left = others(tmp.path());
                let mut notes = Vec::new();
                clear_stopped_merge(&out, &mut |n| notes.push(n)).unwrap();
                let now = tree(&out);
                assert!(now == old || now == new, "{at}: cleared into {now:?}");
                assert!(
                    others(tmp.path()).is_empty(),
                    "{at}: {:?}",
                    others(tmp.path())
                );
                assert_eq!(notes.len(), left.len(), "{at}: {notes:?} for {left:?}");
                for (name, note) in left.iter().zip(&notes) {
                    assert!(note.contains(name.as_str()), "{at}: {note}");
                }
                if !stopped {
                    assert_eq!(now, new, "{at}");
                    break;
                }
            }
            assert!(seen_old && seen_new, "{swap:?}");
        }
    }

    #[test]
    fn the_staging_directory_of_a_live_merge_is_not_taken_for_a_stopped_ones() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let (staging, lock) = staging_dir(&out).unwrap();
        fill(&staging, &[("games.csv", "being written\n")]);
        let mut notes = Vec::new();
        let err = clear_stopped_merge(&out, &mut |n| notes.push(n)).unwrap_err();
        assert!(matches!(err, MergeError::Locked(_)), "{err}");
        assert!(staging.join("games.csv").exists() && notes.is_empty());
        drop(lock);
        clear_stopped_merge(&out, &mut |n| notes.push(n)).unwrap();
        assert!(!staging.exists());
        assert!(notes[0].contains(".out.merging"), "{notes:?}");
    }

    #[test]
    fn old_results_set_aside_wait_for_a_directory_that_is_not_one() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let aside = aside_path(&out);
        fs::create_dir(&aside).unwrap();
        fill(&aside, &[("games.csv", "old\n")]);
        fs::write(&out, "a file").unwrap();
        let err = clear_stopped_merge(&out, &mut |_| {}).unwrap_err();
        assert!(matches!(err, MergeError::Aside { .. }), "{err}");
        assert!(err.to_string().contains(".out.replaced"), "{err}");
        assert!(aside.join("games.csv").exists());
    }
}
