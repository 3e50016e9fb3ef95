//! Mapper 1: MMC1 (SxROM boards), a serial-port mapper.
//!
//! Board variants are derived from the ROM sizes: on 8 KiB CHR (RAM or ROM) boards the CHR
//! bank lines are free, so SNROM wires bit 4 to the PRG RAM enable, SUROM bit 4 to PRG A18
//! (512 KiB PRG) and SOROM/SXROM bits 2-3 to the PRG RAM bank.

use super::{Board, CartCore};
use crate::rom::{Mirroring, Rom};
use serde::{Deserialize, Serialize};

/// MMC1's registers: the four five-bit registers, and the serial port's bits so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mmc1Import {
    pub control: u8,
    pub chr0: u8,
    pub chr1: u8,
    pub prg: u8,
    /// Bit n: the nth bit written (the first in bit 0); `shift_count` of them (0-4).
    pub shift: u8,
    pub shift_count: u8,
}

#[derive(Clone, Serialize, Deserialize)]
pub struct Mmc1 {
    shift: u8,
    shift_count: u8,
    control: u8,
    chr0: u8,
    chr1: u8,
    prg: u8,
    last_write_cycle: u64,
    /// MMC1A ignores the PRG RAM disable bit (submapper-free heuristic: never for now).
    small_chr: bool,
}

impl Mmc1 {
    pub fn new(rom: &Rom) -> Mmc1 {
        Mmc1 {
            shift: 0,
            shift_count: 0,
            control: 0x0C,
            chr0: 0,
            chr1: 0,
            prg: 0,
            last_write_cycle: u64::MAX - 1,
            small_chr: rom.chr_rom.len() <= 8 * 1024,
        }
    }

    /// Takes registers another emulator saved (`crate::import`) and maps the banks,
    /// mirroring and PRG RAM they select. The next serial write is never taken for the
    /// second half of a read-modify-write.
    pub(crate) fn import(&mut self, core: &mut CartCore, r: &Mmc1Import) {
        self.control = r.control;
        self.chr0 = r.chr0;
        self.chr1 = r.chr1;
        self.prg = r.prg;
        self.shift = r.shift;
        self.shift_count = r.shift_count;
        self.last_write_cycle = u64::MAX - 1;
        self.update(core);
    }

    fn update(&self, core: &mut CartCore) {
        core.set_mirroring(match self.control & 3 {
            0 => Mirroring::SingleLow,
            1 => Mirroring::SingleHigh,
            2 => Mirroring::Vertical,
            _ => Mirroring::Horizontal,
        });
        let chr_mode_4k = self.control & 0x10 != 0;
        if chr_mode_4k {
            core.map_chr4(0, usize::from(self.chr0));
            core.map_chr4(1, usize::from(self.chr1));
        } else {
            core.map_chr8(usize::from(self.chr0 >> 1));
        }
        // The CHR bank register that drives the upper lines: bank 0 in 8 KiB mode.
        let upper = self.chr0;
        let outer = if self.small_chr && core.prg_len() > 256 * 1024 {
            usize::from(upper & 0x10)
        } else {
            0
        };
        let bank = usize::from(self.prg & 0x0F);
        match (self.control >> 2) & 3 {
            0 | 1 => core.map_prg32((outer | bank) >> 1),
            2 => {
                core.map_prg16(0, outer);
                core.map_prg16(1, outer | bank);
            }
            _ => {
                core.map_prg16(0, outer | bank);
                core.map_prg16(1, outer | 0x0F);
            }
        }
        let ram_banks = core.prg_ram.len() / 0x2000;
        let ram_bank = if self.small_chr && ram_banks > 1 {
            usize::from((upper >> 2) & 3)
        } else {
            0
        };
        let mut enabled = self.prg & 0x10 == 0;
        if self.small_chr && core.prg_len() <= 256 * 1024 && ram_banks <= 1 {
            // SNROM: CHR A16 (bit 4) is the RAM chip enable.
            enabled &= upper & 0x10 == 0;
        }
        core.map_prg_ram(ram_bank, enabled, enabled);
    }
}

impl Board for Mmc1 {
    fn power_on(&mut self, core: &mut CartCore) {
        self.update(core);
    }

    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, cycle: u64) {
        if addr < 0x8000 {
            return;
        }
        // The serial port ignores a write on the cycle right after another (RMW double writes).
        let consecutive = cycle == self.last_write_cycle.wrapping_add(1);
        self.last_write_cycle = cycle;
        if consecutive {
            return;
        }
        if value & 0x80 != 0 {
            self.shift = 0;
            self.shift_count = 0;
            self.control |= 0x0C;
            self.update(core);
            return;
        }
        self.shift |= (value & 1) << self.shift_count;
        self.shift_count += 1;
        if self.shift_count < 5 {
            return;
        }
        let data = self.shift;
        self.shift = 0;
        self.shift_count = 0;
        match (addr >> 13) & 3 {
            0 => self.control = data,
            1 => self.chr0 = data,
            2 => self.chr1 = data,
            _ => self.prg = data,
        }
        self.update(core);
    }

    fn check(&self) -> Result<(), crate::invalid::InvalidState> {
        // A fifth bit completes a write, so at most four wait in the shift register.
        crate::invalid::ensure(self.shift_count <= 4, "bus.cart.board.shift_count", || {
            format!("{} is over 4", self.shift_count)
        })?;
        crate::invalid::ensure(
            self.shift >> self.shift_count == 0,
            "bus.cart.board.shift",
            || format!("{} holds more than {} bits", self.shift, self.shift_count),
        )
    }
}
