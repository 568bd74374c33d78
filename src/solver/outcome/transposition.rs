//! The proof search's transposition table: a fixed number of slots sized
//! from a memory budget, so that a long proof never grows past what it was
//! given. When a bucket is full, the entry with the smallest subtree (the
//! least work lost) gives way; nothing is ever aborted for want of room.
//!
//! An entry is matched on its whole key (board, side to move, the margin
//! still needed), never on a hash alone.

use crate::engine::side::Side;

/// Proof and disproof numbers: `INF` marks a proved (pn 0, dn INF) or
/// disproved (pn INF, dn 0) node.
pub const INF: u32 = u32::MAX;

/// Adds proof numbers, saturating below `INF` unless one is `INF`.
#[inline]
pub fn add(a: u32, b: u32) -> u32 {
    if a == INF || b == INF {
        INF
    } else {
        (a as u64 + b as u64).min(INF as u64 - 1) as u32
    }
}

/// A node of the proof search: the board, the side to move, and the margin
/// South still needs from here on (captures to come, South's minus North's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NodeKey {
    /// The holes, as the engine stores them.
    pub board: [u8; 32],
    /// Who moves.
    pub side: Side,
    /// South's margin still needed for the question to hold.
    pub need: i16,
}

impl NodeKey {
    /// A hash of the whole key.
    pub fn hash(&self) -> u64 {
        let mut h =
            0x243F_6A88_85A3_08D3u64 ^ (self.side as u64) ^ ((self.need as u16 as u64) << 8);
        for chunk in self.board.chunks_exact(8) {
            let w = u64::from_le_bytes(chunk.try_into().expect("chunks of eight bytes"));
            h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        h
    }
}

/// What the table knows of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The node.
    pub key: NodeKey,
    /// Proof number (0: proved).
    pub pn: u32,
    /// Disproof number (0: disproved).
    pub dn: u32,
    /// Nodes searched below it, saturating: what replacing it would lose.
    pub work: u32,
    /// For a result that rests on a repetition of a position on the search
    /// path: the serial of that path frame (0: the result holds from any path).
    pub dep_serial: u32,
    /// The depth of that frame on the path.
    pub dep_depth: u32,
    /// The epoch the result was found in (see `dfpn`).
    pub epoch: u32,
    /// The move (index among the node's moves) that proved or disproved it.
    pub best: u8,
}

impl Entry {
    /// Whether the node is proved or disproved.
    pub fn resolved(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

const WAYS: usize = 4;

/// The table: buckets of four slots.
pub struct Table {
    slots: Vec<Option<Entry>>,
    mask: usize,
    used: usize,
    replaced: u64,
}

impl Table {
    /// Bytes one slot takes.
    pub const SLOT_BYTES: usize = std::mem::size_of::<Option<Entry>>();

    /// A table of the largest power-of-two number of buckets that fits
    /// `bytes` (at least one bucket).
    pub fn with_budget(bytes: u64) -> Table {
        let bucket = (WAYS * Self::SLOT_BYTES) as u64;
        let buckets = (bytes / bucket).max(1);
        let buckets = 1usize << (63 - buckets.leading_zeros());
        Table {
            slots: vec![None; buckets * WAYS],
            mask: buckets - 1,
            used: 0,
            replaced: 0,
        }
    }

    /// The bytes the slots take.
    pub fn bytes(&self) -> u64 {
        (self.slots.len() * Self::SLOT_BYTES) as u64
    }

    /// Slots in all.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Slots holding an entry.
    pub fn used(&self) -> usize {
        self.used
    }

    /// Entries that gave way to others.
    pub fn replaced(&self) -> u64 {
        self.replaced
    }

    fn bucket(&self, key: &NodeKey) -> usize {
        (key.hash() as usize & self.mask) * WAYS
    }

    /// The entry of `key`, if the table holds it.
    pub fn get(&self, key: &NodeKey) -> Option<&Entry> {
        let b = self.bucket(key);
        self.slots[b..b + WAYS]
            .iter()
            .flatten()
            .find(|e| e.key == *key)
    }

    /// Stores `entry`, over the entry of its key, else in a free slot, else
    /// over the bucket's unresolved entry with the least work, else over
    /// its resolved entry with the least work: results are what a proof is
    /// made of, proof numbers only guide the search.
    pub fn put(&mut self, entry: Entry) {
        let b = self.bucket(&entry.key);
        let bucket = &mut self.slots[b..b + WAYS];
        if let Some(slot) = bucket
            .iter_mut()
            .find(|s| s.is_some_and(|e| e.key == entry.key))
        {
            *slot = Some(entry);
            return;
        }
        if let Some(slot) = bucket.iter_mut().find(|s| s.is_none()) {
            *slot = Some(entry);
            self.used += 1;
            return;
        }
        let victim = bucket
            .iter_mut()
            .min_by_key(|s| {
                let e = s.expect("a full bucket");
                (e.resolved(), e.work)
            })
            .expect("a bucket has slots");
        *victim = Some(entry);
        self.replaced += 1;
    }

    /// Every entry held.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.slots.iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(i: u8, work: u32) -> Entry {
        let mut board = [0u8; 32];
        board[0] = i;
        Entry {
            key: NodeKey {
                board,
                side: Side::South,
                need: 1,
            },
            pn: 1,
            dn: 1,
            work,
            dep_serial: 0,
            dep_depth: 0,
            epoch: 0,
            best: 0,
        }
    }

    #[test]
    fn a_full_table_keeps_its_size_and_gives_up_the_smallest_subtrees() {
        let mut table = Table::with_budget(1);
        assert_eq!(table.capacity(), WAYS);
        for i in 0..100u8 {
            table.put(entry(i, i as u32 + 10));
        }
        assert_eq!(table.used(), WAYS);
        assert_eq!(table.replaced(), 96);
        // The last entry always goes in; the three kept besides it are
        // those with the most work before it.
        let mut kept: Vec<u32> = table.entries().map(|e| e.work).collect();
        kept.sort();
        assert_eq!(kept, vec![106, 107, 108, 109]);
    }

    #[test]
    fn the_budget_bounds_the_slots() {
        for mb in [1u64, 3, 10] {
            let table = Table::with_budget(mb << 20);
            assert!(table.bytes() <= mb << 20);
            assert!(table.bytes() * 2 > mb << 20);
        }
    }
}
