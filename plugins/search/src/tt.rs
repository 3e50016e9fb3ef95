//! Two-tier transposition table: each bucket keeps one depth-preferred entry and one
//! most-recent entry, which holds up well when the table fills.

use super::utility::Utility;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    #[default]
    Exact,
    /// The true value is at least the stored one.
    Lower,
    /// The true value is at most the stored one.
    Upper,
}

#[derive(Clone, Copy, Default)]
pub struct Entry<M> {
    pub key: u64,
    pub value: Utility,
    pub mv: M,
    pub depth: u8,
    pub bound: Bound,
    generation: u8,
    used: bool,
}

pub struct TranspositionTable<M> {
    buckets: Vec<[Entry<M>; 2]>,
    mask: usize,
    generation: u8,
}

impl<M: Copy + Default> TranspositionTable<M> {
    /// A table of 2^`bits` buckets (two entries each).
    pub fn new(bits: u32) -> Self {
        let n = 1usize << bits.clamp(4, 26);
        TranspositionTable {
            buckets: vec![[Entry::default(); 2]; n],
            mask: n - 1,
            generation: 0,
        }
    }

    /// Starts a new search: older depth-preferred entries become replaceable.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    pub fn clear(&mut self) {
        self.buckets.fill([Entry::default(); 2]);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        let b = &self.buckets[key as usize & self.mask];
        b.iter().find(|e| e.used && e.key == key)
    }

    #[inline]
    pub fn store(&mut self, key: u64, value: Utility, mv: M, depth: u32, bound: Bound) {
        let generation = self.generation;
        let b = &mut self.buckets[key as usize & self.mask];
        let entry = Entry {
            key,
            value,
            mv,
            depth: depth.min(255) as u8,
            bound,
            generation,
            used: true,
        };
        let deep = &b[0];
        if !deep.used
            || deep.key == key
            || deep.generation != generation
            || entry.depth >= deep.depth
        {
            if deep.used && deep.key != key {
                b[1] = b[0];
            }
            b[0] = entry;
        } else {
            b[1] = entry;
        }
    }

    /// Share of used entries, in percent (for the search trace).
    pub fn fill_percent(&self) -> f64 {
        let sample = self.buckets.len().min(4096);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| b.iter().filter(|e| e.used).count())
            .sum();
        100.0 * used as f64 / (2 * sample) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_entries_survive_shallow_ones_in_the_same_bucket() {
        let mut tt: TranspositionTable<u8> = TranspositionTable::new(4);
        tt.store(1, [5, 0, 0, 0], 1, 6, Bound::Exact);
        tt.store(1 + 16, [7, 0, 0, 0], 2, 2, Bound::Lower);
        tt.store(1 + 32, [9, 0, 0, 0], 3, 1, Bound::Upper);
        assert_eq!(tt.probe(1).unwrap().depth, 6);
        assert_eq!(tt.probe(1 + 32).unwrap().mv, 3);
        assert!(tt.probe(1 + 16).is_none());
        tt.new_search();
        tt.store(1 + 48, [0; 4], 4, 1, Bound::Exact);
        assert_eq!(tt.probe(1 + 48).unwrap().mv, 4);
        assert_eq!(tt.probe(1).unwrap().mv, 1);
    }
}
