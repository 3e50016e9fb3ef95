//! The 2C02 picture processor: registers and CPU-facing behaviour (this file), the dot
//! pipeline (`render.rs`), sprite evaluation and fetches (`sprites.rs`), the sprite output
//! units (`sprite_units.rs`).
//!
//! # Three ways to run a line
//! 1. **Dot by dot** (`render.rs`, `step`): the reference. Every fetch, shift, evaluation
//!    step and pixel happens on its own dot, and each fetch is shown to boards that watch the
//!    PPU bus (`Cart::ppu_bus`: MMC3's A12 counter, MMC2's latches).
//! 2. **A whole line at once** (`fast_line.rs`): when a visible line starts at dot 0 and ends
//!    before the CPU next needs the PPU. A board that watches the PPU bus is shown what it
//!    needs of the line's fetches (`watched.rs`).
//! 3. **A line ahead of the CPU** (`ahead.rs`): when the CPU needs the PPU inside a line that
//!    has not started, the whole line is drawn anyway and the PPU runs `lead` dots ahead;
//!    any access that could see the difference first redoes the line dot by dot (`settle`).
//!    Not with boards that watch the PPU bus (a redo would show them the line twice).
//!
//! Paths 2 and 3 are built from the same pieces as path 1 (tile fetches, shifter reload,
//! sprite range test and pattern reads, the left-column clip, priority and the sprite 0
//! rule), so the rules live once. What differs is only the order in which a line's work is
//! done.
//!
//! # What the CPU can observe
//! - Register reads and writes ($2000-$2007): the bus syncs the PPU to the access's master
//!   clock first (`Bus::sync_ppu_to`), and a PPU that is ahead settles, except a $2002 read
//!   (it sees the recorded sprite 0 hit dot) and a $2000 write that the line does not use.
//! - The NMI line (VBL set at 241/1, cleared at 261/1) and the end of a frame (240/0): the
//!   scheduler (`bus/clock.rs`) catches the PPU up at `dots_to_next_event` without an access.
//! - Board IRQs fed by PPU fetches (MMC3): `watched.rs` predicts the dot the IRQ rises on,
//!   and the scheduler catches the PPU up there as for VBL.
//!
//! # A timing fix
//! Make it on path 1 first. If it changes what a line does, the shared pieces carry it to
//! paths 2 and 3; if it changes *when* something the CPU sees happens, the event list in
//! `dots_to_next_event` and the settle rules in `ahead.rs` must learn it too. Lockstep
//! (`Speedups::NONE`) is the reference: `tests/determinism.rs` and `examples/fingerprint.rs`
//! compare every shortcut against it, frame by frame.

mod ahead;
mod colour_pairs;
mod fast_line;
#[cfg(test)]
mod fast_line_tests;
mod import;
mod regs;
mod render;
mod sprite_rows;
mod sprite_units;
mod sprites;
mod watched;
#[cfg(test)]
mod watched_tests;

use super::cart::Cart;
pub use import::PpuImport;
use regs::vaddr;
pub use regs::{Ctrl, Mask, Status};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
pub(crate) use watched::A12_LOOK_AHEAD;

pub const WIDTH: usize = 256;
pub const HEIGHT: usize = 240;
pub const DOTS_PER_LINE: u32 = 341;
pub const LINES_PER_FRAME: u16 = 262;
/// The idle line after the picture; a frame is complete when it starts.
pub const POST_RENDER_LINE: u16 = 240;
/// The line whose dot 1 sets the VBL flag (and raises NMI).
pub const VBLANK_LINE: u16 = 241;
pub const PRE_RENDER_LINE: u16 = 261;
/// Dots between choosing a pixel's colour and the greyscale/emphasis stage of the output.
const MASK_OUTPUT_LAG: usize = 2;
/// Dots after a $2007 read during which another read is ignored.
const PPUDATA_BUSY_DOTS: u64 = 6;
/// Frames a PPU open-bus bit holds its charge (about 600 ms).
const OPEN_BUS_DECAY_FRAMES: u64 = 36;

/// How much of a visible line `Ppu::run` may do at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineShortcut {
    /// Dot by dot.
    None,
    /// Whole lines that end before the target.
    Whole,
    /// Also a line that would end past the target, drawn ahead of the CPU's clock.
    Ahead,
}

