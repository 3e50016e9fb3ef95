//! A whole visible scanline at once, for when the CPU cannot observe anything inside it.
//!
//! The on-demand scheduler only runs a line here when it starts at dot 0 and ends past dot
//! 340; a board that watches the PPU bus is shown what it needs (`watched.rs`). The result (pixels, flags, v, latches,
//! shifters, secondary OAM, sprite line) must equal what `step` produces dot by dot;
//! `tests/determinism.rs` compares both paths frame by frame.

use super::regs::vaddr;
use super::sprites;
use super::{DOTS_PER_LINE, POST_RENDER_LINE, Ppu, WIDTH};
use crate::cart::{Cart, PpuWatch};

impl Ppu {
    /// True when the line starting now may take the fast path.
    #[inline(always)]
    pub(super) fn can_run_fast_line(&self) -> bool {
        self.dot == 0
            && self.scanline < POST_RENDER_LINE
            && self.enable_settled()
            && (self.sprites.flat || !self.rendering)
    }

    /// Runs dots 0-340 of a visible line; returns the dot at which it set the sprite 0 hit
    /// flag, if it did.
    pub(super) fn fast_line(&mut self, cart: &mut Cart) -> Option<u16> {
        let line = self.scanline;
        let mut hit = None;
        if self.rendering {
            if let Some(row) = self.oam_corrupt.take() {
                self.corrupt_oam(row);
            }
            hit = self.fast_background_and_pixels(cart);
            self.fast_sprite_evaluation(line);
            self.fast_line_tail(line, cart);
            if cart.ppu_watch == PpuWatch::A12 {
                self.show_line_a12(cart);
            }
        } else {
            for x in 0..WIDTH {
                self.backdrop_pixel(x);
            }
            self.blank_line_units();
        }
        self.finish_line(line);
        self.dots += u64::from(DOTS_PER_LINE);
        self.scanline += 1;
        // Rendering enable only changes on a $2001 write, which syncs, and was settled when
        // the line began.
        self.settle_enable();
        hit
    }

    /// Dots 1-256: 32 tile fetches and 256 pixels, composited with the sprite line.
    fn fast_background_and_pixels(&mut self, cart: &mut Cart) -> Option<u16> {
        let mask = self.mask;
        // Background palette indices (0 = transparent) of 34 tiles: the two prefetched at
        // the end of the previous line, then the 32 fetched now; fine x picks the window.
        let mut bg = [0u8; 34 * 8];
        let first = [
            tile_row(
                (self.bg_lo >> 8) as u8,
                (self.bg_hi >> 8) as u8,
                ((((self.at_hi >> 15) & 1) << 1) | ((self.at_lo >> 15) & 1)) as u8,
            ),
            tile_row(
                self.bg_lo as u8,
                self.bg_hi as u8,
                ((((self.at_hi >> 7) & 1) << 1) | ((self.at_lo >> 7) & 1)) as u8,
            ),
        ];
        for (k, row) in first.into_iter().enumerate() {
            bg[k * 8..k * 8 + 8].copy_from_slice(&row.to_le_bytes());
        }
        if cart.ppu_watch == PpuWatch::LatchTiles {
            self.fetch_line_tiles_shown(cart, &mut bg[16..]);
        } else {
            self.fetch_line_tiles(cart, &mut bg[16..]);
        }
        let fine = usize::from(self.x);
        let bg = &mut bg[fine..fine + 256];
        bg[..mask.bg_from()].fill(0);
        let mut hit = None;
        if self.sprites.any_on_line() {
            let sprites = &self.sprites.line;
            let from = mask.sprites_from();
            for (x, (&spr, b)) in sprites.iter().zip(bg.iter_mut()).enumerate().skip(from) {
                if spr == 0 {
                    continue;
                }
                if !self.sprite0_hit && sprites::hits_sprite0(*b, spr, x) {
                    // Pixel x is drawn on dot x + 1.
                    hit = Some(x as u16 + 1);
                    self.sprite0_hit = true;
                }
                *b = sprites::over_background(*b, spr);
            }
        }
        let colours = self.line_colours();
        for (out, &index) in self.line.iter_mut().zip(bg.iter()) {
            *out = colours[usize::from(index & 0x1F)];
        }
        hit
    }

    /// The 32 tile fetches of dots 1-256 as two runs along nametable rows (the second after
    /// coarse X wraps into the neighbouring nametable). Leaves v and the latches as the
    /// fetches one by one would.
    fn fetch_line_tiles(&mut self, cart: &Cart, out: &mut [u8]) {
        let core = &cart.core;
        let chr = core.chr_bytes();
        let v = self.v;
        let coarse_x = usize::from(v & 0x1F);
        let coarse_y = usize::from((v >> 5) & 0x1F);
        let pattern_base = self.ctrl.bg_table() | vaddr::fine_y(v);
        let attr_shift = (coarse_y & 2) << 1;
        let mut k = 0;
        let (mut tile, mut attr) = (0u8, 0u8);
        let (mut lo, mut hi) = (0u8, 0u8);
        for (nt_select, xs) in [(v, coarse_x..32), (v ^ 0x0400, 0..coarse_x)] {
            let page = core.nt_page(vaddr::NAMETABLES | (nt_select & vaddr::NAMETABLE));
            let row = &page[coarse_y * 32..coarse_y * 32 + 32];
            let attrs = &page[0x3C0 + (coarse_y >> 2) * 8..0x3C0 + (coarse_y >> 2) * 8 + 8];
            for x in xs {
                tile = row[x];
                attr = (attrs[x >> 2] >> (attr_shift | (x & 2))) & 3;
                let addr = pattern_base | (u16::from(tile) << 4);
                let off = core.chr[usize::from(addr >> 10) & 7] + usize::from(addr & 0x3FF);
                lo = chr[off];
                hi = chr[off + 8];
                out[k..k + 8].copy_from_slice(&tile_row(lo, hi, attr).to_le_bytes());
                k += 8;
            }
        }
        self.nt_latch = tile;
        self.at_latch = attr;
        self.pt_lo_latch = lo;
        self.pt_hi_latch = hi;
        // 32 coarse X increments: back to the same column in the other nametable.
        self.v ^= vaddr::NAMETABLE_X;
    }

