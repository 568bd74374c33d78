//! The lists of keys a closure keeps while it runs, and how they spill: the
//! keys captures led to, waiting for a smaller layer's closure
//! ([`Pending`]), the work stack ([`SpillStack`]), and sorted runs of keys in
//! scratch files ([`KeyRun`]) merged in order ([`merge_sorted`]). In memory
//! the lists only grow and are compacted now and then; out of core, past
//! their share of the memory budget, they are sorted into unlinked scratch
//! files, so that the working set of the largest layer stays bounded.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::rc::Rc;

use super::layer::Buckets;
use super::state::{self, Scratch, ScratchDir, ScratchWriter, StateError};

/// Keeps a growing list of keys small: sorted and without repeats once it
/// has doubled since the last time.
fn compact(keys: &mut Vec<u64>, after: &mut usize) {
    if keys.len() > (*after * 2).max(1 << 20) {
        keys.sort_unstable();
        keys.dedup();
        *after = keys.len();
    }
}

/// Calls `out` with every key of the sorted `lists` in order: each key once
/// where `dedup`, else every occurrence (for lists known to be disjoint).
pub(super) fn merge_sorted(
    lists: &[&[u64]],
    dedup: bool,
    mut out: impl FnMut(u64) -> Result<(), StateError>,
) -> Result<(), StateError> {
    let mut at = vec![0usize; lists.len()];
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = lists
        .iter()
        .enumerate()
        .filter_map(|(i, l)| l.first().map(|&k| Reverse((k, i))))
        .collect();
    let mut last = None;
    while let Some(Reverse((key, i))) = heap.pop() {
        if !dedup || last != Some(key) {
            out(key)?;
            last = Some(key);
        }
        at[i] += 1;
        if let Some(&next) = lists[i].get(at[i]) {
            heap.push(Reverse((next, i)));
        }
    }
    Ok(())
}

/// A scratch file written a key at a time, through a small buffer.
struct KeySink {
    out: ScratchWriter,
    buf: Vec<u64>,
}

impl KeySink {
    fn new(out: ScratchWriter) -> KeySink {
        KeySink {
            out,
            buf: Vec::with_capacity(1 << 13),
        }
    }

    fn push(&mut self, key: u64) -> Result<(), StateError> {
        self.buf.push(key);
        if self.buf.len() == self.buf.capacity() {
            self.out.write(state::le_words(&self.buf))?;
            self.buf.clear();
        }
        Ok(())
    }

    fn finish(mut self) -> Result<Scratch, StateError> {
        self.out.write(state::le_words(&self.buf))?;
        self.out.finish()
    }
}

/// A sorted run of keys in a scratch file, with its lookup buckets.
pub(super) struct KeyRun {
    data: Scratch,
    pub(super) buckets: Buckets,
}

impl KeyRun {
    pub(super) fn new(data: Scratch, count: u64) -> KeyRun {
        let buckets = Buckets::new(data.words(), count);
        KeyRun { data, buckets }
    }

    pub(super) fn keys(&self) -> &[u64] {
        self.data.words()
    }

    #[inline]
    pub(super) fn contains(&self, key: u64) -> bool {
        self.buckets.find(self.data.words(), key).is_some()
    }
}

/// The keys captures led to, per smaller layer, waiting for its closure. In
/// memory they are kept sorted and without repeats now and then; out of
/// core, once they hold more than their share of the budget, the largest
/// list is sorted into a run in a scratch file.
pub(super) struct Pending {
    keys: Vec<Vec<u64>>,
    compacted: Vec<usize>,
    runs: Vec<Vec<Scratch>>,
    /// Out of core: the scratch directory and the most keys held in memory.
    spill: Option<(Rc<ScratchDir>, usize)>,
    /// Keys of room held in memory (capacities) in all lists.
    held: usize,
}

impl Pending {
    pub(super) fn new(layers: usize, scratch: Option<Rc<ScratchDir>>) -> Pending {
        Pending {
            keys: vec![Vec::new(); layers],
            compacted: vec![0; layers],
            runs: (0..layers).map(|_| Vec::new()).collect(),
            spill: scratch.map(|s| (s, usize::MAX)),
            held: 0,
        }
    }

