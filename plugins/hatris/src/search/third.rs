//! Beyond two pairs: the best few two-pair lines are rated again by the expected value of
//! the best placement of the third pair, which is unknown, over the odds the generator
//! deals each pair with.

use super::super::board::Board;
use super::super::eval::{Field, HatSpan, PileTerms};
use super::super::game::{Action, Game};
use super::super::moves::Placement;
use super::super::rng::pair_odds;
use super::super::rules::HAT_TYPES;
use super::{Candidate, Ctx, DEAD, Keep, Landings, Step, land_pair, landing, reach_of};

/// The best `size` two-pair lines so far, best first; equal values keep the order found.
/// A line is a candidate's index and the columns of the next pair's two hats.
struct TopLines {
    size: usize,
    lines: Vec<(f32, usize, (usize, usize))>,
    /// The candidate whose next-pair search is running.
    candidate: usize,
}

impl Keep for TopLines {
    fn floor(&self) -> f32 {
        match self.lines.get(self.size - 1) {
            Some(last) => last.0,
            None => f32::NEG_INFINITY,
        }
    }
    fn keep(&mut self, value: f32, columns: (usize, usize)) {
        let at = self
            .lines
            .iter()
            .position(|l| l.0 < value)
            .unwrap_or(self.lines.len());
        if at < self.size {
            self.lines.insert(at, (value, self.candidate, columns));
            self.lines.truncate(self.size);
        }
    }
}

impl Ctx<'_> {
    /// The first step of the line with the best expected value after a third pair, among the
    /// `size` best two-pair lines.
    pub(super) fn pick_with_third_pair(
        &mut self,
        game: &Game,
        cands: &[Candidate],
        bounds: &[f32],
        order: &[usize],
        size: usize,
    ) -> usize {
        let mut top = TopLines {
            size,
            lines: Vec::with_capacity(size + 1),
            candidate: 0,
        };
        for &i in order {
            if bounds[i] <= top.floor() {
                self.cut += 1;
                continue;
            }
            if let Some(l) = &cands[i].1 {
                top.candidate = i;
                self.search_next(&l.step, l.cash, l.pool, &mut top);
            }
        }
        let odds = pair_odds(game.rules_level(), game.settings.pair_skew);
        let mut best: Option<(f32, usize)> = None;
        for &(_, i, columns) in &top.lines {
            let Some(line) = &cands[i].1 else { continue };
            let (board, cash) = line_board(game, cands[i].0, line.cash, columns);
            let floor = best.map_or(f32::NEG_INFINITY, |(b, _)| b);
            let v = self.expected_third(&board, &odds, cash, line.pool, floor);
            if v > floor {
                best = Some((v, i));
            }
        }
        // With no line alive every first step loses; the first is as good as any.
        best.map_or(0, |(_, i)| i)
    }

    /// The odds-weighted best value of each third pair's placements on `board` when that
    /// exceeds `floor`; otherwise some value no higher than `floor`.
    fn expected_third(
        &mut self,
        board: &Board,
        odds: &[((u8, u8), f32)],
        cash: u64,
        pool: usize,
        floor: f32,
    ) -> f32 {
        let field = Field::new(std::array::from_fn(|c| {
            PileTerms::of(&board.piles[c].stats())
        }));
        let by_hat: [Landings; HAT_TYPES] = std::array::from_fn(|t| {
            std::array::from_fn(|c| landing(&board.piles[c], self.geo, t as u8 + 1))
        });
        let spans: [Option<HatSpan>; HAT_TYPES] =
            std::array::from_fn(|t| field.hat_span(&by_hat[t]));
        let reach = Some(reach_of(self.geo, &field));
        // Each pair's bound, replaced by its exact value as the search goes; the line is
        // dropped once even that mix cannot beat `floor`. Sums in different orders differ
        // by rounding, hence the small margin.
        let mut parts: Vec<f32> = odds
            .iter()
            .map(|&((a, b), p)| {
                let bound = match (&spans[a as usize - 1], &spans[b as usize - 1]) {
                    (Some(x), Some(y)) => {
                        let mut span = field.join(x, y);
                        span.cash = (span.cash.0 + cash, span.cash.1 + cash);
                        self.scorer.bound_span(&span, pool)
                    }
                    _ => DEAD,
                };
                p * bound
            })
            .collect();
        let margin = 1e-4 * (1.0 + parts.iter().map(|x| x.abs()).sum::<f32>());
        for (j, &((a, b), p)) in odds.iter().enumerate() {
            let mix: f32 = parts.iter().sum();
            if mix + margin <= floor {
                return mix.min(floor);
            }
            let step = Step {
                field,
                first: by_hat[a as usize - 1],
                second: by_hat[b as usize - 1],
                same: a == b,
                reach,
            };
            parts[j] = p * self.best_placement(&step, cash, pool, f32::NEG_INFINITY);
        }
        parts.iter().sum()
    }
}

