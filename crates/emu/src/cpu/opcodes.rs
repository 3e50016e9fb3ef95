//! Every opcode's facts in one table: mnemonic, addressing mode, base cycle count, bus
//! shape and whether it is official. The same rows generate `OPCODES` (read by the
//! tracer, the wait-loop skipper and the tests) and the decoder's dispatch in `execute`,
//! so the two cannot disagree.

use super::Cpu;
use super::port::CpuBus;

/// Addressing modes. The length of an instruction follows from its mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Imp,
    Acc,
    Imm,
    Zp,
    ZpX,
    ZpY,
    Abs,
    AbsX,
    AbsY,
    Ind,
    IndX,
    IndY,
    Rel,
}

impl Mode {
    /// Bytes the instruction occupies, opcode included.
    pub const fn bytes(self) -> u16 {
        match self {
            Mode::Imp | Mode::Acc => 1,
            Mode::Imm | Mode::Zp | Mode::ZpX | Mode::ZpY | Mode::IndX | Mode::IndY | Mode::Rel => 2,
            Mode::Abs | Mode::AbsX | Mode::AbsY | Mode::Ind => 3,
        }
    }
}

/// What an instruction does on the bus, which decides its cycle pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Reads its operand (indexed modes take a cycle more on a page crossing).
    Read,
    /// Writes a register (indexed modes always take the fix-up cycle).
    Write,
    /// Reads, writes the old value back, writes the new one (on A: one implied cycle).
    Rmw,
    /// Two cycles on registers only.
    Implied,
    /// Conditional branch: +1 cycle taken, +1 more across a page.
    Branch,
    /// Stack, jump and interrupt instructions, each with its own sequence.
    Special,
    /// SHA/SHX/SHY/TAS: a store whose value and address depend on the address's high byte.
    StoreHigh,
    /// Locks the CPU until reset.
    Jam,
}

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opcode {
    pub mnemonic: &'static str,
    pub mode: Mode,
    /// Cycles without page-crossing or branch penalties (for JAM, the opcode fetch after
    /// which the CPU stops; it stalls from then on).
    pub cycles: u8,
    pub shape: Shape,
    /// False for the undocumented opcodes (traces mark them with `*`).
    pub official: bool,
}

macro_rules! shape_of {
    (read) => {
        Shape::Read
    };
    (write) => {
        Shape::Write
    };
    (rmw) => {
        Shape::Rmw
    };
    (implied) => {
        Shape::Implied
    };
    (branch) => {
        Shape::Branch
    };
    (special) => {
        Shape::Special
    };
    (high) => {
        Shape::StoreHigh
    };
    (jam) => {
        Shape::Jam
    };
}

/// The call an opcode's row stands for.
macro_rules! run {
    ($cpu:ident, $bus:ident, $op:ident, $mode:ident, read, $f:ident) => {
        $cpu.load($bus, Mode::$mode, Cpu::$f)
    };
    ($cpu:ident, $bus:ident, $op:ident, $mode:ident, write, $f:ident) => {{
        let value = Cpu::$f($cpu);
        $cpu.store($bus, Mode::$mode, value)
    }};
    ($cpu:ident, $bus:ident, $op:ident, $mode:ident, rmw, $f:ident) => {
        $cpu.rmw($bus, Mode::$mode, Cpu::$f)
    };
    ($cpu:ident, $bus:ident, $op:ident, $mode:ident, implied, $f:ident) => {
        $cpu.implied($bus, Cpu::$f)
    };
    ($cpu:ident, $bus:ident, $op:ident, $mode:ident, branch, $f:ident) => {{
        let taken = Cpu::$f($cpu);
        $cpu.branch($bus, taken)
    }};
    ($cpu:ident, $bus:ident, $op:ident, $mode:ident, special, $f:ident) => {
        $cpu.$f($bus)
    };
    ($cpu:ident, $bus:ident, $op:ident, $mode:ident, high, $f:ident) => {{
        let value = Cpu::$f($cpu);
        $cpu.store_high_and($bus, Mode::$mode, value)
    }};
    ($cpu:ident, $bus:ident, $op:ident, $mode:ident, jam, $f:ident) => {
        $cpu.jam($op)
    };
}

