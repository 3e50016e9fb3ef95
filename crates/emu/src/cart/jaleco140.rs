//! Mapper 140: Jaleco JF-11 and JF-14 (e.g. Bio Senshi Dan, Mississippi Satsujin Jiken).
//! A latch at $6000-$7FFF: bits 4-5 select a 32 KiB PRG bank, bits 0-3 an 8 KiB CHR bank.
//! Mirroring is soldered (the header says which).

use super::{Board, CartCore};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

#[derive(Clone, Serialize, Deserialize)]
pub struct Jaleco140;

impl Board for Jaleco140 {
    fn power_on(&mut self, core: &mut CartCore) {
        core.map_prg32(0);
        core.map_chr8(0);
        // No PRG RAM: the latch owns $6000-$7FFF.
        core.map_open(0);
    }
    fn low_registers(&self) -> Option<RangeInclusive<u16>> {
        Some(0x6000..=0x7FFF)
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if (0x6000..0x8000).contains(&addr) {
            core.map_prg32(usize::from(value >> 4 & 0x03));
            core.map_chr8(usize::from(value & 0x0F));
        }
    }
}
