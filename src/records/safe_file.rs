//! Creating and opening the files a run or a report writes without following
//! symbolic links.
//!
//! A results directory may be shared, or prepared by someone else: a planted
//! `OUT/experiment.toml.tmp -> victim` must not make the harness overwrite the
//! victim, and a dangling `games.csv` link must not make it create the link's
//! target. So every file the harness creates is created with `O_CREAT|O_EXCL`
//! (std's `create_new`), which fails on any existing name, links included;
//! temporary files, which are the harness's own by name, are removed first
//! (removing a link removes the link, never its target); and files opened
//! again to be resumed or appended to are opened with `O_NOFOLLOW`.
//!
//! Source: open(2), POSIX.1-2008: "If O_CREAT and O_EXCL are set, open()
//! shall fail if the file exists ... symbolic links are not followed";
//! `O_NOFOLLOW`: "If path names a symbolic link, fail and set errno to
//! [ELOOP]".

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Whether `path` itself (not what it points to) is a symbolic link.
pub fn is_symlink(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Creates `path`, which must not exist (not even as a dangling link), for
/// reading and writing.
pub fn create_new(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(path)
}

/// Opens an existing `path` for reading and writing, refusing a symbolic link.
pub fn open_existing_no_follow(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

/// Opens `path` for appending, creating it if it does not exist; a symbolic
/// link (dangling or not) is refused rather than followed.
pub fn open_append_no_follow(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

/// Opens `path` for reading, refusing a symbolic link.
pub fn open_read_no_follow(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

/// Opens `path` for reading if it is a regular file; a FIFO, a device or a
/// directory is refused with an error that says so, instead of a reader
/// that waits forever for a writer. The open itself does not block
/// (`O_NONBLOCK`, which means nothing for a regular file), and the check is
/// on the opened file, so nothing can be swapped in between.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, a device or a directory is refused)",
        ));
    }
    Ok(file)
}

/// The text of `path` if it is a regular file ([`open_regular`]): a FIFO
/// in place of a run's `experiment.toml` made a resume wait forever.
pub fn read_regular_to_string(path: &Path) -> io::Result<String> {
    let mut text = String::new();
    io::Read::read_to_string(&mut open_regular(path)?, &mut text)?;
    Ok(text)
}

/// Creates the temporary file `tmp` afresh: whatever is at that name (a file
/// left by a killed run, or a planted link) is removed first, and the new
/// file is created with `O_EXCL`.
pub fn create_temp(tmp: &Path) -> io::Result<File> {
    match fs::remove_file(tmp) {
        Ok(()) => {}
        Err(err) if err.kind() == io::ErrorKind::NotFound => {}
        Err(err) => return Err(err),
    }
    create_new(tmp)
}

/// Writes `bytes` to `path` atomically through the temporary file `tmp`
/// (created by [`create_temp`]), then renames it over `path`: a link at
/// `path` is replaced, never written through.
pub fn write_atomic(tmp: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = create_temp(tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    fs::rename(tmp, path)
}

/// Refuses anything but a regular file (after symbolic links): reading a
/// FIFO blocks until someone writes to it, and a device may never end. A
/// directory gets the system's own error (`Is a directory`).
pub fn check_regular_file(path: &Path) -> std::io::Result<()> {
    let kind = std::fs::metadata(path)?.file_type();
    if kind.is_file() {
        Ok(())
    } else if kind.is_dir() {
        Err(std::io::Error::from_raw_os_error(libc::EISDIR))
    } else {
        Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO or device cannot be read)",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_planted_temp_link_is_replaced_and_its_victim_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let victim = tmp.path().join("victim");
        fs::write(&victim, "precious").unwrap();
        let link = tmp.path().join("x.tmp");
        symlink(&victim, &link).unwrap();
        write_atomic(&link, &tmp.path().join("x"), b"ours").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(fs::read_to_string(tmp.path().join("x")).unwrap(), "ours");
        assert!(!link.exists());
    }

    #[test]
    fn links_are_refused_when_creating_appending_or_reopening() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("target");
        let link = tmp.path().join("link");
        symlink(&target, &link).unwrap();
        assert!(create_new(&link).is_err());
        assert!(open_append_no_follow(&link).is_err());
        assert!(!target.exists(), "a dangling link's target was created");
        fs::write(&target, "x").unwrap();
        assert!(open_existing_no_follow(&link).is_err());
        assert!(open_read_no_follow(&link).is_err());
        assert!(is_symlink(&link) && !is_symlink(&target));
    }
}
