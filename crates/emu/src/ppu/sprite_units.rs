//! The eight sprite output units, run dot by dot for the lines whose sprites the flattened
//! line buffer (`SpriteUnit::line`) cannot show.
//!
//! Each unit has an X counter, two pattern shift registers (`pattern_lo/hi`, leftmost pixel
//! in bit 7) and a mode, counting or drawing. Its fetch (dots 257-320) latches the attribute
//! byte and loads the counter with the sprite's X and the shifters with its pattern; dot 339
//! with rendering on sets every unit counting. On dots 1-256 of a visible line a counting
//! unit decrements its counter, and once it finds it at 0 it is drawing: from then on it
//! puts out a pixel and shifts on each dot with rendering on, and keeps what is left while
//! rendering is off. The counters run with rendering off too.
//!
//! A line whose units were all loaded and set counting with rendering on, and which is
//! drawn with rendering on throughout, shows each sprite at X..X+7: that is the line buffer,
//! which the dot and line paths use while `flat` is set (and then every counter still holds
//! its X). Anything else (rendering switched off or on during the line, during the fetches
//! or over dot 339, or a short pre-render line before line 0 with a sprite loaded) makes the
//! units run dot by dot; `settle_units` first works out where a flat line's units have got.

use super::Ppu;

impl Ppu {
    /// The units of a flat line once its first `drawn` visible dots are drawn; they stop
    /// being flat. Each unit started that line counting from its X.
    pub(super) fn settle_units(&mut self, drawn: u16) {
        let s = &mut self.sprites;
        if !s.flat {
            return;
        }
        s.flat = false;
        s.drawing = 0;
        for slot in 0..8 {
            let x = u16::from(s.x_counter[slot]);
            if drawn <= x {
                s.x_counter[slot] = (x - drawn) as u8;
            } else {
                s.x_counter[slot] = 0;
                s.drawing |= 1 << slot;
                let shifted = (drawn - x).min(8);
                s.pattern_lo[slot] = (u16::from(s.pattern_lo[slot]) << shifted) as u8;
                s.pattern_hi[slot] = (u16::from(s.pattern_hi[slot]) << shifted) as u8;
            }
        }
    }

    /// One visible dot of the units: the sprite pixel (0 = none, else as in the line
    /// buffer) when rendering is on (`output`), only the counters otherwise.
    pub(super) fn step_units(&mut self, output: bool) -> u8 {
        let s = &mut self.sprites;
        // Every unit drawing and nothing left to draw (a blank line's usual state): a dot
        // changes nothing.
        if s.drawing == 0xFF && !s.late_start {
            let left = u64::from_ne_bytes(s.pattern_lo) | u64::from_ne_bytes(s.pattern_hi);
            if !output || left == 0 {
                return 0;
            }
        }
        // After a short pre-render line the units miss the dot that sets them counting by
        // one: on line 0's first dot each puts out its first pixel and counts as well, so a
        // sprite's other seven pixels land one dot left of its X.
        let late = std::mem::take(&mut s.late_start) && output;
        let mut pixel = 0;
        for slot in 0..8 {
            let bit = 1 << slot;
            if s.drawing & bit == 0 && !late {
                if s.x_counter[slot] > 0 {
                    s.x_counter[slot] -= 1;
                    continue;
                }
                s.drawing |= bit;
            }
            if output {
                let (lo, hi) = (s.pattern_lo[slot], s.pattern_hi[slot]);
                let colour = (hi >> 7) << 1 | (lo >> 7);
                if colour != 0 && pixel == 0 {
                    pixel = s.pixel_bits(slot) | colour;
                }
                s.pattern_lo[slot] = lo << 1;
                s.pattern_hi[slot] = hi << 1;
            }
            if late {
                s.x_counter[slot] = s.x_counter[slot].saturating_sub(1);
            }
        }
        pixel
    }

    /// A whole visible line with rendering off: every counter runs out, so every unit is
    /// drawing by its end, its shifters untouched.
    pub(super) fn blank_line_units(&mut self) {
        let s = &mut self.sprites;
        s.flat = false;
        s.late_start = false;
        s.drawing = 0xFF;
        s.x_counter = [0; 8];
    }

    /// The pre-render line of an odd frame ends a dot early: line 0's units start late,
    /// which shows only if one of them holds a pattern.
    pub(super) fn short_prerender_line(&mut self) {
        let s = &self.sprites;
        let lo = u64::from_ne_bytes(s.pattern_lo);
        let hi = u64::from_ne_bytes(s.pattern_hi);
        if lo | hi != 0 {
            self.settle_units(0);
            self.sprites.late_start = true;
        }
    }

    /// A unit's fetch takes the attribute byte from secondary OAM on the slot's fourth dot
    /// and X into the counter on the fifth (rendering switched off between them leaves the
    /// counter as it was).
    #[inline(always)]
    pub(super) fn latch_sprite_attr(&mut self, slot: usize) {
        self.sprites.attrs[slot] = self.secondary_oam[slot * 4 + 2];
    }

    #[inline(always)]
    pub(super) fn load_sprite_counter(&mut self, slot: usize) {
        self.sprites.x_counter[slot] = self.secondary_oam[slot * 4 + 3];
    }
}
