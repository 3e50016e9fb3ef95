//! Mapper 2 (UxROM: switchable bank at $8000, last bank fixed at $C000) and
//! mapper 180 (UNROM with a 74HC08: first bank fixed at $8000, switchable at $C000).

use super::{Board, CartCore};
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct Uxrom {
    /// Mapper 180's wiring.
    high_switch: bool,
    bus_conflicts: bool,
}

impl Uxrom {
    pub fn new(high_switch: bool, bus_conflicts: bool) -> Uxrom {
        Uxrom {
            high_switch,
            bus_conflicts,
        }
    }

    /// Maps the bank a latch value another emulator saved selects (`crate::import`).
    pub(crate) fn import(&self, core: &mut CartCore, latch: u8) {
        core.map_prg16(usize::from(self.high_switch), usize::from(latch));
    }
}

impl Board for Uxrom {
    fn power_on(&mut self, core: &mut CartCore) {
        if self.high_switch {
            core.map_prg16(0, 0);
            core.map_prg16(1, 0);
        } else {
            core.map_first_and_last16();
        }
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if addr < 0x8000 {
            return;
        }
        let value = core.latched(addr, value, self.bus_conflicts);
        core.map_prg16(usize::from(self.high_switch), usize::from(value));
    }
}
