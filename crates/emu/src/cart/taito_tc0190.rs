//! Mappers 33 (Taito TC0190) and 48 (Taito TC0690): the same banks, the TC0690 adding a
//! scanline IRQ and moving the mirroring bit to its own register.
//!
//! Banks: $8000 and $8001 select 8 KiB PRG banks (6 bits) at $8000 and $A000; $C000 and
//! $E000 show the second-last and last banks. $8002/$8003 select 2 KiB CHR banks at
//! $0000/$0800 (the whole byte counts, in 2 KiB units), $A000-$A003 1 KiB banks at
//! $1000-$1C00. Mirroring (0 vertical, 1 horizontal) is bit 6 of $8000 on the TC0190 and
//! of $E000 on the TC0690. The TC0190 decodes A15, A13, A1 and A0 (so $C000 mirrors $8000);
//! the TC0690 A15-A13, A1 and A0.
//!
//! TC0690 IRQ: MMC3's counter (clocked by filtered A12 rises; a clock that finds it 0, or
//! after $C001, reloads it, otherwise it counts down; reaching 0 with the IRQ enabled
//! raises it), with the reload value written inverted to $C000. $C002 enables the IRQ,
//! $C003 disables and acknowledges it. The nesdev wiki says the IRQ comes about 4 CPU
//! cycles after MMC3's would; this board raises it 12 dots (4 NTSC CPU cycles) after the
//! counting rise. Whether $C003 stops an IRQ already under way is not known; here it does.

use super::{Board, CartCore};
use crate::ppu_watch::{A12Edges, A12Irq, PpuWatch};
use crate::rom::Mirroring;
use serde::{Deserialize, Serialize};

/// A12 must have been low this many dots for a rise to count (as on MMC3).
const A12_LOW_MIN: u64 = 10;
/// Dots from the counting A12 rise to the IRQ line rising.
const IRQ_DELAY: u64 = 12;

/// The TC0190/TC0690's registers (mappers 33 and 48), as a game last wrote them, and the
/// TC0690's counter (a TC0190 ignores the IRQ fields).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TaitoImport {
    /// $8000 and $8001: the PRG banks at $8000 and $A000 (6 bits count).
    pub prg: [u8; 2],
    /// $8002 and $8003 (2 KiB banks), $A000-$A003 (1 KiB banks).
    pub chr: [u8; 6],
    /// The mirroring bit (set: horizontal).
    pub horizontal: bool,
    /// The value the counter reloads (the complement of the byte written to $C000).
    pub irq_latch: u8,
    pub irq_counter: u8,
    /// A $C001 write asked for a reload at the next clock.
    pub irq_reload: bool,
    /// $C002 enabled the IRQ, $C003 disabled it.
    pub irq_enabled: bool,
    /// The board holds the CPU's IRQ line low (only while enabled: $C003 acknowledges).
    pub irq_pending: bool,
}

impl Banks {
    fn import(&mut self, core: &mut CartCore, r: &TaitoImport) {
        (self.prg, self.chr, self.horizontal) = (r.prg, r.chr, r.horizontal);
        self.map(core);
    }
}

impl Tc0190 {
    /// Takes registers another emulator saved (`crate::import`).
    pub(crate) fn import(&mut self, core: &mut CartCore, r: &TaitoImport) {
        self.banks.import(core, r);
    }
}

impl Tc0690 {
    /// Takes registers another emulator saved (`crate::import`). The A12 filter is left as
    /// power-on leaves it (low for long: the next rise counts), and no IRQ is under way.
    pub(crate) fn import(&mut self, core: &mut CartCore, r: &TaitoImport) {
        self.banks.import(core, r);
        self.latch = r.irq_latch;
        self.counter = r.irq_counter;
        self.reload = r.irq_reload;
        self.enabled = r.irq_enabled;
        self.due = None;
        core.irq = r.irq_pending;
    }
}

/// The bank registers both chips have.
#[derive(Clone, Default, Serialize, Deserialize)]
struct Banks {
    prg: [u8; 2],
    chr: [u8; 6],
    horizontal: bool,
}

