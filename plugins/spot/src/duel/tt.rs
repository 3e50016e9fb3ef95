//! Two-tier transposition table: each bucket keeps a depth-preferred entry and an
//! always-replaced one, so deep results survive while recent shallow ones still help.

use crate::moves::Move;
use nesmind_search::WIN;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The score is at least this (a cutoff).
    Lower,
    /// The score is at most this (every move failed low).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    check: u32,
    pub score: i32,
    pub mv: Option<Move>,
    pub depth: i8,
    pub bound: Bound,
    /// The search (one `go`) that wrote it: older deep entries give way.
    generation: u8,
}

const EMPTY: Entry = Entry {
    check: 0,
    score: 0,
    mv: None,
    depth: -1,
    bound: Bound::Upper,
    generation: 0,
};

pub struct Table {
    buckets: Vec<[Entry; 2]>,
    mask: u64,
    generation: u8,
}

/// Mate scores are stored relative to the node, so they stay right at another ply.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > WIN / 2 {
        score + ply as i32
    } else if score < -WIN / 2 {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > WIN / 2 {
        score - ply as i32
    } else if score < -WIN / 2 {
        score + ply as i32
    } else {
        score
    }
}

impl Table {
    pub fn new(bits: u32) -> Table {
        Table {
            buckets: vec![[EMPTY; 2]; 1 << bits],
            mask: (1u64 << bits) - 1,
            generation: 0,
        }
    }

    pub fn clear(&mut self) {
        self.buckets.fill([EMPTY; 2]);
    }

    /// Marks the entries written so far as old.
    pub fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> (usize, u32) {
        ((key & self.mask) as usize, (key >> 32) as u32)
    }

    /// The stored entry for `key`, its score made relative to the root.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let (i, check) = self.slot(key);
        self.buckets[i]
            .iter()
            .find(|e| e.check == check && e.depth >= 0)
            .map(|e| Entry {
                score: from_table(e.score, ply),
                ..*e
            })
    }

    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        ply: usize,
        depth: i32,
        score: i32,
        bound: Bound,
        mv: Option<Move>,
    ) {
        let (i, check) = self.slot(key);
        let bucket = &mut self.buckets[i];
        let depth = depth.clamp(0, 127) as i8;
        let mut entry = Entry {
            check,
            score: to_table(score, ply),
            mv,
            depth,
            bound,
            generation: self.generation,
        };
        // The same position keeps its move when the new result has none.
        let same = bucket.iter().position(|e| e.check == check && e.depth >= 0);
        if let Some(s) = same {
            if entry.mv.is_none() {
                entry.mv = bucket[s].mv;
            }
            if s == 0 && depth < bucket[0].depth && bound != Bound::Exact {
                bucket[1] = entry;
            } else {
                bucket[s] = entry;
            }
        } else if depth >= bucket[0].depth || bucket[0].generation != self.generation {
            bucket[1] = bucket[0];
            bucket[0] = entry;
        } else {
            bucket[1] = entry;
        }
    }
}
