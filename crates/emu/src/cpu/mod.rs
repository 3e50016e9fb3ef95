//! The 2A03's 6502 core. Every bus access is one CPU cycle and clocks the rest of the
//! machine, so timing (dummy reads, page-cross penalties, DMA stalls) falls out of the
//! access sequence of each instruction.
//!
//! Interrupts follow the hardware's polling: the lines are sampled at the end of every
//! cycle, and an instruction checks what was sampled at the end of its next-to-last cycle.
//!
//! The core sees the machine only through [`CpuBus`] (`port.rs`), so it runs as well on a
//! flat memory in the unit tests (`tests.rs`) as on the NES bus. The opcode table
//! (`opcodes.rs`) drives the decoder; `modes.rs` has the addressing modes' bus cycles,
//! `ops.rs` the instructions, `idle.rs` the wait-loop skipper, `trace.rs` the tracer.

mod idle;
mod modes;
mod opcodes;
mod ops;
mod port;

#[cfg(test)]
mod tests;

pub use opcodes::{Mode, OPCODES, Opcode, Shape};
pub use port::CpuBus;
use serde::{Deserialize, Serialize};

/// Status flag bits.
pub const C: u8 = 0x01;
pub const Z: u8 = 0x02;
pub const I: u8 = 0x04;
pub const D: u8 = 0x08;
pub const B: u8 = 0x10;
pub const U: u8 = 0x20;
pub const V: u8 = 0x40;
pub const N: u8 = 0x80;

const NMI_VECTOR: u16 = 0xFFFA;
const RESET_VECTOR: u16 = 0xFFFC;
const IRQ_VECTOR: u16 = 0xFFFE;

#[derive(Clone, Serialize, Deserialize)]
pub struct Cpu {
    pub a: u8,
    pub x: u8,
    pub y: u8,
    pub s: u8,
    pub pc: u16,
    /// Status flags; B and bit 5 exist only on the stack.
    pub p: u8,
    need_nmi: bool,
    prev_need_nmi: bool,
    prev_nmi_line: bool,
    run_irq: bool,
    prev_run_irq: bool,
    /// Set when a JAM opcode locked the CPU: the opcode and its address.
    pub(crate) jammed: Option<(u8, u16)>,
    /// The last backward branch's target, registers and cycle count (see `idle.rs`).
    loop_pc: Option<u16>,
    loop_regs: [u8; 5],
    loop_cycles: u64,
    /// The bus's watch count at the last backward branch (host data, not machine state:
    /// after a load it is 0, which can only refuse a skip, never allow a wrong one).
    #[serde(skip)]
    loop_hits: u64,
    /// The branch of the loop at `loop_pc` when its body was found to do more than read
    /// memory without side effects, so it is not looked at again while the CPU stays in
    /// it (a cache that can only refuse a skip, like `loop_hits`).
    #[serde(skip)]
    loop_impure: Option<u16>,
    /// The bus's `lines_epoch` at the last poll that found the interrupt state settled
    /// (another poll would change nothing), so later polls in the same epoch return at
    /// once; `UNSETTLED` after anything on the CPU's side changed that state.
    #[serde(skip, default = "unsettled")]
    settled_at: u64,
}

/// `settled_at` when the next poll must look at the lines.
const UNSETTLED: u64 = u64::MAX;

fn unsettled() -> u64 {
    UNSETTLED
}

impl Default for Cpu {
    fn default() -> Self {
        Cpu::new()
    }
}

impl Cpu {
    pub fn new() -> Cpu {
        Cpu {
            a: 0,
            x: 0,
            y: 0,
            s: 0,
            pc: 0,
            p: I,
            need_nmi: false,
            prev_need_nmi: false,
            prev_nmi_line: false,
            run_irq: false,
            prev_run_irq: false,
            jammed: None,
            loop_pc: None,
            loop_regs: [0; 5],
            loop_cycles: 0,
            loop_hits: 0,
            loop_impure: None,
            settled_at: UNSETTLED,
        }
    }

