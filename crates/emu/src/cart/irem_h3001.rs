//! Mapper 65: Irem H3001 (Daiku no Gen San 2, Kaiketsu Yanchamaru 3, Spartan X 2). 8 KiB PRG
//! banks: $8000 selects the bank at $8000, or at $C000 when $9000 bit 7 (the PRG mode) is
//! set, the other of the two showing the second-last bank; $A000 selects the bank at $A000;
//! $E000 shows the last bank. $B000-$B007: eight 1 KiB CHR banks. $9001: mirroring (bit 6:
//! one-screen, else bit 7: 0 vertical, 1 horizontal).
//!
//! IRQ: a 16-bit counter that counts down once per CPU cycle while enabled ($9003 bit 7),
//! raises the IRQ when it reaches 0 and then stays at 0. $9005/$9006 set the high/low bytes
//! of a reload value that $9004 copies into the counter; writes to $9003 and $9004
//! acknowledge the IRQ. Registers decode A15-A12 and A2-A0 (the nesdev wiki's addresses).

use super::{Board, CartCore};
use crate::rom::Mirroring;
use serde::{Deserialize, Serialize};

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct IremH3001 {
    prg0: u8,
    /// PRG mode 1: the $8000 register's bank at $C000, the second-last bank at $8000.
    swap: bool,
    irq_enabled: bool,
    counter: u16,
    reload: u16,
}

impl IremH3001 {
    fn map_prg(&self, core: &mut CartCore) {
        core.map_prg8_swappable(usize::from(self.prg0), self.swap);
    }
}

impl Board for IremH3001 {
    fn power_on(&mut self, core: &mut CartCore) {
        // The PRG registers start at 0 and 1: games rely on it (nesdev wiki).
        core.map_prg8(2, 1);
        core.map_prg8(4, core.prg_banks8() - 1);
        self.map_prg(core);
        core.map_chr8(0);
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        match addr & 0xF007 {
            0x8000 => {
                self.prg0 = value;
                self.map_prg(core);
            }
            0x9000 => {
                self.swap = value & 0x80 != 0;
                self.map_prg(core);
            }
            0x9001 => core.set_mirroring(match value & 0xC0 {
                0x00 => Mirroring::Vertical,
                0x80 => Mirroring::Horizontal,
                _ => Mirroring::SingleLow,
            }),
            0x9003 => {
                self.irq_enabled = value & 0x80 != 0;
                core.irq = false;
            }
            0x9004 => {
                self.counter = self.reload;
                core.irq = false;
            }
            0x9005 => self.reload = self.reload & 0x00FF | u16::from(value) << 8,
            0x9006 => self.reload = self.reload & 0xFF00 | u16::from(value),
            0xA000 => core.map_prg8(2, usize::from(value)),
            0xB000..=0xB007 => core.map_chr1(usize::from(addr & 7), usize::from(value)),
            _ => {}
        }
    }
    fn counts_cpu_cycles(&self) -> bool {
        true
    }
    fn cpu_cycle(&mut self, core: &mut CartCore) {
        // The counter stops at 0: no wrap, no reload.
        if self.irq_enabled && self.counter != 0 {
            self.counter -= 1;
            if self.counter == 0 {
                core.irq = true;
            }
        }
    }
}
