//! The evaluation as the search runs it: each weighted metric is read from a table built
//! with [`metric`], so a leaf costs integer sums and lookups instead of float divisions.
//! The result is bit for bit the weighted sum [`score`](super::score) computes.

use super::super::board::Geometry;
use super::super::rules::COLUMNS;
use super::{
    CASH_SCALE, HATS_SCALE, Leaf, METRICS, MISMATCH_SCALE, POOL_SCALE, PileTerms, RUNS_SCALE, Raw,
    Span, TOP_RUNS_SCALE, metric,
};

/// Metric 1 (squared heights) is computed directly: its table would be far too large.
const DIRECT: usize = 1;

/// The metrics that need the height order (swaps, mobility, safe mobility).
const ORDERED: [usize; 3] = [5, 10, 12];

pub struct Scorer {
    weights: [f32; METRICS],
    height_limit: i16,
    slide_over_equal: bool,
    /// Weight k times metric k of x sits at `start[k] + x`, for x up to `end[k]`; larger
    /// inputs read the entry at `end[k]`, because every metric is constant past it
    /// (see [`table_ends`]).
    table: Vec<f32>,
    start: [usize; METRICS],
    end: [u64; METRICS],
    /// Largest weighted value of each metric in [`ORDERED`].
    ordered_max: [f32; METRICS],
    /// Far more than the rounding error of summing the terms in any order: a few dozen
    /// units in the last place of the largest possible sum of their magnitudes.
    slack: f32,
}

/// The input from which each metric stays constant (where it reaches 0 or 1), or for the
/// unclamped ones (swaps, mobility, top variety) the largest input there can be.
fn table_ends(height_limit: i16) -> [u64; METRICS] {
    let limit = height_limit.max(0) as u64;
    [
        HATS_SCALE as u64,
        0,
        RUNS_SCALE as u64,
        TOP_RUNS_SCALE as u64,
        MISMATCH_SCALE as u64,
        (COLUMNS - 1) as u64,
        5 * limit,
        CASH_SCALE as u64,
        POOL_SCALE as u64,
        limit,
        15,
        COLUMNS as u64,
        15,
    ]
}

impl Scorer {
    pub fn new(weights: &[f32; METRICS], geo: &Geometry) -> Scorer {
        let end = table_ends(geo.height_limit);
        let mut table = Vec::new();
        let mut start = [0; METRICS];
        for k in 0..METRICS {
            start[k] = table.len();
            table.extend((0..=end[k]).map(|x| weights[k] * metric(k, x, geo.height_limit)));
        }
        let mut ordered_max = [0.0; METRICS];
        for k in ORDERED {
            let values = &table[start[k]..=start[k] + end[k] as usize];
            ordered_max[k] = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        }
        let largest: f32 = (0..METRICS)
            .map(|k| {
                let values = &table[start[k]..=start[k] + end[k] as usize];
                values.iter().fold(weights[k].abs(), |m, v| m.max(v.abs()))
            })
            .sum();
        Scorer {
            weights: *weights,
            height_limit: geo.height_limit,
            slide_over_equal: geo.slide_over_equal,
            table,
            start,
            end,
            ordered_max,
            slack: 1e-5 * largest,
        }
    }

    /// Whether the tables were built for this geometry.
    pub fn fits(&self, geo: &Geometry) -> bool {
        self.height_limit == geo.height_limit && self.slide_over_equal == geo.slide_over_equal
    }

    /// Weighted sum of the metrics given their raw quantities.
    #[inline]
    pub fn score_raw(&self, raw: &Raw, cash_gain: u64, pool: usize) -> f32 {
        // Added one by one in metric order, exactly as the reference sum does.
        self.terms(raw, cash_gain, pool, false)
            .iter()
            .fold(-0.0, |sum, t| sum + t)
    }

    /// A value no lower than [`Scorer::score_raw`] of any completion of `leaf`: the height-
    /// order metrics are taken at their largest. The terms are added pairwise, which is
    /// quicker than in order, and `slack` covers the rounding differences of the two orders.
    #[inline]
    pub fn bound(&self, leaf: &Leaf, cash_gain: u64, pool: usize) -> f32 {
        let t = self.terms(&leaf.partial, cash_gain, pool, true);
        let sum = ((t[0] + t[1]) + (t[2] + t[3]))
            + ((t[4] + t[5]) + (t[6] + t[7]))
            + (((t[8] + t[9]) + (t[10] + t[11])) + t[12]);
        sum + self.slack
    }

    /// A value no lower than [`Scorer::score_raw`] of any playfield within `span`. Every
    /// metric is monotone in its raw quantity, so its largest value is at one end.
    pub fn bound_span(&self, span: &Span, pool: usize) -> f32 {
        let lo = self.terms(&span.lo, span.cash.0, pool, true);
        let hi = self.terms(&span.hi, span.cash.1, pool, true);
        let t: [f32; METRICS] = std::array::from_fn(|k| lo[k].max(hi[k]));
        let sum = ((t[0] + t[1]) + (t[2] + t[3]))
            + ((t[4] + t[5]) + (t[6] + t[7]))
            + (((t[8] + t[9]) + (t[10] + t[11])) + t[12]);
        sum + self.slack
    }

