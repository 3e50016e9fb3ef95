//! Whole lines and predictions for boards that watch the PPU bus.
//!
//! MMC3's IRQ counter is clocked by rises of PPU A12. While the PPU renders, A12 follows
//! from its state alone: the pattern tables chosen in $2000, the sprite size and, with 8x16
//! sprites, the tile numbers of the sprites found on each line. So:
//! - a line drawn whole (`fast_line.rs`) shows the board the A12 changes its fetches make,
//!   in order and on the dot counts the dot path would show them (`show_line_a12`);
//! - the scheduler asks `dots_to_a12_irq` on which dot the board's IRQ will rise and has the
//!   PPU caught up there, as it does for VBL (`bus/clock.rs`); a CPU access that changes what
//!   the answer was computed from plans again.
//!
//! MMC2/MMC4's latches switch CHR banks on fetches of tiles $FD/$FE, which only changes
//! what is drawn: whole lines show the board those fetches between the fetches they affect.

use super::fast_line::tile_row;
use super::{Ctrl, DOTS_PER_LINE, LINES_PER_FRAME, POST_RENDER_LINE, PRE_RENDER_LINE, Ppu};
use crate::cart::Cart;
use crate::ppu_watch::{A12Irq, PpuWatch};

/// Where a fetch's A12 comes from.
#[derive(Clone, Copy)]
enum Source {
    /// Nametable and attribute fetches ($2000-$2FFF).
    Low,
    /// Background pattern fetches: $2000's background table.
    Bg,
    /// Pattern fetches of sprite slot n.
    Sprite(u8),
}

/// The fetches of a rendering line that `render_dot` shows the board, in dot order.
const FETCHES: [(u16, Source); 162] = line_fetches();

const fn line_fetches() -> [(u16, Source); 162] {
    let mut out = [(0u16, Source::Low); 162];
    let mut i = 0;
    let mut tile = 0u16;
    while tile < 34 {
        // Tiles 0-31 at dots 1-256, the next line's first two at 321-336.
        let d = if tile < 32 {
            1 + 8 * tile
        } else {
            321 + 8 * (tile - 32)
        };
        out[i] = (d, Source::Low);
        out[i + 1] = (d + 2, Source::Low);
        out[i + 2] = (d + 4, Source::Bg);
        out[i + 3] = (d + 6, Source::Bg);
        i += 4;
        tile += 1;
        if tile == 32 {
            // Dots 257-320: a garbage nametable fetch and two pattern fetches per slot.
            let mut slot = 0u8;
            while slot < 8 {
                let d = 257 + 8 * slot as u16;
                out[i] = (d, Source::Low);
                out[i + 1] = (d + 4, Source::Sprite(slot));
                out[i + 2] = (d + 6, Source::Sprite(slot));
                i += 3;
                slot += 1;
            }
        }
    }
    out[i] = (337, Source::Low);
    out[i + 1] = (339, Source::Low);
    out
}

/// `FETCHES` of a line from its start, less those that cannot change what an A12 board
/// counts: a fetch with the previous one's level, and the fall and rise of background
/// tiles 1-31 (low for 4 dots, too short to count; the fall at 257 then overwrites when
/// A12 fell). Boards that set `PpuWatch::A12` filter rises after fewer than 5 dots low.
const WHOLE_LINE: [(u16, Source); 23] = whole_line();

const fn whole_line() -> [(u16, Source); 23] {
    let mut out = [(1u16, Source::Low); 23];
    out[1] = (5, Source::Bg);
    let mut slot = 0u8;
    while slot < 8 {
        let d = 257 + 8 * slot as u16;
        out[2 + 2 * slot as usize] = (d, Source::Low);
        out[3 + 2 * slot as usize] = (d + 4, Source::Sprite(slot));
        slot += 1;
    }
    out[18] = (321, Source::Low);
    out[19] = (325, Source::Bg);
    out[20] = (329, Source::Low);
    out[21] = (333, Source::Bg);
    out[22] = (337, Source::Low);
    out
}

/// A fetch's A12 given the background table bit and the sprite slots' table bits.
#[inline(always)]
fn a12(source: Source, bg: bool, sprites: u8) -> bool {
    match source {
        Source::Low => false,
        Source::Bg => bg,
        Source::Sprite(slot) => sprites >> slot & 1 != 0,
    }
}

/// Dots between two looks ahead when no IRQ is coming (a frame).
pub(crate) const A12_LOOK_AHEAD: u64 = LINES_PER_FRAME as u64 * DOTS_PER_LINE as u64;