#[derive(Clone, Serialize, Deserialize)]
pub struct Ppu {
    // Registers.
    pub(crate) ctrl: Ctrl,
    pub(crate) mask: Mask,
    pub(crate) vblank: bool,
    pub(crate) sprite0_hit: bool,
    pub(crate) sprite_overflow: bool,
    pub(crate) oam_addr: u8,
    pub(crate) v: u16,
    pub(crate) t: u16,
    pub(crate) x: u8,
    pub(crate) w: bool,
    read_buffer: u8,
    /// Dot count of the last $2007 read that reached memory.
    last_data_read: u64,
    /// The data latch the CPU sees as PPU open bus, with the frame each bit was last driven high.
    io_latch: u8,
    io_refresh: [u64; 8],

    // Position.
    pub(crate) scanline: u16,
    pub(crate) dot: u16,
    pub(crate) frame: u64,
    odd_frame: bool,
    /// Total dots since power-on.
    pub(crate) dots: u64,
    /// Set when a $2002 read lands on the dot before VBL would be set.
    suppress_vbl: bool,
    /// Rendering enable ($2001) as the control logic sees it, from the dot after the write
    /// (the odd-frame skip, register accesses during rendering), the same one dot later, and
    /// as the pipeline sees it another dot later (fetches, shifts, evaluation). The pipeline's
    /// lag shows when rendering is toggled for a few dots (AccuracyCoin's BG serial-in test).
    enable_seen: bool,
    enable_later: bool,
    rendering: bool,
    /// Rendering was switched off on a rendering line: the secondary OAM address then, which
    /// picks the OAM row that row 0 is copied over on the next rendering dot.
    oam_corrupt: Option<u8>,

    // Memory.
    #[serde(with = "crate::serde_bytes_array")]
    pub(crate) oam: [u8; 256],
    pub(crate) secondary_oam: [u8; 32],
    pub(crate) palette: [u8; 32],

    // Background pipeline.
    bg_lo: u16,
    bg_hi: u16,
    at_lo: u16,
    at_hi: u16,
    nt_latch: u8,
    at_latch: u8,
    pt_lo_latch: u8,
    pt_hi_latch: u8,
    /// The attribute bits the last reload took, which the attribute shifters keep taking in.
    at_feed: u8,

    sprites: sprites::SpriteUnit,

    /// Pixels of the line being drawn; copied into `frame_buffer` at the end of the line.
    #[serde(with = "crate::serde_bytes_array")]
    line: [u16; WIDTH],
    /// Palette entries of the last pixels drawn (by x % MASK_OUTPUT_LAG), for
    /// `recolour_recent`.
    recent: [u8; MASK_OUTPUT_LAG],
    /// Output, not state: savestates leave it out and a loaded machine shows a blank
    /// picture until its next frame is drawn.
    #[serde(skip, default = "blank_picture")]
    pub(crate) frame_buffer: Arc<Vec<u16>>,
    /// Set when the PPU enters the post-render line: a frame is complete.
    pub(crate) frame_ready: bool,
    /// A cache for the whole-line path, rebuilt from the palette when needed.
    #[serde(skip)]
    colour_pairs: colour_pairs::ColourPairs,
    /// A cache for the whole-line sprite evaluation, rebuilt from OAM when needed.
    #[serde(skip)]
    sprite_rows: sprite_rows::SpriteRows,

    /// Dots this line has been drawn past the bus's clock, the dot at which drawing it set
    /// the sprite 0 hit flag (0: it did not), and its start (see `ahead`).
    lead: u16,
    ahead_hit_dot: u16,
    line_start: ahead::LineStart,
}

fn blank_picture() -> Arc<Vec<u16>> {
    Arc::new(vec![0; WIDTH * HEIGHT])
}

impl Default for Ppu {
    fn default() -> Self {
        Ppu::new()
    }
}

