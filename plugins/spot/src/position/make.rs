//! Playing moves: copy-make (`play`) and make/unmake (perft measures both).

use super::{CHERRY_CONVERTS, MAX_PLAYERS, Position};
use crate::board::{ADJACENT, Bits, NO_SQUARE};
use crate::moves::{Kind, Move};
use crate::zobrist;

/// What `make` changed, so `unmake` can restore it.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    flipped: [u64; MAX_PLAYERS],
    to_move: u8,
    secret: u8,
    bonus: bool,
    key: u64,
}

impl Position {
    /// Copy-make: the position after `mv`.
    #[inline]
    pub fn play(&self, mv: Move) -> Position {
        let mut next = *self;
        next.make(mv);
        next
    }

    /// Plays `mv` in place (it must be legal) and returns what `unmake` needs.
    #[inline]
    pub fn make(&mut self, mv: Move) -> Undo {
        let undo_base = Undo {
            flipped: [0; MAX_PLAYERS],
            to_move: self.to_move,
            secret: self.secret,
            bonus: self.bonus,
            key: self.key,
        };
        let before = self.pieces;
        let me = self.to_move as usize;
        match mv.kind {
            Kind::Step | Kind::Cherry => {
                self.step(me, mv, mv.kind == Kind::Step || CHERRY_CONVERTS);
                if mv.kind == Kind::Cherry {
                    self.set_bonus_pending(false);
                    self.pass_turn(me);
                } else if mv.to == self.secret {
                    self.set_secret(NO_SQUARE);
                    self.set_bonus_pending(true);
                } else {
                    self.pass_turn(me);
                }
            }
            Kind::Pass => self.pass_turn(me),
            Kind::NoPrize => {
                self.set_bonus_pending(false);
                self.pass_turn(me);
            }
            Kind::ExtraTurn => self.set_bonus_pending(false),
            Kind::Swap => {
                let q = mv.to as usize;
                for sq in Bits(self.pieces[me] | self.pieces[q]) {
                    self.key ^= zobrist::piece(me, sq) ^ zobrist::piece(q, sq);
                }
                self.pieces.swap(me, q);
                self.set_bonus_pending(false);
                self.pass_turn(me);
            }
        }
        let mut undo = undo_base;
        for (flip, (was, now)) in undo.flipped.iter_mut().zip(before.iter().zip(self.pieces)) {
            *flip = was ^ now;
        }
        undo
    }

    pub fn unmake(&mut self, undo: &Undo) {
        for p in 0..MAX_PLAYERS {
            self.pieces[p] ^= undo.flipped[p];
        }
        self.to_move = undo.to_move;
        self.secret = undo.secret;
        self.bonus = undo.bonus;
        self.key = undo.key;
    }

    #[inline(always)]
    fn step(&mut self, me: usize, mv: Move, convert: bool) {
        let to = mv.to;
        if mv.from != to {
            self.pieces[me] &= !(1u64 << mv.from);
            self.key ^= zobrist::piece(me, mv.from);
        }
        self.pieces[me] |= 1u64 << to;
        self.key ^= zobrist::piece(me, to);
        if !convert {
            return;
        }
        let around = ADJACENT[to as usize];
        for q in 0..self.players as usize {
            if q == me {
                continue;
            }
            let taken = self.pieces[q] & around;
            if taken != 0 {
                self.pieces[q] ^= taken;
                self.pieces[me] |= taken;
                for sq in Bits(taken) {
                    self.key ^= zobrist::piece(q, sq) ^ zobrist::piece(me, sq);
                }
            }
        }
    }

    #[inline(always)]
    fn pass_turn(&mut self, me: usize) {
        let next = self.next_after(me);
        self.key ^= zobrist::turn(me) ^ zobrist::turn(next);
        self.to_move = next as u8;
    }
}