impl Ppu {
    /// What A12 predictions depend on besides the position: the pattern tables and sprite
    /// size, rendering enable, and with 8x16 sprites the OAM address evaluation starts at.
    pub(crate) fn a12_inputs(&self) -> u32 {
        let ctrl = self.ctrl & (Ctrl::BG_TABLE | Ctrl::SPRITE_TABLE | Ctrl::TALL_SPRITES);
        let oam_addr = if self.tall_sprites() {
            self.oam_addr
        } else {
            0
        };
        u32::from(ctrl.bits()) | u32::from(self.rendering_enabled()) << 8 | u32::from(oam_addr) << 9
    }

    pub(crate) fn tall_sprites(&self) -> bool {
        self.ctrl.contains(Ctrl::TALL_SPRITES)
    }

    /// Lines 240-260, where nothing is fetched before the pre-render line's dot 1 (an event).
    pub(crate) fn in_vertical_blank(&self) -> bool {
        (POST_RENDER_LINE..PRE_RENDER_LINE).contains(&self.scanline)
    }

    /// Shows the board the A12 changes of the visible line starting now, drawn whole (after
    /// its sprite evaluation).
    pub(super) fn show_line_a12(&self, cart: &mut Cart) {
        let bg = self.ctrl.contains(Ctrl::BG_TABLE);
        let sprites = self.fetched_sprite_tables();
        // After the first, a fetch that keeps A12's level changes nothing (`PpuWatch::A12`).
        let mut level = None;
        for &(dot, source) in &WHOLE_LINE {
            let high = a12(source, bg, sprites);
            if level != Some(high) {
                level = Some(high);
                cart.ppu_bus(u16::from(high) << 12, self.dots + u64::from(dot));
            }
        }
    }

    /// Bit n set when sprite slot n fetches from $1000, for the secondary OAM as it is.
    fn fetched_sprite_tables(&self) -> u8 {
        if !self.ctrl.contains(Ctrl::TALL_SPRITES) {
            return if self.ctrl.contains(Ctrl::SPRITE_TABLE) {
                0xFF
            } else {
                0
            };
        }
        (0..8).fold(0, |bits, slot| {
            bits | (self.secondary_oam[slot * 4 + 1] & 1) << slot
        })
    }

    /// With 8x16 sprites: per visible line, the slot bits (as `fetched_sprite_tables`) an
    /// evaluation that starts at OAM address 0 leaves; empty slots fetch tile $FF.
    fn tall_sprite_tables(&self) -> [u8; POST_RENDER_LINE as usize] {
        const LINES: usize = POST_RENDER_LINE as usize;
        let mut bits = [0u8; LINES];
        let mut found = [0u8; LINES];
        for sprite in self.oam.chunks_exact(4) {
            let top = usize::from(sprite[0]);
            for line in top..(top + 16).min(LINES) {
                if found[line] < 8 {
                    bits[line] |= (sprite[1] & 1) << found[line];
                    found[line] += 1;
                }
            }
        }
        for (b, n) in bits.iter_mut().zip(found) {
            *b |= (0xFF00u16 >> (8 - n)) as u8;
        }
        bits
    }

