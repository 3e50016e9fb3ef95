//! Mapper 78: Irem's Holy Diver board (submapper 3, H/V mirroring) and Jaleco JF-16
//! (submapper 1, one-screen mirroring). One latch: PRG 16 KiB (bits 0-2), mirroring (bit 3),
//! CHR 8 KiB (bits 4-7).

use super::{Board, CartCore};
use crate::rom::{Mirroring, Rom};
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct Irem78 {
    hv_mirroring: bool,
}

impl Irem78 {
    pub fn new(rom: &Rom) -> Irem78 {
        // Without a submapper, the four-screen header bit is how old dumps flagged Holy Diver.
        let hv =
            rom.submapper == 3 || (rom.submapper == 0 && rom.mirroring == Mirroring::FourScreen);
        Irem78 { hv_mirroring: hv }
    }
}

impl Board for Irem78 {
    fn power_on(&mut self, core: &mut CartCore) {
        core.map_first_and_last16();
        core.set_mirroring(if self.hv_mirroring {
            Mirroring::Horizontal
        } else {
            Mirroring::SingleLow
        });
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if addr < 0x8000 {
            return;
        }
        let value = core.latched(addr, value, true);
        core.map_prg16(0, usize::from(value & 0x07));
        core.map_chr8(usize::from(value >> 4));
        let high = value & 0x08 != 0;
        core.set_mirroring(match (self.hv_mirroring, high) {
            (true, false) => Mirroring::Horizontal,
            (true, true) => Mirroring::Vertical,
            (false, false) => Mirroring::SingleLow,
            (false, true) => Mirroring::SingleHigh,
        });
    }
}
