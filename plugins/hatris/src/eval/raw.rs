//! The integer quantities behind the metrics, kept exact so that a board's score does not
//! depend on how its sums were put together.

use super::super::board::{Geometry, PileStats};
use super::super::moves::{HeightOrder, reach_masks_of};
use super::super::rules::COLUMNS;
use super::{METRICS, SAFETY_MARGIN};

/// `n!` for the Lehmer-code digits of a six-element permutation.
const FACT: [usize; COLUMNS] = [120, 24, 6, 2, 1, 1];

/// Minimal swaps (elements minus cycles) of every permutation of six, indexed by Lehmer code.
const SWAPS_BY_LEHMER: [u8; 720] = swaps_table();

const fn swaps_table() -> [u8; 720] {
    let mut table = [0u8; 720];
    let mut code = 0;
    while code < 720 {
        // Decode: position i takes the digit-th smallest value not yet used.
        let mut perm = [0usize; COLUMNS];
        let mut used = [false; COLUMNS];
        let mut rest = code;
        let mut i = 0;
        while i < COLUMNS {
            let mut digit = rest / FACT[i];
            rest %= FACT[i];
            let mut v = 0;
            loop {
                if !used[v] {
                    if digit == 0 {
                        break;
                    }
                    digit -= 1;
                }
                v += 1;
            }
            used[v] = true;
            perm[i] = v;
            i += 1;
        }
        let mut seen = [false; COLUMNS];
        let mut cycles = 0;
        let mut start = 0;
        while start < COLUMNS {
            if !seen[start] {
                cycles += 1;
                let mut j = start;
                while !seen[j] {
                    seen[j] = true;
                    j = perm[j];
                }
            }
            start += 1;
        }
        table[code] = (COLUMNS - cycles) as u8;
        code += 1;
    }
    table
}

/// Bits set in each six-bit value.
const ONES: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// Minimal swaps that put `heights` in tallest-first order (ties keep column order).
pub fn permutation_distance(heights: &[i16; COLUMNS]) -> u32 {
    swaps(&HeightOrder::of(heights, false))
}

/// [`permutation_distance`] from the height order.
fn swaps(order: &HeightOrder) -> u32 {
    // Pile j > i goes before pile i exactly when it is strictly taller, so the taller later
    // piles make i's Lehmer digit; the code then indexes the swap table.
    let code: usize = (0..COLUMNS - 1)
        .map(|i| FACT[i] * ONES[(order.taller[i] >> (i + 1)) as usize] as usize)
        .sum();
    SWAPS_BY_LEHMER[code] as u32
}

/// Per-pile sums: squared hat count, squared height, squared runs, squared top run,
/// mismatches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sums(pub(super) [u32; 5]);

impl Sums {
    fn plus(self, o: Sums) -> Sums {
        Sums(std::array::from_fn(|i| self.0[i] + o.0[i]))
    }
    fn minus(self, o: Sums) -> Sums {
        Sums(std::array::from_fn(|i| self.0[i] - o.0[i]))
    }
}

/// One pile's share of the metrics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PileTerms {
    pub(super) sums: Sums,
    pub(super) height: i16,
    /// Hat types the pile takes without a mismatch, one bit per type.
    pub(super) tops: u8,
}

impl PileTerms {
    pub fn of(p: &PileStats) -> PileTerms {
        let n = p.hats as u32;
        let top = p.top_run as u32;
        PileTerms {
            sums: Sums([
                n * n,
                (p.height as i32).pow(2) as u32,
                p.run_squares as u32,
                if top >= 2 { top * top } else { 0 },
                p.mismatches as u32,
            ]),
            height: p.height,
            // An empty pile takes any hat cleanly.
            tops: if p.hats == 0 {
                0x3F
            } else {
                1 << (p.top_hat - 1)
            },
        }
    }

    pub fn height(&self) -> i16 {
        self.height
    }
}

/// A playfield as the evaluation sees it, built so that changing two piles is cheap.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub(super) pile_sums: [Sums; COLUMNS],
    pub(super) heights: [i16; COLUMNS],
    pub(super) tops: [u8; COLUMNS],
    pub(super) sums: Sums,
}

impl Field {
    pub fn new(piles: [PileTerms; COLUMNS]) -> Field {
        Field {
            pile_sums: piles.map(|p| p.sums),
            heights: piles.map(|p| p.height),
            tops: piles.map(|p| p.tops),
            sums: piles.iter().fold(Sums::default(), |s, p| s.plus(p.sums)),
        }
    }

    pub fn heights(&self) -> [i16; COLUMNS] {
        self.heights
    }

