//! The pieces of an FCEUmm state a machine is built from, decoded into plain fields for the
//! boards nesmind loads (NROM, MMC1, the discrete latches of UxROM, CNROM, AxROM and
//! GxROM, MMC3, the Taito TC0190/TC0690 and the Jaleco SS88006), and the machine built from them ([`MachineParts::to_machine`], through
//! `nesmind_emu::import`).
//!
//! What FCEUmm keeps, and so what a loader gets: CPU registers and RAM; the PPU's
//! registers ($2000, $2001, $2002, $2003), its address latches (v, t, fine x, the write
//! toggle), read buffer and open-bus latch, the odd-frame toggle; nametable RAM, palette
//! and OAM; work RAM and CHR RAM; the board's registers: MMC1's four and its serial
//! port; a discrete latch's last value (`LATC`, taken after the bus conflict's AND); MMC3's
//! eight bank registers (`REGS`), $8000 (`CMD`), $A000, $A001, and its IRQ reload flag,
//! counter, latch and enable; the Taito TC0190/TC0690's eight bank registers, mirroring and
//! IRQ counter (see `taito`); the Jaleco SS88006's bank registers, mirroring and IRQ counter
//! (see `ss88006`); and the CPU's IRQ line (`IQLB`), whose bit 0 is the board's.
//!
//! What it does not keep, and the machine assumes:
//! - the PPU's scanline and dot: stable-retro saves between frames, and FCEUmm's frame
//!   ends as its line 239 finishes, so the machine starts where `Machine::run_frame`
//!   leaves one (line 240, dot 1);
//! - the CPU's position within the frame beyond its cycle counters (not decoded);
//! - the sound: the APU starts as it powers on (the sound section is not decoded), but for
//!   the frame counter's mode and IRQ inhibit ($4017's bits 6-7, FCEUmm's `IQFM`), which are
//!   written to it, so a game that turned the frame IRQ off and takes its board's IRQs does
//!   not get one it never acknowledges; the frame counter's sequence starts at the import;
//! - the palette's $3F04/$3F08/$3F0C: FCEUmm keeps the backdrop colour in those entries of
//!   its palette RAM and their written values beside it, unsaved; they show only when a
//!   game reads them back or points $2006 at them with rendering off;
//! - which ROM it belongs to: the state names no ROM, so a state of another game on the
//!   same board and RAM sizes loads (and runs that game's RAM on this ROM's code). The
//!   latch layout is one for UxROM, CNROM, AxROM and GxROM: what its value selects is the
//!   ROM's mapper; whether writes have bus conflicts (`BUSC`) too is the ROM's header;
//! - MMC3's A12 filter: FCEUmm clocks the counter once per line and keeps no filter, so
//!   A12 is taken as low for long (nothing is fetched from the pattern tables on the
//!   post-render line), and the next rise counts;
//! - MMC3's PRG RAM enable: FCEUmm's MMC3 ignores $A001 (its PRG RAM is always on), and a
//!   game that never wrote it leaves FCEUmm's power-on 0 there; a value with the enable bit
//!   clear is taken as nesmind's power-on $80 (enabled, writable);
//! - TxSROM's `PPUC` (the 1 KiB CHR slot the PPU last fetched from, which FCEUmm's mirroring
//!   follows) is not needed: nesmind's TxSROM maps each nametable from the CHR registers.

use crate::fceumm::{FceuState, SectionKind, StateError};
use crate::layout;
use nesmind_emu::{
    BoardImport, CpuImport, Machine, MachineImport, Mmc1Import, Mmc3Import, PpuImport, Rom,
    Ss88006Import, TaitoImport,
};

/// Everything a machine needs from a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineParts {
    pub cpu: crate::fceumm::CpuRegs,
    pub ram: Vec<u8>,
    /// The PPU and the board as `nesmind_emu` takes them (FCEUmm's $3F04/$3F08/$3F0C hold
    /// the backdrop: see the header).
    pub ppu: PpuImport,
    pub board: BoardImport,
    pub wram: Option<Vec<u8>>,
    pub chr_ram: Option<Vec<u8>>,
    /// $4017's bits 6-7 as the game last wrote them (FCEUmm's `IQFM` keeps them in bits
    /// 0-1), when saved.
    pub apu_frame_counter: Option<u8>,
}

