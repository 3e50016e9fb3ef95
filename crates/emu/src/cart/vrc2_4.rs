//! Mappers 21, 22, 23 and 25: Konami VRC2 and VRC4, one chip family on many boards that
//! differ in which two CPU address lines reach the chip's register-select inputs (its A0
//! and A1). The wiring is data (`WIRINGS`): NES 2.0 submappers name one board; submapper 0
//! (iNES 1.0) ORs both wirings of the mapper, as emulators do.
//!
//! Registers as the chip sees them (A15-A12 and its A1/A0), per the nesdev wiki's "VRC2
//! and VRC4": $8000 and $A000 select 8 KiB PRG banks (5 bits); $C000 shows the
//! second-last bank, $E000 the last. VRC4's $9002 bit 1 swaps $8000 and $C000, bit 0
//! enables PRG RAM at $6000. $9000 is the mirroring (VRC2: any of $9000-$9003, bit 0
//! vertical/horizontal; VRC4: bits 0-1, 2 and 3 one-screen). $B000-$E003 are eight 1 KiB
//! CHR banks, two per group, each written as a low nibble (even register) and a high one
//! (odd register; VRC4 takes a ninth bit from its bit 4). VRC2a (mapper 22) drops CHR A10:
//! the bank number is shifted right by one. VRC4's $F000-$F003: IRQ latch low and high
//! nibbles, control, acknowledge (`vrc_irq`). A VRC2 without PRG RAM has a 1-bit latch at
//! $6000-$6FFF that reads back in bit 0 (the other bits, and $7000-$7FFF, are open bus):
//! games such as Contra (J) check it. Power-on register values are unknown; the banks start
//! at 0 and VRC4's PRG RAM enabled (games that never set $9002 bit 0 still get it).

use super::vrc_irq::VrcIrq;
use super::{Board, CartCore};
use crate::rom::Mirroring;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Chip {
    Vrc2,
    Vrc4,
}

/// One board's wiring: the CPU address lines (as bit masks) whose OR the chip sees on its
/// A0 and A1, and whether CHR A10 is left unconnected (VRC2a).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wiring {
    pub chip: Chip,
    a0: u16,
    a1: u16,
    chr_shift: bool,
}

const fn wiring(chip: Chip, a0: u16, a1: u16) -> Wiring {
    Wiring {
        chip,
        a0,
        a1,
        chr_shift: false,
    }
}

const A: [u16; 8] = [1, 2, 4, 8, 16, 32, 64, 128];

/// (mapper, submapper, wiring, name for `nesmind info`).
const WIRINGS: &[(u16, u8, Wiring, &str)] = &[
    (
        21,
        0,
        wiring(Chip::Vrc4, A[1] | A[6], A[2] | A[7]),
        "Konami VRC4 (VRC4a or VRC4c)",
    ),
    (21, 1, wiring(Chip::Vrc4, A[1], A[2]), "Konami VRC4a"),
    (21, 2, wiring(Chip::Vrc4, A[6], A[7]), "Konami VRC4c"),
    (
        22,
        0,
        Wiring {
            chip: Chip::Vrc2,
            a0: A[1],
            a1: A[0],
            chr_shift: true,
        },
        "Konami VRC2a",
    ),
    (
        23,
        0,
        wiring(Chip::Vrc4, A[0] | A[2], A[1] | A[3]),
        "Konami VRC2b or VRC4 (VRC4e or VRC4f)",
    ),
    (23, 1, wiring(Chip::Vrc4, A[0], A[1]), "Konami VRC4f"),
    (23, 2, wiring(Chip::Vrc4, A[2], A[3]), "Konami VRC4e"),
    (23, 3, wiring(Chip::Vrc2, A[0], A[1]), "Konami VRC2b"),
    (
        25,
        0,
        wiring(Chip::Vrc4, A[1] | A[3], A[0] | A[2]),
        "Konami VRC2c or VRC4 (VRC4b or VRC4d)",
    ),
    (25, 1, wiring(Chip::Vrc4, A[1], A[0]), "Konami VRC4b"),
    (25, 2, wiring(Chip::Vrc4, A[3], A[2]), "Konami VRC4d"),
    (25, 3, wiring(Chip::Vrc2, A[1], A[0]), "Konami VRC2c"),
];

/// The wiring and name of a mapper this file serves; unknown submappers take submapper 0's.
pub fn wiring_for(mapper: u16, submapper: u8) -> Option<(Wiring, &'static str)> {
    let find = |sub| {
        WIRINGS
            .iter()
            .find(|w| w.0 == mapper && w.1 == sub)
            .map(|w| (w.2, w.3))
    };
    find(submapper).or_else(|| find(0))
}

#[derive(Clone, Serialize, Deserialize)]
pub struct Vrc2_4 {
    wiring: Wiring,
    prg: [u8; 2],
    /// CHR bank numbers (9 bits), as written.
    chr: [u16; 8],
    /// $9002 on VRC4: bit 1 PRG swap, bit 0 PRG RAM enable.
    control: u8,
    mirroring: u8,
    irq: VrcIrq,
}

