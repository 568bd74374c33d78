//! The files of a start solve in progress, so that a killed solve resumes.
//!
//! A start solve writes, in its state directory, one file per layer when the
//! forward closure has closed it (`keys-K.bin`, the sorted keys) and one when
//! the backward pass has solved it (`values-K.bin`, values and settling
//! sweeps). Each file is written to a temporary name, synced and renamed into
//! place, so a kill leaves either the whole file or none (temporary files are
//! never read). Its 48-byte header names what it holds, and a checksum covers
//! header and data: a file of another start, another layer, or damaged in any
//! byte is refused with its path named, never read as a result.
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `HOYSTART` |
//! | 8 | 1 | version (1) |
//! | 9 | 1 | kind: 1 keys, 2 values |
//! | 10 | 1 | variant: 1, 2 or 3 |
//! | 11 | 1 | holes per row |
//! | 12 | 4 | seeds on the board in this layer |
//! | 16 | 8 | the start: a hash of its notation |
//! | 24 | 8 | entries |
//! | 32 | 8 | reserved (0) |
//! | 40 | 8 | FNV-1a 64 of bytes 0..40 and the data |
//!
//! A solve with a state directory keeps no layer in memory: it holds each
//! finished layer memory-mapped from its file ([`map`], which verifies
//! header, length and checksum on the mapped bytes before anything is read
//! as a result), and writes each file through a mapping ([`create`]), so a
//! layer never exists twice in memory. The kernel keeps the pages it can and
//! reads the rest back from disk: the memory a solve needs is its working
//! set, not the sum of its layers. Keys start at offset 48, a multiple of 8
//! in a page-aligned mapping, and are read in place as little-endian `u64`
//! (a big-endian machine is refused rather than misread). The scratch a
//! solve needs besides (sorted runs of keys, successor lists; [`Scratch`])
//! lives in unlinked files of the same directory, so a kill leaves none
//! behind.

use std::cell::Cell;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use memmap2::{Mmap, MmapMut};
use thiserror::Error;

use crate::records::moves_hash::{fnv1a, FNV_OFFSET_BASIS};
use crate::records::safe_file::create_temp;

const MAGIC: &[u8; 8] = b"HOYSTART";
const VERSION: u8 = 1;
const HEADER: usize = 48;

/// What a state file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The sorted keys of a closed layer.
    Keys = 1,
    /// Values and settling sweeps of a solved layer.
    Values = 2,
}

/// The identity every file of one solve shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ident {
    /// 1, 2 or 3.
    pub variant: u8,
    /// Holes per row.
    pub holes: u8,
    /// FNV-1a of the start's notation.
    pub start: u64,
}

/// A state file that cannot be read or written.
#[derive(Debug, Error)]
pub enum StateError {
    /// The file system refused.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not the state it should be.
    #[error(
        "{path} is not a usable state file ({why}); it is never read as a result: \
         remove it, or the whole state directory, to solve that layer again"
    )]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: &'static str,
    },
}

/// The identity of the start `notation` (its text in the notation of
/// RULES.md) for state files.
pub fn start_hash(notation: &str) -> u64 {
    fnv1a(FNV_OFFSET_BASIS, notation.as_bytes())
}

/// The path of the file of `kind` for the layer of `seeds`.
pub fn path(dir: &Path, kind: Kind, seeds: u32) -> PathBuf {
    let name = match kind {
        Kind::Keys => "keys",
        Kind::Values => "values",
    };
    dir.join(format!("{name}-{seeds}.bin"))
}

fn header(ident: Ident, kind: Kind, seeds: u32, entries: u64) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8] = VERSION;
    h[9] = kind as u8;
    h[10] = ident.variant;
    h[11] = ident.holes;
    h[12..16].copy_from_slice(&seeds.to_le_bytes());
    h[16..24].copy_from_slice(&ident.start.to_le_bytes());
    h[24..32].copy_from_slice(&entries.to_le_bytes());
    h
}

