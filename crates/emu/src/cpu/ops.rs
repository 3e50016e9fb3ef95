//! Instruction semantics and the opcode dispatch (all 256 opcodes).

use super::modes::Mode;
use super::{B, C, Cpu, D, I, N, U, V, Z};
use crate::bus::Bus;

/// LXA and ANE mix A with a chip-dependent constant; $FF and $EE are what NES consoles show.
const LXA_MAGIC: u8 = 0xFF;
const ANE_MAGIC: u8 = 0xEE;

impl Cpu {
    #[inline(always)]
    pub(super) fn execute(&mut self, opcode: u8, bus: &mut Bus) {
        match opcode {
            0x00 => self.brk(bus),
            0x01 => self.load(bus, Mode::IndX, Cpu::ora),
            0x02 => self.jam(opcode),
            0x03 => self.rmw(bus, Mode::IndX, Cpu::slo),
            0x04 => self.load(bus, Mode::Zp, |_, _| {}),
            0x05 => self.load(bus, Mode::Zp, Cpu::ora),
            0x06 => self.rmw(bus, Mode::Zp, Cpu::asl),
            0x07 => self.rmw(bus, Mode::Zp, Cpu::slo),
            0x08 => self.php(bus),
            0x09 => self.immediate(bus, Cpu::ora),
            0x0A => self.implied(bus, |c| c.a = Cpu::asl(c, c.a)),
            0x0B => self.immediate(bus, Cpu::anc),
            0x0C => self.load(bus, Mode::Abs, |_, _| {}),
            0x0D => self.load(bus, Mode::Abs, Cpu::ora),
            0x0E => self.rmw(bus, Mode::Abs, Cpu::asl),
            0x0F => self.rmw(bus, Mode::Abs, Cpu::slo),
            0x10 => {
                let taken = self.p & N == 0;
                self.branch(bus, taken)
            }
            0x11 => self.load(bus, Mode::IndY, Cpu::ora),
            0x12 => self.jam(opcode),
            0x13 => self.rmw(bus, Mode::IndY, Cpu::slo),
            0x14 => self.load(bus, Mode::ZpX, |_, _| {}),
            0x15 => self.load(bus, Mode::ZpX, Cpu::ora),
            0x16 => self.rmw(bus, Mode::ZpX, Cpu::asl),
            0x17 => self.rmw(bus, Mode::ZpX, Cpu::slo),
            0x18 => self.implied(bus, |c| c.p &= !C),
            0x19 => self.load(bus, Mode::AbsY, Cpu::ora),
            0x1A => self.implied(bus, |_| ()),
            0x1B => self.rmw(bus, Mode::AbsY, Cpu::slo),
            0x1C => self.load(bus, Mode::AbsX, |_, _| {}),
            0x1D => self.load(bus, Mode::AbsX, Cpu::ora),
            0x1E => self.rmw(bus, Mode::AbsX, Cpu::asl),
            0x1F => self.rmw(bus, Mode::AbsX, Cpu::slo),
            0x20 => self.jsr(bus),
            0x21 => self.load(bus, Mode::IndX, Cpu::and),
            0x22 => self.jam(opcode),
            0x23 => self.rmw(bus, Mode::IndX, Cpu::rla),
            0x24 => self.load(bus, Mode::Zp, Cpu::bit),
            0x25 => self.load(bus, Mode::Zp, Cpu::and),
            0x26 => self.rmw(bus, Mode::Zp, Cpu::rol),
            0x27 => self.rmw(bus, Mode::Zp, Cpu::rla),
            0x28 => self.plp(bus),
            0x29 => self.immediate(bus, Cpu::and),
            0x2A => self.implied(bus, |c| c.a = Cpu::rol(c, c.a)),
            0x2B => self.immediate(bus, Cpu::anc),
            0x2C => self.load(bus, Mode::Abs, Cpu::bit),
            0x2D => self.load(bus, Mode::Abs, Cpu::and),
            0x2E => self.rmw(bus, Mode::Abs, Cpu::rol),
            0x2F => self.rmw(bus, Mode::Abs, Cpu::rla),
            0x30 => {
                let taken = self.p & N != 0;
                self.branch(bus, taken)
            }
            0x31 => self.load(bus, Mode::IndY, Cpu::and),
            0x32 => self.jam(opcode),
            0x33 => self.rmw(bus, Mode::IndY, Cpu::rla),
            0x34 => self.load(bus, Mode::ZpX, |_, _| {}),
            0x35 => self.load(bus, Mode::ZpX, Cpu::and),
            0x36 => self.rmw(bus, Mode::ZpX, Cpu::rol),
            0x37 => self.rmw(bus, Mode::ZpX, Cpu::rla),
            0x38 => self.implied(bus, |c| c.p |= C),
            0x39 => self.load(bus, Mode::AbsY, Cpu::and),
            0x3A => self.implied(bus, |_| ()),
            0x3B => self.rmw(bus, Mode::AbsY, Cpu::rla),
            0x3C => self.load(bus, Mode::AbsX, |_, _| {}),
            0x3D => self.load(bus, Mode::AbsX, Cpu::and),
            0x3E => self.rmw(bus, Mode::AbsX, Cpu::rol),
            0x3F => self.rmw(bus, Mode::AbsX, Cpu::rla),
            0x40 => self.rti(bus),
            0x41 => self.load(bus, Mode::IndX, Cpu::eor),
            0x42 => self.jam(opcode),
            0x43 => self.rmw(bus, Mode::IndX, Cpu::sre),
            0x44 => self.load(bus, Mode::Zp, |_, _| {}),
            0x45 => self.load(bus, Mode::Zp, Cpu::eor),
            0x46 => self.rmw(bus, Mode::Zp, Cpu::lsr),
            0x47 => self.rmw(bus, Mode::Zp, Cpu::sre),
            0x48 => self.pha(bus),
            0x49 => self.immediate(bus, Cpu::eor),
            0x4A => self.implied(bus, |c| c.a = Cpu::lsr(c, c.a)),
            0x4B => self.immediate(bus, Cpu::alr),
            0x4C => self.jmp_abs(bus),
            0x4D => self.load(bus, Mode::Abs, Cpu::eor),
            0x4E => self.rmw(bus, Mode::Abs, Cpu::lsr),
            0x4F => self.rmw(bus, Mode::Abs, Cpu::sre),
            0x50 => {
                let taken = self.p & V == 0;
                self.branch(bus, taken)
            }
            0x51 => self.load(bus, Mode::IndY, Cpu::eor),
            0x52 => self.jam(opcode),
            0x53 => self.rmw(bus, Mode::IndY, Cpu::sre),
            0x54 => self.load(bus, Mode::ZpX, |_, _| {}),
            0x55 => self.load(bus, Mode::ZpX, Cpu::eor),
            0x56 => self.rmw(bus, Mode::ZpX, Cpu::lsr),
            0x57 => self.rmw(bus, Mode::ZpX, Cpu::sre),
            0x58 => self.implied(bus, |c| c.p &= !I),
            0x59 => self.load(bus, Mode::AbsY, Cpu::eor),
            0x5A => self.implied(bus, |_| ()),
            0x5B => self.rmw(bus, Mode::AbsY, Cpu::sre),
            0x5C => self.load(bus, Mode::AbsX, |_, _| {}),
            0x5D => self.load(bus, Mode::AbsX, Cpu::eor),
            0x5E => self.rmw(bus, Mode::AbsX, Cpu::lsr),
            0x5F => self.rmw(bus, Mode::AbsX, Cpu::sre),
            0x60 => self.rts(bus),
            0x61 => self.load(bus, Mode::IndX, Cpu::adc),
            0x62 => self.jam(opcode),
            0x63 => self.rmw(bus, Mode::IndX, Cpu::rra),
            0x64 => self.load(bus, Mode::Zp, |_, _| {}),
            0x65 => self.load(bus, Mode::Zp, Cpu::adc),
            0x66 => self.rmw(bus, Mode::Zp, Cpu::ror),
            0x67 => self.rmw(bus, Mode::Zp, Cpu::rra),
            0x68 => self.pla(bus),
            0x69 => self.immediate(bus, Cpu::adc),
            0x6A => self.implied(bus, |c| c.a = Cpu::ror(c, c.a)),
            0x6B => self.immediate(bus, Cpu::arr),
            0x6C => self.jmp_ind(bus),
            0x6D => self.load(bus, Mode::Abs, Cpu::adc),
            0x6E => self.rmw(bus, Mode::Abs, Cpu::ror),
            0x6F => self.rmw(bus, Mode::Abs, Cpu::rra),
            0x70 => {
                let taken = self.p & V != 0;
                self.branch(bus, taken)
            }
            0x71 => self.load(bus, Mode::IndY, Cpu::adc),
            0x72 => self.jam(opcode),
            0x73 => self.rmw(bus, Mode::IndY, Cpu::rra),
            0x74 => self.load(bus, Mode::ZpX, |_, _| {}),
            0x75 => self.load(bus, Mode::ZpX, Cpu::adc),
            0x76 => self.rmw(bus, Mode::ZpX, Cpu::ror),
            0x77 => self.rmw(bus, Mode::ZpX, Cpu::rra),
            0x78 => self.implied(bus, |c| c.p |= I),
            0x79 => self.load(bus, Mode::AbsY, Cpu::adc),
            0x7A => self.implied(bus, |_| ()),
            0x7B => self.rmw(bus, Mode::AbsY, Cpu::rra),
            0x7C => self.load(bus, Mode::AbsX, |_, _| {}),
            0x7D => self.load(bus, Mode::AbsX, Cpu::adc),
            0x7E => self.rmw(bus, Mode::AbsX, Cpu::ror),
            0x7F => self.rmw(bus, Mode::AbsX, Cpu::rra),
            0x80 => self.immediate(bus, |_, _| {}),
            0x81 => self.store(bus, Mode::IndX, self.a),
            0x82 => self.immediate(bus, |_, _| {}),
            0x83 => self.store(bus, Mode::IndX, self.a & self.x),
            0x84 => self.store(bus, Mode::Zp, self.y),
            0x85 => self.store(bus, Mode::Zp, self.a),
            0x86 => self.store(bus, Mode::Zp, self.x),
            0x87 => self.store(bus, Mode::Zp, self.a & self.x),
            0x88 => self.implied(bus, |c| {
                c.y = c.y.wrapping_sub(1);
                c.set_nz(c.y)
            }),
            0x89 => self.immediate(bus, |_, _| {}),
            0x8A => self.implied(bus, |c| {
                c.a = c.x;
                c.set_nz(c.a)
            }),
            0x8B => self.immediate(bus, Cpu::ane),
            0x8C => self.store(bus, Mode::Abs, self.y),
            0x8D => self.store(bus, Mode::Abs, self.a),
            0x8E => self.store(bus, Mode::Abs, self.x),
            0x8F => self.store(bus, Mode::Abs, self.a & self.x),
            0x90 => {
                let taken = self.p & C == 0;
                self.branch(bus, taken)
            }
            0x91 => self.store(bus, Mode::IndY, self.a),
            0x92 => self.jam(opcode),
            0x93 => self.store_high_and(bus, Mode::IndY, self.a & self.x),
            0x94 => self.store(bus, Mode::ZpX, self.y),
            0x95 => self.store(bus, Mode::ZpX, self.a),
            0x96 => self.store(bus, Mode::ZpY, self.x),
            0x97 => self.store(bus, Mode::ZpY, self.a & self.x),
            0x98 => self.implied(bus, |c| {
                c.a = c.y;
                c.set_nz(c.a)
            }),
            0x99 => self.store(bus, Mode::AbsY, self.a),
            0x9A => self.implied(bus, |c| c.s = c.x),
            0x9B => {
                self.s = self.a & self.x;
                self.store_high_and(bus, Mode::AbsY, self.s)
            }
            0x9C => self.store_high_and(bus, Mode::AbsX, self.y),
            0x9D => self.store(bus, Mode::AbsX, self.a),
            0x9E => self.store_high_and(bus, Mode::AbsY, self.x),
            0x9F => self.store_high_and(bus, Mode::AbsY, self.a & self.x),
            0xA0 => self.immediate(bus, Cpu::ldy),
            0xA1 => self.load(bus, Mode::IndX, Cpu::lda),
            0xA2 => self.immediate(bus, Cpu::ldx),
            0xA3 => self.load(bus, Mode::IndX, Cpu::lax),
            0xA4 => self.load(bus, Mode::Zp, Cpu::ldy),
            0xA5 => self.load(bus, Mode::Zp, Cpu::lda),
            0xA6 => self.load(bus, Mode::Zp, Cpu::ldx),
            0xA7 => self.load(bus, Mode::Zp, Cpu::lax),
            0xA8 => self.implied(bus, |c| {
                c.y = c.a;
                c.set_nz(c.y)
            }),
            0xA9 => self.immediate(bus, Cpu::lda),
            0xAA => self.implied(bus, |c| {
                c.x = c.a;
                c.set_nz(c.x)
            }),
            0xAB => self.immediate(bus, Cpu::lxa),
            0xAC => self.load(bus, Mode::Abs, Cpu::ldy),
            0xAD => self.load(bus, Mode::Abs, Cpu::lda),
            0xAE => self.load(bus, Mode::Abs, Cpu::ldx),
            0xAF => self.load(bus, Mode::Abs, Cpu::lax),
            0xB0 => {
                let taken = self.p & C != 0;
                self.branch(bus, taken)
            }
            0xB1 => self.load(bus, Mode::IndY, Cpu::lda),
            0xB2 => self.jam(opcode),
            0xB3 => self.load(bus, Mode::IndY, Cpu::lax),
            0xB4 => self.load(bus, Mode::ZpX, Cpu::ldy),
            0xB5 => self.load(bus, Mode::ZpX, Cpu::lda),
            0xB6 => self.load(bus, Mode::ZpY, Cpu::ldx),
            0xB7 => self.load(bus, Mode::ZpY, Cpu::lax),
            0xB8 => self.implied(bus, |c| c.p &= !V),
            0xB9 => self.load(bus, Mode::AbsY, Cpu::lda),
            0xBA => self.implied(bus, |c| {
                c.x = c.s;
                c.set_nz(c.x)
            }),
            0xBB => self.load(bus, Mode::AbsY, Cpu::las),
            0xBC => self.load(bus, Mode::AbsX, Cpu::ldy),
            0xBD => self.load(bus, Mode::AbsX, Cpu::lda),
            0xBE => self.load(bus, Mode::AbsY, Cpu::ldx),
            0xBF => self.load(bus, Mode::AbsY, Cpu::lax),
            0xC0 => self.immediate(bus, Cpu::cpy),
            0xC1 => self.load(bus, Mode::IndX, Cpu::cmp),
            0xC2 => self.immediate(bus, |_, _| {}),
            0xC3 => self.rmw(bus, Mode::IndX, Cpu::dcp),
            0xC4 => self.load(bus, Mode::Zp, Cpu::cpy),
            0xC5 => self.load(bus, Mode::Zp, Cpu::cmp),
            0xC6 => self.rmw(bus, Mode::Zp, Cpu::dec),
            0xC7 => self.rmw(bus, Mode::Zp, Cpu::dcp),
            0xC8 => self.implied(bus, |c| {
                c.y = c.y.wrapping_add(1);
                c.set_nz(c.y)
            }),
            0xC9 => self.immediate(bus, Cpu::cmp),
            0xCA => self.implied(bus, |c| {
                c.x = c.x.wrapping_sub(1);
                c.set_nz(c.x)
            }),
            0xCB => self.immediate(bus, Cpu::axs),
            0xCC => self.load(bus, Mode::Abs, Cpu::cpy),
            0xCD => self.load(bus, Mode::Abs, Cpu::cmp),
            0xCE => self.rmw(bus, Mode::Abs, Cpu::dec),
            0xCF => self.rmw(bus, Mode::Abs, Cpu::dcp),
            0xD0 => {
                let taken = self.p & Z == 0;
                self.branch(bus, taken)
            }
            0xD1 => self.load(bus, Mode::IndY, Cpu::cmp),
            0xD2 => self.jam(opcode),
            0xD3 => self.rmw(bus, Mode::IndY, Cpu::dcp),
            0xD4 => self.load(bus, Mode::ZpX, |_, _| {}),
            0xD5 => self.load(bus, Mode::ZpX, Cpu::cmp),
            0xD6 => self.rmw(bus, Mode::ZpX, Cpu::dec),
            0xD7 => self.rmw(bus, Mode::ZpX, Cpu::dcp),
            0xD8 => self.implied(bus, |c| c.p &= !D),
            0xD9 => self.load(bus, Mode::AbsY, Cpu::cmp),
            0xDA => self.implied(bus, |_| ()),
            0xDB => self.rmw(bus, Mode::AbsY, Cpu::dcp),
            0xDC => self.load(bus, Mode::AbsX, |_, _| {}),
            0xDD => self.load(bus, Mode::AbsX, Cpu::cmp),
            0xDE => self.rmw(bus, Mode::AbsX, Cpu::dec),
            0xDF => self.rmw(bus, Mode::AbsX, Cpu::dcp),
            0xE0 => self.immediate(bus, Cpu::cpx),
            0xE1 => self.load(bus, Mode::IndX, Cpu::sbc),
            0xE2 => self.immediate(bus, |_, _| {}),
            0xE3 => self.rmw(bus, Mode::IndX, Cpu::isc),
            0xE4 => self.load(bus, Mode::Zp, Cpu::cpx),
            0xE5 => self.load(bus, Mode::Zp, Cpu::sbc),
            0xE6 => self.rmw(bus, Mode::Zp, Cpu::inc),
            0xE7 => self.rmw(bus, Mode::Zp, Cpu::isc),
            0xE8 => self.implied(bus, |c| {
                c.x = c.x.wrapping_add(1);
                c.set_nz(c.x)
            }),
            0xE9 => self.immediate(bus, Cpu::sbc),
            0xEA => self.implied(bus, |_| ()),
            0xEB => self.immediate(bus, Cpu::sbc),
            0xEC => self.load(bus, Mode::Abs, Cpu::cpx),
            0xED => self.load(bus, Mode::Abs, Cpu::sbc),
            0xEE => self.rmw(bus, Mode::Abs, Cpu::inc),
            0xEF => self.rmw(bus, Mode::Abs, Cpu::isc),
            0xF0 => {
                let taken = self.p & Z != 0;
                self.branch(bus, taken)
            }
            0xF1 => self.load(bus, Mode::IndY, Cpu::sbc),
            0xF2 => self.jam(opcode),
            0xF3 => self.rmw(bus, Mode::IndY, Cpu::isc),
            0xF4 => self.load(bus, Mode::ZpX, |_, _| {}),
            0xF5 => self.load(bus, Mode::ZpX, Cpu::sbc),
            0xF6 => self.rmw(bus, Mode::ZpX, Cpu::inc),
            0xF7 => self.rmw(bus, Mode::ZpX, Cpu::isc),
            0xF8 => self.implied(bus, |c| c.p |= D),
            0xF9 => self.load(bus, Mode::AbsY, Cpu::sbc),
            0xFA => self.implied(bus, |_| ()),
            0xFB => self.rmw(bus, Mode::AbsY, Cpu::isc),
            0xFC => self.load(bus, Mode::AbsX, |_, _| {}),
            0xFD => self.load(bus, Mode::AbsX, Cpu::sbc),
            0xFE => self.rmw(bus, Mode::AbsX, Cpu::inc),
            0xFF => self.rmw(bus, Mode::AbsX, Cpu::isc),
        }
    }

