//! Mapper 34: BNROM (32 KiB PRG latch at $8000-$FFFF) and NINA-001 (registers at $7FFD-$7FFF).

use super::{Board, CartCore};
use crate::rom::Rom;
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct Bnrom {
    nina: bool,
}

impl Bnrom {
    pub fn new(rom: &Rom) -> Bnrom {
        // Submapper 1 is NINA-001, 2 is BNROM; older headers: NINA-001 is the board with CHR ROM.
        let nina = match rom.submapper {
            1 => true,
            2 => false,
            _ => rom.chr_rom.len() > 8 * 1024,
        };
        Bnrom { nina }
    }
}

impl Board for Bnrom {
    fn low_registers(&self) -> Option<std::ops::RangeInclusive<u16>> {
        self.nina.then_some(0x7FFD..=0x7FFF)
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if self.nina {
            match addr {
                0x7FFD => core.map_prg32(usize::from(value & 1)),
                0x7FFE => core.map_chr4(0, usize::from(value & 0x0F)),
                0x7FFF => core.map_chr4(1, usize::from(value & 0x0F)),
                _ => {}
            }
        } else if addr >= 0x8000 {
            core.map_prg32(usize::from(core.latched(addr, value, true)));
        }
    }
}
