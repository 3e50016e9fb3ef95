//! Mapper 66: GxROM, 32 KiB PRG (bits 4-5) and 8 KiB CHR (bits 0-1).

use super::{Board, CartCore};
use serde::{Deserialize, Serialize};

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Gxrom;

impl Board for Gxrom {
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        core.latch_prg32_chr8(addr, value, |v| ((v >> 4) & 0x03, v & 0x03));
    }
}
