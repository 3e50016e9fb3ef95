//! Mapper 66: GxROM, 32 KiB PRG (bits 4-5) and 8 KiB CHR (bits 0-1).

use super::{Board, CartCore};
use serde::{Deserialize, Serialize};

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Gxrom;

impl Gxrom {
    /// Maps the banks a latch value another emulator saved selects (`crate::import`).
    pub(crate) fn import(core: &mut CartCore, latch: u8) {
        core.map_prg32(usize::from((latch >> 4) & 0x03));
        core.map_chr8(usize::from(latch & 0x03));
    }
}

impl Board for Gxrom {
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        core.latch_prg32_chr8(addr, value, |v| ((v >> 4) & 0x03, v & 0x03));
    }
}
