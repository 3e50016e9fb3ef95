//! Mapper 0: NROM, fixed 16/32 KiB PRG and 8 KiB CHR.

use super::{Board, CartCore};
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct Nrom;

impl Board for Nrom {
    fn power_on(&mut self, core: &mut CartCore) {
        core.map_prg32(0);
        core.map_chr8(0);
    }
    fn write(&mut self, _core: &mut CartCore, _addr: u16, _value: u8, _cycle: u64) {}
}
