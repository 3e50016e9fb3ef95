//! Mapper 30: UNROM 512 (homebrew). One latch: PRG 16 KiB at $8000 (bits 0-4), CHR RAM
//! 8 KiB bank (bits 5-6), one-screen select (bit 7) on boards wired for it. Boards without
//! the self-flashing chip (no battery bit) have bus conflicts.

use super::{Board, CartCore};
use crate::rom::{Mirroring, Rom};
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct Unrom512 {
    bus_conflicts: bool,
    one_screen: bool,
}

impl Unrom512 {
    pub fn new(rom: &Rom) -> Unrom512 {
        Unrom512 {
            bus_conflicts: !rom.battery,
            one_screen: rom.mirroring == Mirroring::FourScreen,
        }
    }
}

impl Board for Unrom512 {
    fn power_on(&mut self, core: &mut CartCore) {
        core.map_first_and_last16();
        if self.one_screen {
            core.set_mirroring(Mirroring::SingleLow);
        }
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if addr < 0x8000 {
            return;
        }
        let value = core.latched(addr, value, self.bus_conflicts);
        core.map_prg16(0, usize::from(value & 0x1F));
        core.map_chr8(usize::from((value >> 5) & 3));
        if self.one_screen {
            core.set_mirroring(if value & 0x80 != 0 {
                Mirroring::SingleHigh
            } else {
                Mirroring::SingleLow
            });
        }
    }
}
