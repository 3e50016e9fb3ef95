//! The boards imported as the register writes that give their saved state
//! ([`RegisterImport`]), one function per FCEUmm board file.
//!
//! Cycle counters are set so the IRQ comes when it would have in FCEUmm, which counts from
//! the same register values a few cycles apart from the hardware: the Irem H3001's IRQ 5
//! cycles after its count passes 0, the FME-7's and Sunsoft-3's when it reaches 0 where
//! the chips wait for the wrap to $FFFF. A stopped counter keeps the saved value. FCEUmm
//! keeps the board's IRQ output in its CPU's IRQ sources (`IQLB` bit 0).
//!
//! What FCEUmm models differently, and the import's answer:
//! - Irem H3001: FCEUmm gives it a $C000 bank register and no PRG mode; the chip has a mode
//!   bit and no $C000 register (nesdev wiki). A state showing the second-last bank at $C000
//!   (FCEUmm's power-on value, which games never change) is mode 0; any other is refused.
//!   Its mirroring register keeps only horizontal or vertical.
//! - Sunsoft FME-7: the 5B sound registers are not decoded (nesmind plays no 5B sound yet).
//! - NTDEC 2722: FCEUmm stops its counter at the IRQ and never lets the line fall by itself;
//!   a raised, unacknowledged IRQ is taken as just raised (the game acknowledges it first
//!   thing in its handler).

use super::{byte, bytes, count16, count32, irq_line, u16_of};
use crate::fceumm::{FceuState, StateError};
use nesmind_emu::{BoardImport, RegisterImport};

/// A board's state as `RegisterImport` takes it, before the mappers and IRQ line are added.
#[derive(Default)]
pub(super) struct Writes {
    writes: Vec<(u16, u8)>,
    ppu_fetches: Vec<u16>,
    cpu_cycles: u32,
}

impl Writes {
    fn poke(&mut self, addr: u16, value: u8) -> &mut Self {
        self.writes.push((addr, value));
        self
    }
}

pub(super) fn registers(mappers: &[u16], w: Writes, irq: bool) -> BoardImport {
    BoardImport::Registers(RegisterImport {
        mappers: mappers.to_vec(),
        writes: w.writes,
        ppu_fetches: w.ppu_fetches,
        cpu_cycles: w.cpu_cycles,
        irq,
    })
}

/// Mapper 32. FCEUmm saves four bytes of its two PRG registers (the first two count) and
/// keeps $9000 whole (bit 0 mirroring, bit 1 the PRG mode), as the chip decodes it.
pub(super) fn irem_g101(s: &FceuState) -> Result<Writes, StateError> {
    let prg = bytes(s, "PREG", 4)?;
    let mut w = Writes::default();
    w.poke(0x9000, byte(s, "MIRR")?)
        .poke(0x8000, prg[0])
        .poke(0xA000, prg[1]);
    for (i, &bank) in bytes(s, "CREG", 8)?.iter().enumerate() {
        w.poke(0xB000 + i as u16, bank);
    }
    Ok(w)
}

/// Mapper 65 (see the header for FCEUmm's $C000 register).
pub(super) fn irem_h3001(s: &FceuState) -> Result<Writes, StateError> {
    let prg = bytes(s, "PREG", 3)?;
    // FCEUmm's power-on $C000 bank is ~1: the second-last bank of any size.
    if prg[2] != 0xFE {
        return Err(StateError::Missing(format!(
            "PREG: bank {:#04X} at $C000, which the H3001 cannot select (it shows the \
             second-last bank there in PRG mode 0, and the $8000 register's in mode 1)",
            prg[2]
        )));
    }
    let mut w = Writes::default();
    // FCEUmm's mirroring is 1 for vertical, 0 for horizontal ($9001 bit 7 set).
    let horizontal = byte(s, "MIRR")? == 0;
    w.poke(0x9000, 0x00)
        .poke(0x8000, prg[0])
        .poke(0xA000, prg[1])
        .poke(0x9001, if horizontal { 0x80 } else { 0x00 });
    for (i, &bank) in bytes(s, "CREG", 8)?.iter().enumerate() {
        w.poke(0xB000 + i as u16, bank);
    }
    let enabled = byte(s, "IRQA")? & 0x80 != 0;
    let count = i64::from(count16(s, "IRQC")?);
    // FCEUmm raises the IRQ once its count goes below -4; the chip as it reaches 0.
    let counter = u16_of(if enabled { (count + 5).max(1) } else { count });
    let latch = count16(s, "IRQL")? as u16;
    let [c_hi, c_lo] = counter.to_be_bytes();
    let [l_hi, l_lo] = latch.to_be_bytes();
    // $9004 copies the latch into the counter; then the latch gets its own value.
    w.poke(0x9005, c_hi)
        .poke(0x9006, c_lo)
        .poke(0x9004, 0)
        .poke(0x9005, l_hi)
        .poke(0x9006, l_lo)
        .poke(0x9003, if enabled { 0x80 } else { 0x00 });
    Ok(w)
}

