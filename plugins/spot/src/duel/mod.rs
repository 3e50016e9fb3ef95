//! A dedicated two-player Ataxx search (`nesmind uai spot`): a lean board of two bitboards,
//! a hand-crafted evaluation and a PVS alpha-beta with the pruning that the public Ataxx
//! engines use. The N-player searches in `nesmind-search` stay for 3-4 players.

mod eval;
mod node;
mod order;
mod search;
#[cfg(test)]
mod tests;
mod tt;

pub use eval::evaluate;
pub use search::{DuelSearcher, Limits, Report};

use crate::board::{ADJACENT, Bits, FULL, JUMPS, dilate1, ring2_union};
use crate::moves::Move;
use crate::position::Position;

/// Plies without a clone after which the game is drawn (libataxx's fifty-move rule).
pub const FIFTY_MOVE_PLIES: u16 = 100;

/// Most moves a 7x7 position can have (49 clones plus at most 16 jumps to each empty square).
pub const MAX_MOVES: usize = 49 + 16 * 49;

/// Two-player position: `bb[0]` is `x` (moves first), `bb[1]` is `o`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Duel {
    pub bb: [u64; 2],
    /// Squares that exist (not blocked); the cart's layouts block some.
    pub open: u64,
    pub stm: u8,
    /// Plies since the last clone.
    pub halfmove: u16,
}

/// How a finished game ended, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decided {
    Win,
    Draw,
    Loss,
}

impl Duel {
    /// From a 2-player position without a pending bonus game (the secret square is ignored).
    pub fn from_position(pos: &Position, halfmove: u32) -> Option<Duel> {
        if pos.players() != 2 || pos.bonus_pending() {
            return None;
        }
        Some(Duel {
            bb: [pos.pieces(0), pos.pieces(1)],
            open: FULL & !pos.blocked(),
            stm: pos.to_move() as u8,
            halfmove: halfmove.min(u32::from(FIFTY_MOVE_PLIES)) as u16,
        })
    }

    #[inline(always)]
    pub fn us(&self) -> u64 {
        self.bb[self.stm as usize]
    }
    #[inline(always)]
    pub fn them(&self) -> u64 {
        self.bb[1 - self.stm as usize]
    }
    #[inline(always)]
    pub fn empty(&self) -> u64 {
        self.open & !(self.bb[0] | self.bb[1])
    }

    /// Hash of the stones, the gaps and the side to move; the table verifies part of it.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        fn mix(mut z: u64) -> u64 {
            // splitmix64's finaliser: every input bit reaches every output bit.
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        let side = if self.stm == 0 {
            0
        } else {
            0x9e37_79b9_7f4a_7c15
        };
        mix(self.bb[0] ^ side)
            ^ mix(self.bb[1].wrapping_add(0x6a09_e667_f3bc_c909))
            ^ mix(self.open.rotate_left(17) ^ 0x3c6e_f372_fe94_f82b)
    }

    /// Whether the side to move has a clone or a jump.
    #[inline(always)]
    pub fn has_moves(&self) -> bool {
        let us = self.us();
        (dilate1(us) | ring2_union(us)) & self.empty() != 0
    }

    /// Decided by the board or the fifty-move rule, else `None`.
    pub fn decided(&self) -> Option<Decided> {
        let (us, them) = (self.us(), self.them());
        let empty = self.empty();
        let over = empty == 0
            || us == 0
            || them == 0
            || self.halfmove >= FIFTY_MOVE_PLIES
            || (dilate1(us | them) | ring2_union(us | them)) & empty == 0;
        if !over {
            return None;
        }
        if self.halfmove >= FIFTY_MOVE_PLIES && empty != 0 && us != 0 && them != 0 {
            return Some(Decided::Draw);
        }
        Some(match us.count_ones().cmp(&them.count_ones()) {
            std::cmp::Ordering::Greater => Decided::Win,
            std::cmp::Ordering::Equal => Decided::Draw,
            std::cmp::Ordering::Less => Decided::Loss,
        })
    }

    /// All moves of an undecided position; `Move::PASS` alone when the side is stuck.
    pub fn moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let us = self.us();
        let empty = self.empty();
        for to in Bits(dilate1(us) & empty) {
            out.push(Move::clone_to(to));
        }
        for from in Bits(us) {
            for to in Bits(JUMPS[from as usize] & empty) {
                out.push(Move::jump(from, to));
            }
        }
        if out.is_empty() {
            out.push(Move::PASS);
        }
    }

    /// Stones of the opponent that `mv` converts.
    #[inline(always)]
    pub fn captures(&self, mv: Move) -> u64 {
        if mv == Move::PASS {
            return 0;
        }
        ADJACENT[mv.to as usize] & self.them()
    }

    /// The position after `mv` (legal here).
    #[inline(always)]
    pub fn play(&self, mv: Move) -> Duel {
        let me = self.stm as usize;
        let mut next = *self;
        next.stm ^= 1;
        if mv == Move::PASS {
            next.halfmove += 1;
            return next;
        }
        let to = 1u64 << mv.to;
        let taken = ADJACENT[mv.to as usize] & self.bb[1 - me];
        if mv.from == mv.to {
            next.halfmove = 0;
        } else {
            next.bb[me] &= !(1u64 << mv.from);
            next.halfmove += 1;
        }
        next.bb[me] |= to | taken;
        next.bb[1 - me] ^= taken;
        next
    }

    /// The side to move gives the turn away (null-move pruning only; not a legal move).
    #[inline(always)]
    pub fn null(&self) -> Duel {
        Duel {
            stm: self.stm ^ 1,
            ..*self
        }
    }

    pub fn empties(&self) -> u32 {
        self.empty().count_ones()
    }
}
