//! DMA units that halt the CPU: OAM DMA ($4014) and DMC sample fetches.
//!
//! Both run in one loop, one CPU cycle per iteration, because they share the bus: cycles
//! alternate between get (odd CPU cycle count) and put (even), the DMC's get takes
//! precedence over an OAM get, and the DMC's halt and dummy cycles overlap whatever OAM
//! DMA is doing. The CPU keeps sampling its interrupt lines on every cycle (`poll`).

use super::parts::Bus;
use super::timing::READ_PHASE;

impl Bus {
    /// Called at the start of a read cycle when a DMA unit asked to halt the CPU; the halted
    /// read of `halted_addr` is repeated while the DMA runs, and the CPU's own read follows.
    #[cold]
    pub(crate) fn run_dma(&mut self, halted_addr: u16, poll: &mut impl FnMut(&Bus)) {
        self.dma_pending = false;
        let oam_base = self.oam_dma.take().map(|page| u16::from(page) << 8);
        let dmc_at_halt = self.apu.dmc_dma_wanted();
        if oam_base.is_none() && !dmc_at_halt {
            return;
        }
        // Halt cycle: the CPU's read goes out once more and is discarded.
        if dmc_at_halt {
            self.repeated_read(halted_addr, true, poll);
        } else {
            self.idle_read(halted_addr, poll);
        }
        // Cycles the DMC has waited (halt, then its dummy cycle) before it may get.
        let mut dmc_wait: u8 = u8::from(dmc_at_halt);
        let mut oam_index: u16 = 0;
        let mut oam_latch: Option<u8> = None;
        let oam_active =
            |index: u16, latch: Option<u8>| oam_base.is_some() && (index < 256 || latch.is_some());
        // A $4015 disable cuts a DMC fetch short only while it is on its first (halt) cycle;
        // after that the fetch goes ahead.
        let mut committed: Option<u16> = None;
        loop {
            let dmc = self.apu.dmc_dma_request().or(committed);
            if dmc_wait >= 1 {
                committed = dmc;
            }
            let get = self.cycles & 1 == 1;
            match dmc {
                Some(addr) if get && dmc_wait >= 2 => {
                    self.begin_cycle(READ_PHASE);
                    let v = self.dma_read(addr, halted_addr, true);
                    self.end_cycle();
                    poll(self);
                    self.apu.dmc_dma_done(v, self.cycles - 1);
                    // The sample's last byte may raise the DMC's IRQ.
                    self.lines_moved();
                    dmc_wait = 0;
                    committed = None;
                    continue;
                }
                _ => {}
            }
            if oam_active(oam_index, oam_latch) {
                let base = oam_base.unwrap_or(0);
                match oam_latch {
                    Some(v) if !get => {
                        self.write_whole_cycle(0x2004, v);
                        poll(self);
                        oam_latch = None;
                        oam_index += 1;
                    }
                    None if get => {
                        self.begin_cycle(READ_PHASE);
                        oam_latch = Some(self.dma_read(base | oam_index, halted_addr, false));
                        self.end_cycle();
                        poll(self);
                    }
                    // Alignment: OAM DMA must wait for the other half of the APU cycle.
                    _ => self.idle_read(halted_addr, poll),
                }
            } else if dmc.is_some() {
                // The DMC's dummy or alignment cycle: the halted read repeats.
                self.repeated_read(halted_addr, false, poll);
            } else {
                break;
            }
            if dmc.is_some() {
                dmc_wait = dmc_wait.saturating_add(1);
            }
        }
        self.dma_pending = false;
    }

    /// A DMA read (`dmc`: the DMC's sample fetch, else OAM DMA's). The 2A03's registers
    /// decode only the low 5 address bits, and they answer only while the CPU's own address
    /// bus (held on its halted read) is in $4000-$401F. Then a DMA read of any address ending
    /// in $15-$17 reaches $4015-$4017: alone where nothing else drives the bus, alongside the
    /// memory that does otherwise. $4015 is internal to the 2A03, so the external bus (what a
    /// later open-bus read sees) keeps the memory's value; OAM DMA takes bit 5 from memory.
    /// A pad drives bit 0 over the memory's low bits. While the CPU is elsewhere, DMA reads of
    /// $4000-$401F find nothing on the bus.
    fn dma_read(&mut self, addr: u16, cpu_addr: u16, dmc: bool) -> u8 {
        let apu_range = |a: u16| (0x4000..=0x401F).contains(&a);
        if !apu_range(cpu_addr) {
            return if apu_range(addr) {
                self.open_bus
            } else {
                self.read(addr)
            };
        }
        let reg = 0x4000 | (addr & 0x1F);
        if !(0x4015..=0x4017).contains(&reg) || apu_range(addr) {
            return self.read(addr);
        }
        let undriven = addr >= 0x4000 && self.cart.core.read_prg(addr).is_none();
        if undriven {
            return self.read(reg);
        }
        let memory = self.read(addr);
        match reg {
            0x4015 => {
                let status = self.apu_read_status();
                if dmc {
                    memory
                } else {
                    status | (memory & 0x20)
                }
            }
            _ => {
                // The pads are clocked all the same (AccuracyCoin's later tests expect the
                // console that does so).
                let pad = self.input.read(usize::from(reg & 1), self.cycles);
                if dmc {
                    self.open_bus = (memory & 0xE0) | pad;
                    self.open_bus
                } else {
                    memory
                }
            }
        }
    }

    /// A stalled read cycle: the address is on the bus again, but registers with read side
    /// effects only see one access while the CPU is halted.
    fn idle_read(&mut self, addr: u16, poll: &mut impl FnMut(&Bus)) {
        self.begin_cycle(READ_PHASE);
        if !matches!(addr, 0x2000..=0x401F) {
            self.read(addr);
        }
        self.end_cycle();
        poll(self);
    }

    /// A read the DMC's halt repeats. The PPU and $4015 decode every cycle's address, so
    /// each repeat is a full read with side effects; the joypads only see one read for a run
    /// of consecutive reads of the same port, so only the first repeat clocks them.
    fn repeated_read(&mut self, addr: u16, first: bool, poll: &mut impl FnMut(&Bus)) {
        self.begin_cycle(READ_PHASE);
        if first || !matches!(addr, 0x4016 | 0x4017) {
            self.read(addr);
        }
        self.end_cycle();
        poll(self);
    }
}
