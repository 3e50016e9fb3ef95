//! Mapper 40: NTDEC 2722, the board of cartridge conversions of the Famicom Disk System's
//! Super Mario Bros. 2. The disk game expects RAM-like fixed memory, so most PRG is fixed in
//! 8 KiB banks: 6 at $6000, 4 at $8000, 5 at $A000 and 7 at $E000; writes to $E000-$FFFF
//! pick the bank at $C000 (three bits). One 8 KiB CHR bank; mirroring from the header.
//!
//! IRQ: the FDS timer is replaced by a 13-bit ripple counter (a CD4020) of CPU cycles whose
//! reset is held by writes to $8000-$9FFF (which also drops the IRQ) and released by writes
//! to $A000-$BFFF. Its bit 12 drives the IRQ: the IRQ comes 4096 cycles after the enable
//! and, unless acknowledged, leaves by itself 4096 cycles later when the counter wraps
//! (nesdev wiki). Submapper 1 (NTDEC 2752, a multicart with an outer bank) is another board.

use super::{Board, CartCore};
use serde::{Deserialize, Serialize};

/// Bit 12 of the counter: the IRQ output.
const IRQ_BIT: u16 = 0x1000;
/// The counter's 13 stages.
const COUNTER_MASK: u16 = 0x1FFF;

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Ntdec2722 {
    /// The counter runs (its reset released by a $A000 write).
    counting: bool,
    counter: u16,
}

impl Board for Ntdec2722 {
    fn power_on(&mut self, core: &mut CartCore) {
        core.map_prg8(0, 6);
        core.map_prg8(1, 4);
        core.map_prg8(2, 5);
        core.map_prg8(3, 0);
        core.map_prg8(4, 7);
        core.map_chr8(0);
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        match addr & 0xE000 {
            0x8000 => {
                self.counting = false;
                self.counter = 0;
                core.irq = false;
            }
            0xA000 => self.counting = true,
            0xE000 => core.map_prg8(3, usize::from(value & 7)),
            _ => {}
        }
    }
    fn counts_cpu_cycles(&self) -> bool {
        true
    }
    fn cpu_cycle(&mut self, core: &mut CartCore) {
        if self.counting {
            self.counter = (self.counter + 1) & COUNTER_MASK;
            core.irq = self.counter & IRQ_BIT != 0;
        }
    }
    fn check(&self) -> Result<(), crate::invalid::InvalidState> {
        crate::invalid::ensure(
            self.counter <= COUNTER_MASK,
            "bus.cart.board.counter",
            || format!("{:#X} is over the counter's 13 bits", self.counter),
        )
    }
}