/// The registers as FCEUmm's and other emulators' states give them (`BoardImport::Vrc2_4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vrc2_4Import {
    pub prg: [u8; 2],
    /// CHR bank numbers as written (before VRC2a's shift).
    pub chr: [u16; 8],
    /// VRC4's $9002.
    pub control: u8,
    /// $9000.
    pub mirroring: u8,
    pub irq_latch: u8,
    pub irq_counter: u8,
    pub irq_enabled: bool,
    pub irq_enable_after_ack: bool,
    pub irq_cycle_mode: bool,
    pub irq_pending: bool,
}

impl Vrc2_4 {
    pub fn new(wiring: Wiring) -> Vrc2_4 {
        Vrc2_4 {
            wiring,
            prg: [0, 0],
            chr: [0; 8],
            control: 1,
            mirroring: 0,
            irq: VrcIrq::default(),
        }
    }

    fn vrc4(&self) -> bool {
        self.wiring.chip == Chip::Vrc4
    }

    /// The chip's register address: A15-A12 and its A1/A0 from the board's lines.
    fn register(&self, addr: u16) -> u16 {
        let bit = |mask: u16, v: u16| if addr & mask != 0 { v } else { 0 };
        addr & 0xF000 | bit(self.wiring.a0, 1) | bit(self.wiring.a1, 2)
    }

    fn map(&self, core: &mut CartCore) {
        let swap = self.vrc4() && self.control & 2 != 0;
        core.map_prg8_swappable(usize::from(self.prg[0]), swap);
        core.map_prg8(2, usize::from(self.prg[1]));
        core.map_prg8(4, core.prg_banks8() - 1);
        let shift = u8::from(self.wiring.chr_shift);
        for (slot, &bank) in self.chr.iter().enumerate() {
            core.map_chr1(slot, usize::from(bank >> shift));
        }
        let m = if self.vrc4() {
            self.mirroring & 3
        } else {
            self.mirroring & 1
        };
        core.set_mirroring(match m {
            0 => Mirroring::Vertical,
            1 => Mirroring::Horizontal,
            2 => Mirroring::SingleLow,
            _ => Mirroring::SingleHigh,
        });
        if core.cpu[0].source != super::Source::Latch {
            core.map_prg_ram(0, !self.vrc4() || self.control & 1 != 0, true);
        }
    }

    pub(crate) fn import(&mut self, core: &mut CartCore, r: &Vrc2_4Import) {
        // (Bank widths are checked by the import.)
        self.prg = r.prg;
        self.chr = r.chr;
        self.control = r.control;
        self.mirroring = r.mirroring;
        self.irq = VrcIrq {
            latch: r.irq_latch,
            counter: r.irq_counter,
            cycle_mode: r.irq_cycle_mode,
            enabled: r.irq_enabled,
            enable_after_ack: r.irq_enable_after_ack,
            ..VrcIrq::default()
        };
        core.irq = r.irq_pending && self.vrc4();
        self.map(core);
    }
}

impl Board for Vrc2_4 {
    fn power_on(&mut self, core: &mut CartCore) {
        if !self.vrc4() && core.prg_ram.is_empty() {
            core.map_latch(0);
        }
        self.map(core);
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if addr < 0x8000 {
            if addr < 0x7000 && core.cpu[0].source == super::Source::Latch {
                core.map_latch(value & 1);
            }
            return;
        }
        let reg = self.register(addr);
        let vrc4 = self.vrc4();
        match reg {
            0x8000..=0x8FFF => self.prg[0] = value & 0x1F,
            0xA000..=0xAFFF => self.prg[1] = value & 0x1F,
            0x9000 => self.mirroring = value,
            0x9001..=0x9003 if !vrc4 => self.mirroring = value,
            0x9002 => self.control = value,
            0xB000..=0xEFFF => {
                let slot = usize::from((reg - 0xB000) >> 11 | reg >> 1 & 1);
                let high_bits = if vrc4 { 0x1F } else { 0x0F };
                let bank = &mut self.chr[slot];
                *bank = if reg & 1 == 0 {
                    *bank & 0x1F0 | u16::from(value & 0x0F)
                } else {
                    *bank & 0x00F | u16::from(value & high_bits) << 4
                };
            }
            0xF000 if vrc4 => self.irq.set_latch_low(value),
            0xF001 if vrc4 => self.irq.set_latch_high(value),
            0xF002 if vrc4 => self.irq.control(value, &mut core.irq),
            0xF003 if vrc4 => self.irq.acknowledge(&mut core.irq),
            _ => return,
        }
        self.map(core);
    }
    fn low_registers(&self) -> Option<std::ops::RangeInclusive<u16>> {
        // Only a VRC2 without PRG RAM decodes it (its window then shows the latch).
        (!self.vrc4()).then_some(0x6000..=0x6FFF)
    }
    fn counts_cpu_cycles(&self) -> bool {
        self.vrc4()
    }
    fn cpu_cycle(&mut self, core: &mut CartCore) {
        self.irq.cpu_cycle(&mut core.irq);
    }
    fn check(&self) -> Result<(), crate::invalid::InvalidState> {
        crate::invalid::ensure(
            self.chr.iter().all(|&b| b <= 0x1FF),
            "bus.cart.board.chr",
            || format!("{:?} holds a bank beyond the chip's nine bits", self.chr),
        )?;
        self.irq.check()
    }
}
