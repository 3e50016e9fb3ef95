//! Fast-forwarding wait loops.
//!
//! Games spend much of each frame spinning until the NMI handler changes a RAM flag
//! (`LDA flag / BEQ back`), in `JMP *`, or counting down a delay (`DEY / BNE back`). Such a
//! loop only reads memory that nothing but an interrupt can change, and the rest of the
//! machine (PPU, APU, audio) already runs lazily from the cycle count. So whole passes can
//! be skipped by advancing the clock, up to the first cycle at which anything outside the
//! CPU could act (`Bus::quiet_until`); the passes around that cycle run normally. The
//! result is exactly what running every pass gives; `tests/determinism.rs` compares.

use super::{Cpu, N, Z};
use crate::bus::Bus;

/// Memory whose reads have no side effects: work RAM and the cartridge space.
fn pure(addr: u16) -> bool {
    !(0x2000..0x6000).contains(&addr)
}

/// The registers a pass must leave as it found them.
fn regs(cpu: &Cpu) -> [u8; 5] {
    [cpu.a, cpu.x, cpu.y, cpu.p, cpu.s]
}

impl Cpu {
    /// True when no interrupt is pending or about to be taken.
    fn interrupts_quiet(&self) -> bool {
        !(self.need_nmi || self.prev_need_nmi || self.run_irq || self.prev_run_irq)
    }

    /// Skips as many passes of `cycles` each as fit before the machine may act.
    fn skip_passes(&mut self, bus: &mut Bus, cycles: u64, limit: u64) -> u64 {
        let quiet = bus.quiet_until();
        let n = (quiet.saturating_sub(bus.cycles) / cycles).min(limit);
        bus.cycles += n * cycles;
        n
    }

    /// Called after a taken branch from `branch` back to `start`.
    pub(super) fn backward_branch(&mut self, bus: &mut Bus, branch: u16, start: u16) {
        if !self.interrupts_quiet() || !pure(start) || !pure(branch.wrapping_add(1)) {
            self.loop_pc = None;
            return;
        }
        let cross = u64::from((branch.wrapping_add(2) ^ start) & 0xFF00 != 0);
        if start.wrapping_add(1) == branch
            && bus.peek(branch) == 0xD0
            && let Some(left) = self.countdown(bus.peek(start))
        {
            // One pass: the 2-cycle step, then the taken branch.
            let n = self.skip_passes(bus, 5 + cross, u64::from(left));
            self.count_by(bus.peek(start), n as u8);
            return;
        }
        let now = (start, regs(self));
        if self.loop_pc == Some(now.0) && self.loop_regs == now.1 {
            let pass = bus.cycles - self.loop_cycles;
            let body = pass.checked_sub(3 + cross);
            if body.is_some() && self.read_only_body_cycles(bus, start, branch) == body {
                self.skip_passes(bus, pass, u64::MAX);
            }
        }
        self.loop_pc = Some(now.0);
        self.loop_regs = now.1;
        self.loop_cycles = bus.cycles;
    }

    /// After `JMP` to its own address: nothing changes until an interrupt.
    pub(super) fn jump_to_self(&mut self, bus: &mut Bus) {
        if self.interrupts_quiet() && pure(self.pc) && pure(self.pc.wrapping_add(2)) {
            self.skip_passes(bus, 3, u64::MAX);
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
    fn read_only_body_cycles(&self, bus: &Bus, start: u16, branch: u16) -> Option<u64> {
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

    /// Length and cycles of a side-effect-free read instruction at `pc`, if it is one.
    fn read_only_instruction(&self, bus: &Bus, pc: u16) -> Option<(u16, u64)> {
        let op = bus.peek(pc);
        let b1 = bus.peek(pc.wrapping_add(1));
        let b2 = bus.peek(pc.wrapping_add(2));
        let abs = u16::from_le_bytes([b1, b2]);
        let indexed = |base: u16, idx: u8| {
            let addr = base.wrapping_add(u16::from(idx));
            let dummy = (base & 0xFF00) | (addr & 0x00FF);
            let cross = u64::from(addr != dummy);
            (pure(addr) && pure(dummy)).then_some(cross)
        };
        let zp = |a: u8| u16::from(a);
        let pointer =
            |p: u8| u16::from_le_bytes([bus.peek(zp(p)), bus.peek(zp(p.wrapping_add(1)))]);
        let r = match op {
            0xEA => (1, 2),
            0xA9 | 0xA2 | 0xA0 | 0xC9 | 0xE0 | 0xC0 | 0x29 | 0x09 | 0x49 => (2, 2),
            0xA5 | 0xA6 | 0xA4 | 0xC5 | 0xE4 | 0xC4 | 0x24 | 0x25 | 0x05 | 0x45 => (2, 3),
            0xB5 | 0xB4 | 0xD5 | 0x35 | 0x15 | 0x55 => (2, 4),
            0xB6 => (2, 4),
            0xAD | 0xAE | 0xAC | 0xCD | 0xEC | 0xCC | 0x2C | 0x2D | 0x0D | 0x4D => {
                if !pure(abs) {
                    return None;
                }
                (3, 4)
            }
            0xBD | 0xBC | 0xDD | 0x3D | 0x1D | 0x5D => (3, 4 + indexed(abs, self.x)?),
            0xB9 | 0xBE | 0xD9 | 0x39 | 0x19 | 0x59 => (3, 4 + indexed(abs, self.y)?),
            0xB1 | 0xD1 | 0x31 | 0x11 | 0x51 => (2, 5 + indexed(pointer(b1), self.y)?),
            0xA1 | 0xC1 | 0x21 | 0x01 | 0x41 => {
                if !pure(pointer(b1.wrapping_add(self.x))) {
                    return None;
                }
                (2, 6)
            }
            _ => return None,
        };
        Some(r)
    }
}
