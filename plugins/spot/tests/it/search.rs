//! Search checks on Spot positions: 2-player hypermax and alpha-beta agree, every search
//! returns legal moves, and prize moves are chosen at the root.

use nesmind_search::{Algorithm, Game, SearchConfig, Searcher, terminal_utility, zero_sum};
use nesmind_spot::layouts::{ThirdCorner, builtin_layout, parse_fen, start_position};
use nesmind_spot::moves::{Kind, Move};
use nesmind_spot::position::Position;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn random_positions(players: usize, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let blocked = builtin_layout(rng.gen_range(0..512)).unwrap();
        let mut pos = start_position(players, blocked, ThirdCorner::LowerLeft).unwrap();
        for _ in 0..rng.gen_range(0..60) {
            pos.legal_moves(&mut moves);
            let Some(&mv) = moves.choose(&mut rng) else {
                break;
            };
            pos = pos.play(mv);
        }
        pos.legal_moves(&mut moves);
        if moves.len() > 1 {
            out.push(pos);
        }
    }
    out
}

/// Plain minimax without pruning: value for `root` of `pos` searched `depth` plies.
fn minimax(pos: &Position, depth: u32, ply: u32, root: usize) -> i32 {
    if let Some(r) = Game::result(pos) {
        return match r {
            Some(w) => terminal_utility(w, 2, ply)[root],
            None => zero_sum(&Game::heuristic(pos), 2)[root],
        };
    }
    if depth == 0 {
        return zero_sum(&Game::heuristic(pos), 2)[root];
    }
    let mut moves = Vec::new();
    pos.generate(&mut moves);
    let values = moves
        .iter()
        .map(|&m| minimax(&pos.play(m), depth - 1, ply + 1, root));
    if pos.to_move() == root {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

fn fixed(algorithm: Algorithm, depth: u32, seed: u64) -> SearchConfig {
    SearchConfig {
        algorithm,
        max_depth: depth,
        move_time: None,
        iterative: false,
        use_tt: false,
        tt_bits: 4,
        seed,
        model_opponents: false,
    }
}

fn check_agreement(count: usize, depth: u32, seed: u64) {
    for (i, pos) in random_positions(2, count, seed).iter().enumerate() {
        let root = pos.to_move();
        let value_of = |mv: Move| minimax(&pos.play(mv), depth - 1, 1, root);
        let hyper = Searcher::new(fixed(Algorithm::Hypermax, depth, i as u64)).search(pos);
        let nega = Searcher::new(fixed(Algorithm::Negamax, depth, i as u64)).search(pos);
        let best = minimax(pos, depth, 0, root);
        assert_eq!(value_of(hyper.best), best, "hypermax, position {i}");
        assert_eq!(value_of(nega.best), best, "negamax, position {i}");
        assert_eq!(hyper.score, best, "hypermax root value, position {i}");
        assert_eq!(nega.score, best, "negamax root value, position {i}");
    }
}

#[test]
fn hypermax_and_alpha_beta_choose_equal_value_moves_on_10000_positions() {
    check_agreement(10_000, 2, 11);
}

#[test]
fn hypermax_and_alpha_beta_agree_at_depth_3() {
    check_agreement(300, 3, 12);
}

/// Expectimax without pruning, with the searcher's rounding (the floor of each mean).
fn expectimax(pos: &Position, depth: u32, ply: u32, root: usize, model: bool) -> i64 {
    let players = pos.players();
    if let Some(r) = Game::result(pos) {
        return i64::from(match r {
            Some(w) => terminal_utility(w, players, ply)[root],
            None => zero_sum(&Game::heuristic(pos), players)[root],
        });
    }
    if depth == 0 {
        return i64::from(zero_sum(&Game::heuristic(pos), players)[root]);
    }
    let mut moves = Vec::new();
    if pos.to_move() != root && model {
        pos.modeled_moves(&mut moves);
    } else {
        pos.generate(&mut moves);
    }
    let values = moves
        .iter()
        .map(|&m| expectimax(&pos.play(m), depth - 1, ply + 1, root, model));
    if pos.to_move() == root {
        values.max().unwrap()
    } else {
        values.sum::<i64>().div_euclid(moves.len() as i64)
    }
}

#[test]
fn expectimax_with_star1_pruning_matches_the_full_tree() {
    for players in 2..=4 {
        for model in [false, true] {
            let seed = 30 + players as u64 + 10 * model as u64;
            for (i, pos) in random_positions(players, 150, seed).iter().enumerate() {
                let root = pos.to_move();
                let depth = if model { 4 } else { 3 };
                let cfg = SearchConfig {
                    model_opponents: model,
                    ..fixed(Algorithm::Expectimax, depth, i as u64)
                };
                let r = Searcher::new(cfg).search(pos);
                let best = expectimax(pos, depth, 0, root, model);
                let chosen = expectimax(&pos.play(r.best), depth - 1, 1, root, model);
                let what = format!("{players} players, model {model}, position {i}");
                assert_eq!(i64::from(r.score), best, "root value, {what}");
                assert_eq!(chosen, best, "chosen move, {what}");
            }
        }
    }
}

#[test]
fn every_search_returns_a_legal_move() {
    let algorithms = [
        Algorithm::Hypermax,
        Algorithm::Paranoid,
        Algorithm::BestReply,
        Algorithm::Negamax,
        Algorithm::Expectimax,
    ];
    for players in 2..=4 {
        for (i, pos) in random_positions(players, 30, 20 + players as u64)
            .iter()
            .enumerate()
        {
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            for algorithm in algorithms {
                for model_opponents in [false, true] {
                    let cfg = SearchConfig {
                        model_opponents,
                        ..SearchConfig::timed(
                            algorithm,
                            std::time::Duration::from_millis(3),
                            i as u64,
                        )
                    };
                    let r = Searcher::new(cfg).search(pos);
                    assert!(
                        legal.contains(&r.best),
                        "{algorithm:?} {players}p gave {}",
                        r.best
                    );
                    assert!(r.depth >= 1 && !r.pv.is_empty());
                }
            }
        }
    }
}

#[test]
fn bonus_prizes_are_searched_at_the_root() {
    // x is far behind: swapping colours with o is the clear choice.
    let mut pos = parse_fen("xx5/7/7/7/7/1o5/ooooooo x", 2).unwrap();
    pos.set_bonus_pending(true);
    for algorithm in [Algorithm::Hypermax, Algorithm::Negamax] {
        let r = Searcher::new(fixed(algorithm, 3, 1)).search(&pos);
        assert_eq!(r.best.kind, Kind::Swap, "{algorithm:?}");
    }
    // Already far ahead with nothing to gain from a swap: an extra turn or a cherry jump.
    let mut ahead = parse_fen("ooo4/7/7/7/7/x6/xxxxxxx x", 2).unwrap();
    ahead.set_bonus_pending(true);
    let r = Searcher::new(fixed(Algorithm::Hypermax, 3, 1)).search(&ahead);
    assert!(
        matches!(r.best.kind, Kind::ExtraTurn | Kind::Cherry),
        "{}",
        r.best
    );
}

#[test]
fn layouts_won_by_the_first_mover_are_recognised() {
    use nesmind_spot::arena::decided_by_layout;
    assert!(decided_by_layout(builtin_layout(59).unwrap()));
    assert!(!decided_by_layout(builtin_layout(0).unwrap()));
    assert!(!decided_by_layout(builtin_layout(66).unwrap()));
}
