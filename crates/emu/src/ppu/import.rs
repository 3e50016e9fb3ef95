//! Setting the PPU from another emulator's saved registers (`crate::import`).

use super::{Ctrl, Mask, POST_RENDER_LINE, Ppu, Status};

/// The PPU's registers, latches and memories.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PpuImport {
    /// $2000 and $2001 as last written.
    pub ctrl: u8,
    pub mask: u8,
    /// $2002's flags (bits 5-7: overflow, sprite 0 hit, VBL); the low bits are ignored.
    pub status: u8,
    pub oam_addr: u8,
    /// The VRAM address (`v`), the temporary one (`t`), both 15 bits, and fine X (0-7).
    pub v: u16,
    pub t: u16,
    pub fine_x: u8,
    /// The $2005/$2006 write toggle: true after a first write.
    pub w: bool,
    /// The $2007 read buffer.
    pub read_buffer: u8,
    /// The PPU's open-bus latch (what write-only registers read back).
    pub open_bus: u8,
    /// True when the coming pre-render line is the short one of an odd frame.
    pub odd_frame: bool,
    /// CIRAM: 2 KiB, or 4 KiB for a four-screen cart.
    pub nametables: Vec<u8>,
    /// $3F00-$3F1F. $3F10/$3F14/$3F18/$3F1C mirror $3F00/$3F04/$3F08/$3F0C and are ignored.
    pub palette: [u8; 32],
    /// Object attribute memory. The attribute bytes' bits 2-4 do not exist and are dropped.
    pub oam: [u8; 256],
}

impl Ppu {
    /// Takes the registers, latches and memories of `p` and puts the PPU where
    /// `Machine::run_frame` leaves it: the post-render line's first dot has run (the frame
    /// is complete and handed over), VBL is still ahead. The caller has synced the PPU to
    /// the bus, so the position holds at the CPU's clock.
    pub(crate) fn import(&mut self, p: &PpuImport) {
        self.ctrl = Ctrl::from_bits_retain(p.ctrl);
        self.mask = Mask::from_bits_retain(p.mask);
        let status = Status::from_bits_truncate(p.status);
        self.vblank = status.contains(Status::VBLANK);
        self.sprite0_hit = status.contains(Status::SPRITE0_HIT);
        self.sprite_overflow = status.contains(Status::SPRITE_OVERFLOW);
        self.oam_addr = p.oam_addr;
        self.v = p.v;
        self.t = p.t;
        self.x = p.fine_x;
        self.w = p.w;
        self.read_buffer = p.read_buffer;
        // Driven just now: the latch decays from here on.
        self.io_latch = p.open_bus;
        self.io_refresh = [self.frame; 8];
        // Attribute bits 2-4 do not exist in OAM; a write drops them (`oam_write`).
        self.oam = p.oam;
        for attr in self.oam.iter_mut().skip(2).step_by(4) {
            *attr &= 0xE3;
        }
        for (i, &c) in p.palette.iter().enumerate() {
            // The sprite palettes' entry 0 mirrors the background's: those four are ignored.
            if i & 0x13 != 0x10 {
                self.palette[i] = c & 0x3F;
            }
        }
        self.scanline = POST_RENDER_LINE;
        self.dot = 1;
        self.frame_ready = false;
        self.odd_frame = p.odd_frame;
        self.suppress_vbl = false;
        self.oam_corrupt = None;
        self.lead = 0;
        self.ahead_hit_dot = 0;
        // The enable has been as it is for the whole line so far.
        self.settle_enable();
    }
}
