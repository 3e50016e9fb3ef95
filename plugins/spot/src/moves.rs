//! Spot moves, including the bonus-game prizes.

use super::board::{NO_SQUARE, square_name};
use std::fmt;

/// What a move does. Prize kinds are only legal right after a player lands on the secret square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Clone to `to` (distance 1) or jump `from` -> `to` (distance 2); a clone has `from == to`.
    #[default]
    Step,
    /// Forced pass: the player has pieces but nowhere to go.
    Pass,
    /// Reels stopped on no prize (or on 7UP, which only matters with timers): the turn ends.
    NoPrize,
    /// Three Spots: the same player moves again.
    ExtraTurn,
    /// Three cherries: jump one own piece `from` to any free square `to`.
    Cherry,
    /// Three Arcadia logos: swap all pieces with player `to`.
    Swap,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move {
    pub kind: Kind,
    pub from: u8,
    pub to: u8,
}

impl Move {
    pub const PASS: Move = Move {
        kind: Kind::Pass,
        from: NO_SQUARE,
        to: NO_SQUARE,
    };

    pub fn clone_to(to: u8) -> Move {
        Move {
            kind: Kind::Step,
            from: to,
            to,
        }
    }
    pub fn jump(from: u8, to: u8) -> Move {
        Move {
            kind: Kind::Step,
            from,
            to,
        }
    }
    pub fn prize(kind: Kind, from: u8, to: u8) -> Move {
        Move { kind, from, to }
    }
    pub fn is_clone(self) -> bool {
        self.kind == Kind::Step && self.from == self.to
    }
    pub fn is_jump(self) -> bool {
        self.kind == Kind::Step && self.from != self.to
    }
    pub fn is_prize(self) -> bool {
        matches!(
            self.kind,
            Kind::NoPrize | Kind::ExtraTurn | Kind::Cherry | Kind::Swap
        )
    }
    /// A dense index for history tables (< `SLOTS`).
    pub fn slot(self) -> usize {
        match self.kind {
            Kind::Step | Kind::Cherry => self.from as usize * 49 + self.to as usize,
            _ => 49 * 49 + self.kind as usize,
        }
    }
    pub const SLOTS: usize = 49 * 49 + 8;
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::Step if self.from == self.to => write!(f, "{}", square_name(self.to)),
            Kind::Step => write!(f, "{}{}", square_name(self.from), square_name(self.to)),
            Kind::Pass => f.write_str("pass"),
            Kind::NoPrize => f.write_str("prize:none"),
            Kind::ExtraTurn => f.write_str("prize:spot"),
            Kind::Cherry => write!(
                f,
                "prize:cherry:{}{}",
                square_name(self.from),
                square_name(self.to)
            ),
            Kind::Swap => write!(f, "prize:swap:p{}", self.to + 1),
        }
    }
}