    /// The four fetches of one background tile at the current v.
    #[inline(always)]
    pub(super) fn fetch_tile(&mut self, cart: &Cart) {
        self.fetch_nametable(cart);
        self.fetch_attribute(cart);
        self.fetch_pattern(cart, 0);
        self.fetch_pattern(cart, 8);
    }

    /// Dots 1-256 of sprite evaluation when OAMADDR starts at 0 (the usual case); other
    /// starting addresses replay the dot-exact state machine.
    fn fast_sprite_evaluation(&mut self, line: u16) {
        self.secondary_oam = [0xFF; 32];
        if self.oam_addr != 0 {
            for dot in 1..=256 {
                self.sprite_eval_dot(line, dot);
            }
            return;
        }
        let height = self.sprite_height();
        let in_range = |y: u8| sprites::in_range(line, y, height);
        let mut sec = 0usize;
        let mut n = 0usize;
        let mut sprite0 = false;
        while n < 64 && sec < 32 {
            let y = self.oam[n * 4];
            // The Y byte is written even when the sprite is out of range.
            self.secondary_oam[sec] = y;
            if in_range(y) {
                self.secondary_oam[sec..sec + 4].copy_from_slice(&self.oam[n * 4..n * 4 + 4]);
                sprite0 |= n == 0;
                sec += 4;
            }
            n += 1;
        }
        if sec == 32 {
            // The overflow scan: m advances with n, so it checks bytes other than Y.
            let mut m = 0usize;
            while n < 64 {
                if in_range(self.oam[n * 4 + m]) {
                    self.sprite_overflow = true;
                    break;
                }
                n += 1;
                m = (m + 1) & 3;
            }
        }
        let s = &mut self.sprites;
        s.sec_addr = sec as u8;
        s.sprite0_next = sprite0;
        s.copy_done = true;
        s.in_range = false;
    }

    /// Dots 256-340: v updates, sprite pattern fetches, the next line's first two tiles.
    fn fast_line_tail(&mut self, line: u16, cart: &mut Cart) {
        self.increment_y();
        self.v = (self.v & !vaddr::HORIZONTAL) | (self.t & vaddr::HORIZONTAL);
        self.oam_addr = 0;
        self.begin_sprite_fetch();
        let count = self.sprites.count_next;
        for slot in 0..8 {
            self.latch_sprite_attr(slot);
            self.load_sprite_counter(slot);
        }
        if cart.ppu_watch == PpuWatch::LatchTiles {
            self.fetch_sprite_patterns_shown(line, cart);
        } else {
            for slot in 0..8 {
                let (mut lo, mut hi) = (0, 0);
                if slot < usize::from(count) {
                    let addr = self.sprite_pattern_addr(slot, line);
                    lo = self.sprite_plane(slot, addr, cart);
                    hi = self.sprite_plane(slot, addr | 8, cart);
                }
                self.sprites.pattern_lo[slot] = lo;
                self.sprites.pattern_hi[slot] = hi;
            }
        }
        self.build_sprite_line();
        // Dot 339 sets every unit counting: the next line is flat too.
        self.sprites.drawing = 0;
        self.sprites.flat = true;
        // Dots 321-336 fetch tiles 0 and 1 of the next line: 329 reloads and the eight
        // shifts after it move tile 0 up; 337 reloads tile 1.
        self.fetch_tile_at(cart, 321);
        self.increment_x();
        self.reload_shifters();
        self.shift_by(8);
        self.fetch_tile_at(cart, 329);
        self.increment_x();
        self.reload_shifters();
    }
}

/// `SPREAD[b]` has bit 7-i of `b` in bit 0 of byte i: one pattern plane laid out as eight
/// little-endian pixel bytes, leftmost pixel first.
const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            t[b] |= (((b >> (7 - i)) & 1) as u64) << (8 * i);
            i += 1;
        }
        b += 1;
    }
    t
};

/// Eight background pixels of one tile row as palette-index bytes (0 = transparent).
#[inline(always)]
pub(super) fn tile_row(lo: u8, hi: u8, attr: u8) -> u64 {
    let pixels = SPREAD[usize::from(lo)] | (SPREAD[usize::from(hi)] << 1);
    let opaque = (pixels | pixels >> 1) & 0x0101_0101_0101_0101;
    pixels | (opaque * u64::from(attr << 2))
}