impl Banks {
    fn map(&self, core: &mut CartCore) {
        core.map_prg8(1, usize::from(self.prg[0] & 0x3F));
        core.map_prg8(2, usize::from(self.prg[1] & 0x3F));
        core.map_prg8(3, core.prg_banks8() * 2 - 2);
        core.map_prg8(4, core.prg_banks8() * 2 - 1);
        core.map_chr2(0, usize::from(self.chr[0]));
        core.map_chr2(1, usize::from(self.chr[1]));
        for i in 0..4 {
            core.map_chr1(4 + i, usize::from(self.chr[2 + i]));
        }
        core.set_mirroring(if self.horizontal {
            Mirroring::Horizontal
        } else {
            Mirroring::Vertical
        });
    }

    /// A write to $8000-$8003 or $A000-$A003 (`reg` = A13 * 4 + A1-A0).
    fn write(&mut self, core: &mut CartCore, reg: u16, value: u8) {
        match reg {
            0 | 1 => self.prg[usize::from(reg)] = value,
            _ => self.chr[usize::from(reg) - 2] = value,
        }
        self.map(core);
    }
}

/// The bank register a write reaches: A13 * 4 + A1-A0.
fn bank_reg(addr: u16) -> u16 {
    (addr >> 11) & 4 | addr & 3
}

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Tc0190 {
    banks: Banks,
}

impl Board for Tc0190 {
    fn power_on(&mut self, core: &mut CartCore) {
        self.banks.horizontal = core.header_mirroring == Mirroring::Horizontal;
        self.banks.map(core);
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if addr < 0x8000 {
            return;
        }
        let reg = bank_reg(addr);
        if reg == 0 {
            self.banks.horizontal = value & 0x40 != 0;
        }
        self.banks.write(core, reg, value);
    }
}

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Tc0690 {
    banks: Banks,
    /// The reload value: $C000's byte inverted.
    latch: u8,
    counter: u8,
    reload: bool,
    enabled: bool,
    a12_high: bool,
    a12_low_since: u64,
    /// The count completed: the IRQ line rises once the PPU has run this dot.
    due: Option<u64>,
}

impl Tc0690 {
    fn clock_counter(&mut self, dots: u64) {
        if self.counter == 0 || self.reload {
            self.counter = self.latch;
        } else {
            self.counter -= 1;
        }
        self.reload = false;
        if self.counter == 0 && self.enabled && self.due.is_none() {
            self.due = Some(dots + IRQ_DELAY);
        }
    }

    /// Counter clocks until `clock_counter` completes the count.
    fn clocks_to_irq(&self) -> u32 {
        if self.counter > 0 && !self.reload {
            u32::from(self.counter)
        } else if self.latch > 0 {
            u32::from(self.latch) + 1
        } else {
            1
        }
    }

    fn edges(&self) -> A12Edges {
        A12Edges {
            high: self.a12_high,
            low_since: self.a12_low_since,
            filter: A12_LOW_MIN,
        }
    }
}

impl Board for Tc0690 {
    fn power_on(&mut self, core: &mut CartCore) {
        self.banks.horizontal = core.header_mirroring == Mirroring::Horizontal;
        self.banks.map(core);
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        match addr & 0xE003 {
            0x8000..=0xA003 => self.banks.write(core, bank_reg(addr), value),
            0xC000 => self.latch = !value,
            0xC001 => {
                self.counter = 0;
                self.reload = true;
            }
            0xC002 => self.enabled = true,
            0xC003 => {
                self.enabled = false;
                self.due = None;
                core.irq = false;
            }
            0xE000 => {
                self.banks.horizontal = value & 0x40 != 0;
                self.banks.map(core);
            }
            _ => {}
        }
    }

    fn ppu_watch(&self) -> PpuWatch {
        PpuWatch::A12
    }
    fn ppu_bus(&mut self, _core: &mut CartCore, addr: u16, ppu_cycle: u64) {
        let mut edges = self.edges();
        let counted = edges.see(addr & 0x1000 != 0, ppu_cycle);
        (self.a12_high, self.a12_low_since) = (edges.high, edges.low_since);
        if counted {
            self.clock_counter(ppu_cycle);
        }
    }
    fn watches_ppu_time(&self) -> bool {
        true
    }
    fn ppu_reached(&mut self, core: &mut CartCore, dots: u64) {
        if self.due.is_some_and(|due| dots > due) {
            self.due = None;
            core.irq = true;
        }
    }
    fn a12_irq(&self, core: &CartCore) -> Option<A12Irq> {
        if !self.enabled || core.irq {
            return None;
        }
        Some(A12Irq {
            edges: self.edges(),
            clocks: self.clocks_to_irq(),
            delay: IRQ_DELAY,
            due: self.due,
        })
    }
}
