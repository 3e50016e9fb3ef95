//! Mapper 18: Jaleco SS88006 (Magic John, Pizza Pop!, Plasma Ball, ...). The chip sees only
//! A14-A12, A1-A0 and D3-D0, so every bank number is written a nibble at a time: the even
//! address of a pair takes the low nibble, the odd one the high nibble.
//!
//! $8000/$8001, $8002/$8003 and $9000/$9001: the 8 KiB PRG banks at $8000, $A000 and $C000
//! (6 bits); $E000 shows the last bank. $9002: PRG RAM, bit 0 enables it, bit 1 allows
//! writes. $A000-$D003: eight 1 KiB CHR banks ($A000/$A001 at $0000, $A002/$A003 at $0400,
//! $B000/$B001 at $0800, ... $D002/$D003 at $1C00). $F002: mirroring (0 horizontal, 1
//! vertical, 2 and 3 one-screen from the first and second nametable).
//!
//! IRQ: $E000-$E003 set the four nibbles (low first) of a 16-bit reload value that $F000
//! copies into the counter. $F001 bit 0 enables counting, and bits 1-3 narrow the counter
//! to its low 12, 8 or 4 bits (bit 3 first, then 2, then 1): while enabled, those bits count
//! down once per CPU cycle, the bits above them hold, and when the counting bits wrap from
//! 0 to all ones the IRQ is raised. Writes to $F000 and $F001 acknowledge it. Which of its
//! registers the chip has at power-on is not documented: here the banks and counter are 0
//! and PRG RAM is enabled and writable (emulators that ignore $9002 leave it so, and games
//! are known to run that way). The µPD7756 speech chip some carts add at $F003 is not modelled.

use super::{Board, CartCore};
use crate::rom::Mirroring;
use serde::{Deserialize, Serialize};

/// The SS88006's registers (mapper 18), as a game last wrote them (nibbles put together).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ss88006Import {
    /// The PRG banks at $8000, $A000 and $C000.
    pub prg: [u8; 3],
    /// The 1 KiB CHR banks.
    pub chr: [u8; 8],
    /// $F002's low two bits.
    pub mirroring: u8,
    /// $9002's low two bits (bit 0 enables PRG RAM, bit 1 writes).
    pub ram: u8,
    pub irq_reload: u16,
    pub irq_counter: u16,
    /// $F001's low four bits (bit 0 enables counting, 1-3 the width).
    pub irq_control: u8,
    /// The board holds the CPU's IRQ line low.
    pub irq_pending: bool,
}

#[derive(Clone, Serialize, Deserialize)]
pub struct Ss88006 {
    prg: [u8; 3],
    chr: [u8; 8],
    mirroring: u8,
    ram: u8,
    reload: u16,
    counter: u16,
    control: u8,
}

impl Default for Ss88006 {
    fn default() -> Ss88006 {
        Ss88006 {
            prg: [0; 3],
            chr: [0; 8],
            mirroring: 0,
            ram: 3,
            reload: 0,
            counter: 0,
            control: 0,
        }
    }
}

/// Sets the low (`high` false) or high nibble of `reg` from `value`'s low nibble.
fn nibble(reg: &mut u8, high: bool, value: u8) {
    *reg = if high {
        *reg & 0x0F | value << 4
    } else {
        *reg & 0xF0 | value & 0x0F
    };
}

impl Ss88006 {
    fn map(&self, core: &mut CartCore) {
        for (slot, &bank) in self.prg.iter().enumerate() {
            core.map_prg8(slot + 1, usize::from(bank & 0x3F));
        }
        core.map_prg8(4, core.prg_banks8() - 1);
        for (slot, &bank) in self.chr.iter().enumerate() {
            core.map_chr1(slot, usize::from(bank));
        }
        core.set_mirroring(match self.mirroring & 3 {
            0 => Mirroring::Horizontal,
            1 => Mirroring::Vertical,
            2 => Mirroring::SingleLow,
            _ => Mirroring::SingleHigh,
        });
        core.map_prg_ram(0, self.ram & 1 != 0, self.ram & 2 != 0);
    }

    /// The counter's counting bits: $F001 bit 3 leaves 4, bit 2 8, bit 1 12, none all 16.
    fn width_mask(&self) -> u16 {
        match self.control {
            c if c & 8 != 0 => 0x000F,
            c if c & 4 != 0 => 0x00FF,
            c if c & 2 != 0 => 0x0FFF,
            _ => 0xFFFF,
        }
    }

    /// Takes registers another emulator saved (`crate::import`).
    pub(crate) fn import(&mut self, core: &mut CartCore, r: &Ss88006Import) {
        self.prg = r.prg;
        self.chr = r.chr;
        self.mirroring = r.mirroring & 3;
        self.ram = r.ram & 3;
        self.reload = r.irq_reload;
        self.counter = r.irq_counter;
        self.control = r.irq_control & 0x0F;
        core.irq = r.irq_pending;
        self.map(core);
    }
}

impl Board for Ss88006 {
    fn power_on(&mut self, core: &mut CartCore) {
        self.map(core);
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if addr < 0x8000 {
            return;
        }
        let high = addr & 1 != 0;
        // The register pair: A14-A12 and A1.
        let pair = usize::from((addr >> 12) & 7) * 2 + usize::from(addr >> 1 & 1);
        match pair {
            0..=2 => nibble(&mut self.prg[pair], high, value),
            3 if !high => self.ram = value & 3,
            3 => {}
            4..=11 => nibble(&mut self.chr[pair - 4], high, value),
            12 | 13 => {
                let shift = (pair - 12) * 8 + usize::from(high) * 4;
                self.reload = self.reload & !(0xF << shift) | u16::from(value & 0xF) << shift;
            }
            14 if !high => {
                self.counter = self.reload;
                core.irq = false;
            }
            14 => {
                self.control = value & 0x0F;
                core.irq = false;
            }
            _ if !high => self.mirroring = value & 3,
            // $F003: the speech chip's control.
            _ => {}
        }
        self.map(core);
    }
    fn counts_cpu_cycles(&self) -> bool {
        true
    }
    fn cpu_cycle(&mut self, core: &mut CartCore) {
        if self.control & 1 == 0 {
            return;
        }
        let mask = self.width_mask();
        if self.counter & mask == 0 {
            self.counter |= mask;
            core.irq = true;
        } else {
            self.counter -= 1;
        }
    }
}
