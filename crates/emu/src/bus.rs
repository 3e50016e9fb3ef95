//! The CPU's view of the console: address decoding, the master clock, and everything the
//! CPU clocks on each of its cycles (PPU, APU, cartridge).

use super::apu::Apu;
use super::cart::Cart;
use super::clock::Schedule;
use super::cpu::CpuBus;
use super::input::Controllers;
use super::ppu::Ppu;
use super::speedups::Speedups;
use crate::watch::{AccessKind, Watches};
use serde::{Deserialize, Serialize};

/// Master clocks per CPU cycle and per PPU dot (NTSC: 21.477 MHz / 12 and / 4).
pub const CPU_CLOCKS: u64 = 12;
pub const PPU_CLOCKS: u64 = 4;
/// Where inside a CPU cycle the bus access happens: master clocks before the access for a
/// read and for a write (the rest of the 12 follow it).
pub const READ_PHASE: u64 = 5;
pub const WRITE_PHASE: u64 = 7;
/// The PPU runs this many master clocks behind the CPU (the power-on alignment).
pub const PPU_OFFSET: u64 = 1;

#[derive(Clone, Serialize, Deserialize)]
pub struct Bus {
    #[serde(with = "super::ppu::serde_bytes_array")]
    pub(crate) ram: [u8; 2048],
    pub(crate) ppu: Ppu,
    pub(crate) apu: Apu,
    pub(crate) cart: Cart,
    pub(crate) input: Controllers,
    /// Last value on the CPU data bus (what unmapped reads return).
    pub(crate) open_bus: u8,
    /// Completed CPU cycles. The master clock is `cycles * CPU_CLOCKS` at a cycle's start
    /// and `+ READ_PHASE` / `+ WRITE_PHASE` at its access.
    pub(crate) cycles: u64,
    /// The master clock the PPU has been run to.
    pub(crate) ppu_master: u64,
    /// When the PPU, APU and DMA next need a look, and the shortcuts in use (`clock.rs`).
    #[serde(skip)]
    pub(crate) clock: Schedule,
    /// Page written to $4014, waiting for the CPU's next read to halt it.
    pub(crate) oam_dma: Option<u8>,
    /// A DMA unit wants to halt the CPU at its next read.
    pub(crate) dma_pending: bool,
    /// The host's watches (not machine state: savestates leave them out).
    #[serde(skip)]
    pub(crate) watching: bool,
    #[serde(skip)]
    pub(crate) watches: Watches,
    /// Moves on whenever the NMI or IRQ line may have changed: the PPU ran or was
    /// accessed, a cycle's start was attended (APU, boards counting cycles, DMA), the APU
    /// or a board register was written. The CPU skips sampling lines that cannot have
    /// moved (`Cpu::poll`). Host data, not machine state.
    #[serde(skip)]
    pub(crate) lines_epoch: u64,
}

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

    /// Something that may have moved the NMI or IRQ line happened (see `lines_epoch`).
    #[inline(always)]
    pub(crate) fn lines_moved(&mut self) {
        self.lines_epoch += 1;
    }

    /// After a savestate was deserialised: the ROM data and everything derived (board
    /// facts, scheduling) come back; the shortcuts are the default ones.
    pub(crate) fn attach_rom(&mut self, rom: &super::Rom) {
        self.cart.attach_rom(rom);
        self.set_speedups(Speedups::ALL);
    }

    /// A CPU read at the current point of the cycle, with all side effects.
    #[inline(always)]
    pub fn read(&mut self, addr: u16) -> u8 {
        self.read_access(addr, false)
    }

    /// A read, `fetch` when it fetches an opcode (which execute watches also see).
    #[inline(always)]
    fn read_access(&mut self, addr: u16, fetch: bool) -> u8 {
        let value = match addr {
            0x0000..=0x1FFF => self.ram[usize::from(addr & 0x7FF)],
            0x4020..=0xFFFF => match self.cart.core.read_prg(addr) {
                Some(v) => v,
                None => self.open_bus,
            },
            0x2000..=0x3FFF => {
                self.sync_ppu_to(self.cycles * CPU_CLOCKS + READ_PHASE);
                // A line drawn ahead can answer $2002; anything else needs the exact dot.
                if addr & 7 != 2 {
                    self.ppu.settle(&mut self.cart);
                }
                let before = self.a12_inputs();
                let v = self.ppu.read(addr, &mut self.cart);
                self.a12_accessed(before, false);
                v
            }
            0x4015 => return self.read_status(self.open_bus, fetch),
            0x4016 => (self.open_bus & 0xE0) | self.input.read(0, self.cycles),
            0x4017 => (self.open_bus & 0xE0) | self.input.read(1, self.cycles),
            _ => self.open_bus,
        };
        self.open_bus = value;
        self.watch_read(addr, value, fetch);
        value
    }

    /// A $4015 read. The status is internal to the 2A03: it does not drive the external bus,
    /// and bit 5 is whatever the CPU's internal bus held (`internal`).
    fn read_status(&mut self, internal: u8, fetch: bool) -> u8 {
        let v = self.apu_read_status() | (internal & 0x20);
        self.watch_read(0x4015, v, fetch);
        v
    }

    #[inline(always)]
    pub fn write(&mut self, addr: u16, value: u8) {
        self.open_bus = value;
        self.watch(AccessKind::Write, addr, value);
        match addr {
            0x0000..=0x1FFF => self.ram[usize::from(addr & 0x7FF)] = value,
            0x2000..=0x3FFF => {
                self.sync_ppu_to(self.cycles * CPU_CLOCKS + WRITE_PHASE);
                if !(addr & 7 == 0 && self.ppu.ctrl_write_keeps_line(value)) {
                    self.ppu.settle(&mut self.cart);
                }
                let before = self.a12_inputs();
                self.ppu.write(addr, value, &mut self.cart);
                self.a12_accessed(before, addr & 7 == 4);
            }
            0x4014 => self.request_oam_dma(value),
            0x4016 => self.input.write_strobe(value, self.cycles),
            0x4000..=0x4017 => self.apu_write(addr, value),
            0x4020..=0xFFFF => {
                // Board registers can change what the PPU fetches; plain PRG RAM cannot.
                if !self.cart.write_reaches_board(addr) {
                    self.cart.cpu_write(addr, value, self.cycles);
                    return;
                }
                // A register write may raise or acknowledge the board's IRQ.
                self.lines_moved();
                if self.cart.watch_ppu {
                    self.sync_ppu_to(self.cycles * CPU_CLOCKS + WRITE_PHASE);
                    self.ppu.settle(&mut self.cart);
                    let before = self.a12_inputs();
                    self.cart.cpu_write(addr, value, self.cycles);
                    self.a12_accessed(before, false);
                } else {
                    self.unwatched_board_write(addr, value);
                }
            }
            _ => {}
        }
    }

    /// A write to a board that does not watch the PPU bus: the PPU sees such a board only
    /// through its CHR and nametable windows, so it is caught up (with the old windows)
    /// only when the write moved one. Games that switch PRG banks mid-frame keep their
    /// PPU lazy, and a line drawn ahead stays drawn.
    fn unwatched_board_write(&mut self, addr: u16, value: u8) {
        let before = self.cart.core.ppu_windows();
        self.cart.cpu_write(addr, value, self.cycles);
        let after = self.cart.core.ppu_windows();
        if after != before {
            self.cart.core.set_ppu_windows(before);
            self.sync_ppu_to(self.cycles * CPU_CLOCKS + WRITE_PHASE);
            self.ppu.settle(&mut self.cart);
            self.cart.core.set_ppu_windows(after);
        }
    }

    #[inline(always)]
    pub fn watch(&mut self, kind: AccessKind, addr: u16, value: u8) {
        if self.watching && self.watches.page_kinds(addr) & kind.bit() != 0 {
            self.record_watch(kind, addr, value);
        }
    }

    #[cold]
    fn record_watch(&mut self, kind: AccessKind, addr: u16, value: u8) {
        self.watches.record(kind, addr, value, self.cycles);
    }

    /// One check of `watching` serves both watch kinds of an opcode fetch.
    #[inline(always)]
    fn watch_read(&mut self, addr: u16, value: u8, fetch: bool) {
        if self.watching {
            let kinds = self.watches.page_kinds(addr);
            if kinds & AccessKind::Read.bit() != 0 {
                self.record_watch(AccessKind::Read, addr, value);
            }
            if fetch && kinds & AccessKind::Execute.bit() != 0 {
                self.record_watch(AccessKind::Execute, addr, value);
            }
        }
    }

    /// Reads without side effects: registers report their current value, nothing is clocked.
    pub fn peek(&self, addr: u16) -> u8 {
        match addr {
            0x0000..=0x1FFF => self.ram[usize::from(addr & 0x7FF)],
            0x2000..=0x3FFF => self.ppu.peek(addr),
            0x4015 => self.apu.peek_status() | (self.open_bus & 0x20),
            0x4016 => (self.open_bus & 0xE0) | self.input.peek(0, self.cycles),
            0x4017 => (self.open_bus & 0xE0) | self.input.peek(1, self.cycles),
            0x4020..=0xFFFF => self.cart.core.read_prg(addr).unwrap_or(self.open_bus),
            _ => self.open_bus,
        }
    }

    /// Writes RAM and PRG RAM directly, bypassing registers (cheats, tests, trainers).
    pub fn poke(&mut self, addr: u16, value: u8) {
        match addr {
            0x0000..=0x1FFF => self.ram[usize::from(addr & 0x7FF)] = value,
            0x6000..=0xFFFF => {
                let w = self.cart.core.cpu[usize::from(addr >> 13) - 3];
                if w.source == super::cart::Source::Ram {
                    let off = w.offset + usize::from(addr & 0x1FFF);
                    self.cart.core.prg_ram.set(off, value);
                }
            }
            _ => {}
        }
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
        self.begin_cycle(WRITE_PHASE);
        self.write(addr, value);
        self.end_cycle();
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
