//! The pieces of an FCEUmm state a machine is built from, decoded into plain fields (the
//! board's registers by `crate::boards`, which lists the boards), and the machine built
//! from them ([`MachineParts::to_machine`], through `nesmind_emu::import`).
//!
//! What FCEUmm keeps, and so what a loader gets: CPU registers and RAM; the PPU's
//! registers ($2000, $2001, $2002, $2003), its address latches (v, t, fine x, the write
//! toggle), read buffer and open-bus latch, the odd-frame toggle; nametable RAM, palette
//! and OAM; work RAM and CHR RAM; the board's registers: MMC1's four and its serial
//! port; a discrete latch's last value (`LATC`, taken after the bus conflict's AND); MMC3's
//! eight bank registers (`REGS`), $8000 (`CMD`), $A000, $A001, and its IRQ reload flag,
//! counter, latch and enable; other boards' registers and counters as each board file
//! keeps them; and the CPU's IRQ line (`IQLB`), whose bit 0 is the board's.
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
use nesmind_emu::{BoardImport, CpuImport, Machine, MachineImport, PpuImport, Rom};

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
        let board = crate::boards::decode(s)?;
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
            board: self.board.clone(),
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
