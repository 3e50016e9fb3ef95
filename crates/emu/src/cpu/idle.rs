//! Fast-forwarding wait loops.
//!
//! Games spend much of each frame spinning until the NMI handler changes a RAM flag
//! (`LDA flag / BEQ back`), in `JMP *`, or counting down a delay (`DEY / BNE back`). Such a
//! loop only reads memory that nothing but an interrupt can change, and the rest of the
//! machine (PPU, APU, audio) already runs lazily from the cycle count. So whole passes can
//! be skipped by advancing the clock, up to the first cycle at which anything outside the
//! CPU could act (`CpuBus::skip_passes`); the passes around that cycle run normally. The
//! result is exactly what running every pass gives; `tests/determinism.rs` compares.
//!
//! With watches installed a skipped pass must not hide a hit: a loop is skipped only after
//! a whole pass added no hit (the passes are identical), and the count loop and `JMP *`,
//! which are skipped on sight, only when none of the few addresses they read is watched.

use super::{Cpu, CpuBus, Mode, N, OPCODES, Shape, Z};

/// Memory whose reads have no side effects: work RAM and the cartridge space.
fn pure(addr: u16) -> bool {
    !(0x2000..0x6000).contains(&addr)
}

/// The registers a pass must leave as it found them.
fn regs(cpu: &Cpu) -> [u8; 5] {
    [cpu.a, cpu.x, cpu.y, cpu.p, cpu.s]
}

/// True when a pass of the 2-byte step + `BNE` loop at `start` reads a watched address:
/// the step's opcode and dummy read, the branch's two bytes, its dummy read of the next
/// opcode, and the page-crossing read.
fn count_loop_watched<Bus: CpuBus>(bus: &Bus, start: u16) -> bool {
    let next = start.wrapping_add(3);
    let crossing = (next & 0xFF00) | (start & 0x00FF);
    (0..4).any(|i| bus.read_watched(start.wrapping_add(i))) || bus.read_watched(crossing)
}

/// Official instructions that only load, compare or test what they read.
const PURE_READS: [&str; 10] = [
    "LDA", "LDX", "LDY", "CMP", "CPX", "CPY", "BIT", "AND", "ORA", "EOR",
];

/// By opcode: a `PURE_READS` instruction, or the official `NOP`.
const PURE_READ_OPCODE: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 256 {
        let op = &OPCODES[i];
        let listed = matches!(op.shape, Shape::Read) && listed(op.mnemonic);
        table[i] = op.official && (listed || same(op.mnemonic, "NOP"));
        i += 1;
    }
    table
};

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn listed(mnemonic: &str) -> bool {
    let mut i = 0;
    while i < PURE_READS.len() {
        if same(mnemonic, PURE_READS[i]) {
            return true;
        }
        i += 1;
    }
    false
}

impl Cpu {
    /// True when no interrupt is pending or about to be taken.
    fn interrupts_quiet(&self) -> bool {
        !(self.need_nmi || self.prev_need_nmi || self.run_irq || self.prev_run_irq)
    }

    /// Called after a taken branch from `branch` back to `start`.
    pub(super) fn backward_branch<Bus: CpuBus>(&mut self, bus: &mut Bus, branch: u16, start: u16) {
        if !bus.may_skip()
            || !self.interrupts_quiet()
            || !pure(start)
            || !pure(branch.wrapping_add(1))
        {
            self.loop_pc = None;
            return;
        }
        let cross = u64::from((branch.wrapping_add(2) ^ start) & 0xFF00 != 0);
        if start.wrapping_add(1) == branch
            && bus.peek(branch) == 0xD0
            && !count_loop_watched(bus, start)
            && let Some(left) = self.countdown(bus.peek(start))
        {
            // One pass: the 2-cycle step, then the taken branch.
            let n = bus.skip_passes(5 + cross, u64::from(left));
            self.count_by(bus.peek(start), n as u8);
            return;
        }
        let now = (start, regs(self));
        let hits = bus.watch_count();
        if self.loop_pc != Some(now.0) {
            self.loop_impure = None;
        } else if self.loop_regs == now.1
            && self.loop_hits == hits
            && self.loop_impure != Some(branch)
        {
            let pass = bus.cycles() - self.loop_cycles;
            let body = pass.checked_sub(3 + cross);
            match self.read_only_body_cycles(bus, start, branch) {
                // E.g. a $2002 poll: looking again each pass would find the same.
                None => self.loop_impure = Some(branch),
                cycles if cycles == body => {
                    bus.skip_passes(pass, u64::MAX);
                }
                _ => {}
            }
        }
        self.loop_pc = Some(now.0);
        self.loop_regs = now.1;
        self.loop_cycles = bus.cycles();
        self.loop_hits = hits;
    }

