//! Mapper 68: Sunsoft-4 (After Burner, Maharaja, Nantettatte!! Baseball, ...), whose
//! nametables can come from CHR ROM.
//!
//! $8000, $9000, $A000, $B000: 2 KiB CHR banks at $0000, $0800, $1000, $1800. $C000 and
//! $D000: two 1 KiB CHR ROM banks for the nametables (bit 7 is forced on: they come from
//! the second 128 KiB). $E000: bits 0-1 the mirroring (0 vertical, 1 horizontal, 2 and 3
//! one-screen), bit 4 takes the nametables from those two banks instead of the console's
//! RAM, arranged as the mirroring arranges the two pages of RAM. $F000: bits 0-3 the 16 KiB
//! PRG bank at $8000 (the last bank at $C000), bit 4 enables PRG RAM. PRG RAM is enabled at
//! power-on here (the chip's power-on value is not documented). Nantettatte!! Baseball's
//! licensing timer and external ROM (submapper 1) are not modelled.
//!
//! The console reads nametables only from its RAM pages (`CartCore::nt`), so this board
//! keeps two more pages after them and copies the selected CHR ROM banks there, read-only
//! (`CartCore::set_rom_nametables`).

use super::{Board, CartCore};
use crate::rom::Mirroring;
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct Sunsoft4 {
    chr: [u8; 4],
    nt: [u8; 2],
    control: u8,
    prg: u8,
}

impl Default for Sunsoft4 {
    fn default() -> Sunsoft4 {
        Sunsoft4 {
            chr: [0; 4],
            nt: [0; 2],
            control: 0,
            prg: 0x10,
        }
    }
}

impl Sunsoft4 {
    fn map(&self, core: &mut CartCore) {
        for (slot, &bank) in self.chr.iter().enumerate() {
            core.map_chr2(slot, usize::from(bank));
        }
        core.map_prg16(0, usize::from(self.prg & 0x0F));
        core.map_prg16(1, core.last_bank16());
        let ram = self.prg & 0x10 != 0;
        core.map_prg_ram(0, ram, ram);
        let mirroring = match self.control & 3 {
            0 => Mirroring::Vertical,
            1 => Mirroring::Horizontal,
            2 => Mirroring::SingleLow,
            _ => Mirroring::SingleHigh,
        };
        core.set_mirroring(mirroring);
        if self.control & 0x10 != 0 {
            core.set_rom_nametables(self.nt.map(|b| usize::from(b | 0x80)));
        }
    }
}

impl Board for Sunsoft4 {
    fn power_on(&mut self, core: &mut CartCore) {
        self.map(core);
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        match addr & 0xF000 {
            0x8000..=0xB000 => self.chr[usize::from(addr >> 12 & 3)] = value,
            0xC000 | 0xD000 => self.nt[usize::from(addr >> 12 & 1)] = value,
            0xE000 => self.control = value,
            0xF000 => self.prg = value,
            _ => return,
        }
        self.map(core);
    }
    fn nametable_ram(&self) -> usize {
        // The console's two pages, then the two CHR ROM copies.
        0x1000
    }
}
