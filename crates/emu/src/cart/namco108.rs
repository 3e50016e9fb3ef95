//! Mapper 206: Namco 108 (Namco 118/119, Tengen MIMIC-1; DxROM boards), the ancestor of MMC3
//! without its IRQ, PRG modes or mirroring control. $8000-$9FFF: even addresses select a
//! register (bits 0-2), odd ones write it. R0-R1: 2 KiB CHR at $0000/$0800; R2-R5: 1 KiB CHR
//! at $1000-$1C00; R6-R7: 8 KiB PRG at $8000/$A000. $C000-$FFFF shows the last 16 KiB. The
//! chip has 6 CHR and 4 PRG address lines; mirroring is soldered (or four-screen).

use super::{Board, CartCore};
use serde::{Deserialize, Serialize};

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Namco108 {
    /// The register the next odd-address write sets (0-7).
    select: u8,
}

impl Board for Namco108 {
    fn power_on(&mut self, core: &mut CartCore) {
        let banks8 = core.prg_banks8();
        core.map_prg8(1, 0);
        core.map_prg8(2, 1);
        core.map_prg8(3, 2 * banks8 - 2); // modulo the ROM size: no underflow
        core.map_prg8(4, banks8 - 1);
        core.map_chr8(0);
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if !(0x8000..0xA000).contains(&addr) {
            return;
        }
        if addr & 1 == 0 {
            self.select = value & 0x07;
            return;
        }
        let chr = usize::from(value & 0x3F);
        match self.select {
            // A 2 KiB bank ignores the low line: R0/R1 name 1 KiB units with bit 0 dropped.
            r @ 0..=1 => core.map_chr2(usize::from(r), chr >> 1),
            r @ 2..=5 => core.map_chr1(usize::from(r) + 2, chr),
            r => core.map_prg8(usize::from(r) - 5, usize::from(value & 0x0F)),
        }
    }
    fn check(&self) -> Result<(), crate::invalid::InvalidState> {
        crate::invalid::ensure(self.select <= 7, "bus.cart.board.select", || {
            format!("{} is not a register number (0-7)", self.select)
        })
    }
}
