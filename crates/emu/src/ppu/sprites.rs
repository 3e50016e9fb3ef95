//! Sprite evaluation (dot by dot, with the hardware's overflow-scan bug) and sprite fetches.
//!
//! Evaluation during line L fills secondary OAM for line L+1; dots 257-320 fetch the
//! patterns into the eight output units, which are then flattened into a 256-pixel line so
//! output is one lookup per dot. That equals what the units draw unless rendering is
//! switched off or on around the fetches or during the line; then the units run dot by dot
//! (`sprite_units.rs`).

use super::regs::vaddr;
use super::{Ctrl, PRE_RENDER_LINE, Ppu, WIDTH};
use crate::cart::Cart;
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct SpriteUnit {
    /// Per pixel of the line being drawn: 0 = transparent, else bits 0-4 palette index,
    /// bit 6 behind background, bit 7 from sprite 0.
    #[serde(with = "crate::serde_bytes_array")]
    pub(crate) line: [u8; WIDTH],
    line_dirty: bool,
    /// Evaluation state.
    oam_bus: u8,
    n: u8,
    m: u8,
    pub(super) sec_addr: u8,
    pub(super) in_range: bool,
    pub(super) copy_done: bool,
    overflow_countdown: u8,
    pub(super) sprite0_next: bool,
    /// Fetch results for the next line.
    pub(super) count_next: u8,
    pub(super) pattern_lo: [u8; 8],
    pub(super) pattern_hi: [u8; 8],
    pub(super) sprite0_line: bool,
    /// The output units (`sprite_units.rs`): per slot the attribute byte its fetch
    /// latched and its X counter, and which units are drawing; `pattern_lo/hi` are their
    /// shifters.
    pub(super) attrs: [u8; 8],
    pub(super) x_counter: [u8; 8],
    pub(super) drawing: u8,
    /// The line being drawn (from dot 339 before it) is the line buffer: its units were all
    /// fetched and set counting with rendering on, and nothing has stepped them since.
    pub(super) flat: bool,
    /// Rendering has stayed on since this line's sprite fetches began.
    pub(super) fetch_clean: bool,
    /// Line 0 follows a short pre-render line (see `step_units`).
    pub(super) late_start: bool,
}

impl Default for SpriteUnit {
    fn default() -> Self {
        SpriteUnit {
            line: [0; WIDTH],
            line_dirty: false,
            oam_bus: 0xFF,
            n: 0,
            m: 0,
            sec_addr: 0,
            in_range: false,
            copy_done: false,
            overflow_countdown: 0,
            sprite0_next: false,
            count_next: 0,
            pattern_lo: [0; 8],
            pattern_hi: [0; 8],
            sprite0_line: false,
            attrs: [0; 8],
            x_counter: [0; 8],
            drawing: 0,
            flat: false,
            fetch_clean: false,
            late_start: false,
        }
    }
}

impl SpriteUnit {
    /// What a pixel of slot `slot` carries besides its colour: the sprite palette (from
    /// its attribute byte), the behind-background bit and the sprite-0 mark.
    #[inline(always)]
    pub(super) fn pixel_bits(&self, slot: usize) -> u8 {
        let s0 = if slot == 0 && self.sprite0_line {
            SPRITE0
        } else {
            0
        };
        let attr = self.attrs[slot];
        0x10 | ((attr & 3) << 2) | ((attr & 0x20) << 1) | s0
    }

    /// Savestate check: the evaluation's indices into OAM and secondary OAM.
    pub(super) fn check(&self, field: &str) -> Result<(), crate::invalid::InvalidState> {
        crate::invalid::ensure(
            self.n <= 64 && self.m < 4 && self.sec_addr <= 32 && self.count_next <= 8,
            field,
            || {
                format!(
                    "sprite {} byte {}, secondary OAM at {}, {} sprites next: out of range",
                    self.n, self.m, self.sec_addr, self.count_next
                )
            },
        )
    }

    /// Adds `by` to the OAM address the evaluation walks (`n` sprite, `m` byte), clearing
    /// the byte index if `realign`; true when it wrapped past the end of OAM.
    fn advance(&mut self, by: u8, realign: bool) -> bool {
        let (mut addr, wrapped) = ((self.n << 2) | self.m).overflowing_add(by);
        if realign {
            addr &= 0xFC;
        }
        self.n = addr >> 2;
        self.m = addr & 3;
        wrapped
    }

