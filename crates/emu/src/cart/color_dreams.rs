//! Mapper 11: Color Dreams, 32 KiB PRG (bits 0-1) and 8 KiB CHR (bits 4-7) in one latch.

use super::{Board, CartCore};
use serde::{Deserialize, Serialize};

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct ColorDreams;

impl Board for ColorDreams {
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        core.latch_prg32_chr8(addr, value, |v| (v & 0x03, v >> 4));
    }
}
