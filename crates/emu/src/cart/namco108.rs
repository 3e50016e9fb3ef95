//! Mapper 206: Namco 108 (Namco 118/119, Tengen MIMIC-1; DxROM boards), the ancestor of MMC3
//! without its IRQ, PRG modes or mirroring control. $8000-$9FFF: even addresses select a
//! register (bits 0-2), odd ones write it. R0-R1: 2 KiB CHR at $0000/$0800; R2-R5: 1 KiB CHR
//! at $1000-$1C00; R6-R7: 8 KiB PRG at $8000/$A000. $C000-$FFFF shows the last 16 KiB. The
//! chip has 6 CHR and 4 PRG address lines; mirroring is soldered (or four-screen).
//!
//! Namco's later boards wire the same chip differently ([`Wiring`]): mapper 88 (Namco
//! 3433/3443) ties CHR A16 to PPU A12, so $0000-$0FFF shows the first 64 KiB of CHR and
//! $1000-$1FFF the second; mapper 154 (Namco 3453, Devil Man) adds one-screen mirroring
//! from bit 6 of any write to $8000-$FFFF; mapper 76 (Namco 3446) uses R2-R5 as four
//! 2 KiB CHR banks (R0-R1 unused).

use super::{Board, CartCore};
use crate::rom::Mirroring;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Wiring {
    /// Mapper 206.
    #[default]
    Dxrom,
    /// Mapper 88: CHR A16 = PPU A12.
    ChrSplit,
    /// Mapper 154: mapper 88 with one-screen mirroring.
    ChrSplitOneScreen,
    /// Mapper 76: 2 KiB CHR banks from R2-R5.
    Chr2k,
}

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Namco108 {
    /// The register the next odd-address write sets (0-7).
    select: u8,
    /// States from before the wiring was recorded are mapper 206's.
    #[serde(default)]
    wiring: Wiring,
}

impl Namco108 {
    pub fn new(wiring: Wiring) -> Namco108 {
        Namco108 { select: 0, wiring }
    }
}

impl Board for Namco108 {
    fn power_on(&mut self, core: &mut CartCore) {
        let banks8 = core.prg_banks8();
        core.map_prg8(1, 0);
        core.map_prg8(2, 1);
        core.map_prg8(3, 2 * banks8 - 2); // modulo the ROM size: no underflow
        core.map_prg8(4, banks8 - 1);
        core.map_chr8(0);
        if matches!(self.wiring, Wiring::ChrSplit | Wiring::ChrSplitOneScreen) {
            for slot in 4..8 {
                core.map_chr1(slot, 0x40 + slot);
            }
        }
        if self.wiring == Wiring::ChrSplitOneScreen {
            core.set_mirroring(Mirroring::SingleLow);
        }
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if addr < 0x8000 {
            return;
        }
        if self.wiring == Wiring::ChrSplitOneScreen {
            core.set_mirroring(if value & 0x40 != 0 {
                Mirroring::SingleHigh
            } else {
                Mirroring::SingleLow
            });
        }
        if addr >= 0xA000 {
            return;
        }
        if addr & 1 == 0 {
            self.select = value & 0x07;
            return;
        }
        let chr = usize::from(value & 0x3F);
        // CHR A16 from PPU A12: the upper pattern table's banks come from the second 64 KiB.
        let high = match self.wiring {
            Wiring::ChrSplit | Wiring::ChrSplitOneScreen => 0x40,
            _ => 0,
        };
        match (self.select, self.wiring) {
            (r @ 2..=5, Wiring::Chr2k) => core.map_chr2(usize::from(r) - 2, chr),
            (0..=1, Wiring::Chr2k) => {}
            // A 2 KiB bank ignores the low line: R0/R1 name 1 KiB units with bit 0 dropped.
            (r @ 0..=1, _) => core.map_chr2(usize::from(r), chr >> 1),
            (r @ 2..=5, _) => core.map_chr1(usize::from(r) + 2, chr | high),
            (r, _) => core.map_prg8(usize::from(r) - 5, usize::from(value & 0x0F)),
        }
    }
    fn check(&self) -> Result<(), crate::invalid::InvalidState> {
        crate::invalid::ensure(self.select <= 7, "bus.cart.board.select", || {
            format!("{} is not a register number (0-7)", self.select)
        })
    }
}
