//! The 6502 core alone, on a flat 64 KiB memory, cycle by cycle: every opcode's bus
//! accesses (dummy reads and writes included), with and without page crossings, against a
//! model written from the documented per-cycle tables of each addressing mode, and its
//! cycle count against the opcode table. Then the interrupt sequences and their polling.

use super::{C, Cpu, CpuBus, I, Mode, N, OPCODES, Shape, V, Z};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    Read(u16),
    Write(u16, u8),
}
use Access::{Read, Write};

/// 64 KiB of RAM that records every access. The NMI line goes high at cycle `nmi_at`.
struct Flat {
    mem: Vec<u8>,
    log: Vec<Access>,
    cycles: u64,
    nmi_at: u64,
    irq: bool,
}

impl Flat {
    fn new() -> Flat {
        Flat {
            mem: vec![0; 0x10000],
            log: Vec::new(),
            cycles: 0,
            nmi_at: u64::MAX,
            irq: false,
        }
    }
    fn load(&mut self, at: u16, bytes: &[u8]) {
        for (i, b) in bytes.iter().enumerate() {
            self.mem[usize::from(at.wrapping_add(i as u16))] = *b;
        }
    }
    fn word(&mut self, at: u16, value: u16) {
        self.load(at, &value.to_le_bytes());
    }
}

impl CpuBus for Flat {
    fn read_cycle(&mut self, addr: u16, _poll: &mut impl FnMut(&Self)) -> u8 {
        self.log.push(Read(addr));
        self.cycles += 1;
        self.mem[usize::from(addr)]
    }
    fn write_cycle(&mut self, addr: u16, value: u8) {
        self.log.push(Write(addr, value));
        self.cycles += 1;
        self.mem[usize::from(addr)] = value;
    }
    fn stall_cycle(&mut self) {
        self.cycles += 1;
    }
    fn nmi_line(&self) -> bool {
        self.cycles >= self.nmi_at
    }
    fn irq_line(&self) -> bool {
        self.irq
    }
    fn peek(&self, addr: u16) -> u8 {
        self.mem[usize::from(addr)]
    }
    fn cycles(&self) -> u64 {
        self.cycles
    }
}

const PC: u16 = 0x0300;
const ZP: u8 = 0x80;
const SP: u8 = 0xF0;

/// One test case: where the operand points and the index registers.
#[derive(Clone, Copy, Debug)]
struct Setup {
    x: u8,
    y: u8,
    /// Absolute operand; also the pointer stored at `ZP` (and at `ZP + x`).
    abs: u16,
    p: u8,
}

/// Setups without and with a page crossing for the indexed modes (the zero-page index
/// wraps in the second), and both flag states so every branch is taken once.
const SETUPS: [Setup; 4] = [
    Setup {
        x: 0x04,
        y: 0x06,
        abs: 0x1230,
        p: 0,
    },
    Setup {
        x: 0x90,
        y: 0xA0,
        abs: 0x12F0,
        p: 0,
    },
    Setup {
        x: 0x04,
        y: 0x06,
        abs: 0x1230,
        p: !I,
    },
    Setup {
        x: 0x90,
        y: 0xA0,
        abs: 0x12F0,
        p: !I,
    },
];

/// Data bytes so reads return something recognisable and stores keep their address.
fn machine(op: u8, s: Setup, branch_offset: u8) -> (Cpu, Flat) {
    let mut bus = Flat::new();
    for (i, b) in bus.mem.iter_mut().enumerate() {
        *b = (i as u8) ^ 0x5A;
    }
    let operand = if OPCODES[usize::from(op)].mode == Mode::Rel {
        [branch_offset, 0]
    } else if matches!(
        OPCODES[usize::from(op)].mode,
        Mode::Abs | Mode::AbsX | Mode::AbsY
    ) || op == 0x6C
    {
        s.abs.to_le_bytes()
    } else {
        [ZP, 0]
    };
    bus.load(PC, &[op, operand[0], operand[1]]);
    // Pointers for (zp), (zp,X) and JMP (abs).
    bus.word(u16::from(ZP), s.abs);
    bus.word(u16::from(ZP.wrapping_add(s.x)), s.abs);
    bus.mem[usize::from(ZP.wrapping_add(s.x).wrapping_add(1))] = (s.abs >> 8) as u8;
    bus.word(s.abs, 0x4567);
    bus.mem[usize::from((s.abs & 0xFF00) | (s.abs.wrapping_add(1) & 0xFF))] = 0x45;
    // Return address and status for RTS and RTI.
    bus.load(stack(SP + 1), &[0x24, 0x21, 0x43, 0x65]);
    bus.word(0xFFFE, 0x8000);
    let mut cpu = Cpu::new();
    cpu.pc = PC;
    cpu.s = SP;
    cpu.a = 0xC3;
    cpu.x = s.x;
    cpu.y = s.y;
    cpu.p = s.p;
    (cpu, bus)
}