    /// False when the line buffer is known to be all transparent.
    pub(super) fn any_on_line(&self) -> bool {
        self.line_dirty
    }
}

/// Bits of a sprite-line pixel (see `build_sprite_line`) besides its palette index.
const SPRITE0: u8 = 0x80;
const BEHIND_BG: u8 = 0x40;

/// The palette index shown where sprite pixel `spr` (opaque) meets background index `bg`
/// (0 = transparent): the sprite, unless it is behind an opaque background.
#[inline(always)]
pub(super) fn over_background(bg: u8, spr: u8) -> u8 {
    if bg == 0 || spr & BEHIND_BG == 0 {
        spr & 0x1F
    } else {
        bg
    }
}

/// Sprite 0 hits where its opaque pixel meets an opaque background, but never at x 255.
#[inline(always)]
pub(super) fn hits_sprite0(bg: u8, spr: u8, x: usize) -> bool {
    spr & SPRITE0 != 0 && bg != 0 && x != 255
}

/// One in each byte of a u64.
const BYTES: u64 = 0x0101_0101_0101_0101;

/// Pixels 8g..8g+8 of a sprite line, one byte each, leftmost in the low byte.
#[inline(always)]
pub(super) fn line_group(line: &[u8; WIDTH], g: usize) -> u64 {
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&line[g * 8..g * 8 + 8]);
    u64::from_le_bytes(bytes)
}

/// `over_background` on eight pixels at once (one byte each, as `line_group`). An opaque
/// sprite pixel always has bit 4 set (`pixel_bits`), an opaque background one a non-zero
/// pattern in bits 0-1.
#[inline(always)]
pub(super) fn over_background_8(bg: u64, spr: u64) -> u64 {
    let sprite = (spr >> 4) & BYTES;
    let background = (bg | bg >> 1) & BYTES;
    let behind = (spr >> 6) & BYTES;
    let shown = (sprite & !(background & behind)) * 0xFF;
    (bg & !shown) | (spr & shown & (BYTES * 0x1F))
}

/// `hits_sprite0` on eight pixels, without the x 255 rule: bit 0 of each byte set where
/// sprite 0's opaque pixel meets an opaque background.
#[inline(always)]
pub(super) fn hits_sprite0_8(bg: u64, spr: u64) -> u64 {
    (spr >> 7) & (bg | bg >> 1) & BYTES
}

/// Whether a sprite with top row `y` covers `line`.
#[inline(always)]
pub(super) fn in_range(line: u16, y: u8, height: u16) -> bool {
    line.wrapping_sub(u16::from(y)) < height
}

impl Ppu {
    pub(super) fn sprite_height(&self) -> u16 {
        if self.ctrl.contains(Ctrl::TALL_SPRITES) {
            16
        } else {
            8
        }
    }

    /// What $2004 returns: mid-render it is whatever the evaluation bus carries.
    pub(super) fn oam_read_value(&self) -> u8 {
        if !self.in_render_fetch() {
            return self.oam[usize::from(self.oam_addr)];
        }
        match self.dot {
            1..=64 => 0xFF,
            65..=256 => self.sprites.oam_bus,
            257..=320 => {
                let slot = usize::from(self.dot - 257) / 8;
                let byte = (usize::from(self.dot - 257) % 8).min(3);
                self.secondary_oam[slot * 4 + byte]
            }
            _ => self.secondary_oam[0],
        }
    }

    pub(super) fn oam_write(&mut self, value: u8) {
        if self.in_render_fetch() {
            // Writes are ignored mid-render but still bump the sprite index, which also
            // realigns the address to a sprite's first byte.
            self.oam_addr = self.oam_addr.wrapping_add(4) & 0xFC;
            return;
        }
        let value = if self.oam_addr & 3 == 2 {
            value & 0xE3
        } else {
            value
        };
        self.oam[usize::from(self.oam_addr)] = value;
        self.oam_addr = self.oam_addr.wrapping_add(1);
    }

