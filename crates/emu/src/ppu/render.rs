//! The dot pipeline: one call of `step` is one PPU dot.
//!
//! Background model: at dot d of 1-256 the pixel d-1 is taken from bit 15-x of the shifters,
//! then the shifters move one bit; tiles are reloaded into the low byte at dots 9, 17 ... 257
//! and 329, 337. Each memory fetch happens on the first dot of its two-dot slot.

use super::regs::vaddr;
use super::sprites;
use super::{
    DOTS_PER_LINE, LINES_PER_FRAME, LineShortcut, MASK_OUTPUT_LAG, Mask, POST_RENDER_LINE,
    PRE_RENDER_LINE, Ppu, VBLANK_LINE, WIDTH,
};
use crate::cart::Cart;
use std::sync::Arc;

/// The colour that leaves the chip for palette `entry` under `mask`: greyscale keeps only
/// the luminance bits, and the emphasis bits go above the six colour bits.
#[inline(always)]
fn output_colour(entry: u8, mask: Mask) -> u16 {
    let grey = if mask.contains(Mask::GREYSCALE) {
        0x30
    } else {
        0x3F
    };
    u16::from(entry & grey) | (u16::from((mask & Mask::EMPHASIS).bits()) << 1)
}

impl Ppu {
    /// Runs whole dots while `dots_left` > 0. Idle stretches of vertical blank are skipped in bulk.
    /// `lines` says whether whole visible lines may be drawn at once (`fast_line.rs`), and
    /// whether a line that starts now and would end past the target may be drawn ahead
    /// (`ahead.rs`); lockstep runs never draw ahead.
    #[inline]
    pub fn run(&mut self, mut dots_left: u64, cart: &mut Cart, lines: LineShortcut) {
        if self.lead > 0 {
            let lead = u64::from(self.lead);
            if lead >= dots_left {
                self.lead = (lead - dots_left) as u16;
                return;
            }
            dots_left -= lead;
            self.lead = 0;
        }
        while dots_left > 0 {
            // Lines 242-260 (and 241 after dot 1) do nothing but count.
            if self.scanline > VBLANK_LINE && self.scanline < PRE_RENDER_LINE
                || (self.scanline == VBLANK_LINE && self.dot > 1)
            {
                let to_line_end = u64::from(DOTS_PER_LINE as u16 - self.dot);
                let n = to_line_end.min(dots_left);
                for _ in 0..n.min(3) {
                    self.clock_enable();
                }
                self.dot += n as u16;
                self.dots += n;
                dots_left -= n;
                if u32::from(self.dot) == DOTS_PER_LINE {
                    self.dot = 0;
                    self.scanline += 1;
                }
                continue;
            }
            if lines != LineShortcut::None && self.can_run_fast_line() {
                if dots_left >= u64::from(DOTS_PER_LINE) {
                    self.fast_line(cart);
                    dots_left -= u64::from(DOTS_PER_LINE);
                    continue;
                }
                if lines == LineShortcut::Ahead && self.draw_ahead(cart) {
                    self.lead = (u64::from(DOTS_PER_LINE) - dots_left) as u16;
                    return;
                }
            }
            self.step(cart);
            dots_left -= 1;
        }
    }

    /// Dots from the current position until the next dot that changes something the CPU
    /// samples without touching a register: frame end (240,0), VBL set (241,1) and VBL
    /// clear (261,1). Assumes the odd-frame short line, so the estimate is never late.
    pub fn dots_to_next_event(&self) -> u64 {
        const EVENTS: [(u16, u16); 3] = [
            (POST_RENDER_LINE, 0),
            (VBLANK_LINE, 1),
            (PRE_RENDER_LINE, 1),
        ];
        let line = u64::from(DOTS_PER_LINE);
        let here = u64::from(self.scanline) * line + u64::from(self.dot);
        let frame = u64::from(LINES_PER_FRAME) * line - 1;
        EVENTS
            .iter()
            .map(|&(l, d)| {
                let at = u64::from(l) * line + u64::from(d);
                if at >= here {
                    at - here
                } else {
                    at + frame - here
                }
            })
            .min()
            .unwrap_or(0)
    }

