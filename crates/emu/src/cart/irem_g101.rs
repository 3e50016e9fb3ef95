//! Mapper 32: Irem G-101 (e.g. Image Fight, Kaiketsu Yanchamaru 2). $8000-$8FFF: PRG bank
//! 0 (8 KiB, at $8000, or at $C000 in PRG mode 1); $9000-$9FFF: mirroring (bit 0: 0
//! vertical, 1 horizontal) and the PRG mode (bit 1): the $8000/$C000 window that bank 0
//! does not take shows the second-last bank; $A000-$AFFF: PRG bank at $A000; $B000-$BFFF: eight 1 KiB CHR banks
//! selected by A2-A0. $E000 shows the last bank.
//!
//! Submapper 1 (Major League) wires CIRAM A10 high, so one-screen mirroring, and ignores
//! the $9000 register: PRG mode 0 always.

use super::{Board, CartCore};
use crate::rom::Mirroring;
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct IremG101 {
    major_league: bool,
    prg0: u8,
    /// PRG mode 1: bank 0 at $C000 and the second-last bank at $8000.
    swap: bool,
}

impl IremG101 {
    pub fn new(submapper: u8) -> IremG101 {
        IremG101 {
            major_league: submapper == 1,
            prg0: 0,
            swap: false,
        }
    }
    fn map_prg(&self, core: &mut CartCore) {
        core.map_prg8_swappable(usize::from(self.prg0), self.swap);
    }
}

impl Board for IremG101 {
    fn power_on(&mut self, core: &mut CartCore) {
        core.map_prg8(2, 1);
        core.map_prg8(4, core.prg_banks8() - 1);
        self.map_prg(core);
        core.map_chr8(0);
        if self.major_league {
            core.set_mirroring(Mirroring::SingleHigh);
        }
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        match addr & 0xF000 {
            0x8000 => {
                self.prg0 = value & 0x1F;
                self.map_prg(core);
            }
            0x9000 if !self.major_league => {
                core.set_mirroring(if value & 1 == 0 {
                    Mirroring::Vertical
                } else {
                    Mirroring::Horizontal
                });
                self.swap = value & 0x02 != 0;
                self.map_prg(core);
            }
            0xA000 => core.map_prg8(2, usize::from(value & 0x1F)),
            0xB000 => core.map_chr1(usize::from(addr & 7), usize::from(value)),
            _ => {}
        }
    }
    fn check(&self) -> Result<(), crate::invalid::InvalidState> {
        crate::invalid::ensure(
            !(self.major_league && self.swap),
            "bus.cart.board.swap",
            || "Major League's board has no PRG mode 1".into(),
        )
    }
}