impl Ppu {
    pub fn new() -> Ppu {
        Ppu {
            ctrl: Ctrl::empty(),
            mask: Mask::empty(),
            vblank: false,
            sprite0_hit: false,
            sprite_overflow: false,
            oam_addr: 0,
            v: 0,
            t: 0,
            x: 0,
            w: false,
            read_buffer: 0,
            last_data_read: u64::MAX / 2,
            io_latch: 0,
            io_refresh: [0; 8],
            scanline: 0,
            dot: 0,
            frame: 0,
            odd_frame: false,
            dots: 0,
            suppress_vbl: false,
            enable_seen: false,
            enable_later: false,
            rendering: false,
            oam_corrupt: None,
            oam: [0; 256],
            secondary_oam: [0xFF; 32],
            palette: [0; 32],
            bg_lo: 0,
            bg_hi: 0,
            at_lo: 0,
            at_hi: 0,
            nt_latch: 0,
            at_latch: 0,
            pt_lo_latch: 0,
            pt_hi_latch: 0,
            at_feed: 0,
            sprites: sprites::SpriteUnit::default(),
            line: [0; WIDTH],
            recent: [0; MASK_OUTPUT_LAG],
            frame_buffer: blank_picture(),
            frame_ready: false,
            colour_pairs: colour_pairs::ColourPairs::default(),
            sprite_rows: sprite_rows::SpriteRows::default(),
            lead: 0,
            ahead_hit_dot: 0,
            line_start: ahead::LineStart::default(),
        }
    }

    /// Savestate check: the position and the indices the pipeline uses.
    pub(crate) fn check(&self) -> Result<(), crate::invalid::InvalidState> {
        use crate::invalid::ensure;
        ensure(self.scanline <= PRE_RENDER_LINE, "bus.ppu.scanline", || {
            format!(
                "{} is past the last line ({PRE_RENDER_LINE})",
                self.scanline
            )
        })?;
        ensure(u32::from(self.dot) < DOTS_PER_LINE, "bus.ppu.dot", || {
            format!("{} is past the last dot ({})", self.dot, DOTS_PER_LINE - 1)
        })?;
        ensure(self.x < 8, "bus.ppu.x", || {
            format!("fine scroll {} is not 0-7", self.x)
        })?;
        ensure(self.v < 0x8000 && self.t < 0x8000, "bus.ppu.v", || {
            "the VRAM address registers are 15 bits".into()
        })?;
        ensure(
            u32::from(self.lead) <= DOTS_PER_LINE && u32::from(self.ahead_hit_dot) <= DOTS_PER_LINE,
            "bus.ppu.lead",
            || format!("{} dots ahead is more than a line", self.lead),
        )?;
        ensure(
            self.oam_corrupt.is_none_or(|row| row < 32),
            "bus.ppu.oam_corrupt",
            || "the OAM row to corrupt is past row 31".into(),
        )?;
        self.sprites.check("bus.ppu.sprites")?;
        self.line_start.check()
    }

    /// Soft reset: the registers the reset line clears on the 2C02.
    pub fn reset(&mut self) {
        self.ctrl = Ctrl::empty();
        self.mask = Mask::empty();
        self.w = false;
        self.x = 0;
        self.t = 0;
        self.read_buffer = 0;
        self.odd_frame = false;
    }

    /// True when the NMI output line is asserted (VBL flag and NMI enable).
    #[inline(always)]
    pub fn nmi_line(&self) -> bool {
        self.vblank && self.ctrl.contains(Ctrl::NMI_ENABLE)
    }

    fn rendering_enabled(&self) -> bool {
        self.mask.intersects(Mask::RENDERING)
    }

    /// One dot of the $2001 enable's way to the pipeline.
    #[inline(always)]
    fn clock_enable(&mut self) {
        let was = self.rendering;
        self.rendering = self.enable_later;
        self.enable_later = self.enable_seen;
        self.enable_seen = self.rendering_enabled();
        if was != self.rendering {
            self.enable_changed(was);
        }
    }

    /// Rendering went on or off for the pipeline: OAM corruption is seeded, and the sprite
    /// units leave the line buffer behind until a clean fetch.
    #[cold]
    fn enable_changed(&mut self, was: bool) {
        if was && self.on_rendering_line() {
            self.oam_corrupt = Some(self.secondary_oam_addr());
        }
        self.sprites.fetch_clean = false;
        // The visible dots this line has drawn; a flat line from dot 339 on has not begun.
        let drawn = if self.scanline < POST_RENDER_LINE && self.dot <= 257 {
            self.dot.saturating_sub(1)
        } else {
            0
        };
        self.settle_units(drawn);
    }

