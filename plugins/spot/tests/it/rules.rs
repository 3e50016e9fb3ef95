//! Rule invariants of the game model: piece counts, conversions, passes, game end, prizes,
//! and incremental Zobrist keys.

use nesmind_spot::board::{ADJACENT, NO_SQUARE, parse_square};
use nesmind_spot::layouts::{ThirdCorner, builtin_layout, parse_fen, start_position};
use nesmind_spot::moves::{Kind, Move};
use nesmind_spot::position::{Outcome, Position};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn sq(s: &str) -> u8 {
    parse_square(s).unwrap()
}

#[test]
fn random_games_keep_the_invariants() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let mut moves = Vec::new();
    for game in 0..300 {
        let players = 2 + game % 3;
        let mut pos = start_position(
            players,
            builtin_layout(rng.gen_range(0..512)).unwrap(),
            ThirdCorner::LowerRight,
        )
        .unwrap();
        pos.set_secret(rng.gen_range(0..49));
        // Random play can hop pieces back and forth for ever; 300 plies cover real games.
        for _ in 0..300 {
            if pos.is_over() {
                break;
            }
            pos.legal_moves(&mut moves);
            let mv = *moves.choose(&mut rng).unwrap();
            let me = pos.to_move();
            let next = pos.play(mv);
            assert_eq!(next.key(), next.compute_key(), "incremental key after {mv}");
            let mut undone = pos;
            let undo = undone.make(mv);
            undone.unmake(&undo);
            assert_eq!(undone, pos, "unmake restores {mv}");
            let total = |p: &Position| (0..players).map(|q| p.count(q)).sum::<u32>();
            match mv.kind {
                Kind::Step if mv.is_clone() => assert_eq!(total(&next), total(&pos) + 1),
                Kind::Step | Kind::Cherry | Kind::Swap => assert_eq!(total(&next), total(&pos)),
                _ => assert_eq!(next.all_pieces(), pos.all_pieces()),
            }
            if mv.kind == Kind::Step {
                // Only pieces around the destination change colour, and only to the mover's.
                let changed = (0..players).fold(0, |a, q| a | (pos.pieces(q) & !next.pieces(q)));
                let allowed =
                    ADJACENT[mv.to as usize] | if mv.is_jump() { 1 << mv.from } else { 0 };
                assert_eq!(changed & !allowed, 0);
                let around = ADJACENT[mv.to as usize];
                assert_eq!(
                    next.pieces(me) & around,
                    pos.occupied() & around,
                    "every neighbour converts"
                );
            }
            if next.bonus_pending() {
                assert_eq!(next.to_move(), me, "the bonus winner picks the prize");
                assert_eq!(next.secret(), NO_SQUARE, "the secret square is used once");
            }
            pos = next;
        }
        let alive = (0..players).filter(|&q| pos.count(q) > 0).count();
        let anyone_moves = (0..players).any(|q| pos.count(q) > 0 && pos.can_move(q));
        assert_eq!(
            pos.is_over(),
            pos.empty() == 0 || alive <= 1 || !anyone_moves
        );
    }
}

#[test]
fn pass_only_when_stuck_and_turns_skip_eliminated_players() {
    // x (bottom row) is walled off by o's two full rows: x must pass, o moves.
    let pos = parse_fen("7/7/7/7/ooooooo/ooooooo/xxxxxxx x", 2).unwrap();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves, vec![Move::PASS]);
    assert_eq!(pos.play(Move::PASS).to_move(), 1);
    // 3 players, y has no pieces: after x comes o, after o comes x.
    let three = parse_fen("x5o/7/7/7/7/7/7 x", 3).unwrap();
    let after_x = three.play(Move::clone_to(sq("b7")));
    assert_eq!(after_x.to_move(), 1);
    assert_eq!(after_x.play(Move::clone_to(sq("f7"))).to_move(), 0);
}

#[test]
fn game_end_and_shared_majority() {
    assert_eq!(
        parse_fen("x6/7/7/7/7/7/7 o", 2).unwrap().outcome(),
        Some(Outcome::Win(0))
    );
    // Board full, 3 against 3 of 4 players with one more for z: z wins; tie at the top is a draw.
    let full = parse_fen("xxxxxxx/ooooooo/yyyyyyy/zzzzzzz/-------/-------/-------", 4).unwrap();
    assert_eq!(full.outcome(), Some(Outcome::Draw));
    let z_ahead = parse_fen("xxxxxxx/ooooooo/yyyyyyy/zzzzzzz/z------/-------/-------", 4).unwrap();
    assert_eq!(z_ahead.outcome(), Some(Outcome::Win(3)));
    assert_eq!(parse_fen("x5o/7/7/7/7/7/o5x x", 2).unwrap().outcome(), None);
}

#[test]
fn prizes_do_what_the_manual_says() {
    let mut pos = parse_fen("xx5/7/7/7/7/1o5/ooooooo x", 2).unwrap();
    pos.set_bonus_pending(true);
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let pieces = pos.all_pieces();
    let swap = Move::prize(Kind::Swap, NO_SQUARE, 1);
    assert!(moves.contains(&swap));
    let swapped = pos.play(swap);
    assert_eq!(
        (swapped.pieces(0), swapped.pieces(1)),
        (pieces[1], pieces[0])
    );
    assert_eq!(swapped.to_move(), 1);
    let extra = pos.play(Move::prize(Kind::ExtraTurn, NO_SQUARE, NO_SQUARE));
    assert_eq!(extra.to_move(), 0);
    assert!(!extra.bonus_pending());
    let cherry = Move::prize(Kind::Cherry, sq("a7"), sq("c3"));
    assert!(
        moves.contains(&cherry),
        "a cherry jump may go anywhere free"
    );
    let jumped = pos.play(cherry);
    assert_eq!(jumped.owner(sq("a7")), None);
    assert_eq!(
        jumped.owner(sq("b2")),
        Some(0),
        "converted next to the landing square"
    );
    assert_eq!(
        pos.play(Move::prize(Kind::NoPrize, NO_SQUARE, NO_SQUARE))
            .to_move(),
        1
    );
    // Landing on the secret square starts the bonus game for the mover.
    let mut start = parse_fen("x5o/7/7/7/7/7/o5x x", 2).unwrap();
    start.set_secret(sq("b7"));
    let landed = start.play(Move::clone_to(sq("b7")));
    assert!(landed.bonus_pending() && landed.to_move() == 0);
}