impl MachineParts {
    /// Decodes a state whose board nesmind loads (see the header); others are named in the
    /// error.
    pub fn from_state(s: &FceuState) -> Result<MachineParts, StateError> {
        let entries = s.board_entries();
        let board = match layout::identify(&entries).map(|l| l.board) {
            Some("NROM (no board registers)") => BoardImport::Nrom,
            Some("MMC1") => {
                // Control, CHR bank 0, CHR bank 1, PRG bank.
                let regs = s.entry(SectionKind::Board, "DREG", 4)?;
                BoardImport::Mmc1(Mmc1Import {
                    control: regs[0],
                    chr0: regs[1],
                    chr1: regs[2],
                    prg: regs[3],
                    shift: s.entry(SectionKind::Board, "BFFR", 1)?[0],
                    shift_count: s.entry(SectionKind::Board, "BFRS", 1)?[0],
                })
            }
            Some(b) if b.starts_with("discrete latch") => {
                // FCEUmm's latch boards keep the value last latched (after the bus
                // conflict's AND) and whether the board has bus conflicts, which nesmind
                // takes from the ROM's header instead.
                BoardImport::Latch(s.entry(SectionKind::Board, "LATC", 1)?[0])
            }
            Some(b) if b.starts_with("MMC3") => BoardImport::Mmc3(mmc3(s)?),
            Some("Taito TC0190/TC0690") => BoardImport::Taito(taito(s)?),
            Some("Jaleco SS88006") => BoardImport::Ss88006(ss88006(s)?),
            _ => {
                return Err(StateError::Missing(format!(
                    "a decoder for this board ({}): only NROM, MMC1, the discrete latches \
                     (UxROM, CNROM, AxROM, GxROM), MMC3, the Taito TC0190/TC0690 and the Jaleco SS88006 so far",
                    layout::describe(&entries)
                )));
            }
        };
        let ppu = |name, len| s.entry(SectionKind::Ppu, name, len);
        let byte = |name| ppu(name, 1).map(|d| d[0]);
        let word = |name| ppu(name, 2).map(|d| u16::from_le_bytes([d[0], d[1]]));
        let regs = ppu("PPUR", 4)?;
        let optional = |name: &str| {
            s.section(SectionKind::Board)
                .and_then(|sec| sec.entries.iter().find(|e| e.name == name))
                .map(|e| e.data.clone())
        };
        Ok(MachineParts {
            cpu: s.cpu()?,
            ram: s.ram()?.to_vec(),
            ppu: PpuImport {
                ctrl: regs[0],
                mask: regs[1],
                status: regs[2],
                oam_addr: regs[3],
                v: word("RADD")?,
                t: word("TADD")?,
                fine_x: byte("XOFF")?,
                w: byte("VTGL")? != 0,
                read_buffer: byte("VBUF")?,
                open_bus: byte("PGEN")?,
                odd_frame: ppu("KOOK", 1).is_ok_and(|d| d[0] & 1 != 0),
                nametables: ppu("NTAR", 0x800)?.to_vec(),
                palette: sized(ppu("PRAM", 0x20)?, "PRAM")?,
                oam: sized(ppu("SPRA", 0x100)?, "SPRA")?,
            },
            board,
            wram: optional("WRAM"),
            chr_ram: optional("CHRR"),
            apu_frame_counter: s
                .entry(SectionKind::Sound, "IQFM", 1)
                .ok()
                // FCEUmm keeps the written value shifted down: bit 1 5-step, bit 0 no IRQ.
                .map(|d| (d[0] & 3) << 6),
        })
    }
}

/// MMC3's entries (both layouts: TxSROM's adds `PPUC`, the 1 KiB CHR slot the PPU last
/// fetched from, which nesmind's TxSROM does not need as it follows every fetch).
fn mmc3(s: &FceuState) -> Result<Mmc3Import, StateError> {
    let byte = |name| s.entry(SectionKind::Board, name, 1).map(|d| d[0]);
    // FCEUmm stores only 0 and 1 in its flags.
    let flag = |name| match byte(name)? {
        0 => Ok(false),
        1 => Ok(true),
        v => Err(StateError::Missing(format!(
            "{name}: a flag (0 or 1) expected, found {v:#04X}"
        ))),
    };
    // The IRQ line: FCEUmm's CPU keeps its sources in IQLB, bit 0 the board's.
    let line = s.entry(SectionKind::CpuCounters, "IQLB", 4)?;
    // FCEUmm's MMC3 ignores $A001 (its PRG RAM is always on), so a game that never wrote
    // it leaves its power-on 0 there, where nesmind's MMC3 powers on with $80.
    let a001 = byte("A001")?;
    Ok(Mmc3Import {
        regs: sized(s.entry(SectionKind::Board, "REGS", 8)?, "REGS")?,
        select: byte("CMD")?,
        mirroring: byte("A000")?,
        ram_protect: if a001 & 0x80 != 0 { a001 } else { 0x80 },
        irq_latch: byte("IRQL")?,
        irq_counter: byte("IRQC")?,
        irq_reload: flag("IRQR")?,
        irq_enabled: flag("IRQA")?,
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
        chr: sized(board("CREG", 8)?, "CREG")?,
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

/// A nesmind machine with `rom` inserted, started from an FCEUmm state file's bytes
/// (gzip-wrapped or raw) of a game on a board nesmind loads (see the header).
pub fn load(file: &[u8], rom: &Rom) -> Result<Machine, StateError> {
    MachineParts::from_state(&FceuState::parse(file)?)?.to_machine(rom)
}

impl MachineParts {
    /// A nesmind machine in this state, with `rom` inserted, ready for its next frame. A
    /// state whose board is not this ROM's, or whose RAM sizes are not its cart's, is
    /// refused with the reason.
    pub fn to_machine(&self, rom: &Rom) -> Result<Machine, StateError> {
        Machine::import(rom, &self.to_import()?).map_err(|e| StateError::DoesNotFit(e.to_string()))
    }

    /// The same values as `nesmind_emu` takes them.
    pub fn to_import(&self) -> Result<MachineImport, StateError> {
        let c = &self.cpu;
        Ok(MachineImport {
            cpu: CpuImport {
                a: c.a,
                x: c.x,
                y: c.y,
                s: c.s,
                p: c.p,
                pc: c.pc,
            },
            cpu_open_bus: c.data_bus,
            ram: sized(&self.ram, "RAM")?,
            ppu: self.ppu.clone(),
            board: self.board,
            prg_ram: self.wram.clone(),
            chr_ram: self.chr_ram.clone(),
            apu_frame_counter: self.apu_frame_counter,
        })
    }
}

/// `data` as a fixed-size array, or an error naming the entry.
fn sized<const N: usize>(data: &[u8], name: &str) -> Result<[u8; N], StateError> {
    data.try_into().map_err(|_| {
        StateError::Missing(format!("{name}: {N} bytes expected, found {}", data.len()))
    })
}

#[cfg(test)]
#[path = "parts_tests.rs"]
mod tests;
