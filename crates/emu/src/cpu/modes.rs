//! Addressing modes with the exact cycle-by-cycle bus activity of each, and the bus
//! shapes of `opcodes.rs` (read, write, read-modify-write, implied, branch).

use super::{Cpu, CpuBus, Mode};

impl Cpu {
    #[inline(always)]
    pub(super) fn operand<Bus: CpuBus>(&mut self, bus: &mut Bus) -> u8 {
        let pc = self.pc;
        self.pc = pc.wrapping_add(1);
        self.read(bus, pc)
    }

    #[inline(always)]
    fn operand16<Bus: CpuBus>(&mut self, bus: &mut Bus) -> u16 {
        let lo = self.operand(bus);
        let hi = self.operand(bus);
        u16::from_le_bytes([lo, hi])
    }

    /// Base address and index for the indexed modes, before the index is added.
    #[inline(always)]
    fn base_and_index<Bus: CpuBus>(&mut self, bus: &mut Bus, mode: Mode) -> (u16, u8) {
        match mode {
            Mode::AbsX => (self.operand16(bus), self.x),
            Mode::AbsY => (self.operand16(bus), self.y),
            Mode::IndY => {
                let ptr = self.operand(bus);
                let lo = self.read(bus, u16::from(ptr));
                let hi = self.read(bus, u16::from(ptr.wrapping_add(1)));
                (u16::from_le_bytes([lo, hi]), self.y)
            }
            _ => unreachable!("not an indexed 16-bit mode"),
        }
    }

    /// Effective address. `always_fix` makes indexed modes do their fix-up read even without
    /// a page crossing (stores and read-modify-write instructions).
    #[inline(always)]
    fn address<Bus: CpuBus>(&mut self, bus: &mut Bus, mode: Mode, always_fix: bool) -> u16 {
        match mode {
            Mode::Zp => u16::from(self.operand(bus)),
            Mode::ZpX | Mode::ZpY => {
                let base = self.operand(bus);
                self.read(bus, u16::from(base));
                let idx = if mode == Mode::ZpX { self.x } else { self.y };
                u16::from(base.wrapping_add(idx))
            }
            Mode::Abs => self.operand16(bus),
            Mode::IndX => {
                let ptr = self.operand(bus);
                self.read(bus, u16::from(ptr));
                let p = ptr.wrapping_add(self.x);
                let lo = self.read(bus, u16::from(p));
                let hi = self.read(bus, u16::from(p.wrapping_add(1)));
                u16::from_le_bytes([lo, hi])
            }
            Mode::AbsX | Mode::AbsY | Mode::IndY => {
                let (base, idx) = self.base_and_index(bus, mode);
                let addr = base.wrapping_add(u16::from(idx));
                if always_fix || (addr ^ base) & 0xFF00 != 0 {
                    // The first try reads the un-carried address.
                    self.read(bus, (base & 0xFF00) | (addr & 0x00FF));
                }
                addr
            }
            Mode::Imp | Mode::Acc | Mode::Imm | Mode::Ind | Mode::Rel => {
                unreachable!("{mode:?} has no data address")
            }
        }
    }

    /// Read shape: the operand is the next byte (immediate) or read from the address.
    #[inline(always)]
    pub(super) fn load<Bus: CpuBus, F: FnOnce(&mut Cpu, u8)>(
        &mut self,
        bus: &mut Bus,
        mode: Mode,
        f: F,
    ) {
        let v = if mode == Mode::Imm {
            self.operand(bus)
        } else {
            let addr = self.address(bus, mode, false);
            self.read(bus, addr)
        };
        f(self, v);
    }

    #[inline(always)]
    pub(super) fn store<Bus: CpuBus>(&mut self, bus: &mut Bus, mode: Mode, value: u8) {
        let addr = self.address(bus, mode, true);
        self.write(bus, addr, value);
    }

    /// Read-modify-write: the unmodified value is written back first (a real bus write).
    /// On the accumulator it is a two-cycle implied instruction.
    #[inline(always)]
    pub(super) fn rmw<Bus: CpuBus, F: FnOnce(&mut Cpu, u8) -> u8>(
        &mut self,
        bus: &mut Bus,
        mode: Mode,
        f: F,
    ) {
        if mode == Mode::Acc {
            self.implied(bus, |c| c.a = f(c, c.a));
            return;
        }
        let addr = self.address(bus, mode, true);
        let v = self.read(bus, addr);
        self.write(bus, addr, v);
        let r = f(self, v);
        self.write(bus, addr, r);
    }

    /// Two-cycle implied instructions read the next byte and discard it.
    #[inline(always)]
    pub(super) fn implied<Bus: CpuBus, F: FnOnce(&mut Cpu)>(&mut self, bus: &mut Bus, f: F) {
        let pc = self.pc;
        self.read(bus, pc);
        f(self);
    }

    /// SHA/SHX/SHY/TAS: store `value & (high byte of base + 1)`; on a page crossing the
    /// stored value also replaces the high byte of the address. When a DMA halts the CPU on
    /// the read before the write, the high byte term drops out and `value` is stored as is.
    pub(super) fn store_high_and<Bus: CpuBus>(&mut self, bus: &mut Bus, mode: Mode, value: u8) {
        let (base, idx) = self.base_and_index(bus, mode);
        let addr = base.wrapping_add(u16::from(idx));
        let before = bus.cycles();
        self.read(bus, (base & 0xFF00) | (addr & 0x00FF));
        let halted = bus.cycles() - before > 1;
        let data = if halted {
            value
        } else {
            value & ((base >> 8) as u8).wrapping_add(1)
        };
        let target = if (addr ^ base) & 0xFF00 != 0 {
            (u16::from(data) << 8) | (addr & 0xFF)
        } else {
            addr
        };
        self.write(bus, target, data);
    }

    pub(super) fn branch<Bus: CpuBus>(&mut self, bus: &mut Bus, taken: bool) {
        let offset = self.operand(bus) as i8;
        if !taken {
            return;
        }
        // An IRQ first seen during the operand cycle waits one more instruction when the
        // branch takes no page-crossing cycle.
        if self.run_irq && !self.prev_run_irq {
            self.run_irq = false;
            self.unsettle();
        }
        let pc = self.pc;
        self.read(bus, pc);
        let target = pc.wrapping_add(offset as u16);
        if (target ^ pc) & 0xFF00 != 0 {
            self.read(bus, (pc & 0xFF00) | (target & 0x00FF));
        }
        self.pc = target;
        if target < pc {
            self.backward_branch(bus, pc.wrapping_sub(2), target);
        }
    }
}
