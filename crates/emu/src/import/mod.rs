//! Building a machine from another emulator's state, given as plain values: CPU registers
//! and RAM, the PPU's registers, latches and memories, the board's registers, PRG RAM and
//! CHR RAM. `nesmind-retro` uses it to start play from stable-retro's FCEUmm states; the
//! values say nothing about where they came from.
//!
//! What an import assumes, because such states do not hold it:
//! - **Where in the frame.** The machine is put where [`Machine::run_frame`] leaves one:
//!   the PPU has just run the post-render line's first dot (line 240, dot 1: the picture
//!   is complete, VBL and the NMI are ahead) and the CPU is at an instruction boundary.
//!   Emulators that save between frames (FCEUmm under libretro ends each frame as its
//!   line 239 finishes) are then continued from the same point of the frame.
//! - **The APU** stays as it powers on (channels silent): games rewrite their sound
//!   registers as they play. Only the frame counter's mode is taken, when given
//!   (`apu_frame_counter`, written to $4017 at the import): a game that turned the frame
//!   IRQ off at reset and then cleared I (to take its board's IRQs) would otherwise be
//!   interrupted forever by an IRQ it never acknowledges. Its sequence starts at the
//!   import.
//! - **Interrupts**: no NMI is pending, nor an IRQ but the one a board's registers say it
//!   holds (MMC3's and VRC4's `irq_pending`), the controllers' shift registers are empty
//!   (games strobe them each frame), the CPU's cycle count and the PPU's frame count start
//!   where power-on leaves them.
//! - **The picture** is blank until the first frame is drawn.
//!
//! Nametable RAM is given as the console's 2 KiB of CIRAM (4 KiB on four-screen carts) in
//! the order the chip holds it: which 1 KiB page shows at $2000-$2FFF follows the header's
//! mirroring, or for MMC1 the imported control register, exactly as in play.

pub use crate::cart::{
    BoardImport, Mmc1Import, Mmc3Import, RegisterImport, Ss88006Import, TaitoImport, Vrc2_4Import,
};
pub use crate::ppu::PpuImport;

use crate::cart::SharedRam;
use crate::cpu::{B, U};
use crate::invalid::{InvalidState, ensure, invalid};
use crate::machine::Machine;
use crate::rom::Rom;

/// The 6502's registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpuImport {
    pub a: u8,
    pub x: u8,
    pub y: u8,
    pub s: u8,
    /// Status flags; B and bit 5 (which exist only on the stack) are ignored.
    pub p: u8,
    pub pc: u16,
}

/// Everything an import sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineImport {
    pub cpu: CpuImport,
    /// The last value on the CPU's data bus (what open-bus reads return).
    pub cpu_open_bus: u8,
    /// The console's 2 KiB of work RAM.
    pub ram: [u8; 2048],
    pub ppu: PpuImport,
    pub board: BoardImport,
    /// PRG RAM at $6000-$7FFF, the cart's whole size; `None` leaves it zeroed.
    pub prg_ram: Option<Vec<u8>>,
    /// CHR RAM; required exactly when the cart has CHR RAM instead of CHR ROM.
    pub chr_ram: Option<Vec<u8>>,
    /// $4017 as the game last wrote it (bit 7: the 5-step sequence, bit 6: no frame IRQ),
    /// written to the APU at the import; `None` leaves its power-on 4-step mode, IRQ on.
    pub apu_frame_counter: Option<u8>,
}