    /// Savestate check: the last backward branch was taken no later than the bus's clock
    /// (the wait-loop skipper measures a pass as the time since).
    pub(crate) fn check(&self, bus_cycles: u64) -> Result<(), crate::invalid::InvalidState> {
        crate::invalid::ensure(self.loop_cycles <= bus_cycles, "cpu.loop_cycles", || {
            format!("{} is after the bus's cycle {bus_cycles}", self.loop_cycles)
        })
    }

    /// The reset sequence: three stack cycles that read instead of write, then the vector.
    pub fn reset<Bus: CpuBus>(&mut self, bus: &mut Bus) {
        self.jammed = None;
        self.p |= I;
        let pc = self.pc;
        self.read(bus, pc);
        self.read(bus, pc);
        for _ in 0..3 {
            self.read(bus, 0x0100 | u16::from(self.s));
            self.s = self.s.wrapping_sub(1);
        }
        let lo = self.read(bus, RESET_VECTOR);
        let hi = self.read(bus, RESET_VECTOR + 1);
        self.pc = u16::from_le_bytes([lo, hi]);
        self.need_nmi = false;
        self.prev_need_nmi = false;
        self.run_irq = false;
        self.prev_run_irq = false;
        self.unsettle();
    }

    /// Runs one instruction (or one stalled cycle when jammed), then any pending interrupt.
    #[inline]
    pub fn step<Bus: CpuBus>(&mut self, bus: &mut Bus) {
        if self.jammed.is_some() {
            // A jammed 6502 keeps the bus busy; the rest of the machine runs on.
            bus.stall_cycle();
            return;
        }
        self.instruction(bus);
    }

    /// Runs instructions until `done` says the bus has got where it should, or a JAM
    /// opcode locks the CPU. One loop here instead of a `step` call per instruction keeps
    /// the decoder's state in registers across instructions.
    pub fn run_until<Bus: CpuBus>(&mut self, bus: &mut Bus, done: impl Fn(&Bus) -> bool) {
        while self.jammed.is_none() && !done(bus) {
            self.instruction(bus);
        }
    }

    #[inline(always)]
    fn instruction<Bus: CpuBus>(&mut self, bus: &mut Bus) {
        let opcode = self.fetch_opcode(bus);
        self.execute(opcode, bus);
        if self.prev_run_irq || self.prev_need_nmi {
            self.interrupt(bus);
        }
    }

    #[inline(always)]
    fn fetch_opcode<Bus: CpuBus>(&mut self, bus: &mut Bus) -> u8 {
        let pc = self.pc;
        let op = bus.fetch_cycle(pc, &mut |b| self.poll(b));
        self.poll(bus);
        self.pc = pc.wrapping_add(1);
        op
    }

    /// Samples the interrupt lines at the end of a cycle. Most cycles change nothing: the
    /// lines move only where the bus says so (a new `lines_epoch`), and the CPU's own side
    /// only in the instructions and sequences that call `unsettle`.
    #[inline(always)]
    fn poll<Bus: CpuBus>(&mut self, bus: &Bus) {
        if bus.lines_epoch() == Some(self.settled_at) {
            debug_assert!(
                self.poll_is_idle(bus),
                "interrupt lines changed in a settled epoch: cycle {} nmi {} irq {} p {:02x} prev_nmi_line {} run_irq {} prev_run_irq {}",
                bus.cycles(),
                bus.nmi_line(),
                bus.irq_line(),
                self.p,
                self.prev_nmi_line,
                self.run_irq,
                self.prev_run_irq
            );
            return;
        }
        self.poll_lines(bus);
    }

    #[inline(always)]
    fn poll_lines<Bus: CpuBus>(&mut self, bus: &Bus) {
        self.prev_need_nmi = self.need_nmi;
        let line = bus.nmi_line();
        if line && !self.prev_nmi_line {
            self.need_nmi = true;
        }
        self.prev_nmi_line = line;
        self.prev_run_irq = self.run_irq;
        self.run_irq = self.wants_irq(bus);
        let settled = self.prev_need_nmi == self.need_nmi && self.prev_run_irq == self.run_irq;
        self.settled_at = match bus.lines_epoch() {
            Some(epoch) if settled => epoch,
            _ => UNSETTLED,
        };
    }

