//! Two-tier transposition table: each bucket keeps one depth-preferred entry and one
//! most-recent entry, which holds up well when the table fills.

use super::utility::{Utility, WIN};

/// Decided values (a win or loss `ply` plies from the root is worth `k * (WIN - ply)` for a
/// whole number `k`, see `terminal_utility`) are kept in the table counted from the node, and
/// read back counted from the root of the search that finds them. Counted from the root, a
/// win stored at a shallow ply read as a faster win where the same position came back
/// deeper down, so a move that walked back into it (an Ataxx jump to and fro while the other
/// side passes) looked faster than the real win, and was played for ever.
pub fn value_to_tt(v: i32, ply: u32) -> i32 {
    shift_decided(v, ply as i32)
}

/// The inverse of [`value_to_tt`] at the node's `ply`.
pub fn value_from_tt(v: i32, ply: u32) -> i32 {
    shift_decided(v, -(ply as i32))
}

/// Moves a decided value `plies` plies away from the moment of the win (or loss); heuristic
/// values (far below `WIN / 2`) and the search's infinities stay as they are.
fn shift_decided(v: i32, plies: i32) -> i32 {
    let size = v.unsigned_abs();
    if size <= (WIN / 2) as u32 || size > 4 * WIN as u32 {
        return v;
    }
    let k = ((size + (WIN / 2) as u32) / WIN as u32) as i32;
    v + v.signum() * k * plies
}

/// [`value_to_tt`] for every player's value.
pub fn utility_to_tt(u: Utility, ply: u32) -> Utility {
    u.map(|v| value_to_tt(v, ply))
}

/// [`value_from_tt`] for every player's value.
pub fn utility_from_tt(u: Utility, ply: u32) -> Utility {
    u.map(|v| value_from_tt(v, ply))
}

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
    fn decided_values_are_stored_from_the_node_and_read_from_the_root() {
        use crate::utility::terminal_utility;
        // A win 5 plies from the root, found at a node 2 plies down: 3 plies from the node.
        let at_root = terminal_utility(0, 2, 5);
        let stored = utility_to_tt(at_root, 2);
        assert_eq!(stored, terminal_utility(0, 2, 3));
        // Met again 4 plies down, it is 7 plies from that root.
        assert_eq!(utility_from_tt(stored, 4), terminal_utility(0, 2, 7));
        // Four players: the winner's share is 3 times the losers'.
        let four = terminal_utility(2, 4, 6);
        assert_eq!(utility_to_tt(four, 6), terminal_utility(2, 4, 0));
        assert_eq!(
            utility_from_tt(utility_to_tt(four, 6), 1),
            terminal_utility(2, 4, 1)
        );
        // Heuristic values and the infinities are left alone.
        assert_eq!(value_to_tt(12_345, 9), 12_345);
        assert_eq!(
            value_from_tt(crate::utility::NEG_INF, 3),
            crate::utility::NEG_INF
        );
    }

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
