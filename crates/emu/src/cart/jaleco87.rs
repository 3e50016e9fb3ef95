//! Mapper 87: Jaleco J87 and its Konami/Taito relatives (e.g. City Connection, Goonies).
//! A latch decoded at $6000-$7FFF selects an 8 KiB CHR bank; PRG (16 or 32 KiB) is fixed.
//! The latch's two data bits are wired crossed: D0 drives CHR A14 and D1 drives CHR A13.

use super::{Board, CartCore};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

#[derive(Clone, Serialize, Deserialize)]
pub struct Jaleco87;

impl Board for Jaleco87 {
    fn power_on(&mut self, core: &mut CartCore) {
        core.map_prg32(0);
        core.map_chr8(0);
        // The latch owns $6000-$7FFF: the board has no PRG RAM, so reads there are open bus.
        core.map_open(0);
    }
    fn low_registers(&self) -> Option<RangeInclusive<u16>> {
        Some(0x6000..=0x7FFF)
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if (0x6000..0x8000).contains(&addr) {
            let bank = (value & 1) << 1 | (value >> 1) & 1;
            core.map_chr8(usize::from(bank));
        }
    }
}
