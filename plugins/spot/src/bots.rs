//! Opponents without search: the model of the cartridge's own AI, a greedy bot and a random bot.

use super::board::{ADJACENT, Bits, JUMPS, NO_SQUARE, dilate1};
use super::moves::{Kind, Move};
use super::position::Position;
use rand::Rng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

/// The conjectured one-ply move rating of the cartridge's AI, in tenths: +10 per converted
/// piece, +4 per own piece around the destination, then -4 per own piece around the source
/// for a jump or +7 for a clone, floored at zero.
pub fn nes_move_rating(pos: &Position, mv: Move) -> i32 {
    if mv.kind != Kind::Step {
        return 0;
    }
    let mine = pos.pieces(pos.to_move());
    let captured = pos.captures(mv).count_ones() as i32;
    let mut r = 10 * captured + 4 * (ADJACENT[mv.to as usize] & mine).count_ones() as i32;
    if mv.is_jump() {
        r -= 4 * (ADJACENT[mv.from as usize] & mine).count_ones() as i32;
    } else {
        r += 7;
    }
    r.max(0)
}

/// The moves [`nes_move_rating`] rates best (the model's tied choices), in the order
/// `Position::generate` lists them. Rates each destination and each jump source once instead
/// of every move from scratch: the search calls this at every opponent node.
pub fn nes_best_moves(pos: &Position, out: &mut Vec<Move>) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has POPCNT (checked just above; the check is cached by std).
        return unsafe { nes_best_moves_popcnt(pos, out) };
    }
    nes_best_moves_body(pos, out)
}

/// The same code compiled with the POPCNT instruction, which the default x86-64 target lacks.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn nes_best_moves_popcnt(pos: &Position, out: &mut Vec<Move>) {
    nes_best_moves_body(pos, out)
}

#[inline(always)]
fn nes_best_moves_body(pos: &Position, out: &mut Vec<Move>) {
    out.clear();
    if pos.bonus_pending() {
        out.push(bot_prize());
        return;
    }
    let mine = pos.pieces(pos.to_move());
    let theirs = pos.occupied() & !mine;
    let empty = pos.empty();
    // Captures and own pieces around the destination; a jump source is never among them.
    let gain = |to: u8| {
        let around = ADJACENT[to as usize];
        10 * (around & theirs).count_ones() as i32 + 4 * (around & mine).count_ones() as i32
    };
    let mut best = i32::MIN;
    let mut keep = |mv: Move, rating: i32| {
        if rating > best {
            best = rating;
            out.clear();
        }
        if rating == best {
            out.push(mv);
        }
    };
    for to in Bits(dilate1(mine) & empty) {
        keep(Move::clone_to(to), gain(to) + 7);
    }
    for from in Bits(mine) {
        let loss = 4 * (ADJACENT[from as usize] & mine).count_ones() as i32;
        for to in Bits(JUMPS[from as usize] & empty) {
            keep(Move::jump(from, to), (gain(to) - loss).max(0));
        }
    }
    if out.is_empty() {
        out.push(Move::PASS);
    }
}

/// How often a difficulty level plays a random move instead of its best one. The cartridge's
/// handicap scheme is unknown; level 5 is taken as the unhandicapped rating.
pub fn handicap_probability(level: u8) -> f64 {
    f64::from(5 - level.clamp(1, 5)) * 0.125
}

/// What a bot takes when it wins the bonus game. How the cartridge's AI stops the reels is
/// unknown; the model assumes it wins nothing.
pub fn bot_prize() -> Move {
    Move::prize(Kind::NoPrize, NO_SQUARE, NO_SQUARE)
}

/// Picks a best move by `rate` with uniform random tie-breaks.
fn best_by(moves: &[Move], rng: &mut StdRng, rate: impl Fn(Move) -> i32) -> Move {
    let best = moves.iter().map(|&m| rate(m)).max().expect("a move");
    let top: Vec<Move> = moves.iter().copied().filter(|&m| rate(m) == best).collect();
    *top.choose(rng).expect("a best move")
}

/// The cartridge's AI model at a difficulty level (1-5).
pub fn nes_ai_move(pos: &Position, level: u8, rng: &mut StdRng) -> Move {
    if pos.bonus_pending() {
        return bot_prize();
    }
    let mut moves = Vec::new();
    if rng.gen_bool(handicap_probability(level)) {
        pos.generate(&mut moves);
    } else {
        nes_best_moves(pos, &mut moves);
    }
    *moves.choose(rng).expect("a move")
}

/// Most pieces gained this turn (converted pieces, plus one for a clone).
pub fn greedy_move(pos: &Position, rng: &mut StdRng) -> Move {
    if pos.bonus_pending() {
        return bot_prize();
    }
    let mut moves = Vec::new();
    pos.generate(&mut moves);
    best_by(&moves, rng, |m| {
        pos.captures(m).count_ones() as i32 + m.is_clone() as i32
    })
}

pub fn random_move(pos: &Position, rng: &mut StdRng) -> Move {
    let mut moves = Vec::new();
    pos.generate(&mut moves);
    *moves.choose(rng).expect("a move")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_square;
    use crate::layouts::parse_fen;
    use rand::SeedableRng;

    #[test]
    fn rating_follows_the_article_rules() {
        // x at a1, b1 and a2; o at c3 and d2.
        let pos = parse_fen("7/7/7/7/2o4/x2o3/xx5 x", 2).unwrap();
        let sq = |s| parse_square(s).unwrap();
        // Clone to b2: converts c3, own a1 a2 b1 around: 10 + 12 + 7.
        assert_eq!(nes_move_rating(&pos, Move::clone_to(sq("b2"))), 29);
        // Jump a1 -> c2: converts c3 and d2 (20), own b1 around c2 (4), a1 has 2 own around (-8).
        assert_eq!(nes_move_rating(&pos, Move::jump(sq("a1"), sq("c2"))), 16);
        // Jump a2 -> a4: no captures, no own around a4, a2 has a1 and b1 around: floored at 0.
        assert_eq!(nes_move_rating(&pos, Move::jump(sq("a2"), sq("a4"))), 0);
        // Clone to c2: converts c3 and d2, b1 around: 20 + 4 + 7, the best move.
        assert_eq!(nes_move_rating(&pos, Move::clone_to(sq("c2"))), 31);
        let mut rng = StdRng::seed_from_u64(1);
        assert_eq!(nes_ai_move(&pos, 5, &mut rng), Move::clone_to(sq("c2")));
        assert_eq!(handicap_probability(5), 0.0);
    }

    #[test]
    fn best_moves_are_the_top_rated_moves_in_generation_order() {
        let mut rng = StdRng::seed_from_u64(5);
        let (mut all, mut best) = (Vec::new(), Vec::new());
        for players in 2..=4 {
            for game in 0..40 {
                let blocked = crate::layouts::builtin_layout(game * 11).unwrap();
                let third = crate::layouts::ThirdCorner::LowerLeft;
                let mut pos = crate::layouts::start_position(players, blocked, third).unwrap();
                // Random play can hop pieces around forever; 120 plies cover the game.
                for _ in 0..120 {
                    if pos.is_over() {
                        break;
                    }
                    pos.generate(&mut all);
                    let top = all.iter().map(|&m| nes_move_rating(&pos, m)).max().unwrap();
                    all.retain(|&m| nes_move_rating(&pos, m) == top);
                    nes_best_moves(&pos, &mut best);
                    assert_eq!(best, all);
                    pos = pos.play(random_move(&pos, &mut rng));
                }
            }
        }
    }
}
