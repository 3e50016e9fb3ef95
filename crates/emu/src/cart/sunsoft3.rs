//! Mapper 67: Sunsoft-3 (Fantasy Zone II, Mito Koumon II). Registers decode A15, A14-A12
//! and A11 (mask $F800): $8800/$9800/$A800/$B800 select the 2 KiB CHR banks, $E800 the
//! mirroring (0 vertical, 1 horizontal, 2/3 one-screen from the first/second nametable),
//! $F800 the 16 KiB PRG bank at $8000 (four bits and a fifth latched bit that an external
//! gate could use); the last bank is fixed at $C000.
//!
//! IRQ: a 16-bit counter that $C800 loads directly, high byte then low byte (a write
//! toggle that any $D800 write resets). While $D800 bit 4 is set it counts down once per
//! CPU cycle; when it wraps from $0000 to $FFFF it raises the IRQ and pauses itself. Per
//! the nesdev wiki's current page, writes with A11 low ($8000-$87FF, $9000-$97FF, ...)
//! acknowledge the IRQ, and $D800 writes do not.

use super::{Board, CartCore};
use crate::rom::Mirroring;
use serde::{Deserialize, Serialize};

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Sunsoft3 {
    counting: bool,
    counter: u16,
    /// The next $C800 write sets the low byte.
    low_next: bool,
}

impl Board for Sunsoft3 {
    fn power_on(&mut self, core: &mut CartCore) {
        core.map_first_and_last16();
        core.map_chr8(0);
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if addr < 0x8000 {
            return;
        }
        if addr & 0x0800 == 0 {
            core.irq = false;
            return;
        }
        match addr & 0xF800 {
            0x8800 | 0x9800 | 0xA800 | 0xB800 => {
                // Six CHR bank lines: 128 KiB.
                core.map_chr2(usize::from(addr >> 12 & 3), usize::from(value & 0x3F));
            }
            0xC800 => {
                self.counter = if self.low_next {
                    self.counter & 0xFF00 | u16::from(value)
                } else {
                    self.counter & 0x00FF | u16::from(value) << 8
                };
                self.low_next = !self.low_next;
            }
            0xD800 => {
                self.counting = value & 0x10 != 0;
                self.low_next = false;
            }
            0xE800 => core.set_mirroring(match value & 3 {
                0 => Mirroring::Vertical,
                1 => Mirroring::Horizontal,
                2 => Mirroring::SingleLow,
                _ => Mirroring::SingleHigh,
            }),
            _ => core.map_prg16(0, usize::from(value & 0x1F)),
        }
    }
    fn counts_cpu_cycles(&self) -> bool {
        true
    }
    fn cpu_cycle(&mut self, core: &mut CartCore) {
        if self.counting {
            self.counter = self.counter.wrapping_sub(1);
            if self.counter == 0xFFFF {
                self.counting = false;
                core.irq = true;
            }
        }
    }
}