    fn jam(&mut self, opcode: u8) {
        self.pc = self.pc.wrapping_sub(1);
        self.jammed = Some((opcode, self.pc));
    }

    fn jsr(&mut self, bus: &mut Bus) {
        let lo = self.operand(bus);
        self.read(bus, 0x0100 | u16::from(self.s));
        let pc = self.pc;
        self.push(bus, (pc >> 8) as u8);
        self.push(bus, pc as u8);
        let hi = self.read(bus, self.pc);
        self.pc = u16::from_le_bytes([lo, hi]);
    }

    fn rts(&mut self, bus: &mut Bus) {
        self.read(bus, self.pc);
        self.read(bus, 0x0100 | u16::from(self.s));
        let lo = self.pull(bus);
        let hi = self.pull(bus);
        let pc = u16::from_le_bytes([lo, hi]);
        self.read(bus, pc);
        self.pc = pc.wrapping_add(1);
    }

    fn rti(&mut self, bus: &mut Bus) {
        self.read(bus, self.pc);
        self.read(bus, 0x0100 | u16::from(self.s));
        let p = self.pull(bus);
        self.p = p & !(B | U);
        let lo = self.pull(bus);
        let hi = self.pull(bus);
        self.pc = u16::from_le_bytes([lo, hi]);
    }

