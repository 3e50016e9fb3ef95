//! Mapper 69: Sunsoft FME-7. Command/parameter registers, 8 KiB PRG banks (ROM or RAM at
//! $6000), 1 KiB CHR banks, and a 16-bit CPU-cycle IRQ counter. (The 5B audio belongs to the APU.)

use super::{Board, CartCore};
use crate::rom::Mirroring;
use serde::{Deserialize, Serialize};

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Fme7 {
    command: u8,
    prg6: u8,
    irq_enabled: bool,
    counter_enabled: bool,
    counter: u16,
}

impl Fme7 {
    fn map_6000(&self, core: &mut CartCore) {
        let bank = usize::from(self.prg6 & 0x3F);
        if self.prg6 & 0x40 == 0 {
            core.map_prg8(0, bank);
        } else if self.prg6 & 0x80 != 0 {
            core.map_prg_ram(bank, true, true);
        } else {
            core.map_open(0);
        }
    }
}

impl Board for Fme7 {
    fn power_on(&mut self, core: &mut CartCore) {
        let banks8 = core.prg_banks8();
        for slot in 1..4 {
            core.map_prg8(slot, 0);
        }
        core.map_prg8(4, banks8 - 1);
        self.map_6000(core);
    }

    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        match addr & 0xE000 {
            0x8000 => self.command = value & 0x0F,
            0xA000 => match self.command {
                0..=7 => core.map_chr1(usize::from(self.command), usize::from(value)),
                8 => {
                    self.prg6 = value;
                    self.map_6000(core);
                }
                9..=0xB => core.map_prg8(usize::from(self.command) - 8, usize::from(value & 0x3F)),
                0xC => core.set_mirroring(match value & 3 {
                    0 => Mirroring::Vertical,
                    1 => Mirroring::Horizontal,
                    2 => Mirroring::SingleLow,
                    _ => Mirroring::SingleHigh,
                }),
                0xD => {
                    self.irq_enabled = value & 0x01 != 0;
                    self.counter_enabled = value & 0x80 != 0;
                    core.irq = false;
                }
                0xE => self.counter = (self.counter & 0xFF00) | u16::from(value),
                _ => self.counter = (self.counter & 0x00FF) | (u16::from(value) << 8),
            },
            _ => {}
        }
    }

    fn counts_cpu_cycles(&self) -> bool {
        true
    }
    fn cpu_cycle(&mut self, core: &mut CartCore) {
        if self.counter_enabled {
            self.counter = self.counter.wrapping_sub(1);
            if self.counter == 0xFFFF && self.irq_enabled {
                core.irq = true;
            }
        }
    }
}