    #[inline]
    pub(super) fn step(&mut self, cart: &mut Cart) {
        let line = self.scanline;
        let dot = self.dot;
        if line < POST_RENDER_LINE {
            if self.rendering {
                if let Some(row) = self.oam_corrupt.take() {
                    self.corrupt_oam(row);
                }
                self.render_dot(line, dot, cart, true);
            } else if (1..=256).contains(&dot) {
                self.backdrop_pixel(usize::from(dot - 1));
                if !self.sprites.flat {
                    self.step_units(false);
                }
            }
            if dot == 256 {
                self.finish_line(line);
            }
        } else if line == PRE_RENDER_LINE {
            if dot == 1 {
                self.vblank = false;
                self.sprite0_hit = false;
                self.sprite_overflow = false;
            }
            if self.rendering {
                if let Some(row) = self.oam_corrupt.take() {
                    self.corrupt_oam(row);
                }
                self.render_dot(line, dot, cart, false);
                if (280..=304).contains(&dot) {
                    self.v = (self.v & !vaddr::VERTICAL) | (self.t & vaddr::VERTICAL);
                }
            }
        } else if line == POST_RENDER_LINE {
            if dot == 0 {
                self.frame_ready = true;
            }
        } else if line == VBLANK_LINE && dot == 1 {
            if !self.suppress_vbl {
                self.vblank = true;
            }
            self.suppress_vbl = false;
        }
        self.advance();
    }

    #[inline(always)]
    fn advance(&mut self) {
        self.dots += 1;
        self.dot += 1;
        // The pre-render line of odd frames is one dot short while rendering.
        let skip = self.scanline == PRE_RENDER_LINE
            && self.dot == 340
            && self.odd_frame
            && self.enable_seen;
        if skip {
            self.short_prerender_line();
        }
        if u32::from(self.dot) == DOTS_PER_LINE || skip {
            self.dot = 0;
            self.scanline += 1;
            if self.scanline > PRE_RENDER_LINE {
                self.scanline = 0;
                self.frame += 1;
                self.odd_frame = !self.odd_frame;
            }
        }
        self.clock_enable();
    }

    #[inline(always)]
    fn render_dot(&mut self, line: u16, dot: u16, cart: &mut Cart, visible: bool) {
        match dot {
            1..=256 => {
                if dot & 7 == 1 && dot >= 9 {
                    self.reload_shifters();
                }
                if visible {
                    self.output_pixel(usize::from(dot - 1));
                    self.sprite_eval_dot(line, dot);
                }
                self.shift();
                self.bg_fetch(dot, cart);
                if dot == 256 {
                    self.increment_y();
                }
            }
            257..=320 => {
                if dot == 257 {
                    self.reload_shifters();
                    self.v = (self.v & !vaddr::HORIZONTAL) | (self.t & vaddr::HORIZONTAL);
                    // A flat line's units have drawn all 256 dots; the fetches reload them.
                    self.settle_units(if visible { 256 } else { 0 });
                }
                self.oam_addr = 0;
                self.sprite_fetch_dot(line, dot, cart);
            }
            321..=336 => {
                if dot == 329 {
                    self.reload_shifters();
                }
                if dot >= 329 {
                    self.shift();
                }
                self.bg_fetch(dot, cart);
            }
            337 => {
                self.reload_shifters();
                self.dummy_nt_fetch(cart);
            }
            339 => {
                self.dummy_nt_fetch(cart);
                let s = &mut self.sprites;
                s.drawing = 0;
                s.flat = s.fetch_clean;
            }
            _ => {}
        }
    }

    #[inline(always)]
    fn shift(&mut self) {
        self.shift_by(1);
    }