    fn jmp_abs(&mut self, bus: &mut Bus) {
        let at = self.pc.wrapping_sub(1);
        let lo = self.operand(bus);
        let hi = self.read(bus, self.pc);
        self.pc = u16::from_le_bytes([lo, hi]);
        if self.pc == at {
            self.jump_to_self(bus);
        }
    }

    /// JMP ($xxFF) fetches the high byte from $xx00: the pointer does not carry.
    fn jmp_ind(&mut self, bus: &mut Bus) {
        let lo = self.operand(bus);
        let hi = self.operand(bus);
        let ptr = u16::from_le_bytes([lo, hi]);
        let t_lo = self.read(bus, ptr);
        let t_hi = self.read(bus, (ptr & 0xFF00) | u16::from(lo.wrapping_add(1)));
        self.pc = u16::from_le_bytes([t_lo, t_hi]);
    }

    fn php(&mut self, bus: &mut Bus) {
        self.read(bus, self.pc);
        let p = self.p | B | U;
        self.push(bus, p);
    }

    fn plp(&mut self, bus: &mut Bus) {
        self.read(bus, self.pc);
        self.read(bus, 0x0100 | u16::from(self.s));
        let p = self.pull(bus);
        self.p = p & !(B | U);
    }

    fn pha(&mut self, bus: &mut Bus) {
        self.read(bus, self.pc);
        let a = self.a;
        self.push(bus, a);
    }

