//! AVE NINA-03/NINA-06 (mapper 79) and the multicart boards that reuse their decoder
//! (mapper 113: Sachen and HES). One register, decoded where A14 = 1, A13 = 0 and A8 = 1
//! (`addr & $E100 == $4100`: $4100-$41FF, $4300-$43FF, ... $5F00-$5FFF); $6000 and up are
//! not decoded.
//! - 79: bit 3 picks a 32 KiB PRG bank, bits 0-2 an 8 KiB CHR bank.
//! - 113: bits 3-5 pick the PRG bank, bits 0-2 and 6 the CHR bank (bit 6 is CHR A16), bit 7
//!   the mirroring (1 vertical, 0 horizontal).

use super::{Board, CartCore};
use crate::rom::Mirroring;
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct Nina0306 {
    /// Mapper 113's wiring.
    multicart: bool,
}

impl Nina0306 {
    pub fn new(multicart: bool) -> Nina0306 {
        Nina0306 { multicart }
    }
}

impl Board for Nina0306 {
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if addr & 0xE100 != 0x4100 {
            return;
        }
        let v = usize::from(value);
        if self.multicart {
            core.map_prg32((v >> 3) & 7);
            core.map_chr8(v & 7 | (v >> 3) & 8);
            core.set_mirroring(if value & 0x80 != 0 {
                Mirroring::Vertical
            } else {
                Mirroring::Horizontal
            });
        } else {
            core.map_prg32((v >> 3) & 1);
            core.map_chr8(v & 7);
        }
    }
}
