//! The search chain: every placement of the falling pair, each followed by every placement
//! of the next pair; calling the ready helper is an alternative first step.

use super::board::{Board, Geometry, Landing, PileStats, Undo};
use super::eval::{METRICS, Weights, score};
use super::game::{Action, Game};
use super::moves::{Placement, placements};
use super::rules::{COLUMNS, Helper, STACK_CASH};

/// Value of a line that tops out; later deaths are slightly better than earlier ones.
const DEAD: f32 = -1.0e9;

/// How many of Alexey's options, rated alone, get the full next-pair search.
const ALEXEY_FINALISTS: usize = 3;

pub struct Searcher {
    weights: [f32; METRICS],
    log: Vec<Undo>,
    /// Leaves evaluated by the last `choose` (for profiling output).
    pub leaves: u64,
}

/// Lands a pair; returns the cash it earned, or `None` when the game would end.
fn land_pair(
    board: &mut Board,
    geo: &Geometry,
    pair: (u8, u8),
    p: Placement,
    log: &mut Vec<Undo>,
) -> Option<u64> {
    let mut cash = 0;
    for (col, hat) in [(p.first, pair.0), (p.second, pair.1)] {
        match board.land(geo, col as usize, hat, log) {
            Landing::Stays => {}
            Landing::Cleared(h) => cash += STACK_CASH[h as usize - 1],
            Landing::Overflow => return None,
        }
    }
    let limit = geo.height_limit;
    let tall = |c: u8| board.piles[c as usize].height() > limit;
    if tall(p.first) || tall(p.second) {
        None
    } else {
        Some(cash)
    }
}

impl Searcher {
    pub fn new(weights: &Weights) -> Searcher {
        Searcher {
            weights: weights.to_array(),
            log: Vec::with_capacity(16),
            leaves: 0,
        }
    }

    fn rate(
        &mut self,
        stats: &[PileStats; COLUMNS],
        geo: &Geometry,
        cash: u64,
        pool: usize,
    ) -> f32 {
        self.leaves += 1;
        score(&self.weights, stats, geo, cash, pool)
    }

    /// Best value over every placement of `pair` on `board` (the board is left unchanged).
    fn best_placement(
        &mut self,
        board: &mut Board,
        geo: &Geometry,
        pair: (u8, u8),
        cash_before: u64,
        pool: usize,
    ) -> f32 {
        let options = placements(geo, &board.heights(), pair.0 == pair.1);
        let mut best = DEAD;
        for &p in options.as_slice() {
            let keep = self.log.len();
            if let Some(cash) = land_pair(board, geo, pair, p, &mut self.log) {
                let v = self.rate(&board.stats(), geo, cash_before + cash, pool);
                best = best.max(v);
            }
            board.undo(&mut self.log, keep);
        }
        best
    }

    /// Picks the action for the falling pair of `game`.
    pub fn choose(&mut self, game: &Game) -> Action {
        self.leaves = 0;
        let geo = &game.geo;
        let mut board = game.board.clone();
        let pool = game.pool.len();
        let first = game.legal_placements();
        let mut best: Option<(f32, Action)> = None;
        let mut consider = |v: f32, a: Action| {
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, a));
            }
        };
        for &p in first.as_slice() {
            let keep = self.log.len();
            let v = match land_pair(&mut board, geo, game.current, p, &mut self.log) {
                Some(cash) => self.best_placement(&mut board, geo, game.next, cash, pool),
                None => DEAD,
            };
            board.undo(&mut self.log, keep);
            consider(v, Action::Place(p));
        }
        match game.ready_helper() {
            Some(Helper::Vladimir) => {
                for a in 0..COLUMNS {
                    for b in a + 1..COLUMNS {
                        if board.piles[a].len() + board.piles[b].len() == 0 {
                            continue;
                        }
                        board.swap_piles(a, b);
                        let v = self.best_placement(&mut board, geo, game.next, 0, pool - 1);
                        board.swap_piles(a, b);
                        consider(v, Action::Vladimir(a as u8, b as u8));
                    }
                }
            }
            Some(Helper::Alexey) => {
                for counts in self.alexey_finalists(&board, geo, game.settings.alexey_max, pool - 1)
                {
                    let mut trial = board.clone();
                    trial.remove_bottoms(geo, &counts);
                    let v = self.best_placement(&mut trial, geo, game.next, 0, pool - 1);
                    consider(v, Action::Alexey(counts));
                }
            }
            None => {}
        }
        // There is always at least one placement, so `best` is set.
        best.map(|(_, a)| a)
            .unwrap_or(Action::Place(first.as_slice()[0]))
    }

    /// Alexey's removals rated on their own, best few first.
    fn alexey_finalists(
        &mut self,
        board: &Board,
        geo: &Geometry,
        max: u32,
        pool: usize,
    ) -> Vec<[u8; COLUMNS]> {
        // Stats of every pile with k bottom hats gone, so each combination costs one rating.
        let mut without = [[PileStats::default(); 6]; COLUMNS];
        let mut most = [0usize; COLUMNS];
        for c in 0..COLUMNS {
            // Alexey never removes more than five hats.
            most[c] = board.piles[c].len().min(max as usize).min(5);
            for (k, slot) in without[c].iter_mut().enumerate().take(most[c] + 1) {
                *slot = board.stats_without_bottom(geo, c, k);
            }
        }
        let mut rated: Vec<(f32, [u8; COLUMNS])> = Vec::new();
        let mut counts = [0u8; COLUMNS];
        self.enumerate_removals(
            0,
            max as usize,
            &most,
            &without,
            &mut counts,
            geo,
            pool,
            &mut rated,
        );
        rated.sort_by(|a, b| b.0.total_cmp(&a.0));
        rated
            .into_iter()
            .take(ALEXEY_FINALISTS)
            .map(|(_, c)| c)
            .collect()
    }

    #[allow(clippy::too_many_arguments)]
    fn enumerate_removals(
        &mut self,
        col: usize,
        left: usize,
        most: &[usize; COLUMNS],
        without: &[[PileStats; 6]; COLUMNS],
        counts: &mut [u8; COLUMNS],
        geo: &Geometry,
        pool: usize,
        out: &mut Vec<(f32, [u8; COLUMNS])>,
    ) {
        if col == COLUMNS {
            if counts.iter().any(|&k| k > 0) {
                let stats: [PileStats; COLUMNS] =
                    std::array::from_fn(|c| without[c][counts[c] as usize]);
                let v = self.rate(&stats, geo, 0, pool);
                out.push((v, *counts));
            }
            return;
        }
        for k in 0..=left.min(most[col]) {
            counts[col] = k as u8;
            self.enumerate_removals(col + 1, left - k, most, without, counts, geo, pool, out);
        }
        counts[col] = 0;
    }
}