    fn pla(&mut self, bus: &mut Bus) {
        self.read(bus, self.pc);
        self.read(bus, 0x0100 | u16::from(self.s));
        self.a = self.pull(bus);
        self.set_nz(self.a);
    }

    // Loads and ALU.
    fn lda(&mut self, v: u8) {
        self.a = v;
        self.set_nz(v);
    }
    fn ldx(&mut self, v: u8) {
        self.x = v;
        self.set_nz(v);
    }
    fn ldy(&mut self, v: u8) {
        self.y = v;
        self.set_nz(v);
    }
    fn lax(&mut self, v: u8) {
        self.a = v;
        self.x = v;
        self.set_nz(v);
    }
    fn ora(&mut self, v: u8) {
        self.a |= v;
        self.set_nz(self.a);
    }
    fn and(&mut self, v: u8) {
        self.a &= v;
        self.set_nz(self.a);
    }
    fn eor(&mut self, v: u8) {
        self.a ^= v;
        self.set_nz(self.a);
    }
    /// The 2A03 has no decimal mode: D is stored but ignored.
    fn adc(&mut self, v: u8) {
        let a = u16::from(self.a);
        let r = a + u16::from(v) + u16::from(self.p & C);
        self.set_flag(C, r > 0xFF);
        self.set_flag(V, (!(a ^ u16::from(v)) & (a ^ r) & 0x80) != 0);
        self.a = r as u8;
        self.set_nz(self.a);
    }
    fn sbc(&mut self, v: u8) {
        self.adc(!v);
    }
    fn compare(&mut self, reg: u8, v: u8) {
        self.set_flag(C, reg >= v);
        self.set_nz(reg.wrapping_sub(v));
    }
    fn cmp(&mut self, v: u8) {
        self.compare(self.a, v);
    }
    fn cpx(&mut self, v: u8) {
        self.compare(self.x, v);
    }
    fn cpy(&mut self, v: u8) {
        self.compare(self.y, v);
    }
    fn bit(&mut self, v: u8) {
        self.p = (self.p & !(N | V | Z)) | (v & (N | V)) | if self.a & v == 0 { Z } else { 0 };
    }