    /// The weighted metrics; with `bound`, the height-order ones at their largest.
    #[inline]
    fn terms(&self, raw: &Raw, cash_gain: u64, pool: usize, bound: bool) -> [f32; METRICS] {
        let x = raw.inputs(cash_gain, pool);
        std::array::from_fn(|k| {
            if k == DIRECT {
                self.weights[k] * metric(k, x[k], self.height_limit)
            } else if bound && ORDERED.contains(&k) {
                self.ordered_max[k]
            } else {
                self.table[self.start[k] + x[k].min(self.end[k]) as usize]
            }
        })
    }

    /// Weighted sum of the metrics of the playfield `piles`.
    pub fn score(
        &self,
        piles: &[PileTerms; COLUMNS],
        geo: &Geometry,
        cash_gain: u64,
        pool: usize,
    ) -> f32 {
        self.score_raw(&Raw::of(piles, geo), cash_gain, pool)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::rules::Settings;
    use super::super::{METRICS, Weights, metric};
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn metrics_are_constant_past_their_tables() {
        for limit in [24, 128, 200] {
            let ends = table_ends(limit);
            for k in (0..METRICS).filter(|k| ![DIRECT, 5, 10, 11, 12].contains(k)) {
                let last = metric(k, ends[k], limit);
                for x in ends[k]..ends[k] + 3000 {
                    assert_eq!(metric(k, x, limit).to_bits(), last.to_bits(), "{k} {x}");
                }
            }
        }
    }

    #[test]
    fn tables_match_the_reference_sum_bit_for_bit() {
        use super::super::super::board::PileStats;
        let geo = Geometry::new(&Settings::default());
        let w = Weights::shipped().to_array();
        let scorer = Scorer::new(&w, &geo);
        assert!(scorer.fits(&geo));
        let mut rng = StdRng::seed_from_u64(12345);
        let mut next = |m: u64| rng.gen_range(0..m);
        for _ in 0..20_000 {
            let stats: [PileStats; COLUMNS] = std::array::from_fn(|_| {
                let hats = next(30) as u16;
                PileStats {
                    hats,
                    height: if hats == 0 { 0 } else { next(170) as i16 },
                    run_squares: next(60) as u16,
                    top_run: next(5) as u8,
                    mismatches: next(30) as u16,
                    top_hat: 1 + next(6) as u8,
                }
            });
            let (cash, pool) = (next(1500), next(10) as usize);
            let terms = std::array::from_fn(|c| PileTerms::of(&stats[c]));
            let fast = scorer.score(&terms, &geo, cash, pool);
            let slow = super::super::score(&w, &stats, &geo, cash, pool);
            assert_eq!(fast.to_bits(), slow.to_bits(), "{stats:?} {cash} {pool}");
        }
    }

    #[test]
    fn bounds_are_never_below_scores() {
        use super::super::super::board::{Board, Landing};
        use super::super::Field;
        let geo = Geometry::new(&Settings::default());
        let scorer = Scorer::new(&Weights::shipped().to_array(), &geo);
        let mut rng = StdRng::seed_from_u64(7);
        let mut next = |m: u64| rng.gen_range(0..m);
        for _ in 0..300 {
            let columns: [Vec<u8>; COLUMNS] =
                std::array::from_fn(|_| (0..next(9)).map(|_| 1 + next(3) as u8 * 2).collect());
            let mut board = Board::default();
            board.set_piles(&geo, &columns);
            let terms: [PileTerms; COLUMNS] =
                std::array::from_fn(|c| PileTerms::of(&board.piles[c].stats()));
            let field = Field::new(terms);
            let (pair, pool) = ((1 + next(6) as u8, 1 + next(6) as u8), next(9) as usize);
            let land = |c: usize, hat: u8| {
                let (stats, how) = board.piles[c].peek_land(&geo, hat);
                let cash = if let Landing::Cleared(_) = how {
                    150
                } else {
                    0
                };
                (how != Landing::Overflow).then_some((PileTerms::of(&stats), cash))
            };
            let first: [_; COLUMNS] = std::array::from_fn(|c| land(c, pair.0));
            let second: [_; COLUMNS] = std::array::from_fn(|c| land(c, pair.1));
            let cash_before = next(400);
            let mut span = field.span(&first, &second).expect("landings exist");
            span.cash = (span.cash.0 + cash_before, span.cash.1 + cash_before);
            let over_all = scorer.bound_span(&span, pool);
            for (f, s) in (0..COLUMNS).flat_map(|f| (0..COLUMNS).map(move |s| (f, s))) {
                let (Some((tf, cf)), Some((ts, cs))) = (first[f], second[s]) else {
                    continue;
                };
                if f == s {
                    continue;
                }
                let leaf = field.leaf((f, tf), (s, ts));
                let mut replaced = terms;
                replaced[f] = tf;
                replaced[s] = ts;
                let raw = leaf.complete(&geo);
                assert_eq!(raw, Raw::of(&replaced, &geo));
                let cash = cash_before + cf + cs;
                let exact = scorer.score_raw(&raw, cash, pool);
                assert!(scorer.bound(&leaf, cash, pool) >= exact);
                assert!(over_all >= exact, "{over_all} < {exact}");
            }
        }
    }
}
