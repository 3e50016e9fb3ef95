//! Instruction semantics: the special sequences (stack, jumps), the ALU, and the small
//! functions the opcode table (`opcodes.rs`) names for each row.

use super::{B, C, Cpu, CpuBus, D, I, Mode, N, U, V, Z};

/// LXA and ANE mix A with a chip-dependent constant; $FF and $EE are what NES consoles show.
const LXA_MAGIC: u8 = 0xFF;
const ANE_MAGIC: u8 = 0xEE;

impl Cpu {
    pub(super) fn jam(&mut self, opcode: u8) {
        self.pc = self.pc.wrapping_sub(1);
        self.jammed = Some((opcode, self.pc));
    }

    pub(super) fn jsr<Bus: CpuBus>(&mut self, bus: &mut Bus) {
        let lo = self.operand(bus);
        self.read(bus, 0x0100 | u16::from(self.s));
        let pc = self.pc;
        self.push(bus, (pc >> 8) as u8);
        self.push(bus, pc as u8);
        let hi = self.read(bus, self.pc);
        self.pc = u16::from_le_bytes([lo, hi]);
    }

    pub(super) fn rts<Bus: CpuBus>(&mut self, bus: &mut Bus) {
        self.read(bus, self.pc);
        self.read(bus, 0x0100 | u16::from(self.s));
        let lo = self.pull(bus);
        let hi = self.pull(bus);
        let pc = u16::from_le_bytes([lo, hi]);
        self.read(bus, pc);
        self.pc = pc.wrapping_add(1);
    }

    pub(super) fn rti<Bus: CpuBus>(&mut self, bus: &mut Bus) {
        self.read(bus, self.pc);
        self.read(bus, 0x0100 | u16::from(self.s));
        let p = self.pull(bus);
        self.p = p & !(B | U);
        self.unsettle();
        let lo = self.pull(bus);
        let hi = self.pull(bus);
        self.pc = u16::from_le_bytes([lo, hi]);
    }

    pub(super) fn jmp_abs<Bus: CpuBus>(&mut self, bus: &mut Bus) {
        let at = self.pc.wrapping_sub(1);
        let lo = self.operand(bus);
        let hi = self.read(bus, self.pc);
        self.pc = u16::from_le_bytes([lo, hi]);
        if self.pc == at {
            self.jump_to_self(bus);
        }
    }

    /// JMP ($xxFF) fetches the high byte from $xx00: the pointer does not carry.
    pub(super) fn jmp_ind<Bus: CpuBus>(&mut self, bus: &mut Bus) {
        let lo = self.operand(bus);
        let hi = self.operand(bus);
        let ptr = u16::from_le_bytes([lo, hi]);
        let t_lo = self.read(bus, ptr);
        let t_hi = self.read(bus, (ptr & 0xFF00) | u16::from(lo.wrapping_add(1)));
        self.pc = u16::from_le_bytes([t_lo, t_hi]);
    }

    pub(super) fn php<Bus: CpuBus>(&mut self, bus: &mut Bus) {
        self.read(bus, self.pc);
        let p = self.p | B | U;
        self.push(bus, p);
    }

    pub(super) fn plp<Bus: CpuBus>(&mut self, bus: &mut Bus) {
        self.read(bus, self.pc);
        self.read(bus, 0x0100 | u16::from(self.s));
        let p = self.pull(bus);
        self.p = p & !(B | U);
        self.unsettle();
    }

    pub(super) fn pha<Bus: CpuBus>(&mut self, bus: &mut Bus) {
        self.read(bus, self.pc);
        let a = self.a;
        self.push(bus, a);
    }

    pub(super) fn pla<Bus: CpuBus>(&mut self, bus: &mut Bus) {
        self.read(bus, self.pc);
        self.read(bus, 0x0100 | u16::from(self.s));
        self.a = self.pull(bus);
        self.set_nz(self.a);
    }

    /// TAS: S = A & X, then stored like SHA.
    pub(super) fn tas<Bus: CpuBus>(&mut self, bus: &mut Bus) {
        self.s = self.a & self.x;
        self.store_high_and(bus, Mode::AbsY, self.s)
    }