    // Shifts and increments (return the new memory value).
    fn asl(&mut self, v: u8) -> u8 {
        self.set_flag(C, v & 0x80 != 0);
        let r = v << 1;
        self.set_nz(r);
        r
    }
    fn lsr(&mut self, v: u8) -> u8 {
        self.set_flag(C, v & 1 != 0);
        let r = v >> 1;
        self.set_nz(r);
        r
    }
    fn rol(&mut self, v: u8) -> u8 {
        let r = (v << 1) | (self.p & C);
        self.set_flag(C, v & 0x80 != 0);
        self.set_nz(r);
        r
    }
    fn ror(&mut self, v: u8) -> u8 {
        let r = (v >> 1) | ((self.p & C) << 7);
        self.set_flag(C, v & 1 != 0);
        self.set_nz(r);
        r
    }
    fn inc(&mut self, v: u8) -> u8 {
        let r = v.wrapping_add(1);
        self.set_nz(r);
        r
    }
    fn dec(&mut self, v: u8) -> u8 {
        let r = v.wrapping_sub(1);
        self.set_nz(r);
        r
    }

    // Unofficial combinations.
    fn slo(&mut self, v: u8) -> u8 {
        let r = self.asl(v);
        self.ora(r);
        r
    }
    fn rla(&mut self, v: u8) -> u8 {
        let r = self.rol(v);
        self.and(r);
        r
    }
    fn sre(&mut self, v: u8) -> u8 {
        let r = self.lsr(v);
        self.eor(r);
        r
    }
    fn rra(&mut self, v: u8) -> u8 {
        let r = self.ror(v);
        self.adc(r);
        r
    }
    fn dcp(&mut self, v: u8) -> u8 {
        let r = v.wrapping_sub(1);
        self.cmp(r);
        r
    }
    fn isc(&mut self, v: u8) -> u8 {
        let r = v.wrapping_add(1);
        self.sbc(r);
        r
    }
    fn anc(&mut self, v: u8) {
        self.and(v);
        self.set_flag(C, self.a & 0x80 != 0);
    }
    fn alr(&mut self, v: u8) {
        self.a &= v;
        self.a = self.lsr(self.a);
    }
    fn arr(&mut self, v: u8) {
        self.a = ((self.a & v) >> 1) | ((self.p & C) << 7);
        self.set_nz(self.a);
        self.set_flag(C, self.a & 0x40 != 0);
        self.set_flag(V, ((self.a >> 6) ^ (self.a >> 5)) & 1 != 0);
    }
    fn ane(&mut self, v: u8) {
        self.a = (self.a | ANE_MAGIC) & self.x & v;
        self.set_nz(self.a);
    }
    fn lxa(&mut self, v: u8) {
        self.lax((self.a | LXA_MAGIC) & v);
    }
    fn axs(&mut self, v: u8) {
        let ax = self.a & self.x;
        self.set_flag(C, ax >= v);
        self.x = ax.wrapping_sub(v);
        self.set_nz(self.x);
    }
    fn las(&mut self, v: u8) {
        let r = v & self.s;
        self.s = r;
        self.lax(r);
    }
}
