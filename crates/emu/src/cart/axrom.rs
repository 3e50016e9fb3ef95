//! Mapper 7: AxROM, 32 KiB PRG switching and one-screen mirroring select.

use super::{Board, CartCore};
use crate::rom::Mirroring;
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct Axrom {
    bus_conflicts: bool,
}

impl Axrom {
    pub fn new(bus_conflicts: bool) -> Axrom {
        Axrom { bus_conflicts }
    }

    /// Maps the bank and screen a latch value another emulator saved selects
    /// (`crate::import`).
    pub(crate) fn import(core: &mut CartCore, latch: u8) {
        core.map_prg32(usize::from(latch & 0x0F));
        core.set_mirroring(if latch & 0x10 != 0 {
            Mirroring::SingleHigh
        } else {
            Mirroring::SingleLow
        });
    }
}

impl Board for Axrom {
    fn power_on(&mut self, core: &mut CartCore) {
        core.map_prg32(0);
        core.map_chr8(0);
        core.set_mirroring(Mirroring::SingleLow);
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if addr < 0x8000 {
            return;
        }
        let value = core.latched(addr, value, self.bus_conflicts);
        core.map_prg32(usize::from(value & 0x0F));
        core.set_mirroring(if value & 0x10 != 0 {
            Mirroring::SingleHigh
        } else {
            Mirroring::SingleLow
        });
    }
}