macro_rules! opcodes {
    ($($code:literal $mnemonic:ident $mode:ident $cycles:literal $status:ident $shape:ident $f:ident;)*) => {
        /// All 256 opcodes, indexed by opcode.
        pub const OPCODES: [Opcode; 256] = {
            let mut table = [Opcode {
                mnemonic: "",
                mode: Mode::Imp,
                cycles: 0,
                shape: Shape::Jam,
                official: false,
            }; 256];
            $(
                table[$code] = Opcode {
                    mnemonic: stringify!($mnemonic),
                    mode: Mode::$mode,
                    cycles: $cycles,
                    shape: shape_of!($shape),
                    official: opcodes!(@official $status),
                };
            )*
            table
        };

        impl Cpu {
            /// Decodes and runs one opcode (already fetched).
            #[inline(always)]
            pub(super) fn execute<B: CpuBus>(&mut self, opcode: u8, bus: &mut B) {
                match opcode {
                    $($code => run!(self, bus, opcode, $mode, $shape, $f),)*
                }
            }
        }
    };
    (@official o) => { true };
    (@official u) => { false };
}

// code mnemonic mode cycles official/unofficial shape semantics
opcodes! {
    0x00 BRK Imp 7 o special brk;
    0x01 ORA IndX 6 o read ora;
    0x02 JAM Imp 1 u jam halt;
    0x03 SLO IndX 8 u rmw slo;
    0x04 NOP Zp 3 u read nop;
    0x05 ORA Zp 3 o read ora;
    0x06 ASL Zp 5 o rmw asl;
    0x07 SLO Zp 5 u rmw slo;
    0x08 PHP Imp 3 o special php;
    0x09 ORA Imm 2 o read ora;
    0x0A ASL Acc 2 o rmw asl;
    0x0B ANC Imm 2 u read anc;
    0x0C NOP Abs 4 u read nop;
    0x0D ORA Abs 4 o read ora;
    0x0E ASL Abs 6 o rmw asl;
    0x0F SLO Abs 6 u rmw slo;
    0x10 BPL Rel 2 o branch plus;
    0x11 ORA IndY 5 o read ora;
    0x12 JAM Imp 1 u jam halt;
    0x13 SLO IndY 8 u rmw slo;
    0x14 NOP ZpX 4 u read nop;
    0x15 ORA ZpX 4 o read ora;
    0x16 ASL ZpX 6 o rmw asl;
    0x17 SLO ZpX 6 u rmw slo;
    0x18 CLC Imp 2 o implied clc;
    0x19 ORA AbsY 4 o read ora;
    0x1A NOP Imp 2 u implied nop_implied;
    0x1B SLO AbsY 7 u rmw slo;
    0x1C NOP AbsX 4 u read nop;
    0x1D ORA AbsX 4 o read ora;
    0x1E ASL AbsX 7 o rmw asl;
    0x1F SLO AbsX 7 u rmw slo;
    0x20 JSR Abs 6 o special jsr;
    0x21 AND IndX 6 o read and;
    0x22 JAM Imp 1 u jam halt;
    0x23 RLA IndX 8 u rmw rla;
    0x24 BIT Zp 3 o read bit;
    0x25 AND Zp 3 o read and;
    0x26 ROL Zp 5 o rmw rol;
    0x27 RLA Zp 5 u rmw rla;
    0x28 PLP Imp 4 o special plp;
    0x29 AND Imm 2 o read and;
    0x2A ROL Acc 2 o rmw rol;
    0x2B ANC Imm 2 u read anc;
    0x2C BIT Abs 4 o read bit;
    0x2D AND Abs 4 o read and;
    0x2E ROL Abs 6 o rmw rol;
    0x2F RLA Abs 6 u rmw rla;
    0x30 BMI Rel 2 o branch minus;
    0x31 AND IndY 5 o read and;
    0x32 JAM Imp 1 u jam halt;
    0x33 RLA IndY 8 u rmw rla;
    0x34 NOP ZpX 4 u read nop;
    0x35 AND ZpX 4 o read and;
    0x36 ROL ZpX 6 o rmw rol;
    0x37 RLA ZpX 6 u rmw rla;
    0x38 SEC Imp 2 o implied sec;
    0x39 AND AbsY 4 o read and;
    0x3A NOP Imp 2 u implied nop_implied;
    0x3B RLA AbsY 7 u rmw rla;
    0x3C NOP AbsX 4 u read nop;
    0x3D AND AbsX 4 o read and;
    0x3E ROL AbsX 7 o rmw rol;
    0x3F RLA AbsX 7 u rmw rla;
    0x40 RTI Imp 6 o special rti;
    0x41 EOR IndX 6 o read eor;
    0x42 JAM Imp 1 u jam halt;
    0x43 SRE IndX 8 u rmw sre;
    0x44 NOP Zp 3 u read nop;
    0x45 EOR Zp 3 o read eor;
    0x46 LSR Zp 5 o rmw lsr;
    0x47 SRE Zp 5 u rmw sre;
    0x48 PHA Imp 3 o special pha;
    0x49 EOR Imm 2 o read eor;
    0x4A LSR Acc 2 o rmw lsr;
    0x4B ALR Imm 2 u read alr;
    0x4C JMP Abs 3 o special jmp_abs;
    0x4D EOR Abs 4 o read eor;
    0x4E LSR Abs 6 o rmw lsr;
    0x4F SRE Abs 6 u rmw sre;
    0x50 BVC Rel 2 o branch overflow_clear;
    0x51 EOR IndY 5 o read eor;
    0x52 JAM Imp 1 u jam halt;
    0x53 SRE IndY 8 u rmw sre;
    0x54 NOP ZpX 4 u read nop;
    0x55 EOR ZpX 4 o read eor;
    0x56 LSR ZpX 6 o rmw lsr;
    0x57 SRE ZpX 6 u rmw sre;
    0x58 CLI Imp 2 o implied cli;
    0x59 EOR AbsY 4 o read eor;
    0x5A NOP Imp 2 u implied nop_implied;
    0x5B SRE AbsY 7 u rmw sre;
    0x5C NOP AbsX 4 u read nop;
    0x5D EOR AbsX 4 o read eor;
    0x5E LSR AbsX 7 o rmw lsr;
    0x5F SRE AbsX 7 u rmw sre;
    0x60 RTS Imp 6 o special rts;
    0x61 ADC IndX 6 o read adc;
    0x62 JAM Imp 1 u jam halt;
    0x63 RRA IndX 8 u rmw rra;
    0x64 NOP Zp 3 u read nop;
    0x65 ADC Zp 3 o read adc;
    0x66 ROR Zp 5 o rmw ror;
    0x67 RRA Zp 5 u rmw rra;
    0x68 PLA Imp 4 o special pla;
    0x69 ADC Imm 2 o read adc;
    0x6A ROR Acc 2 o rmw ror;
    0x6B ARR Imm 2 u read arr;
    0x6C JMP Ind 5 o special jmp_ind;
    0x6D ADC Abs 4 o read adc;
    0x6E ROR Abs 6 o rmw ror;
    0x6F RRA Abs 6 u rmw rra;
    0x70 BVS Rel 2 o branch overflow_set;
    0x71 ADC IndY 5 o read adc;
    0x72 JAM Imp 1 u jam halt;
    0x73 RRA IndY 8 u rmw rra;
    0x74 NOP ZpX 4 u read nop;
    0x75 ADC ZpX 4 o read adc;
    0x76 ROR ZpX 6 o rmw ror;
    0x77 RRA ZpX 6 u rmw rra;
    0x78 SEI Imp 2 o implied sei;
    0x79 ADC AbsY 4 o read adc;
    0x7A NOP Imp 2 u implied nop_implied;
    0x7B RRA AbsY 7 u rmw rra;
    0x7C NOP AbsX 4 u read nop;
    0x7D ADC AbsX 4 o read adc;
    0x7E ROR AbsX 7 o rmw ror;
    0x7F RRA AbsX 7 u rmw rra;
    0x80 NOP Imm 2 u read nop;
    0x81 STA IndX 6 o write reg_a;
    0x82 NOP Imm 2 u read nop;
    0x83 SAX IndX 6 u write reg_ax;
    0x84 STY Zp 3 o write reg_y;
    0x85 STA Zp 3 o write reg_a;
    0x86 STX Zp 3 o write reg_x;
    0x87 SAX Zp 3 u write reg_ax;
    0x88 DEY Imp 2 o implied dey;
    0x89 NOP Imm 2 u read nop;
    0x8A TXA Imp 2 o implied txa;
    0x8B ANE Imm 2 u read ane;
    0x8C STY Abs 4 o write reg_y;
    0x8D STA Abs 4 o write reg_a;
    0x8E STX Abs 4 o write reg_x;
    0x8F SAX Abs 4 u write reg_ax;
    0x90 BCC Rel 2 o branch carry_clear;
    0x91 STA IndY 6 o write reg_a;
    0x92 JAM Imp 1 u jam halt;
    0x93 SHA IndY 6 u high reg_ax;
    0x94 STY ZpX 4 o write reg_y;
    0x95 STA ZpX 4 o write reg_a;
    0x96 STX ZpY 4 o write reg_x;
    0x97 SAX ZpY 4 u write reg_ax;
    0x98 TYA Imp 2 o implied tya;
    0x99 STA AbsY 5 o write reg_a;
    0x9A TXS Imp 2 o implied txs;
    0x9B TAS AbsY 5 u special tas;
    0x9C SHY AbsX 5 u high reg_y;
    0x9D STA AbsX 5 o write reg_a;
    0x9E SHX AbsY 5 u high reg_x;
    0x9F SHA AbsY 5 u high reg_ax;
    0xA0 LDY Imm 2 o read ldy;
    0xA1 LDA IndX 6 o read lda;
    0xA2 LDX Imm 2 o read ldx;
    0xA3 LAX IndX 6 u read lax;
    0xA4 LDY Zp 3 o read ldy;
    0xA5 LDA Zp 3 o read lda;
    0xA6 LDX Zp 3 o read ldx;
    0xA7 LAX Zp 3 u read lax;
    0xA8 TAY Imp 2 o implied tay;
    0xA9 LDA Imm 2 o read lda;
    0xAA TAX Imp 2 o implied tax;
    0xAB LXA Imm 2 u read lxa;
    0xAC LDY Abs 4 o read ldy;
    0xAD LDA Abs 4 o read lda;
    0xAE LDX Abs 4 o read ldx;
    0xAF LAX Abs 4 u read lax;
    0xB0 BCS Rel 2 o branch carry_set;
    0xB1 LDA IndY 5 o read lda;
    0xB2 JAM Imp 1 u jam halt;
    0xB3 LAX IndY 5 u read lax;
    0xB4 LDY ZpX 4 o read ldy;
    0xB5 LDA ZpX 4 o read lda;
    0xB6 LDX ZpY 4 o read ldx;
    0xB7 LAX ZpY 4 u read lax;
    0xB8 CLV Imp 2 o implied clv;
    0xB9 LDA AbsY 4 o read lda;
    0xBA TSX Imp 2 o implied tsx;
    0xBB LAS AbsY 4 u read las;
    0xBC LDY AbsX 4 o read ldy;
    0xBD LDA AbsX 4 o read lda;
    0xBE LDX AbsY 4 o read ldx;
    0xBF LAX AbsY 4 u read lax;
    0xC0 CPY Imm 2 o read cpy;
    0xC1 CMP IndX 6 o read cmp;
    0xC2 NOP Imm 2 u read nop;
    0xC3 DCP IndX 8 u rmw dcp;
    0xC4 CPY Zp 3 o read cpy;
    0xC5 CMP Zp 3 o read cmp;
    0xC6 DEC Zp 5 o rmw dec;
    0xC7 DCP Zp 5 u rmw dcp;
    0xC8 INY Imp 2 o implied iny;
    0xC9 CMP Imm 2 o read cmp;
    0xCA DEX Imp 2 o implied dex;
    0xCB AXS Imm 2 u read axs;
    0xCC CPY Abs 4 o read cpy;
    0xCD CMP Abs 4 o read cmp;
    0xCE DEC Abs 6 o rmw dec;
    0xCF DCP Abs 6 u rmw dcp;
    0xD0 BNE Rel 2 o branch not_zero;
    0xD1 CMP IndY 5 o read cmp;
    0xD2 JAM Imp 1 u jam halt;
    0xD3 DCP IndY 8 u rmw dcp;
    0xD4 NOP ZpX 4 u read nop;
    0xD5 CMP ZpX 4 o read cmp;
    0xD6 DEC ZpX 6 o rmw dec;
    0xD7 DCP ZpX 6 u rmw dcp;
    0xD8 CLD Imp 2 o implied cld;
    0xD9 CMP AbsY 4 o read cmp;
    0xDA NOP Imp 2 u implied nop_implied;
    0xDB DCP AbsY 7 u rmw dcp;
    0xDC NOP AbsX 4 u read nop;
    0xDD CMP AbsX 4 o read cmp;
    0xDE DEC AbsX 7 o rmw dec;
    0xDF DCP AbsX 7 u rmw dcp;
    0xE0 CPX Imm 2 o read cpx;
    0xE1 SBC IndX 6 o read sbc;
    0xE2 NOP Imm 2 u read nop;
    0xE3 ISC IndX 8 u rmw isc;
    0xE4 CPX Zp 3 o read cpx;
    0xE5 SBC Zp 3 o read sbc;
    0xE6 INC Zp 5 o rmw inc;
    0xE7 ISC Zp 5 u rmw isc;
    0xE8 INX Imp 2 o implied inx;
    0xE9 SBC Imm 2 o read sbc;
    0xEA NOP Imp 2 o implied nop_implied;
    0xEB SBC Imm 2 u read sbc;
    0xEC CPX Abs 4 o read cpx;
    0xED SBC Abs 4 o read sbc;
    0xEE INC Abs 6 o rmw inc;
    0xEF ISC Abs 6 u rmw isc;
    0xF0 BEQ Rel 2 o branch zero;
    0xF1 SBC IndY 5 o read sbc;
    0xF2 JAM Imp 1 u jam halt;
    0xF3 ISC IndY 8 u rmw isc;
    0xF4 NOP ZpX 4 u read nop;
    0xF5 SBC ZpX 4 o read sbc;
    0xF6 INC ZpX 6 o rmw inc;
    0xF7 ISC ZpX 6 u rmw isc;
    0xF8 SED Imp 2 o implied sed;
    0xF9 SBC AbsY 4 o read sbc;
    0xFA NOP Imp 2 u implied nop_implied;
    0xFB ISC AbsY 7 u rmw isc;
    0xFC NOP AbsX 4 u read nop;
    0xFD SBC AbsX 4 o read sbc;
    0xFE INC AbsX 7 o rmw inc;
    0xFF ISC AbsX 7 u rmw isc;
}