    /// The playfield with pile `a` replaced by `ta` and pile `b` (another one) by `tb`.
    #[inline]
    pub fn leaf(&self, (a, ta): (usize, PileTerms), (b, tb): (usize, PileTerms)) -> Leaf {
        let sums = self
            .sums
            .plus(ta.sums)
            .plus(tb.sums)
            .minus(self.pile_sums[a])
            .minus(self.pile_sums[b]);
        let mut heights = self.heights;
        heights[a] = ta.height;
        heights[b] = tb.height;
        let mut tops = self.tops;
        tops[a] = ta.tops;
        tops[b] = tb.tops;
        Leaf::new(sums, tops.iter().fold(0, |t, &p| t | p), heights)
    }

    /// Replaces pile `c`.
    pub fn set(&mut self, c: usize, t: PileTerms) {
        self.sums = self.sums.plus(t.sums).minus(self.pile_sums[c]);
        self.pile_sums[c] = t.sums;
        self.heights[c] = t.height;
        self.tops[c] = t.tops;
    }

    /// Exchanges two piles.
    pub fn swap(&mut self, a: usize, b: usize) {
        self.pile_sums.swap(a, b);
        self.heights.swap(a, b);
        self.tops.swap(a, b);
    }

    /// The playfield itself as a leaf.
    pub fn whole(&self) -> Leaf {
        Leaf::new(
            self.sums,
            self.tops.iter().fold(0, |t, &p| t | p),
            self.heights,
        )
    }

    pub fn raw(&self, geo: &Geometry) -> Raw {
        self.whole().complete(geo)
    }
}

/// A playfield's raw quantities in two steps: the cheap ones first, so a search can skip
/// the height-order ones (swaps and reach) when even their best values would not matter.
#[derive(Clone, Copy, Debug)]
pub struct Leaf {
    /// Every quantity except `swaps`, `reach` and `safe_reach`, which are zero here.
    pub partial: Raw,
    heights: [i16; COLUMNS],
}

impl Leaf {
    fn new(sums: Sums, tops: u8, heights: [i16; COLUMNS]) -> Leaf {
        let [hats2, heights2, runs, top_runs, mismatches] = sums.0;
        let partial = Raw {
            hats2,
            heights2,
            runs,
            top_runs,
            mismatches,
            swaps: 0,
            rises: heights
                .windows(2)
                .map(|w| (w[1] as i32 - w[0] as i32).max(0) as u32)
                .sum(),
            max_height: heights.iter().fold(0, |m, &h| h.max(m)) as u32,
            reach: 0,
            tops: tops.count_ones(),
            safe_reach: 0,
        };
        Leaf { partial, heights }
    }

    /// All raw quantities.
    pub fn complete(&self, geo: &Geometry) -> Raw {
        let order = HeightOrder::of(&self.heights, geo.slide_over_equal);
        let (reach, safe_reach) =
            reach_masks_of(&order, &self.heights, geo.height_limit - SAFETY_MARGIN);
        Raw {
            swaps: swaps(&order),
            reach: reach.count_ones(),
            safe_reach: safe_reach.count_ones(),
            ..self.partial
        }
    }
}

/// The integer quantities the metrics are made from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Raw {
    pub hats2: u32,
    pub heights2: u32,
    pub runs: u32,
    pub top_runs: u32,
    pub mismatches: u32,
    pub swaps: u32,
    pub rises: u32,
    pub max_height: u32,
    pub reach: u32,
    pub tops: u32,
    pub safe_reach: u32,
}

impl Raw {
    pub fn of(piles: &[PileTerms; COLUMNS], geo: &Geometry) -> Raw {
        Field::new(*piles).raw(geo)
    }

    /// The raw quantity each metric is made from, in metric order.
    pub fn inputs(&self, cash_gain: u64, pool: usize) -> [u64; METRICS] {
        [
            self.hats2 as u64,
            self.heights2 as u64,
            self.runs as u64,
            self.top_runs as u64,
            self.mismatches as u64,
            self.swaps as u64,
            self.rises as u64,
            cash_gain,
            pool as u64,
            self.max_height as u64,
            self.reach as u64,
            self.tops as u64,
            self.safe_reach as u64,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap_table_matches_counting_cycles() {
        // Every height pattern over four levels, ties included.
        for code in 0..4usize.pow(COLUMNS as u32) {
            let h: [i16; COLUMNS] =
                std::array::from_fn(|i| (code / 4usize.pow(i as u32) % 4) as i16);
            let mut by_rank: Vec<usize> = (0..COLUMNS).collect();
            by_rank.sort_by_key(|&i| std::cmp::Reverse(h[i]));
            let mut target = [0; COLUMNS];
            for (rank, &i) in by_rank.iter().enumerate() {
                target[i] = rank;
            }
            // Put each pile where it belongs by swapping, counting the swaps.
            let mut swaps = 0;
            for i in 0..COLUMNS {
                while target[i] != i {
                    let j = target[i];
                    target.swap(i, j);
                    swaps += 1;
                }
            }
            assert_eq!(permutation_distance(&h), swaps, "{h:?}");
        }
    }
}
