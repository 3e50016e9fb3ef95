//! Mappers 4 (MMC3, TxROM) and 118 (TxSROM: CHR bank bit 7 picks the nametable page).
//!
//! The scanline counter is clocked by filtered rising edges of PPU A12, seen through
//! `ppu_bus`. Submapper 4 (NEC MMC3A) and submapper 1 (MMC6, StarTropics) have the older
//! IRQ: none when the counter reloads 0 after it was already 0. (MMC6's 1 KiB of internal
//! RAM at $7000 and its per-half protection are not modelled: it gets 8 KiB at $6000.)

use super::{Board, CartCore};
use crate::ppu_watch::{A12Edges, A12Irq, PpuWatch};
use crate::rom::Mirroring;
use serde::{Deserialize, Serialize};

/// MMC3's registers (mappers 4 and 118), as the game last wrote them, and its scanline
/// counter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mmc3Import {
    /// The eight bank registers R0-R7 ($8001 writes).
    pub regs: [u8; 8],
    /// $8000: the register the next $8001 writes (bits 0-2), PRG and CHR modes (6, 7).
    pub select: u8,
    /// $A000: bit 0 picks horizontal mirroring (ignored on four-screen and TxSROM carts).
    pub mirroring: u8,
    /// $A001: bit 7 enables PRG RAM, bit 6 protects it from writes.
    pub ram_protect: u8,
    /// $C000: the value the counter reloads.
    pub irq_latch: u8,
    pub irq_counter: u8,
    /// A $C001 write asked for a reload at the next clock.
    pub irq_reload: bool,
    /// $E001 enabled the IRQ, $E000 disabled it.
    pub irq_enabled: bool,
    /// The board holds the CPU's IRQ line low (raised and not yet acknowledged by $E000).
    pub irq_pending: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Variant {
    Standard,
    TxSrom,
}

/// A12 must have been low this many PPU dots for a rise to count (the board's M2 filter).
const A12_LOW_MIN: u64 = 10;

#[derive(Clone, Serialize, Deserialize)]
pub struct Mmc3 {
    variant: Variant,
    alt_irq: bool,
    select: u8,
    regs: [u8; 8],
    mirroring: u8,
    ram_protect: u8,
    irq_latch: u8,
    irq_counter: u8,
    irq_reload: bool,
    irq_enabled: bool,
    a12_high: bool,
    a12_low_since: u64,
}

impl Mmc3 {
    pub fn new(variant: Variant, submapper: u8) -> Mmc3 {
        Mmc3 {
            variant,
            alt_irq: submapper == 4 || submapper == 1,
            select: 0,
            regs: [0, 2, 4, 5, 6, 7, 0, 1],
            mirroring: 0,
            ram_protect: 0x80,
            irq_latch: 0,
            irq_counter: 0,
            irq_reload: false,
            irq_enabled: false,
            a12_high: false,
            a12_low_since: 0,
        }
    }

    /// Takes registers another emulator saved (`crate::import`) and maps the banks,
    /// mirroring and PRG RAM they select. The A12 filter is left as power-on leaves it:
    /// low for long, so the next rise clocks the counter.
    pub(crate) fn import(&mut self, core: &mut CartCore, r: &Mmc3Import) {
        self.regs = r.regs;
        self.select = r.select;
        self.mirroring = r.mirroring;
        self.ram_protect = r.ram_protect;
        self.irq_latch = r.irq_latch;
        self.irq_counter = r.irq_counter;
        self.irq_reload = r.irq_reload;
        self.irq_enabled = r.irq_enabled;
        core.irq = r.irq_pending;
        self.update(core);
    }

    fn update(&self, core: &mut CartCore) {
        let banks8 = core.prg_banks8();
        let (r6, r7) = (
            usize::from(self.regs[6] & 0x3F),
            usize::from(self.regs[7] & 0x3F),
        );
        core.map_prg8_swappable(r6, self.select & 0x40 != 0);
        core.map_prg8(2, r7);
        core.map_prg8(4, banks8 - 1);

        let invert = if self.select & 0x80 != 0 { 4 } else { 0 };
        let r = |i: usize| usize::from(self.regs[i]);
        // R0 and R1 select 2 KiB banks (their low bit is ignored).
        core.map_chr2(invert / 2, r(0) >> 1);
        core.map_chr2(invert / 2 + 1, r(1) >> 1);
        for i in 0..4 {
            core.map_chr1((4 - invert) + i, r(2 + i));
        }

        if self.variant == Variant::TxSrom {
            let pages: [u8; 4] = if invert == 0 {
                [self.regs[0], self.regs[0], self.regs[1], self.regs[1]]
            } else {
                [self.regs[2], self.regs[3], self.regs[4], self.regs[5]]
            };
            for (nt, page) in core.nt.iter_mut().zip(pages) {
                *nt = usize::from(page >> 7) * 0x400;
            }
        } else if core.header_mirroring != Mirroring::FourScreen {
            core.set_mirroring(if self.mirroring & 1 == 0 {
                Mirroring::Vertical
            } else {
                Mirroring::Horizontal
            });
        }

        let enabled = self.ram_protect & 0x80 != 0;
        core.map_prg_ram(0, enabled, enabled && self.ram_protect & 0x40 == 0);
    }

