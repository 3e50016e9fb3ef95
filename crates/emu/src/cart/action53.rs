//! Mapper 28: Action 53, a multicart mapper that can imitate NROM, UNROM, BNROM and AOROM
//! inside a selectable outer bank.

use super::{Board, CartCore};
use crate::rom::Mirroring;
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct Action53 {
    select: u8,
    chr: u8,
    inner: u8,
    mode: u8,
    outer: u8,
}

impl Default for Action53 {
    fn default() -> Self {
        // Power-on: the last 16 KiB must be visible at $C000 so the reset vector is found.
        Action53 {
            select: 0,
            chr: 0,
            inner: 0,
            mode: 0,
            outer: 0xFF,
        }
    }
}

impl Action53 {
    fn bank_for(&self, a14: usize) -> usize {
        let outer = usize::from(self.outer) << 1;
        let inner = usize::from(self.inner);
        let mask = [1usize, 3, 7, 15][usize::from(self.mode >> 4) & 3];
        match (self.mode >> 2) & 3 {
            0 | 1 => (outer & !mask) | (((inner << 1) | a14) & mask),
            2 if a14 == 0 => outer,
            3 if a14 == 1 => outer | 1,
            _ => (outer & !mask) | (inner & mask),
        }
    }

    fn update(&self, core: &mut CartCore) {
        core.map_prg16(0, self.bank_for(0));
        core.map_prg16(1, self.bank_for(1));
        core.map_chr8(usize::from(self.chr & 3));
        core.set_mirroring(match self.mode & 3 {
            0 => Mirroring::SingleLow,
            1 => Mirroring::SingleHigh,
            2 => Mirroring::Vertical,
            _ => Mirroring::Horizontal,
        });
    }
}

impl Board for Action53 {
    fn power_on(&mut self, core: &mut CartCore) {
        self.update(core);
    }

    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        match addr {
            0x5000..=0x5FFF => self.select = value & 0x81,
            0x8000..=0xFFFF => {
                match self.select {
                    0x00 => self.chr = value,
                    0x01 => self.inner = value & 0x0F,
                    0x80 => self.mode = value & 0x3F,
                    _ => self.outer = value,
                }
                // In one-screen modes, bit 4 of the CHR and PRG registers picks the screen.
                if self.select & 0x80 == 0 && self.mode & 2 == 0 {
                    self.mode = (self.mode & !1) | ((value >> 4) & 1);
                }
            }
            _ => return,
        }
        self.update(core);
    }
}