/// Whether the branch `mnemonic` is taken with status `p`.
fn branch_taken(mnemonic: &str, p: u8) -> bool {
    let (flag, set) = match mnemonic {
        "BPL" => (N, false),
        "BMI" => (N, true),
        "BVC" => (V, false),
        "BVS" => (V, true),
        "BCC" => (C, false),
        "BCS" => (C, true),
        "BNE" => (Z, false),
        _ => (Z, true),
    };
    (p & flag != 0) == set
}

fn stack(s: u8) -> u16 {
    0x0100 | u16::from(s)
}

/// The accesses the 6502 documentation gives for `op` in state `cpu`/`bus` (before it
/// runs), built from its addressing mode and shape. Values are checked for writes only.
fn expected(op: u8, cpu: &Cpu, bus: &Flat) -> Vec<Access> {
    let row = OPCODES[usize::from(op)];
    let m = |a: u16| bus.mem[usize::from(a)];
    let (p1, p2) = (PC + 1, PC + 2);
    let mut out = vec![Read(PC)];
    let fix = |out: &mut Vec<Access>, base: u16, ea: u16, always: bool| {
        if always || base & 0xFF00 != ea & 0xFF00 {
            out.push(Read((base & 0xFF00) | (ea & 0xFF)));
        }
    };
    let (s, abs) = (cpu.s, u16::from_le_bytes([m(p1), m(p2)]));
    match (row.shape, row.mnemonic) {
        (Shape::Jam, _) => return out,
        (Shape::Implied, _) => out.push(Read(p1)),
        (Shape::Rmw | Shape::Read, _) if matches!(row.mode, Mode::Acc | Mode::Imm) => {
            out.push(Read(p1))
        }
        (Shape::Branch, _) => {
            out.push(Read(p1));
            if branch_taken(row.mnemonic, cpu.p) {
                out.push(Read(p2));
                let target = p2.wrapping_add(m(p1) as i8 as u16);
                fix(&mut out, p2, target, false);
            }
        }
        (Shape::Special, "BRK") => out.extend([
            Read(p1),
            Write(stack(s), (p2 >> 8) as u8),
            Write(stack(s.wrapping_sub(1)), p2 as u8),
            Write(stack(s.wrapping_sub(2)), cpu.p | 0x30),
            Read(0xFFFE),
            Read(0xFFFF),
        ]),
        (Shape::Special, "JSR") => out.extend([
            Read(p1),
            Read(stack(s)),
            Write(stack(s), (p2 >> 8) as u8),
            Write(stack(s.wrapping_sub(1)), p2 as u8),
            Read(p2),
        ]),
        (Shape::Special, "RTS") => {
            let ret = u16::from_le_bytes([m(stack(s + 1)), m(stack(s + 2))]);
            out.extend([
                Read(p1),
                Read(stack(s)),
                Read(stack(s + 1)),
                Read(stack(s + 2)),
                Read(ret),
            ]);
        }
        (Shape::Special, "RTI") => out.extend([
            Read(p1),
            Read(stack(s)),
            Read(stack(s + 1)),
            Read(stack(s + 2)),
            Read(stack(s + 3)),
        ]),
        (Shape::Special, "PHA") => out.extend([Read(p1), Write(stack(s), cpu.a)]),
        (Shape::Special, "PHP") => out.extend([Read(p1), Write(stack(s), cpu.p | 0x30)]),
        (Shape::Special, "PLA" | "PLP") => {
            out.extend([Read(p1), Read(stack(s)), Read(stack(s + 1))])
        }
        (Shape::Special, "JMP") if row.mode == Mode::Abs => out.extend([Read(p1), Read(p2)]),
        (Shape::Special, "JMP") => out.extend([
            Read(p1),
            Read(p2),
            Read(abs),
            Read((abs & 0xFF00) | (abs.wrapping_add(1) & 0xFF)),
        ]),
        _ => {
            // Memory modes: the address cycles, then the data cycles of the shape.
            let zp = m(p1);
            let word =
                |a: u8| u16::from_le_bytes([m(u16::from(a)), m(u16::from(a.wrapping_add(1)))]);
            out.push(Read(p1));
            let always = row.shape != Shape::Read;
            let (ea, base) = match row.mode {
                Mode::Zp => (u16::from(zp), None),
                Mode::ZpX | Mode::ZpY => {
                    out.push(Read(u16::from(zp)));
                    let idx = if row.mode == Mode::ZpX { cpu.x } else { cpu.y };
                    (u16::from(zp.wrapping_add(idx)), None)
                }
                Mode::Abs => {
                    out.push(Read(p2));
                    (abs, None)
                }
                Mode::AbsX | Mode::AbsY => {
                    out.push(Read(p2));
                    let idx = if row.mode == Mode::AbsX { cpu.x } else { cpu.y };
                    let ea = abs.wrapping_add(u16::from(idx));
                    fix(&mut out, abs, ea, always);
                    (ea, Some(abs))
                }
                Mode::IndX => {
                    let at = zp.wrapping_add(cpu.x);
                    out.extend([
                        Read(u16::from(zp)),
                        Read(u16::from(at)),
                        Read(u16::from(at.wrapping_add(1))),
                    ]);
                    (word(at), None)
                }
                Mode::IndY => {
                    let base = word(zp);
                    out.extend([Read(u16::from(zp)), Read(u16::from(zp.wrapping_add(1)))]);
                    let ea = base.wrapping_add(u16::from(cpu.y));
                    fix(&mut out, base, ea, always);
                    (ea, Some(base))
                }
                other => panic!("{op:02X}: no model for mode {other:?}"),
            };
            let stored = match row.mnemonic {
                "STA" => cpu.a,
                "STX" | "SHX" => cpu.x,
                "STY" | "SHY" => cpu.y,
                _ => cpu.a & cpu.x,
            };
            match row.shape {
                Shape::Read => out.push(Read(ea)),
                Shape::Write => out.push(Write(ea, stored)),
                // The result's value is left to the instruction test ROMs (0 here).
                Shape::Rmw => out.extend([Read(ea), Write(ea, m(ea)), Write(ea, 0)]),
                // SHA/SHX/SHY/TAS (TAS's row is Special): AND with the base's high byte + 1,
                // which also replaces the high byte of a page-crossing address.
                Shape::StoreHigh | Shape::Special => {
                    let base = base.expect("indexed");
                    let data = stored & ((base >> 8) as u8).wrapping_add(1);
                    let target = if base & 0xFF00 != ea & 0xFF00 {
                        (u16::from(data) << 8) | (ea & 0xFF)
                    } else {
                        ea
                    };
                    out.push(Write(target, data));
                }
                other => panic!("{op:02X}: no model for shape {other:?}"),
            }
        }
    }
    out
}