impl Machine {
    /// A machine with `rom` inserted and the state `s`, at the point of the frame where
    /// `run_frame` returns (see the module's header for what is assumed). A value that
    /// does not fit this ROM's cartridge (another board, another size of RAM) or is out of
    /// range is refused with the field named; the result passes the savestate checks.
    pub fn import(rom: &Rom, s: &MachineImport) -> Result<Machine, InvalidState> {
        let mut m = Machine::new(rom).map_err(|e| invalid("rom", e.to_string()))?;
        check_ranges(s)?;
        m.cpu.a = s.cpu.a;
        m.cpu.x = s.cpu.x;
        m.cpu.y = s.cpu.y;
        m.cpu.s = s.cpu.s;
        m.cpu.p = s.cpu.p & !(B | U);
        m.cpu.pc = s.cpu.pc;
        m.cpu.unsettle();
        m.bus.ram = s.ram;
        m.bus.open_bus = s.cpu_open_bus;

        // The board may raise the IRQ line (MMC3): the CPU's next poll must look.
        m.bus.lines_moved();
        let cart = &mut m.bus.cart;
        if !cart.import_board(&s.board, rom.mapper) {
            let of = match &s.board {
                BoardImport::Registers(r) => format!("of a mapper {:?} cart", r.mappers),
                b => format!("of an {} cart", b.name()),
            };
            return Err(invalid(
                "board",
                format!("the state is {of}, but this ROM uses mapper {}", rom.mapper),
            ));
        }
        if let Some(v) = s.apu_frame_counter {
            m.bus.apu_write(0x4017, v);
        }
        let core = &mut m.bus.cart.core;
        fill("ppu.nametables", &mut core.vram, &s.ppu.nametables)?;
        if let Some(data) = &s.prg_ram {
            fill("prg_ram", &mut core.prg_ram, data)?;
        }
        match (&s.chr_ram, core.chr_is_ram) {
            (Some(data), true) => fill("chr_ram", &mut core.chr_ram, data)?,
            (None, false) => {}
            (Some(_), false) => {
                return Err(invalid("chr_ram", "given, but this ROM has CHR ROM"));
            }
            (None, true) => {
                return Err(invalid(
                    "chr_ram",
                    format!(
                        "missing: this ROM's cart has {} bytes of CHR RAM",
                        core.chr_ram.len()
                    ),
                ));
            }
        }

        // The PPU is brought to the CPU's clock first, so the position set is the one
        // at the CPU's clock; then everything planned from the old position is dropped.
        m.bus.sync_ppu();
        m.bus.ppu.settle(&mut m.bus.cart);
        m.bus.ppu.import(&s.ppu);
        m.bus.set_speedups(m.bus.clock.speedups);
        crate::state::check(&m, rom)?;
        Ok(m)
    }
}

/// Values the machine's fields cannot hold as they are.
fn check_ranges(s: &MachineImport) -> Result<(), InvalidState> {
    let p = &s.ppu;
    ensure(p.fine_x < 8, "ppu.fine_x", || {
        format!("{} is not 0-7", p.fine_x)
    })?;
    ensure(p.v < 0x8000, "ppu.v", || {
        format!("{:#X} is over 15 bits", p.v)
    })?;
    ensure(p.t < 0x8000, "ppu.t", || {
        format!("{:#X} is over 15 bits", p.t)
    })?;
    if let BoardImport::Mmc1(r) = &s.board {
        for (field, v) in [
            ("board.control", r.control),
            ("board.chr0", r.chr0),
            ("board.chr1", r.chr1),
            ("board.prg", r.prg),
        ] {
            ensure(v < 0x20, field, || format!("{v:#X} is over five bits"))?;
        }
        // The shift register's own bounds are the board's savestate check.
    }
    if let BoardImport::Registers(r) = &s.board {
        // Below $4020 a write would reach the console, not the cart.
        for &(addr, _) in &r.writes {
            ensure(addr >= 0x4020, "board.writes", || {
                format!("{addr:#06X} is not a cartridge address ($4020-$FFFF)")
            })?;
        }
        for &addr in &r.ppu_fetches {
            ensure(addr < 0x2000, "board.ppu_fetches", || {
                format!("{addr:#06X} is not a pattern-table address (below $2000)")
            })?;
        }
        ensure(
            r.cpu_cycles <= crate::cart::MAX_IMPORT_CYCLES,
            "board.cpu_cycles",
            || {
                format!(
                    "{} is over {}",
                    r.cpu_cycles,
                    crate::cart::MAX_IMPORT_CYCLES
                )
            },
        )?;
    }
    if let BoardImport::Mmc3(r) = &s.board {
        // Only the board raises its IRQ, only while enabled, and disabling acknowledges it.
        ensure(!r.irq_pending || r.irq_enabled, "board.irq_pending", || {
            "set while the IRQ is disabled ($E000 acknowledges it)".into()
        })?;
    }
    if let BoardImport::Vrc2_4(r) = &s.board {
        for (i, &v) in r.prg.iter().enumerate() {
            ensure(v < 0x20, &format!("board.prg[{i}]"), || {
                format!("{v:#X} is over five bits")
            })?;
        }
        for (i, &v) in r.chr.iter().enumerate() {
            ensure(v < 0x200, &format!("board.chr[{i}]"), || {
                format!("{v:#X} is over nine bits")
            })?;
        }
    }
    if let BoardImport::Taito(r) = &s.board {
        // As on MMC3: the TC0690 raises its IRQ only while enabled; $C003 acknowledges it.
        ensure(!r.irq_pending || r.irq_enabled, "board.irq_pending", || {
            "set while the IRQ is disabled ($C003 acknowledges it)".into()
        })?;
    }
    Ok(())
}

/// Copies `data` into `ram`, which it must fill exactly.
fn fill(field: &str, ram: &mut SharedRam, data: &[u8]) -> Result<(), InvalidState> {
    ensure(data.len() == ram.len(), field, || {
        format!(
            "{} bytes, but this ROM's cart has {}",
            data.len(),
            ram.len()
        )
    })?;
    for (i, &b) in data.iter().enumerate() {
        ram.set(i, b);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