    /// The secondary OAM address at the start of the current dot: dots 1-64 clear a byte
    /// every other dot, evaluation copies (the corruption seed rounds it up to a sprite's
    /// first byte, and a full secondary OAM wraps to 0), and each 8-dot sprite fetch steps
    /// through Y, tile and attribute, stays on X, then moves to the next sprite.
    pub(super) fn secondary_oam_addr(&self) -> u8 {
        let dot = self.dot;
        let addr = match dot {
            1..=64 => (dot - 1) / 2,
            66..=256 => u16::from(self.sprites.sec_addr.div_ceil(4) * 4),
            257..=320 => {
                let rel = dot - 257;
                (rel / 8) * 4 + (rel % 8).min(3)
            }
            _ => 0,
        };
        (addr & 0x1F) as u8
    }

    /// Rendering came back on a rendering line after it was switched off on one: OAM row 0
    /// (8 bytes) is copied over row `row`, and secondary OAM byte 0 over byte `row`.
    #[cold]
    pub(super) fn corrupt_oam(&mut self, row: u8) {
        let at = usize::from(row) * 8;
        self.oam.copy_within(0..8, at);
        self.secondary_oam[usize::from(row)] = self.secondary_oam[0];
    }

    /// One dot of evaluation on a visible line (dots 1-256).
    #[inline(always)]
    pub(super) fn sprite_eval_dot(&mut self, line: u16, dot: u16) {
        if dot <= 64 {
            if dot & 1 == 0 {
                self.secondary_oam[usize::from(dot / 2 - 1)] = 0xFF;
            }
            return;
        }
        if dot == 65 {
            let s = &mut self.sprites;
            s.n = self.oam_addr >> 2;
            s.m = self.oam_addr & 3;
            s.sec_addr = 0;
            s.in_range = false;
            s.copy_done = false;
            s.overflow_countdown = 0;
            s.sprite0_next = false;
        }
        if dot & 1 == 1 {
            self.sprites.oam_bus = self.oam[usize::from(self.oam_addr)];
            return;
        }
        self.sprite_eval_write(line, dot);
        let s = &self.sprites;
        self.oam_addr = (s.n << 2) | (s.m & 3);
    }

    fn sprite_eval_write(&mut self, line: u16, dot: u16) {
        let height = self.sprite_height();
        let s = &mut self.sprites;
        let value = s.oam_bus;
        if s.copy_done {
            s.n = (s.n + 1) & 0x3F;
            if s.sec_addr >= 32 {
                s.oam_bus = self.secondary_oam[usize::from(s.sec_addr & 0x1F)];
            }
            return;
        }
        let y_in_range = in_range(line, value, height);
        if !s.in_range && y_in_range {
            s.in_range = true;
        }
        if s.sec_addr < 32 {
            self.secondary_oam[usize::from(s.sec_addr)] = value;
            let wrapped = if s.in_range {
                s.sec_addr += 1;
                // Whatever sprite is in range at the first check occupies slot 0 and acts as sprite 0.
                if dot == 66 {
                    s.sprite0_next = true;
                }
                // The copy takes four consecutive OAM bytes, from wherever the address
                // points (a misaligned address copies across two sprites).
                if s.sec_addr & 3 == 0 {
                    s.in_range = false;
                }
                s.advance(1, false)
            } else {
                // Out of range: on to the next sprite, realigned to its first byte.
                s.advance(4, true)
            };
            if wrapped {
                s.copy_done = true;
            }
        } else {
            // Eight found: the overflow scan, which wrongly advances m with n.
            s.oam_bus = self.secondary_oam[usize::from(s.sec_addr & 0x1F)];
            if s.in_range {
                self.sprite_overflow = true;
                s.m += 1;
                if s.m == 4 {
                    s.m = 0;
                    s.n = (s.n + 1) & 0x3F;
                }
                if s.overflow_countdown == 0 {
                    s.overflow_countdown = 3;
                } else {
                    s.overflow_countdown -= 1;
                    if s.overflow_countdown == 0 {
                        s.copy_done = true;
                        s.m = 0;
                    }
                }
            } else {
                s.n = (s.n + 1) & 0x3F;
                s.m = (s.m + 1) & 3;
                if s.n == 0 {
                    s.copy_done = true;
                }
            }
        }
    }