    /// True when a full poll now would leave every interrupt field as it is.
    fn poll_is_idle<Bus: CpuBus>(&self, bus: &Bus) -> bool {
        self.prev_need_nmi == self.need_nmi
            && bus.nmi_line() == self.prev_nmi_line
            && self.prev_run_irq == self.run_irq
            && self.wants_irq(bus) == self.run_irq
    }

    /// An IRQ would be taken: the line is asserted and I is clear.
    #[inline(always)]
    fn wants_irq<Bus: CpuBus>(&self, bus: &Bus) -> bool {
        // I is usually set, so it is checked before the line (both are free of side effects).
        self.p & I == 0 && bus.irq_line()
    }

    /// The CPU changed its interrupt state (the I flag, a pending or taken interrupt): the
    /// next poll looks at everything.
    #[inline(always)]
    pub(crate) fn unsettle(&mut self) {
        self.settled_at = UNSETTLED;
    }

    #[inline(always)]
    fn read<Bus: CpuBus>(&mut self, bus: &mut Bus, addr: u16) -> u8 {
        let v = bus.read_cycle(addr, &mut |b| self.poll(b));
        self.poll(bus);
        v
    }

    #[inline(always)]
    fn write<Bus: CpuBus>(&mut self, bus: &mut Bus, addr: u16, value: u8) {
        bus.write_cycle(addr, value);
        self.poll(bus);
    }

    #[inline(always)]
    fn push<Bus: CpuBus>(&mut self, bus: &mut Bus, value: u8) {
        self.write(bus, 0x0100 | u16::from(self.s), value);
        self.s = self.s.wrapping_sub(1);
    }

    #[inline(always)]
    fn pull<Bus: CpuBus>(&mut self, bus: &mut Bus) -> u8 {
        self.s = self.s.wrapping_add(1);
        self.read(bus, 0x0100 | u16::from(self.s))
    }

    /// IRQ/NMI entry. An NMI that arrives before the vector fetch takes over the sequence.
    fn interrupt<Bus: CpuBus>(&mut self, bus: &mut Bus) {
        let pc = self.pc;
        self.read(bus, pc);
        self.read(bus, pc);
        self.push_and_vector(bus, pc, U);
    }

    /// BRK shares the interrupt sequence, including NMI hijacking of its vector.
    fn brk<Bus: CpuBus>(&mut self, bus: &mut Bus) {
        let pc = self.pc;
        self.read(bus, pc);
        self.push_and_vector(bus, pc.wrapping_add(1), U | B);
        // The handler's first instruction runs before a pending NMI is taken.
        self.prev_need_nmi = false;
        self.unsettle();
    }

    /// The five cycles interrupts and BRK share: return address and status pushed (with
    /// `flags` set in the pushed copy), then the vector, which a pending NMI picks.
    fn push_and_vector<Bus: CpuBus>(&mut self, bus: &mut Bus, ret: u16, flags: u8) {
        self.push(bus, (ret >> 8) as u8);
        self.push(bus, ret as u8);
        let vector = if self.need_nmi {
            self.need_nmi = false;
            NMI_VECTOR
        } else {
            IRQ_VECTOR
        };
        // Both changes are marked where they happen: the push between them polls.
        self.unsettle();
        self.push(bus, self.p | flags);
        self.p |= I;
        self.unsettle();
        let lo = self.read(bus, vector);
        let hi = self.read(bus, vector + 1);
        self.pc = u16::from_le_bytes([lo, hi]);
    }

    #[inline(always)]
    fn set_nz(&mut self, v: u8) {
        self.p = (self.p & !(N | Z)) | (v & N) | if v == 0 { Z } else { 0 };
    }

    #[inline(always)]
    fn set_flag(&mut self, flag: u8, on: bool) {
        if on {
            self.p |= flag;
        } else {
            self.p &= !flag;
        }
    }
}
