//! The pruned search against a plain exhaustive one: same action on every spawn.

use super::super::board::{Board, Geometry};
use super::super::eval::{Weights, score};
use super::super::game::{Action, Game};
use super::super::moves::placements;
use super::super::rules::{COLUMNS, Helper, Settings};
use super::{DEAD, Searcher, land_pair};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// Best value of the next pair's placements, every one evaluated.
fn plain_best(
    board: &mut Board,
    geo: &Geometry,
    w: &[f32],
    pair: (u8, u8),
    cash: u64,
    pool: usize,
) -> f32 {
    let w: [f32; 13] = w.try_into().unwrap();
    let mut best = DEAD;
    let mut log = Vec::new();
    for &p in placements(geo, &board.heights(), pair.0 == pair.1).as_slice() {
        if let Some(c) = land_pair(board, geo, pair, p, &mut log) {
            best = best.max(score(&w, &board.stats(), geo, cash + c, pool));
        }
        board.undo(&mut log, 0);
    }
    best
}

/// Every way Alexey can remove up to `max` hats, at most five from a pile.
fn removals(board: &Board, max: usize) -> Vec<[u8; COLUMNS]> {
    let mut out = vec![[0u8; COLUMNS]];
    for c in 0..COLUMNS {
        let most = board.piles[c].len().min(5);
        out = out
            .into_iter()
            .flat_map(|counts| {
                let used: usize = counts.iter().map(|&k| k as usize).sum();
                (0..=most.min(max - used)).map(move |k| {
                    let mut next = counts;
                    next[c] = k as u8;
                    next
                })
            })
            .collect();
    }
    out.retain(|counts| counts.iter().any(|&k| k > 0));
    out
}

/// The search chain with nothing skipped: the first best action in the natural order.
fn plain_choice(game: &Game, w: &[f32]) -> Action {
    let geo = &game.geo;
    let pool = game.pool.len();
    let mut options: Vec<(f32, Action)> = Vec::new();
    let mut log = Vec::new();
    for &p in game.legal_placements().as_slice() {
        let mut board = game.board.clone();
        let v = match land_pair(&mut board, geo, game.current, p, &mut log) {
            Some(cash) => plain_best(&mut board, geo, w, game.next, cash, pool),
            None => DEAD,
        };
        options.push((v, Action::Place(p)));
    }
    match game.ready_helper() {
        Some(Helper::Vladimir) => {
            for a in 0..COLUMNS {
                for b in a + 1..COLUMNS {
                    if game.board.piles[a].len() + game.board.piles[b].len() > 0 {
                        let mut board = game.board.clone();
                        board.swap_piles(a, b);
                        let v = plain_best(&mut board, geo, w, game.next, 0, pool - 1);
                        options.push((v, Action::Vladimir(a as u8, b as u8)));
                    }
                }
            }
        }
        Some(Helper::Alexey) => {
            let wa: [f32; 13] = w.try_into().unwrap();
            let mut rated: Vec<(f32, [u8; COLUMNS])> = removals(&game.board, 5)
                .into_iter()
                .map(|counts| {
                    let mut board = game.board.clone();
                    board.remove_bottoms(geo, &counts);
                    (score(&wa, &board.stats(), geo, 0, pool - 1), counts)
                })
                .collect();
            rated.sort_by(|a, b| b.0.total_cmp(&a.0));
            for (_, counts) in rated.into_iter().take(3) {
                let mut board = game.board.clone();
                board.remove_bottoms(geo, &counts);
                let v = plain_best(&mut board, geo, w, game.next, 0, pool - 1);
                options.push((v, Action::Alexey(counts)));
            }
        }
        None => {}
    }
    let mut best = options[0];
    for &(v, a) in &options[1..] {
        if v > best.0 {
            best = (v, a);
        }
    }
    best.1
}

#[test]
fn pruned_search_chooses_as_the_plain_one() {
    // Two pairs only: the plain search below knows nothing of a third.
    let weights = Weights {
        third_pair_lines: 0,
        ..Weights::shipped()
    };
    let w = weights.to_array();
    let mut helpers = [0; 2];
    for (seed, skew) in [(5, true), (6, false), (7, true)] {
        let settings = Settings {
            pair_skew: skew,
            ..Settings::default()
        };
        let mut rand = StdRng::seed_from_u64(seed);
        let mut game = Game::new(settings, &mut rand);
        let mut searcher = Searcher::new(&weights);
        while !game.over && game.spawns < 400 {
            let action = searcher.choose(&game);
            assert_eq!(
                action,
                plain_choice(&game, &w),
                "seed {seed} spawn {}",
                game.spawns
            );
            match action {
                Action::Alexey(_) => helpers[0] += 1,
                Action::Vladimir(..) => helpers[1] += 1,
                Action::Place(_) => {}
            }
            game.step_random(action, &mut rand).unwrap();
        }
    }
    // The comparison must have covered both helpers too.
    assert!(helpers.iter().all(|&n| n > 0), "{helpers:?}");
}
