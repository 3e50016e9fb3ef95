//! Mapper 184: Sunsoft-1 (e.g. Atlantis no Nazo, Wing of Madoola). A latch at $6000-$7FFF
//! selects two 4 KiB CHR banks: bits 0-2 at PPU $0000, bits 4-6 at $1000. The chip drives
//! the upper bank's top line high, so $1000 always shows one of banks 4-7. PRG is fixed.

use super::{Board, CartCore};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

#[derive(Clone, Serialize, Deserialize)]
pub struct Sunsoft1;

impl Board for Sunsoft1 {
    fn power_on(&mut self, core: &mut CartCore) {
        core.map_prg32(0);
        core.map_chr4(0, 0);
        core.map_chr4(1, 4);
        // No PRG RAM on the board: the latch owns $6000-$7FFF.
        core.map_open(0);
    }
    fn low_registers(&self) -> Option<RangeInclusive<u16>> {
        Some(0x6000..=0x7FFF)
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if (0x6000..0x8000).contains(&addr) {
            core.map_chr4(0, usize::from(value & 0x07));
            core.map_chr4(1, usize::from(value >> 4 & 0x07 | 0x04));
        }
    }
}
