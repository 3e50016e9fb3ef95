//! The CPU's view of the console: address decoding, the master clock, and everything the
//! CPU clocks on each of its cycles (PPU, APU, cartridge).

use super::apu::Apu;
use super::cart::Cart;
use super::cpu::CpuBus;
use super::input::Controllers;
use super::ppu::{LineShortcut, Ppu};
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
    ppu_master: u64,
    /// The cycle count at whose end the PPU must be caught up because something the CPU
    /// samples (NMI line, frame end) may change by then; 0 in lockstep. Scheduling state
    /// like `attention` and `lockstep`: derived, not saved (0 makes the next cycle look).
    #[serde(skip)]
    ppu_due: u64,
    /// The first cycle whose start needs more than the access itself: an APU event, a DMA
    /// request, a board that counts CPU cycles, lockstep. 0 means every cycle.
    #[serde(skip)]
    attention: u64,
    /// Run the PPU on every half cycle instead of catching up on demand: when the lazy PPU
    /// is switched off, and always for boards that watch the PPU address bus (their IRQs
    /// depend on it).
    #[serde(skip)]
    pub(crate) lockstep: bool,
    /// The shortcuts in use (host configuration, not machine state).
    #[serde(skip)]
    pub(crate) speedups: Speedups,
    /// How much of a line the PPU may draw at once, from `speedups` and `lockstep`.
    #[serde(skip, default = "line_shortcut_default")]
    lines: LineShortcut,
    /// Page written to $4014, waiting for the CPU's next read to halt it.
    pub(crate) oam_dma: Option<u8>,
    /// A DMA unit wants to halt the CPU at its next read.
    pub(crate) dma_pending: bool,
    /// The host's watches (not machine state: savestates leave them out).
    #[serde(skip)]
    pub(crate) watching: bool,
    #[serde(skip)]
    pub(crate) watches: Watches,
    /// Wait loops may be fast-forwarded (see `cpu/idle.rs`). Only `Machine::run_frame` sets
    /// it: `Machine::step` runs exactly one instruction, for tracers and debuggers.
    #[serde(skip)]
    pub(crate) fast_forward: bool,
}

