//! A state's board registers, decoded from what each FCEUmm board file saves (learnt from
//! those files: FCEUmm writes no mapper number, and each board names its own entries).
//!
//! NROM, MMC1, the discrete latches, MMC3, VRC2/VRC4 (whose prescaler no write sets), the
//! Taito TC0190/TC0690 and the Jaleco SS88006 have typed imports, decoded here. Every
//! other board is given as the register writes that put it in the saved state
//! ([`nesmind_emu::RegisterImport`]), so the board's own decoding sets it, plus PPU fetches
//! for MMC2/MMC4's latches and CPU cycles for NTDEC 2722's counter, which no write loads
//! (`writes`, which also says where FCEUmm's model differs).

use crate::fceumm::{FceuState, SectionKind, StateError};
use crate::layout;
use nesmind_emu::{BoardImport, Mmc1Import, Mmc3Import, Ss88006Import, TaitoImport, Vrc2_4Import};
use writes::{Writes, fme7, irem_g101, irem_h3001, mmc2, ntdec2722, registers, sunsoft3, vrc1};

mod writes;

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
        "Taito TC0190/TC0690" => BoardImport::Taito(taito(s)?),
        "Jaleco SS88006" => BoardImport::Ss88006(ss88006(s)?),
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
         Taito TC0190/TC0690, Jaleco SS88006, mapper 185, Irem G-101 and H3001, VRC1, \
         MMC2/MMC4, FME-7, Sunsoft-3 and NTDEC 2722 so far",
        layout::describe(entries)
    ))
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

/// The Taito TC0190/TC0690's entries (one layout for mappers 33 and 48): `PREG` holds the
/// two PRG registers and the six CHR registers, `MIRR` FCEUmm's mirroring (0 horizontal),
/// `IRQA` the enable, `IRQL` the byte written to $C000 and `IRQC` FCEUmm's counter (both
/// 16-bit, low byte first). FCEUmm counts up from the written byte once a line and raises
/// the IRQ at 256, disabling itself; nesmind's counter counts down from the complement
/// (MMC3's), so the lines left carry over as the count, and a count at 256 or beyond (none
/// left, or none under way) as a reload at the next clock. An IRQ pending keeps the enable.
fn taito(s: &FceuState) -> Result<TaitoImport, StateError> {
    let regs = s.entry(SectionKind::Board, "PREG", 8)?;
    let word = |name| {
        s.entry(SectionKind::Board, name, 2)
            .map(|d| i16::from_le_bytes([d[0], d[1]]))
    };
    let (count, latch) = (word("IRQC")?, word("IRQL")?);
    let left = 256 - i32::from(count);
    let line = s.entry(SectionKind::CpuCounters, "IQLB", 4)?;
    let pending = line[0] & 1 != 0;
    Ok(TaitoImport {
        prg: [regs[0], regs[1]],
        chr: [regs[2], regs[3], regs[4], regs[5], regs[6], regs[7]],
        horizontal: s.entry(SectionKind::Board, "MIRR", 1)?[0] == 0,
        irq_latch: !(latch as u8),
        irq_counter: if (1..=255).contains(&left) {
            left as u8
        } else {
            0
        },
        irq_reload: !(1..=255).contains(&left),
        irq_enabled: s.entry(SectionKind::Board, "IRQA", 1)?[0] != 0 || pending,
        irq_pending: pending,
    })
}

/// The Jaleco SS88006's entries: `PREG` the three PRG banks (and FCEUmm's fixed last one),
/// `CREG` the eight CHR banks, `MIRR` $F002's two bits (see below), `IRQA` the enable alone (FCEUmm
/// ignores $F001's width bits and $9002: the counter is taken as 16 bits wide and PRG RAM
/// as on and writable), `IRQL` the reload value and `IRQC` the count (32-bit, low byte
/// first). FCEUmm raises the IRQ when its count reaches 0 and disables itself; nesmind's
/// counter raises it when it wraps from 0, a cycle later, so one less carries over.
fn ss88006(s: &FceuState) -> Result<Ss88006Import, StateError> {
    let board = |name, len| s.entry(SectionKind::Board, name, len);
    let prg = board("PREG", 4)?;
    let word = |name| board(name, 4).map(|d| i32::from_le_bytes([d[0], d[1], d[2], d[3]]));
    let count = word("IRQC")?.clamp(0, 0x1_0000);
    let line = s.entry(SectionKind::CpuCounters, "IQLB", 4)?;
    Ok(Ss88006Import {
        prg: [prg[0], prg[1], prg[2]],
        chr: board("CREG", 8)?
            .try_into()
            .expect("entry() checked the size"),
        // FCEUmm shows the first nametable for both one-screen values, and the state's
        // nametables were written through that.
        mirroring: match board("MIRR", 1)?[0] & 3 {
            3 => 2,
            m => m,
        },
        ram: 3,
        irq_reload: word("IRQL")? as u16,
        irq_counter: (count.max(1) - 1) as u16,
        irq_control: board("IRQA", 1)?[0] & 1,
        irq_pending: line[0] & 1 != 0,
    })
}
