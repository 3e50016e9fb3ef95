//! Mapper 75: Konami VRC1 (and Jaleco JF-20/22). 8 KiB PRG banks at $8000 ($8000-$8FFF),
//! $A000 ($A000-$AFFF) and $C000 ($C000-$CFFF), the last bank fixed at $E000; two 4 KiB CHR
//! banks whose low four bits are written at $E000/$F000 and whose fifth bits sit in the
//! $9000 register beside the mirroring bit (0 vertical, 1 horizontal; ignored on
//! four-screen boards such as Jajamaru Ninpouchou's).

use super::{Board, CartCore};
use crate::rom::Mirroring;
use serde::{Deserialize, Serialize};

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Vrc1 {
    /// The two 4 KiB CHR bank numbers (5 bits, assembled from both registers).
    chr: [u8; 2],
}

impl Vrc1 {
    fn map_chr(&self, core: &mut CartCore) {
        core.map_chr4(0, usize::from(self.chr[0]));
        core.map_chr4(1, usize::from(self.chr[1]));
    }
}

impl Board for Vrc1 {
    fn power_on(&mut self, core: &mut CartCore) {
        let banks8 = core.prg_banks8();
        for slot in 1..4 {
            core.map_prg8(slot, 0);
        }
        core.map_prg8(4, banks8 - 1);
        self.map_chr(core);
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        let prg = usize::from(value & 0x0F);
        match addr & 0xF000 {
            0x8000 => core.map_prg8(1, prg),
            0xA000 => core.map_prg8(2, prg),
            0xC000 => core.map_prg8(3, prg),
            0x9000 => {
                if core.header_mirroring != Mirroring::FourScreen {
                    core.set_mirroring(if value & 1 == 0 {
                        Mirroring::Vertical
                    } else {
                        Mirroring::Horizontal
                    });
                }
                self.chr[0] = self.chr[0] & 0x0F | (value & 0x02) << 3;
                self.chr[1] = self.chr[1] & 0x0F | (value & 0x04) << 2;
                self.map_chr(core);
            }
            0xE000 => {
                self.chr[0] = self.chr[0] & 0x10 | value & 0x0F;
                self.map_chr(core);
            }
            0xF000 => {
                self.chr[1] = self.chr[1] & 0x10 | value & 0x0F;
                self.map_chr(core);
            }
            _ => {}
        }
    }
    fn check(&self) -> Result<(), crate::invalid::InvalidState> {
        crate::invalid::ensure(
            self.chr.iter().all(|&b| b <= 0x1F),
            "bus.cart.board.chr",
            || format!("{:?} holds a bank beyond the chip's five bits", self.chr),
        )
    }
}
