//! The search chain: every placement of the falling pair, each followed by every placement
//! of the next pair; calling the ready helper is an alternative first step.
//!
//! Lines are rated with bounds first (see [`Scorer::bound`]): a next-pair search, or one of
//! its leaves, whose bound cannot beat the best line so far is skipped. Skipping never
//! changes the chosen action, only how much is evaluated to find it.

use super::board::{Board, Geometry, Landing, Pile, Undo};
use super::eval::{Field, METRICS, PileTerms, Scorer, Weights};
use super::game::{Action, Game};
use super::moves::{HeightOrder, Placement, reach_masks_of, reach_pairs};
use super::rules::{COLUMNS, Helper, STACK_CASH};

mod alexey;

/// Value of a line that tops out; later deaths are slightly better than earlier ones.
const DEAD: f32 = -1.0e9;

pub struct Searcher {
    weights: [f32; METRICS],
    /// Built for the geometry of the first game searched, rebuilt if it changes.
    scorer: Option<Scorer>,
    log: Vec<Undo>,
    /// Leaves evaluated in full by the last `choose` (for profiling output).
    pub leaves: u64,
    /// Leaves the last `choose` skipped because their bound could not beat a better line.
    pub skipped: u64,
    /// Next-pair searches the last `choose` skipped whole for the same reason.
    pub cut: u64,
    /// First steps of the current decision, kept to reuse the allocation.
    candidates: Vec<(Action, Option<Line>)>,
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

/// For each pile, its terms after one hat lands on it and the cash that earns, or `None`
/// where that landing ends the game.
type Landings = [Option<(PileTerms, u64)>; COLUMNS];

fn landing(pile: &Pile, geo: &Geometry, hat: u8) -> Option<(PileTerms, u64)> {
    let (stats, landing) = pile.peek_land(geo, hat);
    let cash = match landing {
        Landing::Overflow => return None,
        Landing::Stays => 0,
        Landing::Cleared(h) => STACK_CASH[h as usize - 1],
    };
    (stats.height <= geo.height_limit).then(|| (PileTerms::of(&stats), cash))
}

/// A playfield ready for the next pair: its terms and where each of the pair's hats lands.
#[derive(Clone, Copy, Debug)]
struct Step {
    field: Field,
    first: Landings,
    second: Landings,
    same: bool,
}

impl Step {
    fn new(board: &Board, geo: &Geometry, pair: (u8, u8)) -> Step {
        let mut step = Step {
            field: Field::new(std::array::from_fn(|c| {
                PileTerms::of(&board.piles[c].stats())
            })),
            first: [None; COLUMNS],
            second: [None; COLUMNS],
            same: pair.0 == pair.1,
        };
        for c in 0..COLUMNS {
            step.refresh_landings(board, geo, pair, c);
        }
        step
    }

    fn refresh_landings(&mut self, board: &Board, geo: &Geometry, pair: (u8, u8), c: usize) {
        self.first[c] = landing(&board.piles[c], geo, pair.0);
        self.second[c] = if self.same {
            self.first[c]
        } else {
            landing(&board.piles[c], geo, pair.1)
        };
    }

    /// This step after piles `cols` changed to what `board` holds.
    fn refreshed(&self, board: &Board, geo: &Geometry, pair: (u8, u8), cols: [u8; 2]) -> Step {
        let mut step = *self;
        for c in cols.map(usize::from) {
            step.field.set(c, PileTerms::of(&board.piles[c].stats()));
            step.refresh_landings(board, geo, pair, c);
        }
        step
    }

    /// This step with piles `a` and `b` exchanged.
    fn swapped(&self, a: usize, b: usize) -> Step {
        let mut step = *self;
        step.field.swap(a, b);
        step.first.swap(a, b);
        step.second.swap(a, b);
        step
    }
}

/// A first step that leaves the game running: the next pair's step, the cash earned on the
/// way and the helpers left.
#[derive(Clone, Copy, Debug)]
struct Line {
    step: Step,
    cash: u64,
    pool: usize,
}

/// What one decision's search works with.
struct Ctx<'a> {
    geo: &'a Geometry,
    scorer: &'a Scorer,
    leaves: u64,
    skipped: u64,
    cut: u64,
}

