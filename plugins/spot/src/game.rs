//! Spot as the search library sees it.

use super::bots::nes_best_moves;
use super::eval::heuristic;
use super::moves::{Kind, Move};
use super::position::{Outcome, Position};
use nesmind_search::{Game, Utility};

impl Game for Position {
    type Move = Move;
    const MOVE_SLOTS: usize = Move::SLOTS;

    fn players(&self) -> usize {
        Position::players(self)
    }
    fn to_move(&self) -> usize {
        Position::to_move(self)
    }
    #[inline]
    fn result(&self) -> Option<Option<usize>> {
        self.outcome().map(|o| match o {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        })
    }
    fn moves(&self, out: &mut Vec<Move>) {
        self.generate(out);
    }
    #[inline]
    fn play(&self, mv: Move) -> Position {
        Position::play(self, mv)
    }
    #[inline]
    fn heuristic(&self) -> Utility {
        heuristic(self)
    }
    fn key(&self) -> u64 {
        Position::key(self)
    }
    /// Two points per converted piece, one for a clone (it adds a piece).
    #[inline]
    fn tactical_score(&self, mv: Move) -> i32 {
        2 * self.captures(mv).count_ones() as i32 + mv.is_clone() as i32
    }
    fn move_slot(mv: Move) -> usize {
        mv.slot()
    }
    fn is_pass(&self, mv: Move) -> bool {
        mv.kind == Kind::Pass
    }
    fn is_active(&self, player: usize) -> bool {
        self.pieces(player) != 0
    }
    /// The cartridge AI model at full strength: its tied best-rated moves.
    fn modeled_moves(&self, out: &mut Vec<Move>) {
        nes_best_moves(self, out);
    }
    fn with_turn(&self, player: usize) -> Position {
        let mut p = *self;
        p.set_to_move(player);
        p
    }
}
