//! Camerica/Codemasters boards (the BF909x chips): mapper 71 (BF9093/BF9097: a 16 KiB bank
//! at $8000, the last bank fixed at $C000, 8 KiB CHR RAM) and mapper 232 (BF9096, the
//! Quattro multicarts: the same split inside one of four 64 KiB blocks).
//!
//! Mapper 71's BF9097 (Fire Hawk; NES 2.0 submapper 1) adds one-screen mirroring at
//! $8000-$9FFF, bit 4. iNES headers cannot say which chip a cart has, so a write to
//! $9000-$9FFF, which only Fire Hawk makes (the BF9093 decodes nothing below $C000), turns
//! the register on for submapper 0 too.

use super::{Board, CartCore};
use crate::rom::Mirroring;
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct Bf9093 {
    /// The BF9097's mirroring register is decoded (submapper 1, or after a $9000 write).
    mirroring_register: bool,
}

impl Bf9093 {
    pub fn new(submapper: u8) -> Bf9093 {
        Bf9093 {
            mirroring_register: submapper == 1,
        }
    }
}

impl Board for Bf9093 {
    fn power_on(&mut self, core: &mut CartCore) {
        core.map_first_and_last16();
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        match addr {
            0xC000..=0xFFFF => core.map_prg16(0, usize::from(value & 0x0F)),
            0x8000..=0x9FFF => {
                self.mirroring_register |= addr >= 0x9000;
                if self.mirroring_register {
                    core.set_mirroring(if value & 0x10 != 0 {
                        Mirroring::SingleHigh
                    } else {
                        Mirroring::SingleLow
                    });
                }
            }
            _ => {}
        }
    }
}

#[derive(Clone, Serialize, Deserialize)]
pub struct Bf9096 {
    /// The 64 KiB block (outer bank) and the 16 KiB page within it at $8000.
    block: u8,
    page: u8,
    /// NES 2.0 submapper 1 (the Aladdin Deck Enhancer): the block's two bits are swapped.
    aladdin: bool,
}

impl Bf9096 {
    pub fn new(submapper: u8) -> Bf9096 {
        Bf9096 {
            block: 0,
            page: 0,
            aladdin: submapper == 1,
        }
    }

    fn map(&self, core: &mut CartCore) {
        let base = usize::from(self.block) * 4;
        core.map_prg16(0, base + usize::from(self.page));
        core.map_prg16(1, base + 3);
    }
}

impl Board for Bf9096 {
    fn power_on(&mut self, core: &mut CartCore) {
        self.map(core);
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        match addr {
            0x8000..=0xBFFF => {
                self.block = if self.aladdin {
                    (value >> 4) & 1 | (value >> 2) & 2
                } else {
                    (value >> 3) & 3
                };
            }
            0xC000..=0xFFFF => self.page = value & 3,
            _ => return,
        }
        self.map(core);
    }
}