/// The entries of `bytes`, a whole state file, if it is exactly the file of
/// `kind` for the layer of `seeds` of this solve, whole; else what is wrong.
fn verify(
    bytes: &[u8],
    ident: Ident,
    kind: Kind,
    seeds: u32,
    item_bytes: usize,
) -> Result<u64, &'static str> {
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err("no state header");
    }
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let entries = word(24);
    let expected = header(ident, kind, seeds, entries);
    if bytes[..40] != expected[..40] {
        return Err("its header is for another start, layer or version");
    }
    if (bytes.len() - HEADER) as u64 != entries.saturating_mul(item_bytes as u64) {
        return Err("its length does not match its header (truncated?)");
    }
    if fnv1a(fnv1a(FNV_OFFSET_BASIS, &bytes[..40]), &bytes[HEADER..]) != word(40) {
        return Err("its checksum does not match");
    }
    Ok(entries)
}

/// Refuses memory-mapped state on a big-endian machine, where the files'
/// little-endian words cannot be read in place.
fn little_endian(path: &Path) -> Result<(), StateError> {
    if cfg!(target_endian = "little") {
        Ok(())
    } else {
        Err(StateError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::new(
                std::io::ErrorKind::Unsupported,
                "memory-mapped state is read in place as little-endian words: \
                 solve without --state on this machine",
            ),
        })
    }
}

/// `bytes` as `u64` words, where they are 8-aligned and a whole number of
/// words (always so for the data of a mapping at a multiple of 8).
fn as_words(bytes: &[u8]) -> Option<&[u64]> {
    // SAFETY: every bit pattern is a valid u64; `align_to` only hands out the
    // aligned middle part, which is checked to be all of `bytes`.
    let (head, words, tail) = unsafe { bytes.align_to::<u64>() };
    (head.is_empty() && tail.is_empty()).then_some(words)
}

/// As [`as_words`], mutable.
fn as_words_mut(bytes: &mut [u8]) -> Option<&mut [u64]> {
    // SAFETY: as in `as_words`; any u64 written is valid bytes.
    let (head, words, tail) = unsafe { bytes.align_to_mut::<u64>() };
    (head.is_empty() && tail.is_empty()).then_some(words)
}

/// `bytes` as `u32` words, as [`as_words`].
fn as_u32s(bytes: &[u8]) -> Option<&[u32]> {
    // SAFETY: every bit pattern is a valid u32; the aligned middle part is
    // checked to be all of `bytes`.
    let (head, words, tail) = unsafe { bytes.align_to::<u32>() };
    (head.is_empty() && tail.is_empty()).then_some(words)
}

/// The bytes of `words` as they are in memory: their little-endian bytes on
/// the little-endian machines that out-of-core solves run on ([`ScratchDir`]
/// and the mapped state files refuse any other).
pub(crate) fn le_words(words: &[u64]) -> &[u8] {
    // SAFETY: u8 has no alignment and every byte of a u64 is initialised.
    let (head, bytes, tail) = unsafe { words.align_to::<u8>() };
    debug_assert!(head.is_empty() && tail.is_empty());
    bytes
}

/// As [`le_words`], for `u32` words.
pub(crate) fn le_u32s(words: &[u32]) -> &[u8] {
    // SAFETY: u8 has no alignment and every byte of a u32 is initialised.
    let (head, bytes, tail) = unsafe { words.align_to::<u8>() };
    debug_assert!(head.is_empty() && tail.is_empty());
    bytes
}

/// A verified state file, memory-mapped: its data is read in place, and its
/// pages are the kernel's to keep or drop (the file must not be changed
/// while a solve holds it).
pub struct Mapped {
    map: Mmap,
    entries: u64,
    path: PathBuf,
}

impl std::fmt::Debug for Mapped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mapped")
            .field("path", &self.path)
            .field("entries", &self.entries)
            .finish()
    }
}

impl Mapped {
    /// Entries of data.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// The data, after the header.
    pub fn data(&self) -> &[u8] {
        &self.map[HEADER..]
    }

