//! The transposition table: a fixed array of 64-byte buckets of four entries,
//! each entry two atomic words `(key ^ data, data)`, shared by every search
//! thread without locks. A torn write (one word from each of two writers)
//! fails the XOR check on probe and reads as a miss.
//!
//! `data` layout (low bit first):
//!
//! | bits  | field                                               |
//! |-------|-----------------------------------------------------|
//! | 0-15  | score (i16, mate scores relative to the node)       |
//! | 16-31 | index of the best action in the legal list (u16, `0xFFFF` none) |
//! | 32-39 | depth in actions (u8)                               |
//! | 40-41 | bound (0 empty, 1 lower, 2 upper, 3 exact)          |
//! | 42-47 | age (6 bits, bumped per search)                     |
//! | 48-63 | spare                                               |

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// No bound: an empty entry.
pub(crate) const BOUND_NONE: u8 = 0;
/// The score is a lower bound (fail high).
pub(crate) const BOUND_LOWER: u8 = 1;
/// The score is an upper bound (fail low).
pub(crate) const BOUND_UPPER: u8 = 2;
/// The score is exact.
pub(crate) const BOUND_EXACT: u8 = 3;

const NO_IDX: u16 = 0xFFFF;
const AGE_MASK: u8 = 63;
const ENTRIES: usize = 4;

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket([Entry; ENTRIES]);

/// What a probe returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TtHit {
    /// The stored score (still relative to the node: use [`score_from_tt`]).
    pub score: i32,
    /// Index of the best action in the node's legal action list.
    pub idx: Option<u16>,
    /// Depth searched, in actions.
    pub depth: i32,
    /// One of the `BOUND_*` constants (never `BOUND_NONE`).
    pub bound: u8,
}

/// The shared table.
pub(crate) struct Tt {
    buckets: Box<[Bucket]>,
    age: u8,
}

#[inline]
fn pack(score: i32, idx: Option<u16>, depth: i32, bound: u8, age: u8) -> u64 {
    let s = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let i = idx.unwrap_or(NO_IDX) as u64;
    let d = depth.clamp(0, 255) as u64;
    s | i << 16 | d << 32 | ((bound & 3) as u64) << 40 | ((age & AGE_MASK) as u64) << 42
}

#[inline]
fn bound_of(data: u64) -> u8 {
    (data >> 40 & 3) as u8
}
#[inline]
fn age_of(data: u64) -> u8 {
    (data >> 42) as u8 & AGE_MASK
}
#[inline]
fn depth_of(data: u64) -> i32 {
    (data >> 32 & 0xFF) as i32
}
#[inline]
fn idx_of(data: u64) -> Option<u16> {
    let i = (data >> 16) as u16;
    (i != NO_IDX).then_some(i)
}

/// The allocator refused a table of `mb` MiB (`setoption name Hash`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {mb} MiB hash table")]
pub struct AllocError {
    /// The size asked for, MiB.
    pub mb: usize,
}

impl Tt {
    /// A table of (about) `mb` MiB; at least one bucket. Panics if the
    /// memory cannot be had: use [`Tt::try_new`] for sizes a user chose.
    pub fn new(mb: usize) -> Tt {
        Self::try_new(mb).expect("transposition table allocation")
    }

    /// A table of (about) `mb` MiB, or an error if the allocator refuses.
    pub fn try_new(mb: usize) -> Result<Tt, AllocError> {
        let n = (mb.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1);
        let mut v: Vec<Bucket> = Vec::new();
        v.try_reserve_exact(n).map_err(|_| AllocError { mb })?;
        v.extend((0..n).map(|_| Bucket::default()));
        Ok(Tt { buckets: v.into_boxed_slice(), age: 0 })
    }

    /// Empties every entry.
    pub fn clear(&mut self) {
        for b in self.buckets.iter() {
            for e in &b.0 {
                e.check.store(0, Relaxed);
                e.data.store(0, Relaxed);
            }
        }
        self.age = 0;
    }

