//! The 2A03 audio unit. The interface the bus uses is fixed here; the channels live in
//! their own files.

use serde::{Deserialize, Serialize};

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Apu {
    frame_irq: bool,
}

impl Apu {
    pub fn new() -> Apu {
        Apu::default()
    }
    /// Soft reset ($4015 silenced, frame counter restarted as on hardware).
    pub fn reset(&mut self) {}
    /// One CPU cycle; `odd` is true on the second half of an APU cycle.
    #[inline]
    pub fn tick(&mut self, _odd: bool) {}
    /// $4000-$4013, $4015, $4017 writes.
    pub fn write(&mut self, _addr: u16, _value: u8, _odd: bool) {}
    /// $4015 read: channel status and IRQ flags; clears the frame IRQ flag.
    pub fn read_status(&mut self) -> u8 {
        let v = u8::from(self.frame_irq) << 6;
        self.frame_irq = false;
        v
    }
    /// $4015 without side effects.
    pub fn peek_status(&self) -> u8 {
        u8::from(self.frame_irq) << 6
    }
    /// The APU's IRQ output (frame counter or DMC).
    #[inline]
    pub fn irq(&self) -> bool {
        self.frame_irq
    }
    /// Address the DMC wants to fetch by DMA, if any.
    #[inline]
    pub fn dmc_dma_request(&self) -> Option<u16> {
        None
    }
    /// Delivers the byte fetched for the DMC.
    pub fn dmc_dma_done(&mut self, _value: u8) {}
}