    // Values the store rows write.
    pub(super) fn reg_a(&self) -> u8 {
        self.a
    }
    pub(super) fn reg_x(&self) -> u8 {
        self.x
    }
    pub(super) fn reg_y(&self) -> u8 {
        self.y
    }
    pub(super) fn reg_ax(&self) -> u8 {
        self.a & self.x
    }

    // Branch conditions.
    pub(super) fn plus(&self) -> bool {
        self.p & N == 0
    }
    pub(super) fn minus(&self) -> bool {
        self.p & N != 0
    }
    pub(super) fn overflow_clear(&self) -> bool {
        self.p & V == 0
    }
    pub(super) fn overflow_set(&self) -> bool {
        self.p & V != 0
    }
    pub(super) fn carry_clear(&self) -> bool {
        self.p & C == 0
    }
    pub(super) fn carry_set(&self) -> bool {
        self.p & C != 0
    }
    pub(super) fn not_zero(&self) -> bool {
        self.p & Z == 0
    }
    pub(super) fn zero(&self) -> bool {
        self.p & Z != 0
    }

    // Implied instructions.
    pub(super) fn nop_implied(&mut self) {}
    pub(super) fn clc(&mut self) {
        self.p &= !C;
    }
    pub(super) fn sec(&mut self) {
        self.p |= C;
    }
    pub(super) fn cli(&mut self) {
        self.p &= !I;
        self.unsettle();
    }
    pub(super) fn sei(&mut self) {
        self.p |= I;
        self.unsettle();
    }
    pub(super) fn clv(&mut self) {
        self.p &= !V;
    }
    pub(super) fn cld(&mut self) {
        self.p &= !D;
    }
    pub(super) fn sed(&mut self) {
        self.p |= D;
    }
    pub(super) fn tax(&mut self) {
        self.x = self.a;
        self.set_nz(self.x);
    }
    pub(super) fn tay(&mut self) {
        self.y = self.a;
        self.set_nz(self.y);
    }
    pub(super) fn txa(&mut self) {
        self.a = self.x;
        self.set_nz(self.a);
    }
    pub(super) fn tya(&mut self) {
        self.a = self.y;
        self.set_nz(self.a);
    }
    pub(super) fn tsx(&mut self) {
        self.x = self.s;
        self.set_nz(self.x);
    }
    pub(super) fn txs(&mut self) {
        self.s = self.x;
    }
    pub(super) fn inx(&mut self) {
        self.x = self.x.wrapping_add(1);
        self.set_nz(self.x);
    }
    pub(super) fn iny(&mut self) {
        self.y = self.y.wrapping_add(1);
        self.set_nz(self.y);
    }
    pub(super) fn dex(&mut self) {
        self.x = self.x.wrapping_sub(1);
        self.set_nz(self.x);
    }
    pub(super) fn dey(&mut self) {
        self.y = self.y.wrapping_sub(1);
        self.set_nz(self.y);
    }

    // Loads and ALU.
    pub(super) fn nop(&mut self, _v: u8) {}
    pub(super) fn lda(&mut self, v: u8) {
        self.a = v;
        self.set_nz(v);
    }
    pub(super) fn ldx(&mut self, v: u8) {
        self.x = v;
        self.set_nz(v);
    }
    pub(super) fn ldy(&mut self, v: u8) {
        self.y = v;
        self.set_nz(v);
    }
    pub(super) fn lax(&mut self, v: u8) {
        self.a = v;
        self.x = v;
        self.set_nz(v);
    }
    pub(super) fn ora(&mut self, v: u8) {
        self.a |= v;
        self.set_nz(self.a);
    }
    pub(super) fn and(&mut self, v: u8) {
        self.a &= v;
        self.set_nz(self.a);
    }
    pub(super) fn eor(&mut self, v: u8) {
        self.a ^= v;
        self.set_nz(self.a);
    }
    /// The 2A03 has no decimal mode: D is stored but ignored.
    pub(super) fn adc(&mut self, v: u8) {
        let a = u16::from(self.a);
        let r = a + u16::from(v) + u16::from(self.p & C);
        self.set_flag(C, r > 0xFF);
        self.set_flag(V, (!(a ^ u16::from(v)) & (a ^ r) & 0x80) != 0);
        self.a = r as u8;
        self.set_nz(self.a);
    }
    pub(super) fn sbc(&mut self, v: u8) {
        self.adc(!v);
    }
    fn compare(&mut self, reg: u8, v: u8) {
        self.set_flag(C, reg >= v);
        self.set_nz(reg.wrapping_sub(v));
    }
    pub(super) fn cmp(&mut self, v: u8) {
        self.compare(self.a, v);
    }
    pub(super) fn cpx(&mut self, v: u8) {
        self.compare(self.x, v);
    }
    pub(super) fn cpy(&mut self, v: u8) {
        self.compare(self.y, v);
    }
    pub(super) fn bit(&mut self, v: u8) {
        self.p = (self.p & !(N | V | Z)) | (v & (N | V)) | if self.a & v == 0 { Z } else { 0 };
    }

