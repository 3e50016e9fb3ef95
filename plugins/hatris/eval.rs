//! The evaluation: normalised playfield metrics combined by trained weights.

use super::board::{Geometry, PileStats};
use super::moves::reach_masks;
use super::rules::COLUMNS;
use serde::{Deserialize, Serialize};

/// Weights of the metrics; the first eight are the seed article's, the last four are ours.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Fewer hats, evenly spread: complement of the sum of squared hat counts.
    pub hats_squared: f32,
    /// Lower piles: complement of the sum of squared pile heights.
    pub heights_squared: f32,
    /// Sum of squared lengths of identical-hat runs (two or more).
    pub run_squares: f32,
    /// The same for the run at the top of each pile only.
    pub top_run_squares: f32,
    /// Complement of the number of adjacent different hats.
    pub mismatches: f32,
    /// Complement of the swaps needed to sort the piles tallest-first.
    pub permutation: f32,
    /// Complement of the height rises between neighbouring piles (left to right).
    pub height_rises: f32,
    /// Cash earned along the searched moves.
    pub cash: f32,
    /// Helpers kept in the pool.
    pub helpers: f32,
    /// Room left above the tallest pile.
    pub headroom: f32,
    /// Share of column pairs a pair of different hats could reach.
    pub mobility: f32,
    /// Share of column pairs reachable without landing on a pile within a tall hat of the top.
    pub safe_mobility: f32,
    /// Share of hat types that some pile top (or an empty pile) would take without a mismatch.
    pub top_variety: f32,
}

pub const METRICS: usize = 13;

/// Shipped weights, produced by `nesmind train hatris`.
pub const SHIPPED: &str = include_str!("weights.ron");

impl Weights {
    pub fn from_ron(text: &str) -> Result<Weights, String> {
        let w: Weights = ron::from_str(text).map_err(|e| format!("bad hatris weights: {e}"))?;
        if w.to_array().iter().any(|x| !x.is_finite()) {
            return Err("bad hatris weights: every weight must be a finite number".into());
        }
        Ok(w)
    }
    pub fn shipped() -> Weights {
        Weights::from_ron(SHIPPED).expect("shipped weights parse")
    }
    pub fn load(path: &str) -> Result<Weights, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        Weights::from_ron(&text).map_err(|e| format!("{path}: {e}"))
    }
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .expect("weights serialise")
    }
    pub fn to_array(&self) -> [f32; METRICS] {
        [
            self.hats_squared,
            self.heights_squared,
            self.run_squares,
            self.top_run_squares,
            self.mismatches,
            self.permutation,
            self.height_rises,
            self.cash,
            self.helpers,
            self.headroom,
            self.mobility,
            self.top_variety,
            self.safe_mobility,
        ]
    }
    pub fn from_array(a: [f32; METRICS]) -> Weights {
        Weights {
            hats_squared: a[0],
            heights_squared: a[1],
            run_squares: a[2],
            top_run_squares: a[3],
            mismatches: a[4],
            permutation: a[5],
            height_rises: a[6],
            cash: a[7],
            helpers: a[8],
            headroom: a[9],
            mobility: a[10],
            top_variety: a[11],
            safe_mobility: a[12],
        }
    }
}

/// Minimal swaps that put `heights` in tallest-first order (ties keep column order).
pub fn permutation_distance(heights: &[i16; COLUMNS]) -> u32 {
    // Target position of each pile by rank; ranking beats sorting for six values.
    let target: [usize; COLUMNS] = std::array::from_fn(|i| {
        (0..COLUMNS)
            .filter(|&j| heights[j] > heights[i] || (heights[j] == heights[i] && j < i))
            .count()
    });
    let mut visited = 0u32;
    let mut cycles = 0;
    for start in 0..COLUMNS {
        if visited & (1 << start) == 0 {
            cycles += 1;
            let mut i = start;
            while visited & (1 << i) == 0 {
                visited |= 1 << i;
                i = target[i];
            }
        }
    }
    (COLUMNS - cycles) as u32
}

/// Scale constants: roughly the largest value each raw sum takes in play.
const HATS_SCALE: f32 = (COLUMNS * 40 * 40) as f32;
const RUNS_SCALE: f32 = (COLUMNS * 10 * 16) as f32;
const TOP_RUNS_SCALE: f32 = (COLUMNS * 16) as f32;
const MISMATCH_SCALE: f32 = (COLUMNS * 40) as f32;
const CASH_SCALE: f32 = 1200.0;
const POOL_SCALE: f32 = 8.0;
/// Room a landing needs to be safe: the largest growth one hat can cause.
const SAFETY_MARGIN: i16 = 24;