/// Mapper 75: FCEUmm keeps the written values ($9000 whole: mirroring, CHR high bits).
pub(super) fn vrc1(s: &FceuState) -> Result<Writes, StateError> {
    let prg = bytes(s, "PREG", 3)?;
    let chr = bytes(s, "CREG", 2)?;
    let mut w = Writes::default();
    w.poke(0x9000, byte(s, "MODE")?)
        .poke(0x8000, prg[0])
        .poke(0xA000, prg[1])
        .poke(0xC000, prg[2])
        .poke(0xE000, chr[0])
        .poke(0xF000, chr[1]);
    Ok(w)
}

/// Mappers 9 and 10: the registers, then a fetch of the $FD or $FE tile per latch.
pub(super) fn mmc2(s: &FceuState) -> Result<Writes, StateError> {
    let chr = bytes(s, "CREG", 4)?;
    let mut w = Writes::default();
    w.poke(0xA000, byte(s, "PREG")?);
    for (i, &bank) in chr.iter().enumerate() {
        w.poke(0xB000 + 0x1000 * i as u16, bank);
    }
    // FCEUmm keeps 0 for horizontal ($F000 bit 0 set), 1 for vertical.
    w.poke(0xF000, (byte(s, "MIRR")? & 1) ^ 1);
    // Latch 0 means tile $FD ($xFD8 fetched), 1 tile $FE ($xFE8).
    for (half, name) in [(0x0000, "LAT0"), (0x1000, "LAT1")] {
        let tile = if byte(s, name)? & 1 == 0 {
            0x0FD8
        } else {
            0x0FE8
        };
        w.ppu_fetches.push(half | tile);
    }
    Ok(w)
}

/// Mapper 69: every command register through $8000/$A000, the counter, then the IRQ
/// control (which acknowledges) and the command register as saved.
pub(super) fn fme7(s: &FceuState) -> Result<Writes, StateError> {
    let prg = bytes(s, "PREG", 4)?;
    let mut w = Writes::default();
    let command = |w: &mut Writes, c: u8, v: u8| {
        w.poke(0x8000, c).poke(0xA000, v);
    };
    for (i, &bank) in bytes(s, "CREG", 8)?.iter().enumerate() {
        command(&mut w, i as u8, bank);
    }
    // PREG holds $8000, $A000, $C000, then the $6000 register.
    command(&mut w, 8, prg[3]);
    for (i, &bank) in prg[..3].iter().enumerate() {
        command(&mut w, 9 + i as u8, bank);
    }
    command(&mut w, 0xC, byte(s, "MIRR")? & 3);
    let control = byte(s, "IRQA")?;
    let count = count32(s, "IRQC")?;
    // FCEUmm counts while any bit of the control is set and raises the IRQ at 0.
    let counter = u16_of(if control != 0 {
        count.max(1) - 1
    } else {
        count
    });
    let [hi, lo] = counter.to_be_bytes();
    command(&mut w, 0xE, lo);
    command(&mut w, 0xF, hi);
    command(&mut w, 0xD, control);
    w.poke(0x8000, byte(s, "CMDR")?);
    Ok(w)
}

/// Mapper 67: banks and mirroring, the counter loaded high byte then low, the control,
/// and the write toggle left as saved.
pub(super) fn sunsoft3(s: &FceuState) -> Result<Writes, StateError> {
    let mut w = Writes::default();
    for (i, &bank) in bytes(s, "CREG", 4)?.iter().enumerate() {
        w.poke(0x8800 + 0x1000 * i as u16, bank);
    }
    w.poke(0xE800, byte(s, "MIRR")?)
        .poke(0xF800, byte(s, "PREG")?);
    let control = byte(s, "IRQA")? & 0x10;
    let count = i64::from(count16(s, "IRQC")?);
    // FCEUmm raises the IRQ as its count reaches 0, the chip as it wraps to $FFFF; FCEUmm
    // leaves -1 ($FFFF) after an IRQ, as the chip does.
    let counter = if control != 0 {
        u16_of(count.max(1) - 1)
    } else {
        count as u16
    };
    let [hi, lo] = counter.to_be_bytes();
    // $D800 resets the toggle: high byte next.
    w.poke(0xD800, 0)
        .poke(0xC800, hi)
        .poke(0xC800, lo)
        .poke(0xD800, control);
    if byte(s, "STOG")? & 1 != 0 {
        // Toggle at "low byte next": rewrite the high byte with its own value.
        w.poke(0xC800, hi);
    }
    Ok(w)
}

/// Mapper 40: the $C000 bank, then the counter: held at 0, or let run the cycles FCEUmm
/// counted (see the header for a raised IRQ).
pub(super) fn ntdec2722(s: &FceuState) -> Result<Writes, StateError> {
    let mut w = Writes::default();
    w.poke(0xE000, byte(s, "REG")?).poke(0x8000, 0);
    let counting = count32(s, "IRQA")? != 0;
    if counting {
        let count = count32(s, "IRQC")?;
        w.poke(0xA000, 0);
        w.cpu_cycles = count.clamp(0, 4095) as u32;
    } else if irq_line(s)? {
        w.poke(0xA000, 0);
        w.cpu_cycles = 4096;
    }
    Ok(w)
}