/// The board after a line, the first step and then the next pair's hats on `columns`, and
/// the cash the line earns (`first_cash` from the first step).
fn line_board(game: &Game, first: Action, first_cash: u64, (f, s): (usize, usize)) -> (Board, u64) {
    let geo = &game.geo;
    let mut board = game.board.clone();
    let mut log = Vec::new();
    match first {
        Action::Place(p) => {
            land_pair(&mut board, geo, game.current, p, &mut log);
        }
        Action::Vladimir(a, b) => board.swap_piles(a as usize, b as usize),
        Action::Alexey(counts) => board.remove_bottoms(geo, &counts),
    }
    let next = Placement {
        first: f as u8,
        second: s as u8,
    };
    let cash = land_pair(&mut board, geo, game.next, next, &mut log).unwrap_or(0);
    (board, first_cash + cash)
}

#[cfg(test)]
mod tests {
    use super::super::super::board::Geometry;
    use super::super::super::eval::{Scorer, Weights, score};
    use super::super::super::moves::placements;
    use super::super::super::rules::{COLUMNS, Settings};
    use super::super::DEAD;
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn top_lines_keep_the_best_in_the_order_found() {
        let mut top = TopLines {
            size: 3,
            lines: Vec::new(),
            candidate: 0,
        };
        assert_eq!(top.floor(), f32::NEG_INFINITY);
        for (i, v) in [5.0, 7.0, 5.0, 1.0, 6.0, 5.0].into_iter().enumerate() {
            top.candidate = i;
            top.keep(v, (0, 1));
        }
        let kept: Vec<(f32, usize)> = top.lines.iter().map(|l| (l.0, l.1)).collect();
        assert_eq!(kept, vec![(7.0, 1), (6.0, 4), (5.0, 0)]);
        assert_eq!(top.floor(), 5.0);
    }

    /// The expectation with every placement of every pair valued.
    fn plain_expectation(board: &Board, geo: &Geometry, odds: &[((u8, u8), f32)]) -> f32 {
        let w = Weights::shipped().to_array();
        let mut log = Vec::new();
        let parts: Vec<f32> = odds
            .iter()
            .map(|&(pair, p)| {
                let mut b = board.clone();
                let mut best = DEAD;
                for &q in placements(geo, &b.heights(), pair.0 == pair.1).as_slice() {
                    if let Some(cash) = land_pair(&mut b, geo, pair, q, &mut log) {
                        best = best.max(score(&w, &b.stats(), geo, 100 + cash, 2));
                    }
                    b.undo(&mut log, 0);
                }
                p * best
            })
            .collect();
        parts.iter().sum()
    }

    #[test]
    fn expectation_is_exact_above_its_floor() {
        let geo = Geometry::new(&Settings::default());
        let scorer = Scorer::new(&Weights::shipped().to_array(), &geo);
        let mut ctx = Ctx {
            geo: &geo,
            scorer: &scorer,
            leaves: 0,
            skipped: 0,
            cut: 0,
        };
        let mut rng = StdRng::seed_from_u64(11);
        let mut next = |m: u64| rng.gen_range(0..m);
        for round in 0..60 {
            let columns: [Vec<u8>; COLUMNS] =
                std::array::from_fn(|_| (0..next(10)).map(|_| 1 + next(6) as u8).collect());
            let mut board = Board::default();
            board.set_piles(&geo, &columns);
            let odds = pair_odds(next(60) as u32, round % 2 == 0);
            let exact = plain_expectation(&board, &geo, &odds);
            let got = ctx.expected_third(&board, &odds, 100, 2, f32::NEG_INFINITY);
            assert_eq!(got.to_bits(), exact.to_bits(), "{columns:?}");
            for floor in [exact - 0.5, exact - 1e-3, exact, exact + 0.5] {
                let got = ctx.expected_third(&board, &odds, 100, 2, floor);
                if exact > floor {
                    assert_eq!(got.to_bits(), exact.to_bits(), "{columns:?} {floor}");
                } else {
                    assert!(got <= floor, "{columns:?} {floor}: {got}");
                }
            }
        }
    }
}