/// Cycles the table promises for `op` in this state: its base count, plus a cycle for a
/// read whose index crosses a page, and one for a taken branch and one more across a page.
fn table_cycles(op: u8, cpu: &Cpu, bus: &Flat) -> usize {
    let row = OPCODES[usize::from(op)];
    let m = |a: u16| bus.mem[usize::from(a)];
    let crosses = |base: u16, idx: u8| base >> 8 != base.wrapping_add(u16::from(idx)) >> 8;
    let abs = u16::from_le_bytes([m(PC + 1), m(PC + 2)]);
    let pointer = u16::from_le_bytes([m(u16::from(ZP)), m(u16::from(ZP) + 1)]);
    let extra = match (row.shape, row.mode) {
        (Shape::Read, Mode::AbsX) => crosses(abs, cpu.x),
        (Shape::Read, Mode::AbsY) => crosses(abs, cpu.y),
        (Shape::Read, Mode::IndY) => crosses(pointer, cpu.y),
        _ => false,
    };
    let branch = if row.shape == Shape::Branch && branch_taken(row.mnemonic, cpu.p) {
        let next = PC + 2;
        let target = next.wrapping_add(m(PC + 1) as i8 as u16);
        1 + usize::from(next >> 8 != target >> 8)
    } else {
        0
    };
    usize::from(row.cycles) + usize::from(extra) + branch
}