    /// Starts a new search: newer entries are preferred over older ones.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & AGE_MASK;
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// The entry for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in &self.bucket(key).0 {
            let data = e.data.load(Relaxed);
            let check = e.check.load(Relaxed);
            if check ^ data == key && bound_of(data) != BOUND_NONE {
                return Some(TtHit {
                    score: data as u16 as i16 as i32,
                    idx: idx_of(data),
                    depth: depth_of(data),
                    bound: bound_of(data),
                });
            }
        }
        None
    }

    /// Stores a result (the score already adjusted by [`score_to_tt`]).
    pub fn store(&self, key: u64, score: i32, idx: Option<u16>, depth: i32, bound: u8) {
        let b = self.bucket(key);
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for (i, e) in b.0.iter().enumerate() {
            let data = e.data.load(Relaxed);
            let check = e.check.load(Relaxed);
            if bound_of(data) == BOUND_NONE {
                if victim_value > i32::MIN {
                    victim = i;
                    victim_value = i32::MIN;
                }
                continue;
            }
            if check ^ data == key {
                // Same position: keep a deeper result of this search unless the
                // new one is exact or nearly as deep.
                if bound != BOUND_EXACT && age_of(data) == self.age && depth + 2 < depth_of(data) {
                    return;
                }
                let idx = idx.or(idx_of(data));
                let d = pack(score, idx, depth, bound, self.age);
                e.check.store(key ^ d, Relaxed);
                e.data.store(d, Relaxed);
                return;
            }
            let age_dist = (self.age.wrapping_sub(age_of(data)) & AGE_MASK) as i32;
            let value = depth_of(data) - 8 * age_dist;
            if value < victim_value {
                victim = i;
                victim_value = value;
            }
        }
        let d = pack(score, idx, depth, bound, self.age);
        let e = &b.0[victim];
        e.check.store(key ^ d, Relaxed);
        e.data.store(d, Relaxed);
    }

    /// Per mille of a sample of (up to) 1000 entries written by this search.
    pub fn hashfull(&self) -> u32 {
        let mut seen = 0u32;
        let mut used = 0u32;
        'outer: for b in self.buckets.iter() {
            for e in &b.0 {
                if seen == 1000 {
                    break 'outer;
                }
                seen += 1;
                let data = e.data.load(Relaxed);
                if bound_of(data) != BOUND_NONE && age_of(data) == self.age {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(seen).unwrap_or(0)
    }
}

/// A score as stored: mate scores made relative to the node (distance from
/// the node instead of from the root).
#[inline]
pub(crate) fn score_to_tt(s: i32, ply: usize) -> i32 {
    use crate::score::MATE_BOUND;
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

/// The inverse of [`score_to_tt`] for a node at `ply`.
#[inline]
pub(crate) fn score_from_tt(s: i32, ply: usize) -> i32 {
    use crate::score::MATE_BOUND;
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::MATE;

    #[test]
    fn round_trip_and_mate_scores() {
        let tt = Tt::new(1);
        // A win found 5 plies below a node at ply 3 (mate at ply 8 from the root).
        let root_score = MATE - 8;
        tt.store(0xDEAD_BEEF, score_to_tt(root_score, 3), Some(7), 12, BOUND_EXACT);
        let hit = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(hit.idx, Some(7));
        assert_eq!(hit.depth, 12);
        assert_eq!(hit.bound, BOUND_EXACT);
        // Same node at ply 3: same score; at ply 1: the mate is 2 plies nearer.
        assert_eq!(score_from_tt(hit.score, 3), MATE - 8);
        assert_eq!(score_from_tt(hit.score, 1), MATE - 6);
        // A loss.
        tt.store(42, score_to_tt(-MATE + 10, 4), None, 3, BOUND_UPPER);
        let hit = tt.probe(42).unwrap();
        assert_eq!(hit.idx, None);
        assert_eq!(score_from_tt(hit.score, 4), -MATE + 10);
        assert_eq!(score_from_tt(hit.score, 6), -MATE + 12);
        // Ordinary scores pass through, negative ones included.
        tt.store(43, score_to_tt(-123, 9), Some(0), 0, BOUND_LOWER);
        assert_eq!(score_from_tt(tt.probe(43).unwrap().score, 2), -123);
        assert!(tt.probe(44).is_none());
    }

    #[test]
    fn replacement_keeps_moves_and_hashfull_counts() {
        let mut tt = Tt::new(1);
        tt.new_search();
        tt.store(1, 10, Some(3), 5, BOUND_LOWER);
        // A shallower non-exact result of the same search does not replace.
        tt.store(1, 20, Some(4), 1, BOUND_UPPER);
        assert_eq!(tt.probe(1).unwrap().score, 10);
        // An exact one does, and keeps the old move when it has none.
        tt.store(1, 30, None, 1, BOUND_EXACT);
        let hit = tt.probe(1).unwrap();
        assert_eq!((hit.score, hit.idx), (30, Some(3)));
        assert!(tt.hashfull() <= 1000);
        for k in 0..200_000u64 {
            tt.store(tetrarch_core::zobrist::splitmix64(k), 1, None, 1, BOUND_EXACT);
        }
        assert!(tt.hashfull() > 900, "{}", tt.hashfull());
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.clear();
        assert!(tt.probe(1).is_none());
        assert_eq!(tt.hashfull(), 0);
        // Many keys into one bucket: the table never loses the newest.
        let small = Tt::new(0);
        for k in 1..100u64 {
            small.store(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), k as i32, None, (k % 7) as i32, BOUND_EXACT);
            assert!(small.probe(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)).is_some());
        }
    }
}