    /// Out of core: the most keys to hold in memory from now on.
    pub(super) fn set_limit(&mut self, keys: usize) {
        if let Some((_, limit)) = &mut self.spill {
            *limit = keys;
        }
    }

    #[inline]
    pub(super) fn push(&mut self, s: usize, key: u64) {
        let list = &mut self.keys[s];
        let before = list.capacity();
        list.push(key);
        if self.spill.is_none() {
            compact(list, &mut self.compacted[s]);
        }
        self.held += list.capacity() - before;
    }

    pub(super) fn is_empty(&self, s: usize) -> bool {
        self.keys[s].is_empty() && self.runs[s].is_empty()
    }

    /// Memory held.
    pub(super) fn bytes(&self) -> u64 {
        8 * self.held as u64
    }

    /// Out of core: spills the largest lists until the rest fits; the runs
    /// written.
    pub(super) fn settle(&mut self) -> Result<u32, StateError> {
        let Some((scratch, limit)) = &self.spill else {
            return Ok(0);
        };
        let mut spills = 0;
        while self.held > *limit {
            let Some(s) = (0..self.keys.len()).max_by_key(|&s| self.keys[s].capacity()) else {
                break;
            };
            let mut list = std::mem::take(&mut self.keys[s]);
            self.held -= list.capacity();
            if list.is_empty() {
                break;
            }
            list.sort_unstable();
            list.dedup();
            self.runs[s].push(scratch.words(&list)?);
            spills += 1;
        }
        Ok(spills)
    }

    /// Forgets the keys of layer `s` (closed in an earlier run).
    pub(super) fn discard(&mut self, s: usize) {
        let list = std::mem::take(&mut self.keys[s]);
        self.held -= list.capacity();
        self.runs[s].clear();
    }

    /// The keys of layer `s`, sorted, without repeats (in memory).
    pub(super) fn take_sorted(&mut self, s: usize) -> Vec<u64> {
        let mut list = std::mem::take(&mut self.keys[s]);
        self.held -= list.capacity();
        list.sort_unstable();
        list.dedup();
        list
    }

    /// The keys of layer `s`, sorted, without repeats, as one run in a
    /// scratch file (out of core).
    pub(super) fn take_run(
        &mut self,
        s: usize,
        scratch: &Rc<ScratchDir>,
        count: u64,
    ) -> Result<KeyRun, StateError> {
        let list = self.take_sorted(s);
        let runs = std::mem::take(&mut self.runs[s]);
        if runs.is_empty() {
            return Ok(KeyRun::new(scratch.words(&list)?, count));
        }
        let mut lists: Vec<&[u64]> = runs.iter().map(|r| r.words()).collect();
        lists.push(&list);
        let mut sink = KeySink::new(scratch.writer()?);
        merge_sorted(&lists, true, |key| sink.push(key))?;
        Ok(KeyRun::new(sink.finish()?, count))
    }
}

/// The work stack of an out-of-core closure: beyond `cap` keys in memory,
/// they go to a scratch file, read back when the stack has emptied.
pub(super) struct SpillStack {
    pub(super) ram: Vec<u64>,
    pub(super) cap: usize,
    pub(super) spilled: Vec<Scratch>,
    pub(super) scratch: Rc<ScratchDir>,
}

impl SpillStack {
    #[inline]
    pub(super) fn push(&mut self, key: u64) {
        self.ram.push(key);
    }

    pub(super) fn pop(&mut self) -> Option<u64> {
        if let Some(key) = self.ram.pop() {
            return Some(key);
        }
        let chunk = self.spilled.pop()?;
        self.ram.extend_from_slice(chunk.words());
        self.ram.pop()
    }

    /// Spills the keys in memory when they reach the cap; the runs written.
    pub(super) fn settle(&mut self) -> Result<u32, StateError> {
        if self.ram.len() < self.cap {
            return Ok(0);
        }
        self.spilled.push(self.scratch.words(&self.ram)?);
        self.ram.clear();
        Ok(1)
    }
}