/// The metrics of a playfield, each in 0..=1 with 1 the better end.
pub fn metrics(
    piles: &[PileStats; COLUMNS],
    geo: &Geometry,
    cash_gain: u64,
    pool: usize,
) -> [f32; METRICS] {
    let limit = geo.height_limit as f32;
    let mut tops = 0u8;
    let mut hats2 = 0.0;
    let mut heights2 = 0.0;
    let mut runs = 0.0;
    let mut top_runs = 0.0;
    let mut mism = 0.0;
    let mut max_h: i16 = 0;
    let mut heights = [0i16; COLUMNS];
    for (i, p) in piles.iter().enumerate() {
        let n = p.hats as f32;
        let h = p.height as f32;
        hats2 += n * n;
        heights2 += h * h;
        runs += p.run_squares as f32;
        if p.top_run >= 2 {
            top_runs += (p.top_run as f32) * (p.top_run as f32);
        }
        mism += p.mismatches as f32;
        // An empty pile takes any hat cleanly.
        tops |= if p.hats == 0 {
            0x3F
        } else {
            1 << (p.top_hat - 1)
        };
        max_h = max_h.max(p.height);
        heights[i] = p.height;
    }
    let rises: i32 = heights
        .windows(2)
        .map(|w| (w[1] as i32 - w[0] as i32).max(0))
        .sum();
    let clamp = |x: f32| x.clamp(0.0, 1.0);
    let (reach, safe_reach) = reach_masks(
        &heights,
        geo.slide_over_equal,
        geo.height_limit - SAFETY_MARGIN,
    );
    [
        clamp(1.0 - hats2 / HATS_SCALE),
        clamp(1.0 - heights2 / (COLUMNS as f32 * limit * limit)),
        clamp(runs / RUNS_SCALE),
        clamp(top_runs / TOP_RUNS_SCALE),
        clamp(1.0 - mism / MISMATCH_SCALE),
        1.0 - permutation_distance(&heights) as f32 / (COLUMNS - 1) as f32,
        clamp(1.0 - rises as f32 / (5.0 * limit)),
        clamp(cash_gain as f32 / CASH_SCALE),
        clamp(pool as f32 / POOL_SCALE),
        clamp(1.0 - max_h as f32 / limit),
        reach.count_ones() as f32 / 15.0,
        tops.count_ones() as f32 / COLUMNS as f32,
        safe_reach.count_ones() as f32 / 15.0,
    ]
}

/// Weighted sum of the metrics.
#[inline]
pub fn score(
    w: &[f32; METRICS],
    piles: &[PileStats; COLUMNS],
    geo: &Geometry,
    cash_gain: u64,
    pool: usize,
) -> f32 {
    let m = metrics(piles, geo, cash_gain, pool);
    w.iter().zip(m.iter()).map(|(a, b)| a * b).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutation_distance_counts_swaps() {
        assert_eq!(permutation_distance(&[6, 5, 4, 3, 2, 1]), 0);
        assert_eq!(permutation_distance(&[5, 6, 4, 3, 2, 1]), 1);
        assert_eq!(permutation_distance(&[1, 2, 3, 4, 5, 6]), 3);
        assert_eq!(permutation_distance(&[2, 3, 4, 5, 6, 1]), 2);
        assert_eq!(permutation_distance(&[1, 6, 5, 4, 3, 2]), 5);
    }

    #[test]
    fn metrics_prefer_clean_piles() {
        let clean = [PileStats {
            hats: 4,
            height: 30,
            run_squares: 16,
            top_run: 4,
            mismatches: 0,
            top_hat: 1,
        }; COLUMNS];
        let messy = [PileStats {
            hats: 4,
            height: 60,
            run_squares: 0,
            top_run: 1,
            mismatches: 3,
            top_hat: 2,
        }; COLUMNS];
        let geo = Geometry::new(&super::super::rules::Settings::default());
        let a = metrics(&clean, &geo, 0, 0);
        let b = metrics(&messy, &geo, 0, 0);
        assert!(a[1] > b[1] && a[2] > b[2] && a[3] > b[3] && a[4] > b[4] && a[9] > b[9]);
        assert!(a.iter().chain(b.iter()).all(|x| (0.0..=1.0).contains(x)));
    }

    #[test]
    fn weights_round_trip_and_reject_junk() {
        let w = Weights::shipped();
        assert_eq!(Weights::from_ron(&w.to_ron()).unwrap(), w);
        assert!(
            Weights::from_ron("(cash: 1.0)")
                .unwrap_err()
                .contains("bad hatris weights")
        );
    }
}
