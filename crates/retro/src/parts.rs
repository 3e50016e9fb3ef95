//! The pieces of an FCEUmm state a machine is built from, decoded into plain fields for the
//! boards nesmind will load first (NROM and MMC1). This is the groundwork for starting a
//! nesmind machine from a stable-retro state; the loading itself is not built yet.
//!
//! What FCEUmm keeps, and so what a loader gets: CPU registers and RAM; the PPU's
//! registers ($2000, $2001, $2002, $2003), its address latches (v, t, fine x, the write
//! toggle), read buffer and open-bus latch; nametable RAM, palette and OAM; work RAM and
//! CHR RAM; the board's registers. What it does not keep, and a loader must assume: the
//! PPU's scanline and dot (stable-retro saves between frames, so the start of the
//! pre-render line is the natural guess), the CPU's position within the frame beyond its
//! cycle counters, and most APU internals (the sound section is not decoded here).

use crate::fceumm::{FceuState, SectionKind, StateError};
use crate::layout;

/// The PPU as FCEUmm saves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PpuParts {
    pub ctrl: u8,
    pub mask: u8,
    pub status: u8,
    pub oam_addr: u8,
    /// The current VRAM address (`v`) and the temporary one (`t`).
    pub v: u16,
    pub t: u16,
    pub fine_x: u8,
    /// The $2005/$2006 write toggle: true after the first write.
    pub w: bool,
    pub read_buffer: u8,
    /// The last value written to or read from a PPU register (open bus).
    pub open_bus: u8,
    pub nametables: Vec<u8>,
    pub palette: Vec<u8>,
    pub oam: Vec<u8>,
}

/// The board's state, for the boards decoded so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardParts {
    Nrom,
    Mmc1 {
        /// Control, CHR bank 0, CHR bank 1, PRG bank.
        regs: [u8; 4],
        /// The serial port's bits so far and how many.
        shift: u8,
        shift_count: u8,
    },
}

/// Everything a NROM or MMC1 machine needs from a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineParts {
    pub cpu: crate::fceumm::CpuRegs,
    pub ram: Vec<u8>,
    pub ppu: PpuParts,
    pub board: BoardParts,
    pub wram: Option<Vec<u8>>,
    pub chr_ram: Option<Vec<u8>>,
}

impl MachineParts {
    /// Decodes a state whose board is NROM or MMC1; others are named in the error.
    pub fn from_state(s: &FceuState) -> Result<MachineParts, StateError> {
        let entries = s.board_entries();
        let board = match layout::identify(&entries).map(|l| l.board) {
            Some("NROM (no board registers)") => BoardParts::Nrom,
            Some("MMC1") => {
                let regs = s.entry(SectionKind::Board, "DREG", 4)?;
                BoardParts::Mmc1 {
                    regs: [regs[0], regs[1], regs[2], regs[3]],
                    shift: s.entry(SectionKind::Board, "BFFR", 1)?[0],
                    shift_count: s.entry(SectionKind::Board, "BFRS", 1)?[0],
                }
            }
            _ => {
                return Err(StateError::Missing(format!(
                    "a decoder for this board ({}): only NROM and MMC1 so far",
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
            ppu: PpuParts {
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
                nametables: ppu("NTAR", 0x800)?.to_vec(),
                palette: ppu("PRAM", 0x20)?.to_vec(),
                oam: ppu("SPRA", 0x100)?.to_vec(),
            },
            board,
            wram: optional("WRAM"),
            chr_ram: optional("CHRR"),
        })
    }
}
