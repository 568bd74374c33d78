//! An exact set of 64-bit keys whose memory stays small however many keys
//! it holds: the report counts distinct games and pairs over every game of
//! a run, and with a `HashSet` a run's memory grew by about 58 MB per
//! million games (a 100-million-game run would have needed gigabytes).
//!
//! Keys go to a hash set of at most [`MEMORY_KEYS`]; when it is full, its
//! keys are sorted and written to an unnamed temporary file as a sorted
//! run, with a Bloom filter of 10 bits a key ([`BLOOM_BITS_PER_KEY`], 7
//! probes: about one false "maybe" in 120) and the first key of every
//! block of [`BLOCK_KEYS`] kept in memory. A key is new unless the hash
//! set holds it or a run whose filter says "maybe" holds it in the one
//! block that may (read with one `pread`). So the answer is exact, as a
//! `HashSet`'s, and memory grows by about 1.3 bytes a key, not 30 to 60.
//! Runs of about the same size are merged (as a binary counter carries),
//! so that a set of `n` keys has about `log2(n / MEMORY_KEYS)` runs, and a
//! lookup asks that many filters, reading at most one block per run whose
//! filter answers "maybe". The runs live in `TMPDIR` (its disk, not the
//! process's memory): 8 bytes a key.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::sync::Arc;

/// Keys held in the hash set before they are written out as a run.
pub(crate) const MEMORY_KEYS: usize = 1 << 18;
/// Keys per block of a run: one block is read per lookup that reaches it.
const BLOCK_KEYS: usize = 512;
/// Bloom filter bits per key of a run.
const BLOOM_BITS_PER_KEY: usize = 10;
/// Probes of the Bloom filter per key.
const BLOOM_PROBES: u32 = 7;

/// One sorted run of keys on disk.
#[derive(Debug)]
struct Run {
    file: File,
    /// The first key of each block.
    fences: Vec<u64>,
    len: usize,
    bloom: Vec<u64>,
}

/// An exact set of `u64` keys with bounded memory (see the module).
#[derive(Debug, Clone)]
pub(crate) struct DistinctSet {
    memory: HashSet<u64>,
    runs: Vec<Arc<Run>>,
    /// Keys of the runs removed since (a lone game whose partner came).
    removed: HashSet<u64>,
    /// Keys held before they are written out (a test sets it small).
    limit: usize,
}

impl Default for DistinctSet {
    fn default() -> DistinctSet {
        DistinctSet::with_limit(MEMORY_KEYS)
    }
}

impl DistinctSet {
    /// An empty set that writes a run every `limit` keys.
    pub(crate) fn with_limit(limit: usize) -> DistinctSet {
        DistinctSet {
            memory: HashSet::new(),
            runs: Vec::new(),
            removed: HashSet::new(),
            limit: limit.max(1),
        }
    }

    /// Adds `key`; true if it was not there.
    ///
    /// # Panics
    /// If a run cannot be written to or read from the temporary directory:
    /// the counts of a report cannot be made without it.
    pub(crate) fn insert(&mut self, key: u64) -> bool {
        if self.contains(key) {
            return false;
        }
        if self.removed.remove(&key) {
            return true;
        }
        // Written out before a key is added, not after: the key added last
        // stays in memory, where removing it (the usual removal) is cheap.
        if self.memory.len() >= self.limit {
            let run = Run::write(&self.memory).unwrap_or_else(|err| {
                panic!("cannot write the distinct-games set to the temporary directory: {err}")
            });
            self.runs.push(Arc::new(run));
            self.memory = HashSet::new();
            // Carry: a run merges with the one before while that one is not
            // more than twice as large.
            while let [.., before, last] = &self.runs[..] {
                if before.len > 2 * last.len {
                    break;
                }
                let merged = Run::merge(before, last).unwrap_or_else(|err| {
                    panic!("cannot merge the distinct-games set in the temporary directory: {err}")
                });
                self.runs.truncate(self.runs.len() - 2);
                self.runs.push(Arc::new(merged));
            }
        }
        self.memory.insert(key);
        true
    }

    /// Whether the set holds `key`.
    pub(crate) fn contains(&self, key: u64) -> bool {
        self.memory.contains(&key)
            || (!self.removed.contains(&key) && self.runs.iter().any(|run| run.contains(key)))
    }

    /// Removes `key`; true if it was there.
    pub(crate) fn remove(&mut self, key: &u64) -> bool {
        if self.memory.remove(key) {
            return true;
        }
        self.contains(*key) && self.removed.insert(*key)
    }
}

/// The probes of `key` into a filter of `bits` bits (double hashing; the
/// keys are hashes already).
fn probes(key: u64, bits: usize) -> impl Iterator<Item = usize> {
    let h1 = key;
    let h2 = key.rotate_left(32) | 1;
    (0..BLOOM_PROBES)
        .map(move |i| (h1.wrapping_add(u64::from(i).wrapping_mul(h2)) % bits as u64) as usize)
}

impl Run {
    /// The keys of `set`, sorted, in an unnamed temporary file.
    fn write(set: &HashSet<u64>) -> io::Result<Run> {
        let mut keys: Vec<u64> = set.iter().copied().collect();
        keys.sort_unstable();
        let mut run = RunWriter::new(keys.len())?;
        for key in keys {
            run.push(key)?;
        }
        run.finish()
    }