    /// Dots from now to the dot on which the A12-clocked IRQ `irq` rises (the fetch that
    /// completes its count, plus the board's delay), if that fetch comes within `horizon` dots and no CPU access changes anything. Never late: where a line's
    /// sprites cannot be known yet (evaluation under way or not starting at OAM address 0),
    /// it answers that line's first sprite fetch, and right after a $2001 write the next dot.
    pub(crate) fn dots_to_a12_irq(&self, mut irq: A12Irq, horizon: u64) -> Option<u64> {
        // A count already complete rises on its dot whatever the PPU does meanwhile (a
        // forged state's dot may lie beyond any horizon: the look is then taken again).
        if let Some(due) = irq.due {
            return Some(due.saturating_sub(self.dots).min(horizon));
        }
        let enabled = self.rendering_enabled();
        if !self.enable_settled() {
            return Some(0);
        }
        if !enabled {
            return None;
        }
        let end = self.dots + horizon;
        let bg = self.ctrl.contains(Ctrl::BG_TABLE);
        let tall = self.ctrl.contains(Ctrl::TALL_SPRITES);
        let table = if tall {
            self.tall_sprite_tables()
        } else {
            [0; POST_RENDER_LINE as usize]
        };
        let fetched = self.fetched_sprite_tables();
        // The next visible line's evaluation starts at OAM address 0 if a rendering line's
        // dots 257-320 come first; otherwise at the address as it is. After a whole
        // rendering line, always at 0.
        let mut eval_from_zero =
            self.oam_addr == 0 || (self.on_rendering_line() && self.dot <= 320);
        // What line 239's evaluation leaves for the pre-render line, once the look has passed it.
        let mut after_239 = None;
        let mut first = true;
        let (mut line, mut from) = (self.scanline, self.dot);
        // The dot count at the start of each line looked at. The PPU powers on at dot 1 with
        // the count at 0, so the first line starts "before 0": counts are taken modulo 2^64,
        // which keeps every `at` (never before now) exact.
        let mut base = self.dots.wrapping_sub(u64::from(self.dot));
        let mut odd = self.odd_frame;
        loop {
            if line < POST_RENDER_LINE || line == PRE_RENDER_LINE {
                let sprites = if !tall {
                    Some(fetched)
                } else if line == PRE_RENDER_LINE {
                    Some(if first {
                        fetched
                    } else {
                        after_239.unwrap_or(fetched)
                    })
                } else if first {
                    if self.dot > 256 {
                        Some(fetched)
                    } else {
                        (self.dot <= 65 && self.oam_addr == 0).then(|| table[usize::from(line)])
                    }
                } else {
                    eval_from_zero.then(|| table[usize::from(line)])
                };
                if line == POST_RENDER_LINE - 1 {
                    after_239 = sprites;
                }
                if !first {
                    eval_from_zero = true;
                }
                let fetches: &[(u16, Source)] = if from == 0 {
                    &WHOLE_LINE
                } else {
                    let first = FETCHES.partition_point(|&(d, _)| d < from);
                    &FETCHES[first..]
                };
                for &(dot, source) in fetches {
                    let at = base.wrapping_add(u64::from(dot));
                    if at > end {
                        return None;
                    }
                    let high = match (source, sprites) {
                        (Source::Sprite(_), None) => return Some(at - self.dots),
                        (_, bits) => a12(source, bg, bits.unwrap_or(0)),
                    };
                    if irq.edges.see(high, at) {
                        irq.clocks -= 1;
                        if irq.clocks == 0 {
                            return Some(at + irq.delay - self.dots);
                        }
                    }
                }
            }
            let len = if line == PRE_RENDER_LINE && odd {
                DOTS_PER_LINE - 1
            } else {
                DOTS_PER_LINE
            };
            base = base.wrapping_add(u64::from(len));
            from = 0;
            first = false;
            line += 1;
            if line == POST_RENDER_LINE + 1 {
                // Lines 241-260 fetch nothing.
                base += u64::from(DOTS_PER_LINE) * u64::from(PRE_RENDER_LINE - line);
                line = PRE_RENDER_LINE;
            } else if line == LINES_PER_FRAME {
                line = 0;
                odd = !odd;
            }
            if base > end {
                return None;
            }
        }
    }

    /// The four fetches of a background tile starting on `dot` of this line, showing a
    /// latch board the pattern fetches it reacts to between them.
    #[inline(always)]
    pub(super) fn fetch_tile_at(&mut self, cart: &mut Cart, dot: u16) {
        if cart.ppu_watch != PpuWatch::LatchTiles {
            return self.fetch_tile(cart);
        }
        self.fetch_nametable(cart);
        self.fetch_attribute(cart);
        let lo = self.fetch_pattern(cart, 0);
        self.show_tile_fetch(cart, lo, dot + 4);
        let hi = self.fetch_pattern(cart, 8);
        self.show_tile_fetch(cart, hi, dot + 6);
    }

    /// Dots 1-256's 32 tile fetches one by one, for latch boards (`fetch_line_tiles` reads
    /// through one bank layout).
    pub(super) fn fetch_line_tiles_shown(&mut self, cart: &mut Cart, out: &mut [u64; 32]) {
        for (k, row) in out.iter_mut().enumerate() {
            self.fetch_tile_at(cart, 1 + 8 * k as u16);
            *row = tile_row(self.pt_lo_latch, self.pt_hi_latch, self.at_latch);
            self.increment_x();
        }
    }

    /// Dots 257-320's pattern fetches for latch boards: every slot's, found or not, as the
    /// dot path makes them.
    pub(super) fn fetch_sprite_patterns_shown(&mut self, line: u16, cart: &mut Cart) {
        // Only visible lines run whole: every slot below the count is fetched.
        let count = usize::from(self.sprites.count_next);
        for slot in 0..8 {
            let addr = self.sprite_pattern_addr(slot, line);
            let dot = 261 + 8 * slot as u16;
            let lo = self.sprite_plane(slot, addr, cart);
            self.show_tile_fetch(cart, addr, dot);
            let hi = self.sprite_plane(slot, addr | 8, cart);
            self.show_tile_fetch(cart, addr | 8, dot + 2);
            let found = slot < count;
            self.sprites.pattern_lo[slot] = if found { lo } else { 0 };
            self.sprites.pattern_hi[slot] = if found { hi } else { 0 };
        }
    }

    /// Shows a latch board a pattern fetch of tile $FD or $FE (it ignores all others).
    #[inline(always)]
    fn show_tile_fetch(&self, cart: &mut Cart, addr: u16, dot: u16) {
        if matches!(addr & 0x0FF0, 0x0FD0 | 0x0FE0) {
            cart.ppu_bus(addr, self.dots + u64::from(dot));
        }
    }
}