    /// The data as little-endian `u64` words (keys files); checked when the
    /// file was mapped.
    pub fn words(&self) -> &[u64] {
        as_words(self.data()).unwrap_or(&[])
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Maps the file of `kind` for the layer of `seeds`, if there is one, after
/// the checks of `verify` (header, length, checksum) on the mapped bytes: `Ok(None)` when it does not
/// exist, an error naming it when it is not exactly a file of this solve and
/// layer, whole. Nothing is copied into memory.
pub fn map(
    dir: &Path,
    ident: Ident,
    kind: Kind,
    seeds: u32,
    item_bytes: usize,
) -> Result<Option<Mapped>, StateError> {
    let path = path(dir, kind, seeds);
    let meta = match std::fs::symlink_metadata(&path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(StateError::Io { path, source }),
    };
    let damaged = |why| StateError::Damaged {
        path: path.clone(),
        why,
    };
    if !meta.is_file() {
        return Err(damaged("not a regular file"));
    }
    little_endian(&path)?;
    let io = |source| StateError::Io {
        path: path.clone(),
        source,
    };
    let file = File::open(&path).map_err(io)?;
    if !file.metadata().map_err(io)?.is_file() {
        return Err(damaged("not a regular file"));
    }
    if file.metadata().map_err(io)?.len() < HEADER as u64 {
        return Err(damaged("no state header"));
    }
    // SAFETY: the mapping is read-only and the solve never writes its own
    // finished files; another process truncating the file while it is
    // mapped is outside what a state directory supports (documented).
    let map = unsafe { Mmap::map(&file) }.map_err(io)?;
    let entries = verify(&map, ident, kind, seeds, item_bytes).map_err(damaged)?;
    if item_bytes == 8 && as_words(&map[HEADER..]).is_none() {
        return Err(damaged("its keys are not 8-aligned in memory"));
    }
    Ok(Some(Mapped { map, entries, path }))
}

/// A file name to remove unless told otherwise: a temporary file that must
/// not outlive an error.
struct Unlink(Option<PathBuf>);

impl Unlink {
    /// Keeps the file.
    fn keep(&mut self) {
        self.0 = None;
    }
}

impl Drop for Unlink {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// A state file being written through a mapping: created under a temporary
/// name, filled by the caller, then checksummed, synced and renamed into place
/// by [`MapWriter::finish`], which hands it back mapped read-only. Dropped
/// unfinished, it removes its temporary file.
pub struct MapWriter {
    map: MmapMut,
    file: File,
    temp: Unlink,
    path: PathBuf,
    head: [u8; HEADER],
    entries: u64,
}

/// Creates the file of `kind` for the layer of `seeds`, `entries` items of
/// `item_bytes` each, zeroed, to be filled through [`MapWriter::data_mut`].
pub fn create(
    dir: &Path,
    ident: Ident,
    kind: Kind,
    seeds: u32,
    entries: u64,
    item_bytes: usize,
) -> Result<MapWriter, StateError> {
    let path = path(dir, kind, seeds);
    little_endian(&path)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = Unlink(Some(
        path.with_file_name(format!(".{name}.{}.tmp", std::process::id())),
    ));
    let len = (HEADER as u64).saturating_add(entries.saturating_mul(item_bytes as u64));
    let made = (|| {
        let file = create_temp(temp.0.as_deref().unwrap_or(&path))?;
        file.set_len(len)?;
        // SAFETY: the file was just created under a name of this process
        // (O_EXCL) and is only written through this mapping.
        let map = unsafe { MmapMut::map_mut(&file) }?;
        Ok::<_, std::io::Error>((file, map))
    })();
    let (file, map) = made.map_err(|source| StateError::Io {
        path: path.clone(),
        source,
    })?;
    Ok(MapWriter {
        map,
        file,
        temp,
        path,
        head: header(ident, kind, seeds, entries),
        entries,
    })
}

impl MapWriter {
    /// The data, after the header.
    pub fn data_mut(&mut self) -> &mut [u8] {
        &mut self.map[HEADER..]
    }

    /// The data as `u64` words (keys files), or an error where the mapping
    /// is not 8-aligned (never for a page-aligned mapping).
    pub fn words_mut(&mut self) -> Result<&mut [u64], StateError> {
        let path = self.path.clone();
        as_words_mut(&mut self.map[HEADER..]).ok_or(StateError::Damaged {
            path,
            why: "its keys are not 8-aligned in memory",
        })
    }

    /// Checksums, syncs and renames the file into place; the file, mapped.
    pub fn finish(self) -> Result<Mapped, StateError> {
        let MapWriter {
            mut map,
            file,
            mut temp,
            path,
            mut head,
            entries,
        } = self;
        let io = |source| StateError::Io {
            path: path.clone(),
            source,
        };
        let sum = fnv1a(fnv1a(FNV_OFFSET_BASIS, &head[..40]), &map[HEADER..]);
        head[40..48].copy_from_slice(&sum.to_le_bytes());
        map[..HEADER].copy_from_slice(&head);
        map.flush().map_err(io)?;
        file.sync_all().map_err(io)?;
        if let Some(from) = &temp.0 {
            std::fs::rename(from, &path).map_err(io)?;
        }
        temp.keep();
        // Make the rename itself durable; some file systems cannot sync a
        // directory.
        if let Some(dir) = path.parent() {
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        let map = map.make_read_only().map_err(io)?;
        Ok(Mapped { map, entries, path })
    }
}

/// Where a solve's scratch files go, and how much of them is alive.
#[derive(Debug)]
pub struct ScratchDir {
    dir: PathBuf,
    made: Cell<u64>,
    live: Cell<u64>,
    peak: Cell<u64>,
}

impl ScratchDir {
    /// Scratch in `dir` (the state directory); refused on a big-endian
    /// machine, as mapped state is.
    pub fn new(dir: &Path) -> Result<Rc<ScratchDir>, StateError> {
        little_endian(dir)?;
        Ok(Rc::new(ScratchDir {
            dir: dir.to_path_buf(),
            made: Cell::new(0),
            live: Cell::new(0),
            peak: Cell::new(0),
        }))
    }

    /// The most bytes of scratch alive at once so far.
    pub fn peak(&self) -> u64 {
        self.peak.get()
    }

    /// A new scratch file, unlinked at once where the system allows (its
    /// data lives as long as it is open or mapped), so a kill leaves nothing.
    pub fn writer(self: &Rc<Self>) -> Result<ScratchWriter, StateError> {
        let n = self.made.get();
        self.made.set(n + 1);
        let path = self
            .dir
            .join(format!(".scratch-{}-{n}.tmp", std::process::id()));
        let file = create_temp(&path).map_err(|source| StateError::Io {
            path: path.clone(),
            source,
        })?;
        let name = Unlink(std::fs::remove_file(&path).is_err().then_some(path.clone()));
        Ok(ScratchWriter {
            out: BufWriter::with_capacity(1 << 16, file),
            path,
            name,
            len: 0,
            dir: Rc::clone(self),
        })
    }

    /// A scratch file holding `words`.
    pub fn words(self: &Rc<Self>, words: &[u64]) -> Result<Scratch, StateError> {
        let mut w = self.writer()?;
        w.write(le_words(words))?;
        w.finish()
    }
}

/// A scratch file being written, sequentially.
pub struct ScratchWriter {
    out: BufWriter<File>,
    path: PathBuf,
    /// Its name, where the system refused to unlink an open file.
    name: Unlink,
    len: u64,
    dir: Rc<ScratchDir>,
}

impl ScratchWriter {
    /// Appends `bytes`.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), StateError> {
        self.out.write_all(bytes).map_err(|source| StateError::Io {
            path: self.path.clone(),
            source,
        })?;
        self.len += bytes.len() as u64;
        Ok(())
    }

    /// Bytes written.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The file, written, mapped for reading.
    pub fn finish(self) -> Result<Scratch, StateError> {
        let ScratchWriter {
            out,
            path,
            name,
            len,
            dir,
        } = self;
        let io = |source| StateError::Io {
            path: path.clone(),
            source,
        };
        let file = out.into_inner().map_err(|e| io(e.into_error()))?;
        let map = if len == 0 {
            None
        } else {
            // SAFETY: the file is this process's own, unlinked (or under a
            // name of its own), and no longer written.
            Some(unsafe { Mmap::map(&file) }.map_err(io)?)
        };
        let live = dir.live.get() + len;
        dir.live.set(live);
        dir.peak.set(dir.peak.get().max(live));
        Ok(Scratch {
            map,
            len,
            _name: name,
            dir,
        })
    }
}

/// A written scratch file, mapped read-only; removed when dropped.
pub struct Scratch {
    map: Option<Mmap>,
    len: u64,
    /// Its name, where it still has one (removed on drop, after the map).
    _name: Unlink,
    dir: Rc<ScratchDir>,
}

impl Scratch {
    /// Its bytes.
    pub fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }

    /// Its bytes as `u64` words (a mapping starts on a page).
    pub fn words(&self) -> &[u64] {
        as_words(self.bytes()).unwrap_or(&[])
    }

    /// Its bytes as `u32` words.
    pub fn u32s(&self) -> &[u32] {
        as_u32s(self.bytes()).unwrap_or(&[])
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        self.dir
            .live
            .set(self.dir.live.get().saturating_sub(self.len));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: Ident = Ident {
        variant: 1,
        holes: 3,
        start: 7,
    };

    #[test]
    fn a_mapped_file_is_verified_like_a_loaded_one() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let keys: Vec<u64> = (0..9u64).map(|k| k * 0x0101_0101_0101 + 3).collect();
        let mut file = create(dir.path(), ID, Kind::Keys, 12, keys.len() as u64, 8).expect("made");
        file.words_mut().expect("aligned").copy_from_slice(&keys);
        let written = file.finish().expect("finished");
        assert_eq!(written.words(), &keys[..]);
        drop(written);
        // What `create` writes is the format: the header (its entries at
        // byte 24), then the data.
        let bytes = std::fs::read(path(dir.path(), Kind::Keys, 12)).expect("read");
        let n = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
        assert_eq!(n, 9);
        assert_eq!(&bytes[HEADER..], le_words(&keys));
        let mapped = map(dir.path(), ID, Kind::Keys, 12, 8)
            .expect("readable")
            .expect("there");
        assert_eq!((mapped.entries(), mapped.words()), (9, &keys[..]));
        drop(mapped);
        assert!(map(dir.path(), ID, Kind::Values, 12, 3)
            .expect("no error")
            .is_none());
        let other = Ident { start: 8, ..ID };
        assert!(map(dir.path(), other, Kind::Keys, 12, 8).is_err());
        let file = path(dir.path(), Kind::Keys, 12);
        let whole = std::fs::read(&file).expect("read");
        for at in 0..whole.len() {
            let mut bad = whole.clone();
            bad[at] ^= 0x10;
            std::fs::write(&file, &bad).expect("write");
            let err = map(dir.path(), ID, Kind::Keys, 12, 8).expect_err("damaged");
            assert!(err.to_string().contains("keys-12.bin"), "{err}");
        }
        for len in [0, 20, whole.len() - 1] {
            std::fs::write(&file, &whole[..len]).expect("write");
            let err = map(dir.path(), ID, Kind::Keys, 12, 8).expect_err("short");
            assert!(err.to_string().contains("keys-12.bin"), "{err}");
        }
        // No temporary file is left behind, finished or not.
        let unfinished = create(dir.path(), ID, Kind::Values, 4, 5, 3).expect("made");
        drop(unfinished);
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("a directory")
            .map(|e| e.expect("an entry").file_name())
            .collect();
        assert_eq!(names, ["keys-12.bin"]);
    }

    #[test]
    fn scratch_files_read_back_and_leave_nothing() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let scratch = ScratchDir::new(dir.path()).expect("little-endian");
        let words: Vec<u64> = (0..5000u64).map(|k| k * k).collect();
        let a = scratch.words(&words).expect("written");
        let mut w = scratch.writer().expect("made");
        w.write(le_u32s(&[7, 8, 9])).expect("written");
        assert_eq!(w.len(), 12);
        let b = w.finish().expect("finished");
        let empty = scratch.words(&[]).expect("written");
        assert_eq!(a.words(), &words[..]);
        assert_eq!(b.u32s(), &[7, 8, 9]);
        assert!(empty.words().is_empty());
        assert_eq!(scratch.peak(), 8 * 5000 + 12);
        assert_eq!(
            std::fs::read_dir(dir.path()).expect("a directory").count(),
            0
        );
        drop((a, b, empty));
    }
}
