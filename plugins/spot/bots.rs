//! Opponents without search: the model of the cartridge's own AI, a greedy bot and a random bot.

use super::board::{ADJACENT, NO_SQUARE};
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
fn best_by(pos: &Position, moves: &[Move], rng: &mut StdRng, rate: impl Fn(Move) -> i32) -> Move {
    let best = moves.iter().map(|&m| rate(m)).max().expect("a move");
    let top: Vec<Move> = moves.iter().copied().filter(|&m| rate(m) == best).collect();
    let _ = pos;
    *top.choose(rng).expect("a best move")
}

/// The cartridge's AI model at a difficulty level (1-5).
pub fn nes_ai_move(pos: &Position, level: u8, rng: &mut StdRng) -> Move {
    if pos.bonus_pending() {
        return bot_prize();
    }
    let mut moves = Vec::new();
    pos.generate(&mut moves);
    if rng.gen_bool(handicap_probability(level)) {
        return *moves.choose(rng).expect("a move");
    }
    best_by(pos, &moves, rng, |m| nes_move_rating(pos, m))
}

/// Most pieces gained this turn (converted pieces, plus one for a clone).
pub fn greedy_move(pos: &Position, rng: &mut StdRng) -> Move {
    if pos.bonus_pending() {
        return bot_prize();
    }
    let mut moves = Vec::new();
    pos.generate(&mut moves);
    best_by(pos, &moves, rng, |m| {
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
    use crate::plugins::spot::board::parse_square;
    use crate::plugins::spot::layouts::parse_fen;
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
}