#[test]
fn every_opcode_makes_the_documented_bus_accesses() {
    let mut checked = 0;
    for op in 0..=255u8 {
        for setup in SETUPS {
            // Forward within the page, and backward across it (from $0302 to $02F2).
            for offset in [0x08u8, 0xF0] {
                let (mut cpu, mut bus) = machine(op, setup, offset);
                let want = expected(op, &cpu, &bus);
                let cycles = table_cycles(op, &cpu, &bus);
                cpu.step(&mut bus);
                let mut got = bus.log.clone();
                let row = OPCODES[usize::from(op)];
                if row.shape == Shape::Rmw
                    && row.mode != Mode::Acc
                    && let Some(Write(_, value)) = got.last_mut()
                {
                    *value = 0;
                }
                let case = format!("opcode {op:02X} {row:?} with {setup:?}, offset {offset:02X}");
                assert_eq!(got, want, "{case}");
                assert_eq!(bus.log.len(), cycles, "{case}: cycles against the table");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 256 * SETUPS.len() * 2);
}

#[test]
fn the_table_lengths_match_the_decoder() {
    for op in 0..=255u8 {
        let row = OPCODES[usize::from(op)];
        if matches!(row.shape, Shape::Jam | Shape::Special | Shape::Branch) {
            continue;
        }
        let (mut cpu, mut bus) = machine(op, SETUPS[0], 0);
        cpu.step(&mut bus);
        assert_eq!(cpu.pc, PC + row.mode.bytes(), "opcode {op:02X} ({row:?})");
    }
}

/// Runs NOPs from `PC` until an interrupt entry has pushed the status; returns the
/// accesses of that entry and how many NOPs ran before it.
fn run_until_interrupt(bus: &mut Flat, cpu: &mut Cpu) -> (Vec<Access>, usize) {
    for nops in 0..8 {
        bus.log.clear();
        cpu.step(bus);
        if bus.log.iter().any(|a| matches!(a, Write(..))) {
            return (bus.log[2..].to_vec(), nops);
        }
    }
    panic!("no interrupt was taken");
}

fn nop_machine() -> (Cpu, Flat) {
    let mut bus = Flat::new();
    bus.mem[0x0300..0x0310].fill(0xEA);
    bus.word(0xFFFA, 0x9000);
    bus.word(0xFFFC, 0x0300);
    bus.word(0xFFFE, 0xA000);
    let mut cpu = Cpu::new();
    cpu.pc = PC;
    cpu.s = SP;
    cpu.p = 0;
    (cpu, bus)
}

#[test]
fn nmi_entry_pushes_and_vectors() {
    let (mut cpu, mut bus) = nop_machine();
    bus.nmi_at = 1;
    cpu.step(&mut bus);
    assert_eq!(
        &bus.log[2..],
        &[
            Read(0x0301),
            Read(0x0301),
            Write(stack(SP), 0x03),
            Write(stack(SP - 1), 0x01),
            Write(stack(SP - 2), 0x20),
            Read(0xFFFA),
            Read(0xFFFB),
        ]
    );
    assert_eq!((cpu.pc, cpu.p & I), (0x9000, I));
}

/// An instruction takes an interrupt seen at the end of its next-to-last cycle; one
/// raised on its last cycle waits for the next instruction.
#[test]
fn interrupts_are_polled_on_the_next_to_last_cycle() {
    for (raised_at, nops_before) in [(1, 0), (2, 1), (3, 1), (4, 2)] {
        let (mut cpu, mut bus) = nop_machine();
        bus.nmi_at = raised_at;
        let (_, nops) = run_until_interrupt(&mut bus, &mut cpu);
        assert_eq!(nops, nops_before, "NMI raised after cycle {raised_at}");
    }
}

#[test]
fn irq_waits_for_the_i_flag() {
    let (mut cpu, mut bus) = nop_machine();
    bus.irq = true;
    cpu.p = I;
    for _ in 0..4 {
        cpu.step(&mut bus);
    }
    assert_eq!(cpu.pc, PC + 4, "masked IRQ ignored");
    cpu.p = 0;
    let (entry, _) = run_until_interrupt(&mut bus, &mut cpu);
    assert_eq!(entry[2], Write(stack(SP), 0x03));
    assert_eq!(cpu.pc, 0xA000);
}

#[test]
fn reset_reads_the_stack_and_the_vector() {
    let (mut cpu, mut bus) = nop_machine();
    cpu.s = 0;
    cpu.reset(&mut bus);
    assert_eq!(
        bus.log,
        [
            Read(PC),
            Read(PC),
            Read(0x0100),
            Read(0x01FF),
            Read(0x01FE),
            Read(0xFFFC),
            Read(0xFFFD),
        ]
    );
    assert_eq!((cpu.pc, cpu.s), (0x0300, 0xFD));
}

#[test]
fn jam_stops_the_cpu_on_the_opcode() {
    let (mut cpu, mut bus) = machine(0x02, SETUPS[0], 0);
    cpu.step(&mut bus);
    cpu.step(&mut bus);
    assert_eq!(bus.log, [Read(PC)]);
    assert_eq!(bus.cycles, 2, "a jammed CPU still spends cycles");
    assert_eq!(cpu.jammed, Some((0x02, PC)));
}
