//! The pieces of an FCEUmm state a machine is built from, decoded into plain fields for the
//! boards nesmind loads (NROM, MMC1, the discrete latches of UxROM, CNROM, AxROM and
//! GxROM, MMC3, and Konami VRC2/VRC4: see `vrc2_4`), and the machine built from them
//! ([`MachineParts::to_machine`], through `nesmind_emu::import`).
//!
//! What FCEUmm keeps, and so what a loader gets: CPU registers and RAM; the PPU's
//! registers ($2000, $2001, $2002, $2003), its address latches (v, t, fine x, the write
//! toggle), read buffer and open-bus latch, the odd-frame toggle; nametable RAM, palette
//! and OAM; work RAM and CHR RAM; the board's registers: MMC1's four and its serial
//! port; a discrete latch's last value (`LATC`, taken after the bus conflict's AND); MMC3's
//! eight bank registers (`REGS`), $8000 (`CMD`), $A000, $A001, and its IRQ reload flag,
//! counter, latch and enable; and the CPU's IRQ line (`IQLB`), whose bit 0 is the board's.
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
    Vrc2_4Import,
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
            Some("Konami VRC2/VRC4") => BoardImport::Vrc2_4(vrc2_4(s)?),
            _ => {
                return Err(StateError::Missing(format!(
                    "a decoder for this board ({}): only NROM, MMC1, the discrete latches \
                     (UxROM, CNROM, AxROM, GxROM), MMC3 and VRC2/VRC4 so far",
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