    /// True when every stage of the enable's way agrees with $2001 (no change under way).
    #[inline(always)]
    fn enable_settled(&self) -> bool {
        let enabled = self.rendering_enabled();
        self.enable_seen == enabled && self.enable_later == enabled && self.rendering == enabled
    }

    /// After a stretch that ran as a whole: the enable has reached every stage.
    fn settle_enable(&mut self) {
        let enabled = self.rendering_enabled();
        self.enable_seen = enabled;
        self.enable_later = enabled;
        self.rendering = enabled;
    }

    /// Marks bits of the open-bus latch as driven with `value` (mask = which bits were driven).
    fn drive_latch(&mut self, value: u8, mask: u8) {
        self.io_latch = (self.io_latch & !mask) | (value & mask);
        for bit in 0..8 {
            if mask & (1 << bit) != 0 && value & (1 << bit) != 0 {
                self.io_refresh[bit] = self.frame;
            }
        }
    }

    /// The latch after decay: bits not refreshed recently have leaked to 0.
    fn latch(&self) -> u8 {
        let mut out = 0;
        for bit in 0..8 {
            if self.io_latch & (1 << bit) != 0
                && self.frame.saturating_sub(self.io_refresh[bit]) < OPEN_BUS_DECAY_FRAMES
            {
                out |= 1 << bit;
            }
        }
        out
    }

    /// CPU read of $2000-$3FFF (already caught up to the read's dot).
    pub fn read(&mut self, addr: u16, cart: &mut Cart) -> u8 {
        match addr & 7 {
            2 => {
                let mut value = self.status();
                // The sprite flags are sampled as the read ends (M2 falling, about 7.5 master
                // clocks after the VBL flag is latched): by then the pre-render line's dot 1
                // has cleared them, though a flag set on the dot the read began on is not in.
                if self.scanline == PRE_RENDER_LINE && self.dot == 1 {
                    value &= !(Status::SPRITE0_HIT | Status::SPRITE_OVERFLOW).bits();
                }
                self.drive_latch(value, Status::all().bits());
                self.vblank = false;
                self.w = false;
                // A read on the very dot VBL starts sees it clear and keeps it (and NMI) from being set.
                if self.scanline == VBLANK_LINE && self.dot == 1 {
                    self.suppress_vbl = true;
                }
                value
            }
            4 => {
                let value = self.oam_read_value();
                self.drive_latch(value, 0xFF);
                value
            }
            7 => {
                // The PPU is still busy with the previous read for a few dots: a second read
                // on the next CPU cycle (an indexed dummy read) only sees the data latch.
                if self.dots.wrapping_sub(self.last_data_read) < PPUDATA_BUSY_DOTS {
                    return self.latch();
                }
                self.last_data_read = self.dots;
                let addr = self.v & 0x3FFF;
                let value = if addr >= 0x3F00 {
                    let pal = self.palette_read(addr);
                    self.read_buffer = self.vram_read(addr - 0x1000, cart);
                    (pal & 0x3F) | (self.latch() & 0xC0)
                } else {
                    let old = self.read_buffer;
                    self.read_buffer = self.vram_read(addr, cart);
                    old
                };
                cart.ppu_bus(addr, self.dots);
                self.increment_v_after_access(cart);
                self.drive_latch(value, if addr >= 0x3F00 { 0x3F } else { 0xFF });
                value
            }
            _ => self.latch(),
        }
    }

    /// What a $2002 read returns: the three flags over the open-bus latch's low bits.
    fn status(&self) -> u8 {
        let mut status = Status::empty();
        status.set(Status::VBLANK, self.vblank);
        status.set(Status::SPRITE0_HIT, self.visible_sprite0_hit());
        status.set(Status::SPRITE_OVERFLOW, self.sprite_overflow);
        status.bits() | (self.latch() & !Status::all().bits())
    }

    /// Side-effect-free view of a register (for debuggers and plug-in peeks).
    pub fn peek(&self, addr: u16) -> u8 {
        match addr & 7 {
            2 => self.status(),
            4 => self.oam_read_value(),
            7 => self.read_buffer,
            _ => self.latch(),
        }
    }

