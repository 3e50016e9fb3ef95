//! Checks on a machine read from a savestate: a state body can be edited (and its checksum
//! recomputed), so every size and index the emulator relies on is checked against the ROM
//! before the machine runs, and the refusal names the field.

use crate::bus::CPU_CLOCKS;
use crate::cart::{Cart, Source};
use crate::invalid::{InvalidState, ensure, invalid};
use crate::machine::Machine;
use crate::rom::Rom;

pub(crate) fn check(m: &Machine, rom: &Rom) -> Result<(), InvalidState> {
    let fresh = Cart::new(rom).map_err(|e| invalid("bus.cart", e.to_string()))?;
    check_cart(&m.bus.cart, &fresh)?;
    check_clocks(m)?;
    m.cpu.check(m.bus.cycles)?;
    m.bus.ppu.check()?;
    m.bus.input.check(m.bus.cycles)?;
    m.bus.apu.check(m.bus.cycles)
}

/// A bound on the running counts (CPU cycles, PPU frames): 2^52 CPU cycles is about 80
/// years of play, and nothing counted from there can overflow.
const COUNT_LIMIT: u64 = 1 << 52;
/// How far the PPU may lag the bus in a state: it is caught up at least once a frame
/// (about 30,000 cycles), and catching up from much further would take hours.
const PPU_LAG_LIMIT: u64 = 1_000_000;

/// The running counts are in range, and the PPU's clock is not ahead of the bus's (it runs
/// up to the phase of the current cycle's access at most) nor far behind it.
fn check_clocks(m: &Machine) -> Result<(), InvalidState> {
    let bus = &m.bus;
    ensure(bus.cycles < COUNT_LIMIT, "bus.cycles", || {
        format!("{} is beyond any run (2^52)", bus.cycles)
    })?;
    let master = bus.cycles * CPU_CLOCKS;
    ensure(
        bus.ppu_master <= master + CPU_CLOCKS
            && master.saturating_sub(bus.ppu_master) < PPU_LAG_LIMIT * CPU_CLOCKS,
        "bus.ppu_master",
        || {
            format!(
                "{} does not follow the bus's clock {master}",
                bus.ppu_master
            )
        },
    )?;
    ensure(bus.ppu.frame < COUNT_LIMIT, "bus.ppu.frame", || {
        format!("{} is beyond any run (2^52)", bus.ppu.frame)
    })?;
    ensure(bus.ppu.dots < 3 * COUNT_LIMIT, "bus.ppu.dots", || {
        format!("{} is beyond any run (3 * 2^52)", bus.ppu.dots)
    })
}

/// Sizes must be the ones this ROM's board is built with, and every window must lie
/// inside the memory it points into.
fn check_cart(cart: &Cart, fresh: &Cart) -> Result<(), InvalidState> {
    let (c, f) = (&cart.core, &fresh.core);
    ensure(cart.same_board(fresh), "bus.cart.board", || {
        "is not the board this ROM's mapper uses".into()
    })?;
    cart.check_board()?;
    ensure(
        c.chr_is_ram == f.chr_is_ram,
        "bus.cart.core.chr_is_ram",
        || {
            format!(
                "is {}, but this ROM has {}",
                c.chr_is_ram,
                if f.chr_is_ram { "CHR RAM" } else { "CHR ROM" }
            )
        },
    )?;
    for (field, got, want) in [
        ("bus.cart.core.chr_ram", c.chr_ram.len(), f.chr_ram.len()),
        ("bus.cart.core.prg_ram", c.prg_ram.len(), f.prg_ram.len()),
        ("bus.cart.core.vram", c.vram.len(), f.vram.len()),
    ] {
        ensure(got == want, field, || {
            format!("has {got} bytes, this ROM needs {want}")
        })?;
    }
    for (i, w) in c.cpu.iter().enumerate() {
        let size = match w.source {
            Source::Rom => c.prg_len(),
            Source::Ram => c.prg_ram.len(),
            // Maps nothing (offset 0), but reads add the offset before they find that out.
            Source::OpenBus => 0,
            // The latched bit.
            Source::Latch => 1,
        };
        let fits = if w.source == Source::OpenBus {
            w.offset == 0
        } else if w.source == Source::Latch {
            w.offset <= 1
        } else {
            w.offset.checked_add(0x2000).is_some_and(|end| end <= size)
        };
        ensure(fits, &format!("bus.cart.core.cpu[{i}]"), || {
            format!("offset {:#X} is outside the {size} bytes it maps", w.offset)
        })?;
    }
    for (i, &off) in c.chr.iter().enumerate() {
        let size = c.chr_len();
        ensure(
            off.checked_add(0x400).is_some_and(|end| end <= size),
            &format!("bus.cart.core.chr[{i}]"),
            || format!("offset {off:#X} is outside the {size} bytes of pattern memory"),
        )?;
    }
    for (i, &off) in c.nt.iter().enumerate() {
        ensure(
            off.checked_add(0x400)
                .is_some_and(|end| end <= c.vram.len()),
            &format!("bus.cart.core.nt[{i}]"),
            || {
                format!(
                    "offset {off:#X} is outside the {} bytes of nametable RAM",
                    c.vram.len()
                )
            },
        )?;
    }
    Ok(())
}

impl Machine {
    /// Finishes a machine deserialised from a savestate body: re-attaches `rom` (states do
    /// not store it), checks every size and index against it, and rebuilds what states
    /// leave out (the picture is blank until the next frame; sound resumes from rest).
    pub fn restore(mut self, rom: &Rom) -> Result<Machine, InvalidState> {
        // Check, then derive: nothing is built from a field before it has been checked.
        self.bus.attach_rom(rom);
        check(&self, rom)?;
        self.bus.derive();
        self.bus.with_apu(|apu, _| apu.restore_output());
        Ok(self)
    }
}
