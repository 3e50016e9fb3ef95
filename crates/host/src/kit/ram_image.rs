//! The machine as an offline test host shows it: a RAM image a game simulator keeps current
//! (instead of a cartridge running on the emulator), behind the same [`Frame`] a player gets
//! from a session. Every player's RAM-image host answers the same way:
//!
//! - CPU `$0000-$1FFF`: the 2 KiB of work RAM, mirrored; `$6000-$7FFF`: 8 KiB of PRG RAM;
//!   anything else (registers, ROM) reads 0 and ignores writes.
//! - PPU `$0000-$3FFF`: a flat 16 KiB image (addresses wrap at `$4000`), all 0 unless the
//!   simulator draws there; no picture and no sprites.
//! - Pads 0-3 keep what the player set; the frame count is the simulator's.
//! - It cannot fork, restore or take requests (the [`Frame`] defaults).

use crate::Frame;
use nesmind_emu::Buttons;

/// A RAM image with pads and a frame count; see the module documentation for what each
/// address reads.
#[derive(Clone, Debug)]
pub struct RamImage {
    /// Console work RAM ($0000-$07FF).
    pub ram: Vec<u8>,
    /// Cartridge PRG RAM ($6000-$7FFF).
    pub prg_ram: Vec<u8>,
    /// The PPU's address space ($0000-$3FFF).
    pub ppu: Vec<u8>,
    pub pads: [Buttons; 4],
    /// Frames the simulator has run.
    pub frame: u64,
    /// The player's last status line.
    pub status: String,
}

impl Default for RamImage {
    fn default() -> RamImage {
        RamImage {
            ram: vec![0; 0x800],
            prg_ram: vec![0; 0x2000],
            ppu: vec![0; 0x4000],
            pads: [Buttons::NONE; 4],
            frame: 0,
            status: String::new(),
        }
    }
}

impl RamImage {
    /// The byte behind a CPU address, if the image holds one there.
    fn cpu_byte(&mut self, addr: u16) -> Option<&mut u8> {
        match addr {
            0x0000..=0x1FFF => self.ram.get_mut(addr as usize & 0x7FF),
            0x6000..=0x7FFF => self.prg_ram.get_mut(addr as usize - 0x6000),
            _ => None,
        }
    }

    /// Stores a byte at a CPU address (ignored outside work RAM and PRG RAM).
    pub fn write(&mut self, addr: u16, value: u8) {
        if let Some(b) = self.cpu_byte(addr) {
            *b = value;
        }
    }

    /// Clears work RAM and PRG RAM (a simulator that rewrites every byte each frame).
    pub fn clear(&mut self) {
        self.ram.fill(0);
        self.prg_ram.fill(0);
    }
}

/// An offline game simulator that shows its state through a [`RamImage`]; it is a
/// [`Frame`] through the image.
pub trait RamGame {
    fn image(&self) -> &RamImage;
    fn image_mut(&mut self) -> &mut RamImage;
}

impl RamGame for RamImage {
    fn image(&self) -> &RamImage {
        self
    }
    fn image_mut(&mut self) -> &mut RamImage {
        self
    }
}

impl<T: RamGame> Frame for T {
    fn frame_number(&self) -> u64 {
        self.image().frame
    }
    fn peek(&self, addr: u16) -> u8 {
        let i = self.image();
        match addr {
            0x0000..=0x1FFF => i.ram[addr as usize & 0x7FF],
            0x6000..=0x7FFF => i.prg_ram[addr as usize - 0x6000],
            _ => 0,
        }
    }
    fn ram(&self) -> &[u8] {
        &self.image().ram
    }
    fn poke(&mut self, addr: u16, value: u8) {
        self.image_mut().write(addr, value);
    }
    fn picture(&self) -> &[u16] {
        &[]
    }
    fn peek_ppu(&self, addr: u16) -> u8 {
        self.image().ppu[addr as usize & 0x3FFF]
    }
    fn set_buttons(&mut self, pad: usize, buttons: Buttons) {
        if let Some(p) = self.image_mut().pads.get_mut(pad) {
            *p = buttons;
        }
    }
    fn buttons(&self, pad: usize) -> Buttons {
        self.image().pads.get(pad).copied().unwrap_or(Buttons::NONE)
    }
    fn set_status(&mut self, line: &str) {
        self.image_mut().status = line.to_string();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_address_has_one_answer() {
        let mut f = RamImage::default();
        f.poke(0x0801, 7);
        f.poke(0x6ABC, 9);
        f.poke(0x2000, 5);
        f.poke(0x8000, 5);
        assert_eq!((f.peek(0x0001), f.peek(0x1801)), (7, 7));
        assert_eq!(f.peek(0x6ABC), 9);
        assert_eq!((f.peek(0x2000), f.peek(0x4016), f.peek(0x8000)), (0, 0, 0));
        f.ppu[0x2005] = 3;
        assert_eq!(f.peek_ppu(0x6005), 3);
        f.set_buttons(3, Buttons::A);
        f.set_buttons(4, Buttons::A);
        assert_eq!((f.buttons(3), f.buttons(4)), (Buttons::A, Buttons::NONE));
        assert!(f.fork().is_none() && f.picture().is_empty() && f.oam().is_empty());
    }
}