/// Before `set_speedups` has run (a fresh or deserialised bus): the most careful mode.
fn line_shortcut_default() -> LineShortcut {
    LineShortcut::None
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
            ppu_due: 0,
            attention: 0,
            lockstep: false,
            speedups: Speedups::ALL,
            lines: line_shortcut_default(),
            oam_dma: None,
            dma_pending: false,
            watching: false,
            watches: Watches::default(),
            fast_forward: false,
        };
        bus.set_speedups(Speedups::ALL);
        bus
    }

    /// Runs the PPU up to the start of the current CPU cycle.
    #[inline]
    pub fn sync_ppu(&mut self) {
        self.sync_ppu_to(self.cycles * CPU_CLOCKS);
    }

    /// Runs the PPU up to master clock `master`. Catching up later gives the same result as
    /// running in lockstep, because nothing but the CPU's accesses (each of which syncs
    /// first) and the PPU's own state decide what the PPU does.
    #[inline]
    fn sync_ppu_to(&mut self, master: u64) {
        let target = master - PPU_OFFSET;
        if target >= self.ppu_master + PPU_CLOCKS {
            let dots = (target - self.ppu_master) / PPU_CLOCKS;
            self.ppu_master += dots * PPU_CLOCKS;
            self.ppu.run(dots, &mut self.cart, self.lines);
        }
        self.ppu_due = if self.lockstep {
            0
        } else {
            // The event dot runs once the target passes it: k dots from now need k*4 clocks.
            let event =
                self.ppu_master + PPU_OFFSET + PPU_CLOCKS * (self.ppu.dots_to_next_event() + 1);
            event.div_ceil(CPU_CLOCKS)
        };
    }

    /// The start of a CPU cycle whose access comes `phase` master clocks in.
    #[inline(always)]
    pub fn begin_cycle(&mut self, phase: u64) {
        if self.needs_attention() {
            self.attend(phase);
        }
    }

    /// True when this cycle's start has more to do than the access (see `attend`); always
    /// true while a DMA is pending.
    #[inline(always)]
    pub fn needs_attention(&self) -> bool {
        self.cycles >= self.attention
    }

    /// Everything a cycle's start may need besides the access.
    #[inline(never)]
    pub fn attend(&mut self, phase: u64) {
        if self.apu.due(self.cycles) {
            self.apu.run_to(self.cycles + 1);
        }
        let dmc = self.apu.dmc_dma_wanted();
        self.dma_pending |= dmc;
        self.cart.cpu_cycle();
        if self.lockstep {
            self.sync_ppu_to(self.cycles * CPU_CLOCKS + phase);
        }
        self.attention = if dmc || self.dma_pending || self.cart.watch_cpu || self.lockstep {
            0
        } else {
            self.apu.next_event()
        };
    }

    /// The first cycle at which anything outside the CPU may act on its own: a PPU event
    /// (frame end, VBL, NMI), an APU event, a DMA, a board that counts cycles. A CPU that
    /// only reads memory cannot tell the cycles before it apart (see `cpu/idle.rs`).
    pub fn quiet_until(&self) -> u64 {
        // A finished frame ends `run_frame` after this instruction, exactly where it is.
        if !self.fast_forward
            || !self.speedups.skip_wait_loops
            || self.ppu.frame_ready
            || self.lockstep
            || self.watching
        {
            return 0;
        }
        self.attention
            .min(self.apu.next_event())
            .min(self.ppu_due.saturating_sub(1))
    }

    /// A CPU read cycle: a DMA unit may halt the CPU first (see `CpuBus::read_cycle`).
    #[inline(always)]
    fn cpu_read_cycle(&mut self, addr: u16, fetch: bool, poll: &mut impl FnMut(&Self)) -> u8 {
        if self.needs_attention() {
            if self.dma_pending {
                self.run_dma(addr, poll);
            }
            self.attend(READ_PHASE);
        }
        let v = self.read_access(addr, fetch);
        self.end_cycle();
        v
    }

    /// Switches shortcuts on or off; results do not change, only speed.
    pub fn set_speedups(&mut self, speedups: Speedups) {
        self.speedups = speedups;
        self.lockstep = !speedups.lazy_ppu || self.cart.watch_ppu;
        self.lines = if !speedups.whole_lines {
            LineShortcut::None
        } else if self.lockstep || !speedups.lines_ahead {
            LineShortcut::Whole
        } else {
            LineShortcut::Ahead
        };
        self.apu.set_events(speedups.apu_events);
        self.recheck();
    }

    /// After a savestate was deserialised: the ROM data and everything derived (board
    /// facts, scheduling) come back; the shortcuts are the default ones.
    pub(crate) fn attach_rom(&mut self, rom: &super::Rom) {
        self.cart.attach_rom(rom);
        self.set_speedups(Speedups::ALL);
    }

    /// Makes the next cycle's start look again at everything (after outside changes).
    #[inline]
    pub fn recheck(&mut self) {
        self.attention = 0;
    }

    #[inline(always)]
    pub fn end_cycle(&mut self) {
        self.cycles += 1;
        if self.cycles >= self.ppu_due {
            self.sync_ppu_to(self.cycles * CPU_CLOCKS);
        }
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
                self.ppu.read(addr, &mut self.cart)
            }
            0x4015 => {
                // The status read is internal to the 2A03: it does not drive the external bus.
                let v = self.apu.read_status() | (self.open_bus & 0x20);
                self.watch_read(addr, v, fetch);
                return v;
            }
            0x4016 => (self.open_bus & 0xE0) | self.input.read(0),
            0x4017 => (self.open_bus & 0xE0) | self.input.read(1),
            _ => self.open_bus,
        };
        self.open_bus = value;
        self.watch_read(addr, value, fetch);
        value
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
                self.ppu.write(addr, value, &mut self.cart)
            }
            0x4014 => {
                self.oam_dma = Some(value);
                self.dma_pending = true;
                self.recheck();
            }
            0x4016 => self.input.write_strobe(value),
            0x4000..=0x4017 => {
                self.apu.write(addr, value, self.cycles);
                self.recheck();
            }
            0x4020..=0xFFFF => {
                // Board registers can change what the PPU fetches; plain PRG RAM cannot.
                if self.cart.write_reaches_board(addr) {
                    self.sync_ppu_to(self.cycles * CPU_CLOCKS + WRITE_PHASE);
                    self.ppu.settle(&mut self.cart);
                }
                self.cart.cpu_write(addr, value, self.cycles)
            }
            _ => {}
        }
    }

    #[inline(always)]
    pub fn watch(&mut self, kind: AccessKind, addr: u16, value: u8) {
        if self.watching {
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
            self.record_watch(AccessKind::Read, addr, value);
            if fetch {
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
            0x4016 => (self.open_bus & 0xE0) | self.input.peek(0),
            0x4017 => (self.open_bus & 0xE0) | self.input.peek(1),
            0x4020..=0xFFFF => self.cart.core.read_prg(addr).unwrap_or(self.open_bus),
            _ => self.open_bus,
        }
    }

    /// Writes RAM, PRG RAM and PPU memory directly, bypassing registers (cheats, tests).
    pub fn poke(&mut self, addr: u16, value: u8) {
        match addr {
            0x0000..=0x1FFF => self.ram[usize::from(addr & 0x7FF)] = value,
            0x6000..=0xFFFF => {
                let w = self.cart.core.cpu[usize::from(addr >> 13) - 3];
                if w.source == super::cart::Source::Ram {
                    self.cart.core.prg_ram[w.offset + usize::from(addr & 0x1FFF)] = value;
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
    fn peek(&self, addr: u16) -> u8 {
        Bus::peek(self, addr)
    }
    fn cycles(&self) -> u64 {
        self.cycles
    }
    fn skip_passes(&mut self, pass: u64, limit: u64) -> u64 {
        let n = (self.quiet_until().saturating_sub(self.cycles) / pass).min(limit);
        self.cycles += n * pass;
        n
    }
}
