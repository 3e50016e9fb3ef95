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

/// What landing one hat type can do to a field: the extreme change of each sum (and the
/// cash, last) over the piles it can land on, each pile's height range, and the tops the
/// landings leave.
#[derive(Clone, Copy, Debug)]
pub struct HatSpan {
    lo: [i32; 6],
    hi: [i32; 6],
    h_lo: [i16; COLUMNS],
    h_hi: [i16; COLUMNS],
    tops: u8,
}

impl Field {
    /// The span of one hat's landings (terms and cash per pile), `None` if it fits nowhere.
    pub fn hat_span(&self, list: &[Option<(PileTerms, u64)>; COLUMNS]) -> Option<HatSpan> {
        let mut span = HatSpan {
            lo: [i32::MAX; 6],
            hi: [i32::MIN; 6],
            h_lo: self.heights,
            h_hi: self.heights,
            tops: 0,
        };
        for (c, entry) in list.iter().enumerate() {
            let Some((t, cash)) = entry else { continue };
            let base = &self.pile_sums[c].0;
            // Sums stay far below 2^31, so the changes fit in i32.
            let d: [i32; 6] = std::array::from_fn(|i| match i {
                5 => *cash as i32,
                _ => t.sums.0[i] as i32 - base[i] as i32,
            });
            span.lo = std::array::from_fn(|i| span.lo[i].min(d[i]));
            span.hi = std::array::from_fn(|i| span.hi[i].max(d[i]));
            span.h_lo[c] = span.h_lo[c].min(t.height);
            span.h_hi[c] = span.h_hi[c].max(t.height);
            span.tops |= t.tops;
        }
        (span.lo[0] != i32::MAX).then_some(span)
    }

    /// Bounds for every playfield that replaces one pile as `a` allows and another as `b`
    /// allows (each pile may also keep what it has).
    pub fn join(&self, a: &HatSpan, b: &HatSpan) -> Span {
        let at = |i: usize, x: i32, y: i32| {
            let base = if i == 5 { 0 } else { self.sums.0[i] as i64 };
            (base + x as i64 + y as i64).max(0) as u64
        };
        let lo: [u64; 6] = std::array::from_fn(|i| at(i, a.lo[i], b.lo[i]));
        let hi: [u64; 6] = std::array::from_fn(|i| at(i, a.hi[i], b.hi[i]));
        let h_lo: [i16; COLUMNS] = std::array::from_fn(|c| a.h_lo[c].min(b.h_lo[c]));
        let h_hi: [i16; COLUMNS] = std::array::from_fn(|c| a.h_hi[c].max(b.h_hi[c]));
        let tops = self.tops.iter().fold(a.tops | b.tops, |t, &p| t | p);
        let rises = |up: &[i16; COLUMNS], down: &[i16; COLUMNS]| -> u32 {
            (0..COLUMNS - 1)
                .map(|i| (up[i + 1] as i32 - down[i] as i32).max(0) as u32)
                .sum()
        };
        let highest = |h: &[i16; COLUMNS]| h.iter().fold(0, |m, &x| x.max(m)) as u32;
        let raw = |sums: &[u64; 6], rises: u32, max_height: u32, tops: u32| Raw {
            hats2: sums[0] as u32,
            heights2: sums[1] as u32,
            runs: sums[2] as u32,
            top_runs: sums[3] as u32,
            mismatches: sums[4] as u32,
            rises,
            max_height,
            tops,
            ..Raw::default()
        };
        Span {
            lo: raw(&lo, rises(&h_lo, &h_hi), highest(&h_lo), 0),
            hi: raw(&hi, rises(&h_hi, &h_lo), highest(&h_hi), tops.count_ones()),
            cash: (lo[5], hi[5]),
        }
    }

    /// Bounds for every playfield that replaces one pile by an entry of `first` and another
    /// by an entry of `second` (entries with their cash), or `None` when one list is empty.
    pub fn span(
        &self,
        first: &[Option<(PileTerms, u64)>; COLUMNS],
        second: &[Option<(PileTerms, u64)>; COLUMNS],
    ) -> Option<Span> {
        Some(self.join(&self.hat_span(first)?, &self.hat_span(second)?))
    }
}
