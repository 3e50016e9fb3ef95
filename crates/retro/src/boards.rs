//! A state's board registers, decoded from what each FCEUmm board file saves (learnt from
//! those files: FCEUmm writes no mapper number, and each board names its own entries).
//!
//! NROM, MMC1, the discrete latches, MMC3 and VRC2/VRC4 (whose prescaler no write sets)
//! have typed imports. Every other board is given as the register writes that put it in
//! the saved state ([`RegisterImport`]), so the board's own decoding sets it, plus PPU
//! fetches for MMC2/MMC4's latches and CPU cycles for NTDEC 2722's counter, which no write
//! loads.
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

use crate::fceumm::{FceuState, SectionKind, StateError};
use crate::layout;
use nesmind_emu::{BoardImport, Mmc1Import, Mmc3Import, RegisterImport, Vrc2_4Import};

/// The board's registers of a state whose board nesmind loads; others are named in the error.
pub fn decode(s: &FceuState) -> Result<BoardImport, StateError> {
    let entries = s.board_entries();
    let Some(found) = layout::identify(&entries) else {
        return Err(unsupported(&entries));
    };
    let board = found.board;
    // Boards without an IRQ source ignore FCEUmm's IRQ line.
    let regs = |writes: Writes, has_irq: bool| -> Result<BoardImport, StateError> {
        let irq = has_irq && irq_line(s)?;
        Ok(registers(found.mappers, writes, irq))
    };
    Ok(match board {
        "NROM (no board registers)" => BoardImport::Nrom,
        "MMC1" => mmc1(s)?,
        // FCEUmm's latch boards keep the value last latched (after the bus conflict's AND)
        // and whether the board has bus conflicts, which nesmind takes from the ROM's
        // header instead. Mapper 185's latch is the value written, as its board sees it.
        b if b.starts_with("discrete latch") => {
            BoardImport::Latch(s.entry(SectionKind::Board, "LATC", 1)?[0])
        }
        "CNROM with copy protection" => {
            BoardImport::Latch(s.entry(SectionKind::Board, "DREG", 1)?[0])
        }
        b if b.starts_with("MMC3") => BoardImport::Mmc3(mmc3(s)?),
        "Konami VRC2/VRC4" => BoardImport::Vrc2_4(vrc2_4(s)?),
        "Irem G-101" => regs(irem_g101(s)?, false)?,
        "Irem H3001" => regs(irem_h3001(s)?, true)?,
        "Konami VRC1" => regs(vrc1(s)?, false)?,
        "MMC2/MMC4" => regs(mmc2(s)?, false)?,
        "Sunsoft FME-7/5B" => regs(fme7(s)?, true)?,
        "Sunsoft-3" => regs(sunsoft3(s)?, true)?,
        "NTDEC 2722 (SMB2J conversion)" => regs(ntdec2722(s)?, true)?,
        _ => return Err(unsupported(&entries)),
    })
}

fn unsupported(entries: &[(String, usize)]) -> StateError {
    StateError::Missing(format!(
        "a decoder for this board ({}): NROM, MMC1, the discrete latches, MMC3, VRC2/VRC4, \
         mapper 185, Irem G-101 and H3001, VRC1, MMC2/MMC4, FME-7, Sunsoft-3 and NTDEC 2722 \
         so far",
        layout::describe(entries)
    ))
}

/// A board's state as `RegisterImport` takes it, before the mappers and IRQ line are added.
#[derive(Default)]
struct Writes {
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

fn registers(mappers: &[u16], w: Writes, irq: bool) -> BoardImport {
    BoardImport::Registers(RegisterImport {
        mappers: mappers.to_vec(),
        writes: w.writes,
        ppu_fetches: w.ppu_fetches,
        cpu_cycles: w.cpu_cycles,
        irq,
    })
}

/// The board's IRQ output: FCEUmm's CPU keeps its IRQ sources in `IQLB`, bit 0 the board's.
fn irq_line(s: &FceuState) -> Result<bool, StateError> {
    Ok(s.entry(SectionKind::CpuCounters, "IQLB", 4)?[0] & 1 != 0)
}

fn bytes<'a>(s: &'a FceuState, name: &str, len: usize) -> Result<&'a [u8], StateError> {
    s.entry(SectionKind::Board, name, len)
}

fn byte(s: &FceuState, name: &str) -> Result<u8, StateError> {
    Ok(bytes(s, name, 1)?[0])
}

/// A signed 16-bit counter, saved low byte first.
fn count16(s: &FceuState, name: &str) -> Result<i32, StateError> {
    let d = bytes(s, name, 2)?;
    Ok(i32::from(i16::from_le_bytes([d[0], d[1]])))
}

/// A 32-bit counter, saved low byte first.
fn count32(s: &FceuState, name: &str) -> Result<i64, StateError> {
    let d = bytes(s, name, 4)?;
    Ok(i64::from(i32::from_le_bytes([d[0], d[1], d[2], d[3]])))
}