    /// `n` (at most 8) dots' worth of shifting at once (the line path moves a whole tile).
    /// What enters at bit 0 only shows when a reload is skipped (rendering off across it):
    /// the pattern planes take in 0 (low) and 1 (high), the attribute planes the bits of
    /// the attribute latch, which the reloads fill.
    #[inline(always)]
    pub(super) fn shift_by(&mut self, n: u32) {
        let fill = (1u16 << n) - 1;
        let feed = |bit: u8| if self.at_feed & bit != 0 { fill } else { 0 };
        let (at_lo_in, at_hi_in) = (feed(1), feed(2));
        self.bg_lo <<= n;
        self.bg_hi = (self.bg_hi << n) | fill;
        self.at_lo = (self.at_lo << n) | at_lo_in;
        self.at_hi = (self.at_hi << n) | at_hi_in;
    }

    #[inline(always)]
    pub(super) fn reload_shifters(&mut self) {
        self.bg_lo = (self.bg_lo & 0xFF00) | u16::from(self.pt_lo_latch);
        self.bg_hi = (self.bg_hi & 0xFF00) | u16::from(self.pt_hi_latch);
        self.at_feed = self.at_latch;
        self.at_lo = (self.at_lo & 0xFF00) | if self.at_feed & 1 != 0 { 0xFF } else { 0 };
        self.at_hi = (self.at_hi & 0xFF00) | if self.at_feed & 2 != 0 { 0xFF } else { 0 };
    }

    #[inline(always)]
    fn bg_fetch(&mut self, dot: u16, cart: &mut Cart) {
        let addr = match dot & 7 {
            1 => self.fetch_nametable(cart),
            3 => self.fetch_attribute(cart),
            5 => self.fetch_pattern(cart, 0),
            7 => self.fetch_pattern(cart, 8),
            0 => return self.increment_x(),
            _ => return,
        };
        cart.ppu_bus(addr, self.dots);
    }

    /// The four fetches of a background tile, each returning the address it put on the bus;
    /// the dot path spreads them over eight dots, the line path does them back to back.
    #[inline(always)]
    pub(super) fn fetch_nametable(&mut self, cart: &Cart) -> u16 {
        let addr = vaddr::tile_addr(self.v);
        self.nt_latch = cart.core.read_nt(addr);
        addr
    }

    #[inline(always)]
    pub(super) fn fetch_attribute(&mut self, cart: &Cart) -> u16 {
        let addr = vaddr::attribute_addr(self.v);
        self.at_latch = vaddr::attribute_bits(cart.core.read_nt(addr), self.v);
        addr
    }

    /// `plane` 0 is the low pattern byte, 8 the high one.
    #[inline(always)]
    pub(super) fn fetch_pattern(&mut self, cart: &Cart, plane: u16) -> u16 {
        let addr = self.bg_pattern_addr() | plane;
        let data = cart.core.read_chr(addr);
        if plane == 0 {
            self.pt_lo_latch = data;
        } else {
            self.pt_hi_latch = data;
        }
        addr
    }

    #[inline(always)]
    pub(super) fn bg_pattern_addr(&self) -> u16 {
        self.ctrl.bg_table() | (u16::from(self.nt_latch) << 4) | vaddr::fine_y(self.v)
    }

    fn dummy_nt_fetch(&mut self, cart: &mut Cart) {
        cart.ppu_bus(vaddr::tile_addr(self.v), self.dots);
    }

    #[inline(always)]
    pub(super) fn increment_x(&mut self) {
        if self.v & vaddr::COARSE_X == vaddr::COARSE_X {
            self.v = (self.v & !vaddr::COARSE_X) ^ vaddr::NAMETABLE_X;
        } else {
            self.v += 1;
        }
    }

    pub(super) fn increment_y(&mut self) {
        if self.v & vaddr::FINE_Y != vaddr::FINE_Y {
            self.v += 0x1000;
            return;
        }
        self.v &= !vaddr::FINE_Y;
        let mut y = (self.v & vaddr::COARSE_Y) >> 5;
        // Row 29 is the last of a nametable (rows 30-31 are attributes).
        if y == 29 {
            y = 0;
            self.v ^= vaddr::NAMETABLE_Y;
        } else if y == 31 {
            y = 0;
        } else {
            y += 1;
        }
        self.v = (self.v & !vaddr::COARSE_Y) | (y << 5);
    }