    // Shifts and increments (return the new memory value).
    pub(super) fn asl(&mut self, v: u8) -> u8 {
        self.set_flag(C, v & 0x80 != 0);
        let r = v << 1;
        self.set_nz(r);
        r
    }
    pub(super) fn lsr(&mut self, v: u8) -> u8 {
        self.set_flag(C, v & 1 != 0);
        let r = v >> 1;
        self.set_nz(r);
        r
    }
    pub(super) fn rol(&mut self, v: u8) -> u8 {
        let r = (v << 1) | (self.p & C);
        self.set_flag(C, v & 0x80 != 0);
        self.set_nz(r);
        r
    }
    pub(super) fn ror(&mut self, v: u8) -> u8 {
        let r = (v >> 1) | ((self.p & C) << 7);
        self.set_flag(C, v & 1 != 0);
        self.set_nz(r);
        r
    }
    pub(super) fn inc(&mut self, v: u8) -> u8 {
        let r = v.wrapping_add(1);
        self.set_nz(r);
        r
    }
    pub(super) fn dec(&mut self, v: u8) -> u8 {
        let r = v.wrapping_sub(1);
        self.set_nz(r);
        r
    }

    // Unofficial combinations.
    pub(super) fn slo(&mut self, v: u8) -> u8 {
        let r = self.asl(v);
        self.ora(r);
        r
    }
    pub(super) fn rla(&mut self, v: u8) -> u8 {
        let r = self.rol(v);
        self.and(r);
        r
    }
    pub(super) fn sre(&mut self, v: u8) -> u8 {
        let r = self.lsr(v);
        self.eor(r);
        r
    }
    pub(super) fn rra(&mut self, v: u8) -> u8 {
        let r = self.ror(v);
        self.adc(r);
        r
    }
    pub(super) fn dcp(&mut self, v: u8) -> u8 {
        let r = v.wrapping_sub(1);
        self.cmp(r);
        r
    }
    pub(super) fn isc(&mut self, v: u8) -> u8 {
        let r = v.wrapping_add(1);
        self.sbc(r);
        r
    }
    pub(super) fn anc(&mut self, v: u8) {
        self.and(v);
        self.set_flag(C, self.a & 0x80 != 0);
    }
    pub(super) fn alr(&mut self, v: u8) {
        self.a &= v;
        self.a = self.lsr(self.a);
    }
    pub(super) fn arr(&mut self, v: u8) {
        self.a = ((self.a & v) >> 1) | ((self.p & C) << 7);
        self.set_nz(self.a);
        self.set_flag(C, self.a & 0x40 != 0);
        self.set_flag(V, ((self.a >> 6) ^ (self.a >> 5)) & 1 != 0);
    }
    pub(super) fn ane(&mut self, v: u8) {
        self.a = (self.a | ANE_MAGIC) & self.x & v;
        self.set_nz(self.a);
    }
    pub(super) fn lxa(&mut self, v: u8) {
        self.lax((self.a | LXA_MAGIC) & v);
    }
    pub(super) fn axs(&mut self, v: u8) {
        let ax = self.a & self.x;
        self.set_flag(C, ax >= v);
        self.x = ax.wrapping_sub(v);
        self.set_nz(self.x);
    }
    pub(super) fn las(&mut self, v: u8) {
        let r = v & self.s;
        self.s = r;
        self.lax(r);
    }
}
