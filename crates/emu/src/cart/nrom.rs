//! Mapper 0: NROM, fixed 16/32 KiB PRG and 8 KiB CHR.

use super::{Board, CartCore};
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct Nrom;

impl Board for Nrom {
    fn write(&mut self, _core: &mut CartCore, _addr: u16, _value: u8, _cycle: u64) {}
}
