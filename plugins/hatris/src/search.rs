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
mod third;

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
    /// Two-pair lines rated again over the unknown third pair (0: none).
    third_pair_lines: usize,
    /// First steps of the current decision, kept to reuse the allocation.
    candidates: Vec<Candidate>,
}

/// A first step, with its line when it does not end the game.
type Candidate = (Action, Option<Line>);

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

/// The column pairs a pair of different hats can reach on `field`.
fn reach_of(geo: &Geometry, field: &Field) -> u32 {
    let heights = field.heights();
    let order = HeightOrder::of(&heights, geo.slide_over_equal);
    reach_masks_of(&order, &heights, i16::MAX).0
}

/// A playfield ready for the next pair: its terms and where each of the pair's hats lands.
#[derive(Clone, Copy, Debug)]
struct Step {
    field: Field,
    first: Landings,
    second: Landings,
    same: bool,
    /// The column pairs the pair can reach ([`reach_masks`](super::moves::reach_masks)),
    /// when already known.
    reach: Option<u32>,
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
            reach: None,
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
        step.reach = None;
        for c in cols.map(usize::from) {
            step.field.set(c, PileTerms::of(&board.piles[c].stats()));
            step.refresh_landings(board, geo, pair, c);
        }
        step
    }

    /// This step with piles `a` and `b` exchanged.
    fn swapped(&self, a: usize, b: usize) -> Step {
        let mut step = *self;
        step.reach = None;
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

/// How a next-pair search keeps what it finds.
trait Keep {
    /// Leaves valued at or below this cannot change what is kept.
    fn floor(&self) -> f32;
    /// Takes the value of the leaf that puts the next pair's hats on these two columns.
    fn keep(&mut self, value: f32, columns: (usize, usize));
}

/// The best value, wanted only when it beats `floor` (the caller has something that good).
struct Best {
    value: f32,
    floor: f32,
}

impl Best {
    fn above(floor: f32) -> Best {
        Best { value: DEAD, floor }
    }
}

impl Keep for Best {
    fn floor(&self) -> f32 {
        self.value.max(self.floor)
    }
    fn keep(&mut self, value: f32, _: (usize, usize)) {
        self.value = self.value.max(value);
    }
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

    /// Values the placements of the next pair in `step` into `keep`, skipping those (or all)
    /// whose bound shows they would not be kept.
    fn search_next(&mut self, step: &Step, cash_before: u64, pool: usize, keep: &mut impl Keep) {
        let geo = self.geo;
        // With nothing to beat yet, a bound over all placements cannot cut anything.
        if keep.floor() > f32::NEG_INFINITY {
            match self.step_bound(step, cash_before, pool) {
                None => return,
                Some(b) if b <= keep.floor() => {
                    self.cut += 1;
                    return;
                }
                Some(_) => {}
            }
        }
        // The order of the placements does not matter here, so they come straight from the
        // reachable column pairs, each in both orders unless the hats are equal.
        let reach = step.reach.unwrap_or_else(|| reach_of(geo, &step.field));
        for (lo, hi) in reach_pairs(reach) {
            let orders = if step.same { 1 } else { 2 };
            for (f, s) in [(lo, hi), (hi, lo)].into_iter().take(orders) {
                if let (Some((tf, cf)), Some((ts, cs))) = (step.first[f], step.second[s]) {
                    let leaf = step.field.leaf((f, tf), (s, ts));
                    let cash = cash_before + cf + cs;
                    if self.scorer.bound(&leaf, cash, pool) <= keep.floor() {
                        self.skipped += 1;
                        continue;
                    }
                    self.leaves += 1;
                    keep.keep(
                        self.scorer.score_raw(&leaf.complete(geo), cash, pool),
                        (f, s),
                    );
                }
            }
        }
    }

    /// Best value over every placement of the next pair in `step` when that value exceeds
    /// `floor`; otherwise some value no higher than `floor` (the caller has better).
    fn best_placement(&mut self, step: &Step, cash_before: u64, pool: usize, floor: f32) -> f32 {
        let mut best = Best::above(floor);
        self.search_next(step, cash_before, pool, &mut best);
        best.value
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
            third_pair_lines: weights.third_pair_lines as usize,
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
        // Searching the most promising first lets the rest be cut.
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
        let pick = match self.third_pair_lines {
            0 => ctx.pick_two_pairs(cands, &bounds, &order),
            lines => ctx.pick_with_third_pair(game, cands, &bounds, &order, lines),
        };
        self.leaves = ctx.leaves;
        self.skipped = ctx.skipped;
        self.cut = ctx.cut;
        cands[pick].0
    }
}

impl Ctx<'_> {
    /// The first step with the best two-pair line: the first such in the candidates' order,
    /// so a candidate before the current best must only tie it.
    fn pick_two_pairs(&mut self, cands: &[Candidate], bounds: &[f32], order: &[usize]) -> usize {
        let mut best: Option<(f32, usize)> = None;
        for &i in order {
            let floor = match best {
                None => f32::NEG_INFINITY,
                Some((b, at)) if i < at => b.next_down(),
                Some((b, _)) => b,
            };
            if bounds[i] <= floor {
                self.cut += 1;
                continue;
            }
            let v = match &cands[i].1 {
                Some(l) => self.best_placement(&l.step, l.cash, l.pool, floor),
                None => DEAD,
            };
            if best.is_none_or(|(b, at)| v > b || (v == b && i < at)) {
                best = Some((v, i));
            }
        }
        // There is always at least one placement, so `best` is set.
        best.map_or(0, |(_, i)| i)
    }
}

#[cfg(test)]
mod tests;
