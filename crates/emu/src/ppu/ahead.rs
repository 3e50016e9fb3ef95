//! Drawing a visible line ahead of the CPU.
//!
//! Games that wait for sprite 0 poll $2002 every few CPU cycles, so the on-demand PPU is
//! asked to stop inside almost every line and would otherwise run those lines dot by dot.
//! When a catch-up ends inside a line that has not started, the whole line is drawn at
//! once instead, remembering where it started. The PPU is then `lead` dots ahead of the
//! bus's clock. While it is:
//! - a $2002 read sees the sprite 0 hit flag as it was at its own dot (the line's hit dot
//!   is recorded), which is all that line can show the CPU;
//! - any other register access, or a board write, first puts the PPU back to the line's
//!   start and redoes the line dot by dot up to the access (`settle`); a $2000 write that
//!   changes nothing the line uses is the exception (`ctrl_write_keeps_line`).
//!
//! Lines that set the overflow flag are not drawn ahead (its dot is not recorded), nor is
//! the last visible line, so the frame still ends on the bus's clock. `tests/determinism.rs`
//! checks the results against lockstep.

use super::sprites::SpriteUnit;
use super::{Ctrl, DOTS_PER_LINE, Ppu};
use crate::cart::Cart;
use serde::{Deserialize, Serialize};

/// The last line that may be drawn ahead: drawing it ends on line 239 at the latest.
const LAST_AHEAD_LINE: u16 = 238;

/// What drawing a line changes, saved at its start so it can be redone dot by dot.
#[derive(Clone, Default, Serialize, Deserialize)]
pub(super) struct LineStart {
    scanline: u16,
    dots: u64,
    v: u16,
    rendering: [bool; 3],
    oam_addr: u8,
    sprite0_hit: bool,
    sprite_overflow: bool,
    latches: [u8; 5],
    shifters: [u16; 4],
    secondary_oam: [u8; 32],
    sprites: SpriteUnit,
}

impl LineStart {
    /// Savestate check: the line a redraw would restart from.
    pub(super) fn check(&self) -> Result<(), crate::invalid::InvalidState> {
        crate::invalid::ensure(
            self.scanline <= super::PRE_RENDER_LINE,
            "bus.ppu.line_start",
            || format!("line {} does not exist", self.scanline),
        )?;
        self.sprites.check("bus.ppu.line_start.sprites")
    }
}

impl Ppu {
    /// Tries to draw the line starting now in one go; false when it has to go dot by dot.
    pub(super) fn draw_ahead(&mut self, cart: &mut Cart) -> bool {
        // A pending OAM corruption changes OAM, which a redo would not put back.
        if self.scanline > LAST_AHEAD_LINE || self.oam_corrupt.is_some() {
            return false;
        }
        self.save_line_start();
        let overflow_before = self.sprite_overflow;
        let hit = self.fast_line(cart);
        if self.sprite_overflow != overflow_before {
            self.restore_line_start();
            return false;
        }
        // 0 when this line did not set the flag: every dot of it is at 1 or later.
        self.ahead_hit_dot = hit.unwrap_or(0);
        true
    }

    /// The sprite 0 hit flag as the CPU sees it at the bus's clock.
    pub(super) fn visible_sprite0_hit(&self) -> bool {
        let done = DOTS_PER_LINE as u16 - self.lead;
        self.sprite0_hit && !(self.lead > 0 && self.ahead_hit_dot >= done)
    }

    /// True when a $2000 write leaves a line drawn ahead as it is, so it needs no `settle`:
    /// it keeps the nametable bits (copied into v at dot 257), both pattern tables and the
    /// sprite size. The $2007 increment only matters to accesses, which settle; NMI enable
    /// only matters with the VBL flag set, which it never is on lines 0-238. Programs that
    /// toggle NMI enable while they poll (blargg's framework does, thousands of times a
    /// frame) then keep the fast path.
    pub fn ctrl_write_keeps_line(&self, value: u8) -> bool {
        !(self.ctrl ^ Ctrl::from_bits_retain(value)).intersects(Ctrl::LINE_INPUTS)
    }

    /// Brings a PPU that is ahead back to the exact state at the bus's clock.
    pub fn settle(&mut self, cart: &mut Cart) {
        if self.lead == 0 {
            return;
        }
        let done = DOTS_PER_LINE as u16 - self.lead;
        self.lead = 0;
        self.restore_line_start();
        for _ in 0..done {
            self.step(cart);
        }
    }

    fn save_line_start(&mut self) {
        let s = &mut self.line_start;
        s.scanline = self.scanline;
        s.dots = self.dots;
        s.v = self.v;
        s.rendering = [self.enable_seen, self.enable_later, self.rendering];
        s.oam_addr = self.oam_addr;
        s.sprite0_hit = self.sprite0_hit;
        s.sprite_overflow = self.sprite_overflow;
        s.latches = [
            self.nt_latch,
            self.at_latch,
            self.pt_lo_latch,
            self.pt_hi_latch,
            self.at_feed,
        ];
        s.shifters = [self.bg_lo, self.bg_hi, self.at_lo, self.at_hi];
        s.secondary_oam = self.secondary_oam;
        s.sprites.clone_from(&self.sprites);
    }

    fn restore_line_start(&mut self) {
        let s = &self.line_start;
        self.scanline = s.scanline;
        self.dot = 0;
        self.dots = s.dots;
        self.v = s.v;
        [self.enable_seen, self.enable_later, self.rendering] = s.rendering;
        self.oam_addr = s.oam_addr;
        self.sprite0_hit = s.sprite0_hit;
        self.sprite_overflow = s.sprite_overflow;
        [
            self.nt_latch,
            self.at_latch,
            self.pt_lo_latch,
            self.pt_hi_latch,
            self.at_feed,
        ] = s.latches;
        [self.bg_lo, self.bg_hi, self.at_lo, self.at_hi] = s.shifters;
        self.secondary_oam = s.secondary_oam;
        self.sprites.clone_from(&s.sprites);
    }
}