    #[inline(always)]
    fn output_pixel(&mut self, x: usize) {
        let mask = self.mask;
        let shift = 15 - u16::from(self.x);
        let mut index = 0;
        if x >= mask.bg_from() {
            let bit = |plane: u16| ((plane >> shift) & 1) as u8;
            let pattern = bit(self.bg_hi) << 1 | bit(self.bg_lo);
            if pattern != 0 {
                index = (bit(self.at_hi) << 3 | bit(self.at_lo) << 2) | pattern;
            }
        }
        let spr = if self.sprites.flat {
            self.sprites.line[x]
        } else {
            self.step_units(true)
        };
        if spr != 0 && x >= mask.sprites_from() {
            if sprites::hits_sprite0(index, spr, x) {
                self.sprite0_hit = true;
            }
            index = sprites::over_background(index, spr);
        }
        self.put_pixel(x, index);
    }

    /// With rendering off the PPU shows the backdrop, or the palette entry v points at.
    pub(super) fn backdrop_pixel(&mut self, x: usize) {
        let entry = self.backdrop_entry();
        self.recent[x % MASK_OUTPUT_LAG] = entry;
        self.line[x] = output_colour(entry, self.mask);
    }

    /// `backdrop_pixel` for a whole line (v does not move with rendering off).
    pub(super) fn backdrop_line(&mut self) {
        let entry = self.backdrop_entry();
        self.recent = [entry; MASK_OUTPUT_LAG];
        self.line = [output_colour(entry, self.mask); WIDTH];
    }

    fn backdrop_entry(&self) -> u8 {
        if self.v & 0x3F00 == 0x3F00 {
            self.palette[Ppu::palette_index(self.v)]
        } else {
            self.palette[0]
        }
    }

    /// Output colour for each of the 32 palette indices under the current mask: index 0 of
    /// every sub-palette shows the backdrop; greyscale and emphasis apply.
    pub(super) fn line_colours(&self) -> [u16; 32] {
        let mut entries = self.palette;
        for entry in entries.iter_mut().step_by(4) {
            *entry = self.palette[0];
        }
        // `output_colour` with the mask's parts worked out once (this is per line).
        let emphasis = output_colour(0, self.mask);
        let grey = output_colour(0x3F, self.mask) ^ emphasis;
        entries.map(|entry| u16::from(entry) & grey | emphasis)
    }

    #[inline(always)]
    pub(super) fn put_pixel(&mut self, x: usize, index: u8) {
        let i = usize::from(index);
        let entry = self.palette[if i & 3 == 0 { 0 } else { i }];
        self.recent[x % MASK_OUTPUT_LAG] = entry;
        self.line[x] = output_colour(entry, self.mask);
    }

    /// Greyscale and emphasis act where the colour leaves the chip, `MASK_OUTPUT_LAG` dots
    /// after the pixel was chosen, so a $2001 write also recolours the last pixels drawn
    /// on this line (their palette entries are kept in `recent`).
    pub(super) fn recolour_recent(&mut self, mask: Mask) {
        if self.scanline >= POST_RENDER_LINE || self.dot < 2 {
            return;
        }
        // Pixel x was drawn at dot x + 1 and leaves the chip at dot x + 1 + MASK_OUTPUT_LAG.
        let last = usize::from(self.dot) - 2;
        let first = last.saturating_sub(MASK_OUTPUT_LAG - 1);
        if first >= WIDTH {
            return;
        }
        for x in first..=last.min(WIDTH - 1) {
            self.line[x] = output_colour(self.recent[x % MASK_OUTPUT_LAG], mask);
        }
        // Dot 256 already copied the line into the frame.
        if self.dot > 256 {
            self.finish_line(self.scanline);
        }
    }

    pub(super) fn finish_line(&mut self, line: u16) {
        let start = usize::from(line) * WIDTH;
        Arc::make_mut(&mut self.frame_buffer)[start..start + WIDTH].copy_from_slice(&self.line);
    }
}
