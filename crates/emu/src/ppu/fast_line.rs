//! A whole visible scanline at once, for when the CPU cannot observe anything inside it.
//!
//! The on-demand scheduler only runs a line here when it starts at dot 0 and ends past dot
//! 340; a board that watches the PPU bus is shown what it needs (`watched.rs`). The result (pixels, flags, v, latches,
//! shifters, secondary OAM, sprite line) must equal what `step` produces dot by dot;
//! `tests/determinism.rs` compares both paths frame by frame.

use super::colour_pairs;
use super::regs::vaddr;
use super::sprites;
use super::{DOTS_PER_LINE, POST_RENDER_LINE, Ppu, WIDTH};
use crate::cart::Cart;
use crate::ppu_watch::PpuWatch;

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
            self.backdrop_line();
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

    /// Dots 1-256: 32 tile fetches and 256 pixels, composited with the sprite line eight
    /// pixels at a time.
    fn fast_background_and_pixels(&mut self, cart: &mut Cart) -> Option<u16> {
        let mask = self.mask;
        // Background palette indices (`tile_row`) of 34 tiles, eight bytes each: the two
        // prefetched at the end of the previous line, then the 32 fetched now; fine x picks
        // the window.
        let mut tiles = [0u64; 34];
        tiles[0] = tile_row(
            (self.bg_lo >> 8) as u8,
            (self.bg_hi >> 8) as u8,
            ((((self.at_hi >> 15) & 1) << 1) | ((self.at_lo >> 15) & 1)) as u8,
        );
        tiles[1] = tile_row(
            self.bg_lo as u8,
            self.bg_hi as u8,
            ((((self.at_hi >> 7) & 1) << 1) | ((self.at_lo >> 7) & 1)) as u8,
        );
        let fetched: &mut [u64; 32] = (&mut tiles[2..]).try_into().unwrap();
        if cart.ppu_watch == PpuWatch::LatchTiles {
            self.fetch_line_tiles_shown(cart, fetched);
        } else {
            self.fetch_line_tiles(cart, fetched);
        }
        // The left-column clips are 0, 8 or 256 pixels: whole groups of eight.
        let bg_from = mask.bg_from() / 8;
        let sprites_from = if self.sprites.any_on_line() {
            mask.sprites_from() / 8
        } else {
            WIDTH / 8
        };
        let shift = 8 * u32::from(self.x);
        let colours = self.line_colours();
        let pairs = self.colour_pairs.table(&colours);
        let mut hit = None;
        let groups = self.line.chunks_exact_mut(8).zip(tiles.windows(2));
        for (g, (out, pair)) in groups.enumerate() {
            // Bytes `x`.. of the two tiles (`<< 1 <<` keeps x = 0 from shifting by 64).
            let mut pixels = if g < bg_from {
                0
            } else {
                (pair[0] >> shift) | ((pair[1] << 1) << (63 - shift))
            };
            if g >= sprites_from {
                let spr = sprites::line_group(&self.sprites.line, g);
                if spr != 0 {
                    let mut hits = sprites::hits_sprite0_8(pixels, spr);
                    if g == WIDTH / 8 - 1 {
                        // Never at x 255.
                        hits &= u64::MAX >> 8;
                    }
                    if hits != 0 && !self.sprite0_hit {
                        // Pixel x is drawn on dot x + 1.
                        hit = Some((8 * g) as u16 + hits.trailing_zeros() as u16 / 8 + 1);
                        self.sprite0_hit = true;
                    }
                    pixels = sprites::over_background_8(pixels, spr);
                }
            }
            colour_pairs::put_eight(out, pixels, pairs);
        }
        hit
    }

    /// The 32 tile fetches of dots 1-256 as two runs along nametable rows (the second after
    /// coarse X wraps into the neighbouring nametable). Leaves v and the latches as the
    /// fetches one by one would.
    fn fetch_line_tiles(&mut self, cart: &Cart, out: &mut [u64; 32]) {
        let core = &cart.core;
        let chr = core.chr_bytes();
        let v = self.v;
        let coarse_x = usize::from(v & 0x1F);
        let coarse_y = usize::from((v >> 5) & 0x1F);
        // The background table's four 1 KiB banks (64 tiles each); every window lies within
        // pattern memory (`CartCore::chr`).
        let table = usize::from(self.ctrl.bg_table() >> 10);
        let banks: [&[u8; 0x400]; 4] =
            std::array::from_fn(|j| chr[core.chr[table + j]..][..0x400].try_into().unwrap());
        let fine_y = usize::from(vaddr::fine_y(v) & 7);
        let attr_shift = (coarse_y & 2) << 1;
        let (mut tile, mut attr) = (0u8, 0u8);
        let (mut lo, mut hi) = (0u8, 0u8);
        let (first, second) = out.split_at_mut(32 - coarse_x);
        for (nt_select, from, out) in [(v, coarse_x, first), (v ^ 0x0400, 0, second)] {
            let page = core.nt_page(vaddr::NAMETABLES | (nt_select & vaddr::NAMETABLE));
            let row: &[u8; 32] = page[coarse_y * 32..][..32].try_into().unwrap();
            let attrs: &[u8; 8] = page[0x3C0 + (coarse_y >> 2) * 8..][..8].try_into().unwrap();
            for (x, slot) in (from..).zip(out.iter_mut()) {
                let x = x & 31;
                tile = row[x];
                attr = (attrs[x >> 2] >> (attr_shift | (x & 2))) & 3;
                let bank = banks[usize::from(tile >> 6)];
                let at = usize::from(tile & 0x3F) << 4 | fine_y;
                lo = bank[at];
                hi = bank[at | 8];
                *slot = tile_row(lo, hi, attr);
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
        let mut found = self.sprite_rows.on_line(&self.oam, height, line);
        let sprite0 = found & 1 != 0;
        let last_in_range = found >> 63 != 0;
        let mut sec = 0usize;
        // Where the scan stopped: past the eighth sprite found, else past the end.
        let mut n = 64;
        while found != 0 {
            let k = found.trailing_zeros() as usize;
            found &= found - 1;
            self.secondary_oam[sec..sec + 4].copy_from_slice(&self.oam[k * 4..k * 4 + 4]);
            sec += 4;
            if sec == 32 {
                n = k + 1;
                break;
            }
        }
        // Each sprite's Y byte is written at `sec` before the range test; the copies wrote
        // over all of them but the last sprite's when it was out of range.
        if sec < 32 && !last_in_range {
            self.secondary_oam[sec] = self.oam[63 * 4];
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

/// Eight background pixels of one tile row as palette-index bytes. A transparent pixel
/// (pattern bits 0-1 clear) keeps the attribute bits: index 0, 4, 8 or 12 all show the
/// backdrop (`line_colours`), and compositing only looks at bits 0-1.
#[inline(always)]
pub(super) fn tile_row(lo: u8, hi: u8, attr: u8) -> u64 {
    let pixels = SPREAD[usize::from(lo)] | (SPREAD[usize::from(hi)] << 1);
    pixels | ATTRIBUTE[usize::from(attr & 3)]
}

/// `ATTRIBUTE[a]` has `a` in bits 2-3 of every byte.
const ATTRIBUTE: [u64; 4] = [
    0,
    0x0404_0404_0404_0404,
    0x0808_0808_0808_0808,
    0x0C0C_0C0C_0C0C_0C0C,
];
