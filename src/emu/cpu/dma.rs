//! DMA units that halt the CPU: OAM DMA ($4014) and, with the APU, DMC sample fetches.

use super::Cpu;
use crate::emu::bus::{Bus, READ_PHASE};

impl Cpu {
    /// OAM DMA: the CPU's read is halted (the halted cycle repeats the read), one more cycle
    /// aligns to a get cycle if needed, then 256 get/put pairs copy the page to $2004.
    #[cold]
    pub(super) fn run_dma(&mut self, bus: &mut Bus, halted_addr: u16) {
        bus.dma_pending = false;
        let Some(page) = bus.oam_dma.take() else {
            return;
        };
        self.idle_read(bus, halted_addr);
        if bus.cycles & 1 == 1 {
            self.idle_read(bus, halted_addr);
        }
        let base = u16::from(page) << 8;
        for i in 0..256u16 {
            bus.begin_cycle(READ_PHASE);
            let v = bus.read(base | i);
            bus.end_cycle(READ_PHASE);
            self.poll(bus);
            self.write(bus, 0x2004, v);
        }
    }

    /// A stalled read cycle: the address is on the bus again, but registers with read side
    /// effects only see one access while the CPU is halted.
    pub(super) fn idle_read(&mut self, bus: &mut Bus, addr: u16) {
        bus.begin_cycle(READ_PHASE);
        if !matches!(addr, 0x2000..=0x401F) {
            bus.read(addr);
        }
        bus.end_cycle(READ_PHASE);
        self.poll(bus);
    }
}