    pub fn write(&mut self, addr: u16, value: u8, cart: &mut Cart) {
        self.drive_latch(value, 0xFF);
        match addr & 7 {
            0 => {
                self.ctrl = Ctrl::from_bits_retain(value);
                let nametable = (self.ctrl & Ctrl::NAMETABLE).bits();
                self.t = (self.t & !vaddr::NAMETABLE) | (u16::from(nametable) << 10);
            }
            1 => {
                let mask = Mask::from_bits_retain(value);
                self.recolour_recent(mask);
                self.mask = mask;
            }
            3 => self.oam_addr = value,
            4 => self.oam_write(value),
            5 => {
                if !self.w {
                    self.t = (self.t & !vaddr::COARSE_X) | u16::from(value >> 3);
                    self.x = value & 7;
                } else {
                    self.t = (self.t & !(vaddr::FINE_Y | vaddr::COARSE_Y))
                        | (u16::from(value & 7) << 12)
                        | (u16::from(value & 0xF8) << 2);
                }
                self.w = !self.w;
            }
            6 => {
                if !self.w {
                    self.t = (self.t & 0x00FF) | (u16::from(value & 0x3F) << 8);
                } else {
                    self.t = (self.t & 0xFF00) | u16::from(value);
                    self.v = self.t;
                    if !self.in_render_fetch() {
                        cart.ppu_bus(self.v & 0x3FFF, self.dots);
                    }
                }
                self.w = !self.w;
            }
            7 => {
                let addr = self.v & 0x3FFF;
                match addr {
                    0..=0x1FFF => cart.core.write_chr(addr, value),
                    0x2000..=0x3EFF => cart.core.write_nt(addr, value),
                    _ => self.palette_write(addr, value),
                }
                cart.ppu_bus(addr, self.dots);
                self.increment_v_after_access(cart);
            }
            _ => {}
        }
    }

    /// True on the lines the pipeline fetches on (visible and pre-render).
    fn on_rendering_line(&self) -> bool {
        self.scanline < POST_RENDER_LINE || self.scanline == PRE_RENDER_LINE
    }

    /// True while the pipeline is fetching (a rendering line with rendering on), as register
    /// accesses see it.
    fn in_render_fetch(&self) -> bool {
        self.enable_seen && self.on_rendering_line()
    }

    /// $2007 accesses bump v by 1 or 32, except mid-render, where the glitch bumps both X and Y.
    fn increment_v_after_access(&mut self, cart: &mut Cart) {
        if self.in_render_fetch() {
            self.increment_x();
            self.increment_y();
        } else {
            let step = if self.ctrl.contains(Ctrl::INCREMENT_32) {
                32
            } else {
                1
            };
            self.v = self.v.wrapping_add(step) & 0x7FFF;
            // Outside rendering the address bus follows v, so mappers see the new A12.
            cart.ppu_bus(self.v & 0x3FFF, self.dots);
        }
    }

    pub fn vram_read(&self, addr: u16, cart: &Cart) -> u8 {
        let addr = addr & 0x3FFF;
        if addr < 0x2000 {
            cart.core.read_chr(addr)
        } else {
            cart.core.read_nt(addr)
        }
    }

    fn palette_index(addr: u16) -> usize {
        let i = usize::from(addr & 0x1F);
        // $3F10/$3F14/$3F18/$3F1C mirror the background entries.
        if i & 0x13 == 0x10 { i & 0x0F } else { i }
    }
    pub fn palette_read(&self, addr: u16) -> u8 {
        let v = self.palette[Ppu::palette_index(addr)];
        if self.mask.contains(Mask::GREYSCALE) {
            v & 0x30
        } else {
            v
        }
    }
    fn palette_write(&mut self, addr: u16, value: u8) {
        self.palette[Ppu::palette_index(addr)] = value & 0x3F;
    }

    /// Side-effect-free read of the PPU address space (for tools and tests).
    pub fn peek_vram(&self, addr: u16, cart: &Cart) -> u8 {
        let addr = addr & 0x3FFF;
        if addr >= 0x3F00 {
            self.palette[Ppu::palette_index(addr)]
        } else {
            self.vram_read(addr, cart)
        }
    }
}
