//! The CPU's view of the console: address decoding, the master clock, and everything the
//! CPU clocks on each of its cycles (PPU, APU, cartridge).
//!
//! The files, from the bottom up: `timing` (the master clock's figures), `schedule` (when
//! the other parts next need a look), `parts` (the `Bus` and what hangs on it), `clock`
//! (catching the PPU and APU up, cycle starts and ends), `access` (one access's effects),
//! `dma` (the DMA units that halt the CPU), and here the CPU's cycles themselves.

mod access;
mod clock;
mod dma;
mod parts;
mod schedule;
mod timing;

pub use parts::Bus;
pub use timing::{CPU_CLOCKS, PPU_CLOCKS, PPU_OFFSET, READ_PHASE, WRITE_PHASE};

use crate::apu::Apu;
use crate::cart::Cart;
use crate::cpu::CpuBus;
use crate::input::Controllers;
use crate::ppu::Ppu;
use crate::rom::Rom;
use crate::speedups::Speedups;
use crate::watch::Watches;
use schedule::Schedule;

impl Bus {
    pub fn new(cart: Cart) -> Bus {
        let mut ppu = Ppu::new();
        // Power-on alignment: the PPU starts one dot ahead of the CPU's clock phase, which
        // puts it at dot 21 when the reset sequence ends (as nestest.log records).
        ppu.dot = (21 - (7 * CPU_CLOCKS - PPU_OFFSET) / PPU_CLOCKS) as u16;
        let mut bus = Bus {
            ram: [0; 2048],
            ppu,
            apu: Apu::new(),
            cart,
            input: Controllers::default(),
            open_bus: 0,
            cycles: 0,
            ppu_master: 0,
            clock: Schedule::default(),
            oam_dma: None,
            dma_pending: false,
            watching: false,
            watches: Watches::default(),
            lines_epoch: 0,
        };
        bus.set_speedups(Speedups::ALL);
        bus
    }

    /// A CPU read cycle: a DMA unit may halt the CPU first (see `CpuBus::read_cycle`).
    #[inline(always)]
    fn cpu_read_cycle(&mut self, addr: u16, fetch: bool, poll: &mut impl FnMut(&Self)) -> u8 {
        if self.needs_attention() {
            // The CPU's internal data bus: DMA reads drive only the external one.
            let internal = self.open_bus;
            if self.dma_pending {
                self.run_dma(addr, poll);
            }
            self.attend(READ_PHASE);
            if addr == 0x4015 {
                let v = self.read_status(internal, fetch);
                self.end_cycle();
                return v;
            }
        }
        let v = self.read_access(addr, fetch);
        self.end_cycle();
        v
    }

    /// After a savestate was deserialised: the ROM's bytes, which states leave out. What is
    /// derived from the state waits for its checks (`derive`).
    pub(crate) fn attach_rom(&mut self, rom: &Rom) {
        self.cart.attach_rom(rom);
    }

    /// After the loaded state passed its checks: what is derived from it (board facts, ROM
    /// pages, scheduling) comes back; the shortcuts are the default ones.
    pub(crate) fn derive(&mut self) {
        self.cart.derive();
        self.set_speedups(Speedups::ALL);
    }
}

/// The CPU's cycles on the NES bus: each access is framed by the cycle's start (APU,
/// DMA, boards that count cycles) and end (the clock, the PPU when something is due).
impl CpuBus for Bus {
    #[inline(always)]
    fn read_cycle(&mut self, addr: u16, poll: &mut impl FnMut(&Self)) -> u8 {
        self.cpu_read_cycle(addr, false, poll)
    }
    #[inline(always)]
    fn fetch_cycle(&mut self, addr: u16, poll: &mut impl FnMut(&Self)) -> u8 {
        self.cpu_read_cycle(addr, true, poll)
    }
    #[inline(always)]
    fn write_cycle(&mut self, addr: u16, value: u8) {
        self.write_whole_cycle(addr, value);
    }
    fn stall_cycle(&mut self) {
        self.begin_cycle(READ_PHASE);
        self.end_cycle();
    }
    #[inline(always)]
    fn nmi_line(&self) -> bool {
        self.ppu.nmi_line()
    }
    /// The combined IRQ line (APU frame/DMC and cartridge).
    #[inline(always)]
    fn irq_line(&self) -> bool {
        self.apu.irq() || self.cart.core.irq
    }
    #[inline(always)]
    fn lines_epoch(&self) -> Option<u64> {
        Some(self.lines_epoch)
    }
    fn peek(&self, addr: u16) -> u8 {
        Bus::peek(self, addr)
    }
    fn cycles(&self) -> u64 {
        self.cycles
    }
    fn watch_count(&self) -> u64 {
        self.watches.total()
    }
    fn read_watched(&self, addr: u16) -> bool {
        self.watching && self.watches.read_watched(addr)
    }
    /// Also false while every cycle needs attending (a board that counts CPU cycles, a
    /// pending DMA): the skipper then does not decode loop bodies it could not skip.
    #[inline(always)]
    fn may_skip(&self) -> bool {
        self.clock.may_skip() && !self.needs_attention()
    }
    fn skip_passes(&mut self, pass: u64, limit: u64) -> u64 {
        let n = (self.quiet_until().saturating_sub(self.cycles) / pass).min(limit);
        self.cycles += n * pass;
        n
    }
}
