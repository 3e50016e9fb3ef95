//! The PPU's register bits and the fields of its VRAM address, named.

use bitflags::bitflags;
use serde::{Deserialize, Serialize};

/// PPUCTRL ($2000).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Ctrl(u8);

bitflags! {
    impl Ctrl: u8 {
        /// Base nametable (copied into t, and into v at the line's start).
        const NAMETABLE = 0x03;
        /// $2007 accesses step by 32 (down a column) instead of 1.
        const INCREMENT_32 = 0x04;
        /// 8x8 sprites use the pattern table at $1000.
        const SPRITE_TABLE = 0x08;
        /// The background uses the pattern table at $1000.
        const BG_TABLE = 0x10;
        /// 8x16 sprites.
        const TALL_SPRITES = 0x20;
        /// EXT pins as outputs (unused on the NES).
        const EXT_OUTPUT = 0x40;
        /// NMI at the start of vertical blank.
        const NMI_ENABLE = 0x80;
    }
}

impl Ctrl {
    /// What the pipeline uses while drawing a line: a write that changes none of these
    /// leaves a line drawn ahead valid.
    pub const LINE_INPUTS: Ctrl = Ctrl::NAMETABLE
        .union(Ctrl::SPRITE_TABLE)
        .union(Ctrl::BG_TABLE)
        .union(Ctrl::TALL_SPRITES);

    /// $0000 or $1000: the background's pattern table.
    pub fn bg_table(self) -> u16 {
        if self.contains(Ctrl::BG_TABLE) {
            0x1000
        } else {
            0
        }
    }
    /// $0000 or $1000: the pattern table of 8x8 sprites.
    pub fn sprite_table(self) -> u16 {
        if self.contains(Ctrl::SPRITE_TABLE) {
            0x1000
        } else {
            0
        }
    }
}

/// PPUMASK ($2001).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Mask(u8);

bitflags! {
    impl Mask: u8 {
        const GREYSCALE = 0x01;
        /// Background in the leftmost 8 pixels.
        const BG_LEFT = 0x02;
        /// Sprites in the leftmost 8 pixels.
        const SPRITES_LEFT = 0x04;
        const SHOW_BG = 0x08;
        const SHOW_SPRITES = 0x10;
        const EMPHASIS_RED = 0x20;
        const EMPHASIS_GREEN = 0x40;
        const EMPHASIS_BLUE = 0x80;
    }
}

impl Mask {
    pub const RENDERING: Mask = Mask::SHOW_BG.union(Mask::SHOW_SPRITES);
    pub const EMPHASIS: Mask = Mask::EMPHASIS_RED
        .union(Mask::EMPHASIS_GREEN)
        .union(Mask::EMPHASIS_BLUE);

    /// The first x at which the background shows (the left-column clip); `WIDTH` when it
    /// is off.
    #[inline(always)]
    pub fn bg_from(self) -> usize {
        Mask::first_shown(self, Mask::SHOW_BG, Mask::BG_LEFT)
    }

    /// The same for sprites.
    #[inline(always)]
    pub fn sprites_from(self) -> usize {
        Mask::first_shown(self, Mask::SHOW_SPRITES, Mask::SPRITES_LEFT)
    }

    #[inline(always)]
    fn first_shown(self, show: Mask, left: Mask) -> usize {
        if !self.contains(show) {
            super::WIDTH
        } else if self.contains(left) {
            0
        } else {
            8
        }
    }
}

bitflags! {
    /// PPUSTATUS ($2002): the three flags; the low five bits are the open-bus latch.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Status: u8 {
        const SPRITE_OVERFLOW = 0x20;
        const SPRITE0_HIT = 0x40;
        const VBLANK = 0x80;
    }
}

/// Fields of the VRAM address registers v and t: `yyy NN YYYYY XXXXX` (fine Y,
/// nametable, coarse Y, coarse X).
pub mod vaddr {
    pub const COARSE_X: u16 = 0x001F;
    pub const COARSE_Y: u16 = 0x03E0;
    pub const NAMETABLE_X: u16 = 0x0400;
    pub const NAMETABLE_Y: u16 = 0x0800;
    pub const NAMETABLE: u16 = 0x0C00;
    pub const FINE_Y: u16 = 0x7000;
    /// What dot 257 copies from t: coarse X and the horizontal nametable bit.
    pub const HORIZONTAL: u16 = COARSE_X | NAMETABLE_X;
    /// What the pre-render line copies from t: fine Y, coarse Y, vertical nametable bit.
    pub const VERTICAL: u16 = FINE_Y | COARSE_Y | NAMETABLE_Y;
    /// Nametables start here in the PPU address space.
    pub const NAMETABLES: u16 = 0x2000;
    /// Each nametable's attribute table starts at this offset.
    pub const ATTRIBUTES: u16 = 0x23C0;

    /// The nametable byte (tile number) at v.
    #[inline(always)]
    pub fn tile_addr(v: u16) -> u16 {
        NAMETABLES | (v & 0x0FFF)
    }
    /// The attribute byte that covers v's tile.
    #[inline(always)]
    pub fn attribute_addr(v: u16) -> u16 {
        ATTRIBUTES | (v & NAMETABLE) | ((v >> 4) & 0x38) | ((v >> 2) & 0x07)
    }
    /// The tile's two palette bits out of its attribute byte.
    #[inline(always)]
    pub fn attribute_bits(byte: u8, v: u16) -> u8 {
        (byte >> (((v >> 4) & 4) | (v & 2))) & 3
    }
    pub fn fine_y(v: u16) -> u16 {
        (v & FINE_Y) >> 12
    }
}