    /// The keys of `a` and `b` (disjoint, each sorted) in one sorted run.
    fn merge(a: &Run, b: &Run) -> io::Result<Run> {
        let mut run = RunWriter::new(a.len + b.len)?;
        let (mut left, mut right) = (a.keys(), b.keys());
        let (mut x, mut y) = (left.next().transpose()?, right.next().transpose()?);
        loop {
            let key = match (x, y) {
                (Some(k), Some(l)) if k <= l => {
                    x = left.next().transpose()?;
                    k
                }
                (_, Some(l)) => {
                    y = right.next().transpose()?;
                    l
                }
                (Some(k), None) => {
                    x = left.next().transpose()?;
                    k
                }
                (None, None) => break,
            };
            run.push(key)?;
        }
        run.finish()
    }

    /// The run's keys in order, read in blocks.
    fn keys(&self) -> impl Iterator<Item = io::Result<u64>> + '_ {
        let blocks = self.len.div_ceil(BLOCK_KEYS);
        (0..blocks).flat_map(move |block| {
            let start = block * BLOCK_KEYS;
            let count = BLOCK_KEYS.min(self.len - start);
            let mut bytes = vec![0u8; count * 8];
            let read = self.file.read_exact_at(&mut bytes, (start * 8) as u64);
            let keys: Vec<io::Result<u64>> = match read {
                Ok(()) => bytes
                    .chunks_exact(8)
                    .map(|b| Ok(u64::from_le_bytes(b.try_into().expect("8 bytes"))))
                    .collect(),
                Err(err) => vec![Err(err)],
            };
            keys
        })
    }

    /// Whether the run holds `key`.
    pub(crate) fn contains(&self, key: u64) -> bool {
        let bits = self.bloom.len() * 64;
        if !probes(key, bits).all(|bit| self.bloom[bit / 64] & (1 << (bit % 64)) != 0) {
            return false;
        }
        // The block whose first key is the last at most `key`.
        let block = match self.fences.partition_point(|&fence| fence <= key) {
            0 => return false,
            n => n - 1,
        };
        let start = block * BLOCK_KEYS;
        let count = BLOCK_KEYS.min(self.len - start);
        let mut bytes = vec![0u8; count * 8];
        self.file
            .read_exact_at(&mut bytes, (start * 8) as u64)
            .unwrap_or_else(|err| panic!("cannot read the distinct-games set back: {err}"));
        let keys: Vec<u64> = bytes
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
            .collect();
        keys.binary_search(&key).is_ok()
    }
}

/// A run being written, keys in ascending order: the file, the fences and
/// the filter filled as the keys come.
struct RunWriter {
    out: BufWriter<File>,
    fences: Vec<u64>,
    bloom: Vec<u64>,
    len: usize,
}

impl RunWriter {
    /// A writer for about `keys` keys (the filter's size).
    fn new(keys: usize) -> io::Result<RunWriter> {
        let bits = (keys * BLOOM_BITS_PER_KEY).max(64);
        Ok(RunWriter {
            out: BufWriter::with_capacity(1 << 16, anonymous_file()?),
            fences: Vec::with_capacity(keys.div_ceil(BLOCK_KEYS)),
            bloom: vec![0u64; bits.div_ceil(64)],
            len: 0,
        })
    }

    fn push(&mut self, key: u64) -> io::Result<()> {
        if self.len % BLOCK_KEYS == 0 {
            self.fences.push(key);
        }
        let bits = self.bloom.len() * 64;
        for bit in probes(key, bits) {
            self.bloom[bit / 64] |= 1 << (bit % 64);
        }
        self.len += 1;
        self.out.write_all(&key.to_le_bytes())
    }

    fn finish(self) -> io::Result<Run> {
        let file = self.out.into_inner().map_err(|e| e.into_error())?;
        Ok(Run {
            file,
            fences: self.fences,
            len: self.len,
            bloom: self.bloom,
        })
    }
}

/// A file in the temporary directory that has no name: created with
/// `O_EXCL` under a name of this process and unlinked at once, so that
/// nothing is left behind however the process ends.
fn anonymous_file() -> io::Result<File> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static MADE: AtomicU64 = AtomicU64::new(0);
    let n = MADE.fetch_add(1, Ordering::Relaxed);
    let path =
        std::env::temp_dir().join(format!(".hoyito-distinct-{}-{n}.tmp", std::process::id()));
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    std::fs::remove_file(&path)?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn it_answers_as_a_hash_set_across_many_runs() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut set = DistinctSet::with_limit(100);
        let mut exact = HashSet::new();
        for i in 0..20_000u64 {
            // Half the keys from a small range, so that repeats are common
            // and fall in every run; the fences' edges included.
            let key = match i % 4 {
                0 => rng.random_range(0..3_000),
                1 => rng.random(),
                2 => u64::MAX - rng.random_range(0..50),
                _ => rng.random_range(0..3_000) * 1_000_003,
            };
            assert_eq!(set.insert(key), exact.insert(key), "key {key} at {i}");
            // Removals, as of a lone game whose partner came: the key just
            // added, and now and then an old one (in a run).
            if i % 7 == 0 {
                assert_eq!(set.remove(&key), exact.remove(&key), "remove {key} at {i}");
            }
            if i % 11 == 0 {
                let old = rng.random_range(0..3_000);
                assert_eq!(set.remove(&old), exact.remove(&old), "remove {old} at {i}");
            }
        }
        // 20,000 keys in runs of 100, merged as a binary counter carries.
        assert!(
            (3..=10).contains(&set.runs.len()),
            "{} runs",
            set.runs.len()
        );
        assert!(set.runs.windows(2).all(|w| w[0].len > w[1].len));
        let clone = set.clone();
        assert_eq!(clone.runs.len(), set.runs.len());
    }
}
