//! Choosing which of Alexey's removals get the full next-pair search.

use super::super::board::Board;
use super::super::eval::{Field, PileTerms};
use super::super::rules::COLUMNS;
use super::Ctx;

/// How many of Alexey's options, rated alone, get the full next-pair search.
const FINALISTS: usize = 3;

/// The best few so far, best first; equal values keep the order they were found in.
type Finalists = Vec<(f32, [u8; COLUMNS])>;

impl Ctx<'_> {
    /// Alexey's removals rated on their own, best few first.
    pub(super) fn alexey_finalists(
        &mut self,
        board: &Board,
        max: u32,
        pool: usize,
    ) -> Vec<[u8; COLUMNS]> {
        // Terms of every pile with k bottom hats gone, so each combination costs one rating.
        let mut without = [[PileTerms::default(); 6]; COLUMNS];
        let mut most = [0usize; COLUMNS];
        for c in 0..COLUMNS {
            // Alexey never removes more than five hats.
            most[c] = board.piles[c].len().min(max as usize).min(5);
            for (k, slot) in without[c].iter_mut().enumerate().take(most[c] + 1) {
                *slot = PileTerms::of(&board.stats_without_bottom(self.geo, c, k));
            }
        }
        let mut top = Finalists::with_capacity(FINALISTS + 1);
        let mut counts = [0u8; COLUMNS];
        self.enumerate_removals(
            0,
            max as usize,
            &most,
            &without,
            &mut counts,
            pool,
            &mut top,
        );
        top.into_iter().map(|(_, c)| c).collect()
    }

    #[allow(clippy::too_many_arguments)]
    fn enumerate_removals(
        &mut self,
        col: usize,
        left: usize,
        most: &[usize; COLUMNS],
        without: &[[PileTerms; 6]; COLUMNS],
        counts: &mut [u8; COLUMNS],
        pool: usize,
        top: &mut Finalists,
    ) {
        if col == COLUMNS {
            if counts.iter().any(|&k| k > 0) {
                let field = Field::new(std::array::from_fn(|c| without[c][counts[c] as usize]));
                let leaf = field.whole();
                // A full list keeps an option only if it beats the last finalist.
                if top.len() == FINALISTS
                    && self.scorer.bound(&leaf, 0, pool) <= top[FINALISTS - 1].0
                {
                    self.skipped += 1;
                    return;
                }
                self.leaves += 1;
                let v = self.scorer.score_raw(&leaf.complete(self.geo), 0, pool);
                let at = top.iter().position(|&(b, _)| b < v).unwrap_or(top.len());
                top.insert(at, (v, *counts));
                top.truncate(FINALISTS);
            }
            return;
        }
        for k in 0..=left.min(most[col]) {
            counts[col] = k as u8;
            self.enumerate_removals(col + 1, left - k, most, without, counts, pool, top);
        }
        counts[col] = 0;
    }
}
