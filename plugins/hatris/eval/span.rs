//! Bounds on the raw quantities over all the ways the next pair can land, so a whole
//! next-pair search can be skipped when even its best case would not matter.

use super::super::rules::COLUMNS;
use super::{Field, PileTerms, Raw};

/// Each raw quantity's least and greatest value over a set of playfields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub lo: Raw,
    pub hi: Raw,
    pub cash: (u64, u64),
}

impl Field {
    /// Bounds for every playfield that replaces one pile by an entry of `first` and another
    /// by an entry of `second` (entries with their cash), or `None` when one list is empty.
    pub fn span(
        &self,
        first: &[Option<(PileTerms, u64)>; COLUMNS],
        second: &[Option<(PileTerms, u64)>; COLUMNS],
    ) -> Option<Span> {
        // Sums: the base plus the most extreme change each hat can make anywhere.
        let change = |list: &[Option<(PileTerms, u64)>; COLUMNS]| {
            let mut lo = [i64::MAX; 6];
            let mut hi = [i64::MIN; 6];
            for (c, entry) in list.iter().enumerate() {
                if let Some((t, cash)) = entry {
                    for i in 0..6 {
                        let d = if i == 5 {
                            *cash as i64
                        } else {
                            t.sums.0[i] as i64 - self.pile_sums[c].0[i] as i64
                        };
                        lo[i] = lo[i].min(d);
                        hi[i] = hi[i].max(d);
                    }
                }
            }
            (lo[0] != i64::MAX).then_some((lo, hi))
        };
        let (lo_a, hi_a) = change(first)?;
        let (lo_b, hi_b) = change(second)?;
        let at = |i: usize, a: i64, b: i64| {
            let base = if i == 5 { 0 } else { self.sums.0[i] as i64 };
            (base + a + b).max(0) as u64
        };
        let lo: [u64; 6] = std::array::from_fn(|i| at(i, lo_a[i], lo_b[i]));
        let hi: [u64; 6] = std::array::from_fn(|i| at(i, hi_a[i], hi_b[i]));
        // Heights and tops: each pile may keep its own or take any alternative.
        let mut h_lo = self.heights;
        let mut h_hi = self.heights;
        let mut tops = self.tops.iter().fold(0, |t, &p| t | p);
        for (c, (a, b)) in first.iter().zip(second).enumerate() {
            for (t, _) in a.iter().chain(b) {
                h_lo[c] = h_lo[c].min(t.height);
                h_hi[c] = h_hi[c].max(t.height);
                tops |= t.tops;
            }
        }
        let rises = |up: &[i16; COLUMNS], down: &[i16; COLUMNS]| -> u32 {
            (0..COLUMNS - 1)
                .map(|i| (up[i + 1] as i32 - down[i] as i32).max(0) as u32)
                .sum()
        };
        let raw = |sums: &[u64; 6], rises: u32, max_height: i16, tops: u32| Raw {
            hats2: sums[0] as u32,
            heights2: sums[1] as u32,
            runs: sums[2] as u32,
            top_runs: sums[3] as u32,
            mismatches: sums[4] as u32,
            rises,
            max_height: max_height.max(0) as u32,
            tops,
            ..Raw::default()
        };
        Some(Span {
            lo: raw(&lo, rises(&h_lo, &h_hi), *h_lo.iter().max()?, 0),
            hi: raw(
                &hi,
                rises(&h_hi, &h_lo),
                *h_hi.iter().max()?,
                tops.count_ones(),
            ),
            cash: (lo[5], hi[5]),
        })
    }
}
