//! Mappers 9 (MMC2, PxROM) and 10 (MMC4, FxROM): CHR banks switched by latches that flip
//! when the PPU fetches tiles $FD or $FE.

use super::{Board, CartCore};
use crate::ppu_watch::PpuWatch;
use crate::rom::Mirroring;
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct Mmc2 {
    /// MMC4: 16 KiB PRG banks and latch 0 watching a range like latch 1.
    mmc4: bool,
    chr: [[u8; 2]; 2],
    latch: [usize; 2],
}

impl Mmc2 {
    pub fn new(mmc4: bool) -> Mmc2 {
        Mmc2 {
            mmc4,
            chr: [[0; 2]; 2],
            latch: [1, 1],
        }
    }
    fn update_chr(&self, core: &mut CartCore) {
        core.map_chr4(0, usize::from(self.chr[0][self.latch[0]]));
        core.map_chr4(1, usize::from(self.chr[1][self.latch[1]]));
    }
}

impl Board for Mmc2 {
    fn power_on(&mut self, core: &mut CartCore) {
        let banks8 = core.prg_banks8();
        if self.mmc4 {
            core.map_first_and_last16();
        } else {
            core.map_prg8(1, 0);
            for slot in 2..5 {
                // The last three banks, counted modulo the ROM size.
                core.map_prg8(slot, banks8 * 4 + slot - 5);
            }
        }
        self.update_chr(core);
    }

    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        match addr {
            0xA000..=0xAFFF => {
                if self.mmc4 {
                    core.map_prg16(0, usize::from(value & 0x0F));
                } else {
                    core.map_prg8(1, usize::from(value & 0x0F));
                }
            }
            0xB000..=0xBFFF => self.chr[0][0] = value & 0x1F,
            0xC000..=0xCFFF => self.chr[0][1] = value & 0x1F,
            0xD000..=0xDFFF => self.chr[1][0] = value & 0x1F,
            0xE000..=0xEFFF => self.chr[1][1] = value & 0x1F,
            0xF000..=0xFFFF => core.set_mirroring(if value & 1 != 0 {
                Mirroring::Horizontal
            } else {
                Mirroring::Vertical
            }),
            _ => return,
        }
        self.update_chr(core);
    }

    fn ppu_watch(&self) -> PpuWatch {
        PpuWatch::LatchTiles
    }
    fn check(&self) -> Result<(), crate::invalid::InvalidState> {
        // Each latch picks one of two banks.
        crate::invalid::ensure(
            self.latch.iter().all(|&l| l <= 1),
            "bus.cart.board.latch",
            || format!("{:?} holds a value other than 0 or 1", self.latch),
        )
    }
    fn ppu_bus(&mut self, core: &mut CartCore, addr: u16, _ppu_cycle: u64) {
        let (half, tile_addr) = (usize::from(addr >> 12 & 1), addr & 0x0FF8);
        let exact_low = !self.mmc4 && half == 0;
        let hit = |base: u16| {
            if exact_low {
                addr & 0x1FFF == base
            } else {
                tile_addr == base & 0x0FF8
            }
        };
        let new = if hit(0x0FD8) {
            0
        } else if hit(0x0FE8) {
            1
        } else {
            return;
        };
        if addr < 0x2000 && self.latch[half] != new {
            self.latch[half] = new;
            self.update_chr(core);
        }
    }
}
