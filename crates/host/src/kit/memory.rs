//! Memory a RAM map is read from: the running game, a fork of it, or a snapshot. A player
//! reads its map's bytes the same way from each.

use super::loc::{Loc, Space};
use crate::ramsearch::Snapshot;
use crate::{Fork, Frame};

pub trait Memory {
    /// The byte at a CPU address (0 where the memory holds none).
    fn byte(&self, addr: u16) -> u8;
    /// The byte at a PPU address (0 where the memory holds none).
    fn ppu_byte(&self, _addr: u16) -> u8 {
        0
    }
    /// The byte at `loc`, in its space.
    fn at(&self, loc: Loc) -> u8 {
        match loc.space {
            Space::Cpu => self.byte(loc.addr),
            Space::Ppu => self.ppu_byte(loc.addr),
        }
    }
}

impl Memory for dyn Frame + '_ {
    fn byte(&self, addr: u16) -> u8 {
        self.peek(addr)
    }
    fn ppu_byte(&self, addr: u16) -> u8 {
        self.peek_ppu(addr)
    }
}

impl Memory for Fork {
    fn byte(&self, addr: u16) -> u8 {
        self.peek(addr)
    }
    fn ppu_byte(&self, addr: u16) -> u8 {
        self.peek_ppu(addr)
    }
}

/// A snapshot holds CPU memory only.
impl Memory for Snapshot {
    fn byte(&self, addr: u16) -> u8 {
        Snapshot::byte(self, addr).unwrap_or(0)
    }
}
