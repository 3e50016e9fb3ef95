//! The evaluation: normalised playfield metrics combined by trained weights.

use super::board::{Geometry, PileStats};
use super::rules::COLUMNS;
use serde::{Deserialize, Serialize};

mod raw;
mod scorer;
mod span;
pub use raw::{Field, Leaf, PileTerms, Raw, permutation_distance};
pub use scorer::Scorer;
pub use span::{HatSpan, Span};

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
    /// Not a weight but part of the player's tuning: how many of the best two-pair lines
    /// are rated again by their expected value over the unknown third pair (0: two pairs).
    #[serde(default)]
    pub third_pair_lines: u32,
}

pub const METRICS: usize = 13;

/// Shipped weights, produced by `nesmind train hatris`.
pub const SHIPPED: &str = include_str!("../weights.ron");

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
        let text = nesmind_host::files::read_capped_text(
            std::path::Path::new(path),
            1 << 20,
            "a Hatris weights file",
        )
        .map_err(|e| format!("cannot read {path}: {e}"))?;
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
            third_pair_lines: 0,
        }
    }
}

/// Scale constants: roughly the largest value each raw sum takes in play.
const HATS_SCALE: f32 = (COLUMNS * 40 * 40) as f32;
const RUNS_SCALE: f32 = (COLUMNS * 10 * 16) as f32;
const TOP_RUNS_SCALE: f32 = (COLUMNS * 16) as f32;
const MISMATCH_SCALE: f32 = (COLUMNS * 40) as f32;
const CASH_SCALE: f32 = 1200.0;
const POOL_SCALE: f32 = 8.0;
/// Room a landing needs to be safe: the largest growth one hat can cause.
pub const SAFETY_MARGIN: i16 = 24;

/// Metric `k` (in [`Weights::to_array`] order) of the raw quantity `x` it is made from
/// (cash gained and helpers pooled for metrics 7 and 8).
pub fn metric(k: usize, x: u64, height_limit: i16) -> f32 {
    let limit = height_limit as f32;
    let clamp = |v: f32| v.clamp(0.0, 1.0);
    let x = x as f32;
    match k {
        0 => clamp(1.0 - x / HATS_SCALE),
        1 => clamp(1.0 - x / (COLUMNS as f32 * limit * limit)),
        2 => clamp(x / RUNS_SCALE),
        3 => clamp(x / TOP_RUNS_SCALE),
        4 => clamp(1.0 - x / MISMATCH_SCALE),
        5 => 1.0 - x / (COLUMNS - 1) as f32,
        6 => clamp(1.0 - x / (5.0 * limit)),
        7 => clamp(x / CASH_SCALE),
        8 => clamp(x / POOL_SCALE),
        9 => clamp(1.0 - x / limit),
        10 | 12 => x / 15.0,
        _ => x / COLUMNS as f32,
    }
}

/// The metrics of a playfield, each in 0..=1 with 1 the better end.
pub fn metrics(
    piles: &[PileStats; COLUMNS],
    geo: &Geometry,
    cash_gain: u64,
    pool: usize,
) -> [f32; METRICS] {
    let terms = std::array::from_fn(|c| PileTerms::of(&piles[c]));
    let x = Raw::of(&terms, geo).inputs(cash_gain, pool);
    std::array::from_fn(|k| metric(k, x[k], geo.height_limit))
}

/// Weighted sum of metrics.
#[inline]
pub fn weigh(w: &[f32; METRICS], m: &[f32; METRICS]) -> f32 {
    w.iter().zip(m.iter()).map(|(a, b)| a * b).sum()
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
    weigh(w, &metrics(piles, geo, cash_gain, pool))
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