    /// After `JMP` to its own address: nothing changes until an interrupt.
    pub(super) fn jump_to_self<Bus: CpuBus>(&mut self, bus: &mut Bus) {
        let pc = self.pc;
        if self.interrupts_quiet()
            && pure(pc)
            && pure(pc.wrapping_add(2))
            && (0..3).all(|i| !bus.read_watched(pc.wrapping_add(i)))
        {
            bus.skip_passes(3, u64::MAX);
        }
    }

    /// For a `DEX`/`DEY`/`INX`/`INY` step: how many more taken passes the `BNE` makes
    /// (the register may be 0 when the loop was entered at the branch: 255 passes then).
    fn countdown(&self, opcode: u8) -> Option<u8> {
        match opcode {
            0xCA => Some(self.x.wrapping_sub(1)),
            0x88 => Some(self.y.wrapping_sub(1)),
            0xE8 => Some(255 - self.x),
            0xC8 => Some(255 - self.y),
            _ => None,
        }
    }

    /// Applies `n` passes of a count loop's step (its flags as the last step set them).
    fn count_by(&mut self, opcode: u8, n: u8) {
        if n == 0 {
            return;
        }
        let reg = match opcode {
            0xCA => &mut self.x,
            0x88 => &mut self.y,
            0xE8 => &mut self.x,
            _ => &mut self.y,
        };
        *reg = if matches!(opcode, 0xCA | 0x88) {
            reg.wrapping_sub(n)
        } else {
            reg.wrapping_add(n)
        };
        let v = *reg;
        self.p = (self.p & !(N | Z)) | (v & N) | if v == 0 { Z } else { 0 };
    }

    /// Cycles of the instructions in `start..branch` when every one only loads, compares
    /// or tests memory that reads without side effects; `None` otherwise.
    fn read_only_body_cycles<Bus: CpuBus>(
        &self,
        bus: &Bus,
        start: u16,
        branch: u16,
    ) -> Option<u64> {
        let mut pc = start;
        let mut cycles = 0;
        for _ in 0..3 {
            if pc == branch {
                return Some(cycles);
            }
            let (len, c) = self.read_only_instruction(bus, pc)?;
            pc = pc.wrapping_add(len);
            cycles += c;
        }
        (pc == branch).then_some(cycles)
    }

    /// Length and cycles of a side-effect-free read instruction at `pc`, if it is one:
    /// `NOP`, or a `PURE_READS` instruction whose reads all touch pure memory.
    fn read_only_instruction<Bus: CpuBus>(&self, bus: &Bus, pc: u16) -> Option<(u16, u64)> {
        let code = usize::from(bus.peek(pc));
        if !PURE_READ_OPCODE[code] {
            return None;
        }
        let op = &OPCODES[code];
        let len = op.mode.bytes();
        let cycles = u64::from(op.cycles);
        let b1 = bus.peek(pc.wrapping_add(1));
        let abs = u16::from_le_bytes([b1, bus.peek(pc.wrapping_add(2))]);
        // The page-crossing penalty when both the dummy and the real read are pure.
        let indexed = |base: u16, idx: u8| {
            let addr = base.wrapping_add(u16::from(idx));
            let dummy = (base & 0xFF00) | (addr & 0x00FF);
            (pure(addr) && pure(dummy)).then_some(u64::from(addr != dummy))
        };
        let pointer = |p: u8| {
            u16::from_le_bytes([
                bus.peek(u16::from(p)),
                bus.peek(u16::from(p.wrapping_add(1))),
            ])
        };
        let extra = match op.mode {
            // Zero page is RAM.
            Mode::Imm | Mode::Zp | Mode::ZpX | Mode::ZpY => 0,
            Mode::Abs => pure(abs).then_some(0)?,
            Mode::AbsX => indexed(abs, self.x)?,
            Mode::AbsY => indexed(abs, self.y)?,
            Mode::IndY => indexed(pointer(b1), self.y)?,
            Mode::IndX => pure(pointer(b1.wrapping_add(self.x))).then_some(0)?,
            _ => 0,
        };
        Some((len, cycles + extra))
    }
}