    fn clock_counter(&mut self, core: &mut CartCore) {
        let before = self.irq_counter;
        if self.irq_counter == 0 || self.irq_reload {
            self.irq_counter = self.irq_latch;
        } else {
            self.irq_counter -= 1;
        }
        let fire = if self.alt_irq {
            (before > 0 || self.irq_reload) && self.irq_counter == 0
        } else {
            self.irq_counter == 0
        };
        if fire && self.irq_enabled {
            core.irq = true;
        }
        self.irq_reload = false;
    }

    /// Counter clocks until `clock_counter` raises the IRQ (if enabled), or `None` if it
    /// never will without a write.
    fn clocks_to_irq(&self) -> Option<u32> {
        if self.irq_counter > 0 && !self.irq_reload {
            return Some(u32::from(self.irq_counter));
        }
        // The first clock reloads the latch.
        if self.irq_latch > 0 {
            Some(u32::from(self.irq_latch) + 1)
        } else if !self.alt_irq || self.irq_reload {
            Some(1)
        } else {
            // MMC3A: reloading 0 into a counter that was 0 raises nothing, forever.
            None
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

impl Board for Mmc3 {
    fn power_on(&mut self, core: &mut CartCore) {
        self.update(core);
    }

    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if addr < 0x8000 {
            return;
        }
        match (addr & 0xE001, self.variant) {
            (0x8000, _) => self.select = value,
            (0x8001, _) => self.regs[usize::from(self.select & 7)] = value,
            (0xA000, _) => self.mirroring = value,
            (0xA001, _) => self.ram_protect = value,
            (0xC000, _) => self.irq_latch = value,
            (0xC001, _) => {
                self.irq_counter = 0;
                self.irq_reload = true;
            }
            (0xE000, _) => {
                self.irq_enabled = false;
                core.irq = false;
            }
            _ => self.irq_enabled = true,
        }
        self.update(core);
    }

    fn ppu_watch(&self) -> PpuWatch {
        PpuWatch::A12
    }
    fn ppu_bus(&mut self, core: &mut CartCore, addr: u16, ppu_cycle: u64) {
        let mut edges = self.edges();
        let counted = edges.see(addr & 0x1000 != 0, ppu_cycle);
        (self.a12_high, self.a12_low_since) = (edges.high, edges.low_since);
        if counted {
            self.clock_counter(core);
        }
    }
    fn a12_irq(&self, core: &CartCore) -> Option<A12Irq> {
        if !self.irq_enabled || core.irq {
            return None;
        }
        Some(A12Irq {
            edges: self.edges(),
            clocks: self.clocks_to_irq()?,
            delay: 0,
            due: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closed form the IRQ prediction uses agrees with clocking the counter.
    #[test]
    fn clocks_to_irq_matches_clocking() {
        let rom = crate::rom::Rom::parse(&test_image(), "mmc3").unwrap();
        let mut core = crate::cart::Cart::new(&rom).unwrap().core;
        for alt in [false, true] {
            for latch in [0u8, 1, 2, 7, 255] {
                for counter in [0u8, 1, 3, 255] {
                    for reload in [false, true] {
                        let mut m = Mmc3::new(Variant::Standard, if alt { 4 } else { 0 });
                        (m.irq_latch, m.irq_counter, m.irq_reload) = (latch, counter, reload);
                        m.irq_enabled = true;
                        let want = m.clocks_to_irq();
                        core.irq = false;
                        let got = (1..=300u32).find(|_| {
                            m.clock_counter(&mut core);
                            core.irq
                        });
                        assert_eq!(
                            got, want,
                            "alt {alt} latch {latch} counter {counter} reload {reload}"
                        );
                    }
                }
            }
        }
    }

    /// A 32 KiB PRG, 8 KiB CHR mapper 4 image.
    pub(crate) fn test_image() -> Vec<u8> {
        let mut data = vec![0u8; 16 + 0x8000 + 0x2000];
        data[..8].copy_from_slice(&[b'N', b'E', b'S', 0x1A, 2, 1, 0x40, 0]);
        data
    }
}
