use super::*;
use crate::layouts::parse_fen;
use nesmind_search::WIN;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn duel(fen: &str) -> Duel {
    Duel::from_position(&parse_fen(fen, 2).unwrap(), 0).unwrap()
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: d,
        ..Limits::default()
    }
}

#[test]
fn moves_and_play_agree_with_the_general_position_in_random_games() {
    let mut rng = StdRng::seed_from_u64(7);
    for fen in [
        "x5o/7/7/7/7/7/o5x x",
        "x5o/7/2-1-2/7/2-1-2/7/o5x x",
        "x-1-1-o/7/7/3-3/7/7/o5x o",
    ] {
        for _ in 0..20 {
            let mut pos = parse_fen(fen, 2).unwrap();
            let mut d = Duel::from_position(&pos, 0).unwrap();
            let (mut a, mut b) = (Vec::new(), Vec::new());
            while !pos.is_over() {
                pos.legal_moves(&mut a);
                d.moves(&mut b);
                assert_eq!(a, b);
                assert!(d.decided().is_none() || d.halfmove >= FIFTY_MOVE_PLIES);
                let mv = a[rng.gen_range(0..a.len())];
                pos = pos.play(mv);
                d = d.play(mv);
                assert_eq!(d.bb, [pos.pieces(0), pos.pieces(1)]);
                // The general position keeps the turn when the opponent has no stone left.
                if pos.pieces(1 - pos.to_move()) != 0 {
                    assert_eq!(usize::from(d.stm), pos.to_move());
                }
            }
            assert!(d.decided().is_some());
        }
    }
}

#[test]
fn decided_positions_score_by_count_and_the_fifty_move_rule() {
    assert_eq!(duel("xxxxxxx/7/7/7/7/7/7 o").decided(), Some(Decided::Loss));
    assert_eq!(
        duel("xxxxxxx/ooooooo/xxxxxxx/ooooooo/xxxxxxx/ooooooo/xxxxxx- x").decided(),
        Some(Decided::Win)
    );
    let mut open = duel("x5o/7/7/7/7/7/o5x x");
    assert_eq!(open.decided(), None);
    open.halfmove = FIFTY_MOVE_PLIES;
    assert_eq!(open.decided(), Some(Decided::Draw));
    assert_ne!(open.key(), open.null().key());
}

#[test]
fn the_search_takes_the_big_capture_and_finds_a_won_ending() {
    // The jump c4e4 converts all eight stones around the hole.
    let pos = duel("7/7/3ooo1/2xo1o1/3ooo1/7/7 x");
    let r = DuelSearcher::new(10).search(&pos, depth(3));
    assert_eq!(
        r.best.to,
        crate::board::parse_square("e4").unwrap(),
        "{}",
        r.best
    );
    // x to move fills the last square and wins 25-24.
    let end = duel("xxxxxxx/ooooooo/xxxxxxx/ooooooo/xxxxxxx/ooooooo/xxxxxx1 x");
    let r = DuelSearcher::new(10).search(&end, depth(5));
    assert!(r.score > WIN / 2, "{}", r.score);
}

#[test]
fn deeper_searches_agree_with_the_table_off_the_start_with_gaps() {
    let pos = duel("x5o/7/2-1-2/7/2-1-2/7/o5x x");
    let mut s = DuelSearcher::new(12);
    let r = s.search(&pos, depth(6));
    assert_eq!(r.depth, 6);
    assert!(r.nodes > 100);
    assert!(r.score.abs() < 300, "{}", r.score);
    assert!(pos.play(r.best).decided().is_none());
    // A node budget ends the search after the first iteration.
    let r = s.search(
        &pos,
        Limits {
            nodes: Some(2000),
            depth: 64,
            ..Limits::default()
        },
    );
    assert!(r.depth >= 1 && r.nodes < 20_000, "{} {}", r.depth, r.nodes);
}