impl Ctx<'_> {
    /// A value no lower than what [`Ctx::best_placement`] can return for `step`, or `None`
    /// when no placement of the next pair survives.
    fn step_bound(&self, step: &Step, cash_before: u64, pool: usize) -> Option<f32> {
        let mut span = step.field.span(&step.first, &step.second)?;
        span.cash = (span.cash.0 + cash_before, span.cash.1 + cash_before);
        Some(self.scorer.bound_span(&span, pool))
    }

    /// Best value over every placement of the next pair in `step` when that value exceeds
    /// `floor`; otherwise some value no higher than `floor` (the caller has better).
    fn best_placement(&mut self, step: &Step, cash_before: u64, pool: usize, floor: f32) -> f32 {
        let geo = self.geo;
        match self.step_bound(step, cash_before, pool) {
            None => return DEAD,
            Some(b) if b <= floor => {
                self.cut += 1;
                return DEAD;
            }
            Some(_) => {}
        }
        // The order of the placements does not matter for a maximum, so they come straight
        // from the reachable column pairs, each in both orders unless the hats are equal.
        let heights = step.field.heights();
        let order = HeightOrder::of(&heights, geo.slide_over_equal);
        let (reach, _) = reach_masks_of(&order, &heights, i16::MAX);
        let mut best = DEAD;
        for (lo, hi) in reach_pairs(reach) {
            let orders = if step.same { 1 } else { 2 };
            for (f, s) in [(lo, hi), (hi, lo)].into_iter().take(orders) {
                if let (Some((tf, cf)), Some((ts, cs))) = (step.first[f], step.second[s]) {
                    let leaf = step.field.leaf((f, tf), (s, ts));
                    let cash = cash_before + cf + cs;
                    if self.scorer.bound(&leaf, cash, pool) <= best.max(floor) {
                        self.skipped += 1;
                        continue;
                    }
                    self.leaves += 1;
                    best = best.max(self.scorer.score_raw(&leaf.complete(geo), cash, pool));
                }
            }
        }
        best
    }
}

impl Searcher {
    pub fn new(weights: &Weights) -> Searcher {
        Searcher {
            weights: weights.to_array(),
            scorer: None,
            log: Vec::with_capacity(16),
            leaves: 0,
            skipped: 0,
            cut: 0,
            candidates: Vec::new(),
        }
    }

    /// Picks the action for the falling pair of `game`.
    pub fn choose(&mut self, game: &Game) -> Action {
        let geo = &game.geo;
        if !self.scorer.as_ref().is_some_and(|s| s.fits(geo)) {
            self.scorer = Some(Scorer::new(&self.weights, geo));
        }
        let mut ctx = Ctx {
            geo,
            scorer: self.scorer.as_ref().expect("scorer just built"),
            leaves: 0,
            skipped: 0,
            cut: 0,
        };
        let log = &mut self.log;
        let mut board = game.board.clone();
        let pool = game.pool.len();
        let root = Step::new(&board, geo, game.next);
        let first = game.legal_placements();
        // Every first step, in the order ties are settled in: placements, then the helper.
        let cands = &mut self.candidates;
        cands.clear();
        for &p in first.as_slice() {
            let keep = log.len();
            let line = land_pair(&mut board, geo, game.current, p, log).map(|cash| {
                let step = root.refreshed(&board, geo, game.next, [p.first, p.second]);
                Line { step, cash, pool }
            });
            board.undo(log, keep);
            cands.push((Action::Place(p), line));
        }
        match game.ready_helper() {
            Some(Helper::Vladimir) => {
                for a in 0..COLUMNS {
                    for b in a + 1..COLUMNS {
                        if board.piles[a].len() + board.piles[b].len() > 0 {
                            let line = Some(Line {
                                step: root.swapped(a, b),
                                cash: 0,
                                pool: pool - 1,
                            });
                            cands.push((Action::Vladimir(a as u8, b as u8), line));
                        }
                    }
                }
            }
            Some(Helper::Alexey) => {
                for counts in ctx.alexey_finalists(&board, game.settings.alexey_max, pool - 1) {
                    let mut trial = board.clone();
                    trial.remove_bottoms(geo, &counts);
                    let line = Some(Line {
                        step: Step::new(&trial, geo, game.next),
                        cash: 0,
                        pool: pool - 1,
                    });
                    cands.push((Action::Alexey(counts), line));
                }
            }
            None => {}
        }
        // Searching the most promising first lets the rest be cut. The winner is still the
        // first best in the order above: a line before the current best must only tie it.
        let bounds: Vec<f32> = cands
            .iter()
            .map(|(_, line)| {
                line.as_ref()
                    .and_then(|l| ctx.step_bound(&l.step, l.cash, l.pool))
                    .unwrap_or(DEAD)
            })
            .collect();
        let mut order: Vec<usize> = (0..cands.len()).collect();
        order.sort_by(|&a, &b| bounds[b].total_cmp(&bounds[a]));
        let mut best: Option<(f32, usize)> = None;
        for i in order {
            let floor = match best {
                None => f32::NEG_INFINITY,
                Some((b, at)) if i < at => b.next_down(),
                Some((b, _)) => b,
            };
            if bounds[i] <= floor {
                ctx.cut += 1;
                continue;
            }
            let v = match &cands[i].1 {
                Some(l) => ctx.best_placement(&l.step, l.cash, l.pool, floor),
                None => DEAD,
            };
            if best.is_none_or(|(b, at)| v > b || (v == b && i < at)) {
                best = Some((v, i));
            }
        }
        self.leaves = ctx.leaves;
        self.skipped = ctx.skipped;
        self.cut = ctx.cut;
        // There is always at least one placement, so `best` is set.
        best.map_or(Action::Place(first.as_slice()[0]), |(_, i)| cands[i].0)
    }
}

#[cfg(test)]
mod tests;