    /// Dots 257-320: pattern fetches for the eight secondary-OAM slots.
    #[inline(always)]
    pub(super) fn sprite_fetch_dot(&mut self, line: u16, dot: u16, cart: &mut Cart) {
        let rel = dot - 257;
        let slot = usize::from(rel / 8);
        match rel & 7 {
            0 => {
                if slot == 0 {
                    self.begin_sprite_fetch();
                }
                cart.ppu_bus(vaddr::tile_addr(self.v), self.dots);
            }
            3 => self.latch_sprite_attr(slot),
            4 | 6 => {
                if rel & 7 == 4 {
                    self.load_sprite_counter(slot);
                }
                let addr = self.sprite_pattern_addr(slot, line) | if rel & 7 == 6 { 8 } else { 0 };
                let mut data = self.sprite_plane(slot, addr, cart);
                cart.ppu_bus(addr, self.dots);
                if !self.sprite_slot_fetched(slot, line) {
                    data = 0;
                }
                if rel & 7 == 4 {
                    self.sprites.pattern_lo[slot] = data;
                } else {
                    self.sprites.pattern_hi[slot] = data;
                }
            }
            _ => {}
        }
        if dot == 320 {
            self.build_sprite_line();
        }
    }

    /// The start of the fetches (dot 257): the units take what the last evaluation found,
    /// and whether it put sprite 0 in slot 0.
    #[inline(always)]
    pub(super) fn begin_sprite_fetch(&mut self) {
        self.sprites.count_next = self.sprites_found();
        self.sprites.sprite0_line = self.sprites.sprite0_next;
        self.sprites.fetch_clean = true;
    }

    /// Whether slot `slot` gets its pattern. The pre-render line fetches whatever secondary
    /// OAM still holds and tests it against line 261 & 255 = 5, which can put sprites on
    /// line 0.
    #[inline(always)]
    pub(super) fn sprite_slot_fetched(&self, slot: usize, line: u16) -> bool {
        slot < usize::from(self.sprites.count_next)
            && (line != PRE_RENDER_LINE
                || in_range(
                    line & 0xFF,
                    self.secondary_oam[slot * 4],
                    self.sprite_height(),
                ))
    }

    /// Sprites evaluation put in secondary OAM: it stops writing after 32 bytes.
    #[inline(always)]
    pub(super) fn sprites_found(&self) -> u8 {
        self.sprites.sec_addr.min(32) / 4
    }

    /// One pattern plane of the sprite in `slot` read at `addr`, mirrored for a flipped sprite
    /// so bit 7 is always its leftmost pixel.
    #[inline(always)]
    pub(super) fn sprite_plane(&self, slot: usize, addr: u16, cart: &Cart) -> u8 {
        let data = cart.core.read_chr(addr);
        if self.secondary_oam[slot * 4 + 2] & 0x40 != 0 {
            data.reverse_bits()
        } else {
            data
        }
    }

    pub(super) fn sprite_pattern_addr(&self, slot: usize, line: u16) -> u16 {
        let y = self.secondary_oam[slot * 4];
        let tile = self.secondary_oam[slot * 4 + 1];
        let attr = self.secondary_oam[slot * 4 + 2];
        let height = self.sprite_height();
        let mut row = line.wrapping_sub(u16::from(y)) & (height - 1);
        if attr & 0x80 != 0 {
            row = height - 1 - row;
        }
        if height == 16 {
            let table = u16::from(tile & 1) << 12;
            let tile = u16::from(tile & 0xFE) + (row >> 3);
            table | (tile << 4) | (row & 7)
        } else {
            self.ctrl.sprite_table() | (u16::from(tile) << 4) | row
        }
    }

    /// Flattens the fetched sprites into the next line's pixel buffer; lower slots win.
    pub(super) fn build_sprite_line(&mut self) {
        let s = &mut self.sprites;
        if s.line_dirty {
            s.line = [0; WIDTH];
            s.line_dirty = false;
        }
        for slot in (0..usize::from(s.count_next)).rev() {
            let (lo, hi) = (s.pattern_lo[slot], s.pattern_hi[slot]);
            if lo | hi == 0 {
                continue;
            }
            // Until the units run, each counter holds its sprite's X.
            let x0 = usize::from(s.x_counter[slot]);
            let bits = s.pixel_bits(slot);
            for bit in 0..8 {
                let x = x0 + bit;
                if x >= WIDTH {
                    break;
                }
                let color = ((hi >> (7 - bit)) & 1) << 1 | ((lo >> (7 - bit)) & 1);
                if color != 0 {
                    s.line[x] = bits | color;
                    s.line_dirty = true;
                }
            }
        }
    }
}
