//! A frame that passes everything through to the real one and notes what a plug-in did
//! with it: whether it held any button, and the last status line it set.

use nesmind_host::{Buttons, Fork, Frame};

pub struct Spy<'a> {
    inner: &'a mut dyn Frame,
    pub pressed: bool,
    pub status: Option<String>,
}

impl<'a> Spy<'a> {
    pub fn new(inner: &'a mut dyn Frame) -> Spy<'a> {
        Spy {
            inner,
            pressed: false,
            status: None,
        }
    }
}

impl Frame for Spy<'_> {
    fn frame_number(&self) -> u64 {
        self.inner.frame_number()
    }
    fn peek(&self, addr: u16) -> u8 {
        self.inner.peek(addr)
    }
    fn ram(&self) -> &[u8] {
        self.inner.ram()
    }
    fn poke(&mut self, addr: u16, value: u8) {
        self.inner.poke(addr, value);
    }
    fn picture(&self) -> &[u16] {
        self.inner.picture()
    }
    fn peek_ppu(&self, addr: u16) -> u8 {
        self.inner.peek_ppu(addr)
    }
    fn oam(&self) -> &[u8] {
        self.inner.oam()
    }
    fn set_buttons(&mut self, pad: usize, buttons: Buttons) {
        self.pressed |= buttons != Buttons::NONE;
        self.inner.set_buttons(pad, buttons);
    }
    fn buttons(&self, pad: usize) -> Buttons {
        self.inner.buttons(pad)
    }
    fn set_status(&mut self, line: &str) {
        self.status = Some(line.to_string());
        self.inner.set_status(line);
    }
    fn fork(&self) -> Option<Fork> {
        self.inner.fork()
    }
}
