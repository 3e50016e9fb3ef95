//! Mapper 3: CNROM, 8 KiB CHR bank switching.

use super::{Board, CartCore};
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct Cnrom {
    bus_conflicts: bool,
}

impl Cnrom {
    pub fn new(bus_conflicts: bool) -> Cnrom {
        Cnrom { bus_conflicts }
    }

    /// Maps the bank a latch value another emulator saved selects (`crate::import`).
    pub(crate) fn import(core: &mut CartCore, latch: u8) {
        core.map_chr8(usize::from(latch));
    }
}

impl Board for Cnrom {
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if addr >= 0x8000 {
            let value = core.latched(addr, value, self.bus_conflicts);
            core.map_chr8(usize::from(value));
        }
    }
}