/// A 16-bit register value from a count, clamped into its range.
fn u16_of(count: i64) -> u16 {
    count.clamp(0, 0xFFFF) as u16
}

fn mmc1(s: &FceuState) -> Result<BoardImport, StateError> {
    // Control, CHR bank 0, CHR bank 1, PRG bank.
    let regs = bytes(s, "DREG", 4)?;
    Ok(BoardImport::Mmc1(Mmc1Import {
        control: regs[0],
        chr0: regs[1],
        chr1: regs[2],
        prg: regs[3],
        shift: byte(s, "BFFR")?,
        shift_count: byte(s, "BFRS")?,
    }))
}

/// MMC3's entries (both layouts: TxSROM's adds `PPUC`, the 1 KiB CHR slot the PPU last
/// fetched from, which nesmind's TxSROM does not need as it follows every fetch).
fn mmc3(s: &FceuState) -> Result<Mmc3Import, StateError> {
    // FCEUmm stores only 0 and 1 in its flags.
    let flag = |name| match byte(s, name)? {
        0 => Ok(false),
        1 => Ok(true),
        v => Err(StateError::Missing(format!(
            "{name}: a flag (0 or 1) expected, found {v:#04X}"
        ))),
    };
    // FCEUmm's MMC3 ignores $A001 (its PRG RAM is always on), so a game that never wrote
    // it leaves its power-on 0 there, where nesmind's MMC3 powers on with $80.
    let a001 = byte(s, "A001")?;
    Ok(Mmc3Import {
        regs: bytes(s, "REGS", 8)?
            .try_into()
            .expect("entry() checked the size"),
        select: byte(s, "CMD")?,
        mirroring: byte(s, "A000")?,
        ram_protect: if a001 & 0x80 != 0 { a001 } else { 0x80 },
        irq_latch: byte(s, "IRQL")?,
        irq_counter: byte(s, "IRQC")?,
        irq_reload: flag("IRQR")?,
        irq_enabled: flag("IRQA")?,
        irq_pending: irq_line(s)?,
    })
}

/// Mapper 32. FCEUmm saves four bytes of its two PRG registers (the first two count) and
/// keeps $9000 whole (bit 0 mirroring, bit 1 the PRG mode), as the chip decodes it.
fn irem_g101(s: &FceuState) -> Result<Writes, StateError> {
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
fn irem_h3001(s: &FceuState) -> Result<Writes, StateError> {
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
fn vrc1(s: &FceuState) -> Result<Writes, StateError> {
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
fn mmc2(s: &FceuState) -> Result<Writes, StateError> {
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
fn fme7(s: &FceuState) -> Result<Writes, StateError> {
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
fn sunsoft3(s: &FceuState) -> Result<Writes, StateError> {
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
fn ntdec2722(s: &FceuState) -> Result<Writes, StateError> {
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

/// Konami VRC2/VRC4's entries, as FCEUmm's `vrc2and4.c` of stable-retro's time keeps
/// them: `PREG` the two PRG registers; `CREG` each CHR bank's low byte (its two nibbles)
/// and `CRGH` its ninth bit (16-bit words, 0 or $100); `CMDR` the last $9002/$9003 value;
/// `MIRR` the last $9000/$9001 value; `IRQL` the latch; `IRQC` the counter (a 16-bit word
/// whose bit 8 never stays set); `IRQA` the enable (nonzero on) and `CMDI` the enable after
/// acknowledge. `BIGB` ORs $20 into PRG bank numbers (a multicart's outer bank; on ROMs
/// of 256 KiB or less the bank numbers wrap, and nesmind has no such multicart).
///
/// What FCEUmm does not keep, and the import assumes: the prescaler (taken as just reset),
/// the IRQ mode (its counter always runs on the prescaler: scanline mode), and PRG RAM's
/// enable (always on in FCEUmm: $9002 bit 0 is taken as set).
fn vrc2_4(s: &FceuState) -> Result<Vrc2_4Import, StateError> {
    let entry = |name, len| s.entry(SectionKind::Board, name, len);
    let byte = |name| entry(name, 1).map(|d| d[0]);
    let creg = entry("CREG", 8)?;
    let crgh = entry("CRGH", 16)?;
    let chr = std::array::from_fn(|i| {
        u16::from(creg[i]) | u16::from_le_bytes([crgh[2 * i], crgh[2 * i + 1]]) & 0x100
    });
    let prg = entry("PREG", 2)?;
    let counter = entry("IRQC", 2)?;
    let line = s.entry(SectionKind::CpuCounters, "IQLB", 4)?;
    Ok(Vrc2_4Import {
        prg: [prg[0], prg[1]],
        chr,
        control: byte("CMDR")? | 1,
        mirroring: byte("MIRR")?,
        irq_latch: byte("IRQL")?,
        irq_counter: counter[0],
        irq_enabled: byte("IRQA")? != 0,
        irq_enable_after_ack: byte("CMDI")? & 1 != 0,
        irq_cycle_mode: false,
        irq_pending: line[0] & 1 != 0,
    })
}
