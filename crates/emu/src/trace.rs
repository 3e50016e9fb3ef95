//! Per-instruction trace in the fields nestest.log records (PC, bytes, registers, PPU
//! position, cycle count), for conformance tests and debugging.

use crate::cpu::OPCODES;
use crate::machine::Machine;
use std::fmt;

/// Bytes an instruction occupies, from its opcode's addressing mode.
pub fn instruction_len(op: u8) -> u16 {
    OPCODES[usize::from(op)].mode.bytes()
}

/// The machine state at the start of one instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceLine {
    pub(crate) pc: u16,
    pub(crate) bytes: Vec<u8>,
    pub(crate) a: u8,
    pub(crate) x: u8,
    pub(crate) y: u8,
    pub(crate) p: u8,
    pub(crate) s: u8,
    pub(crate) scanline: u16,
    pub(crate) dot: u16,
    pub(crate) cycles: u64,
}

impl TraceLine {
    pub fn capture(m: &Machine) -> TraceLine {
        let (cpu, bus) = (&m.cpu, &m.bus);
        let len = instruction_len(bus.peek(cpu.pc));
        TraceLine {
            pc: cpu.pc,
            bytes: (0..len).map(|i| bus.peek(cpu.pc.wrapping_add(i))).collect(),
            a: cpu.a,
            x: cpu.x,
            y: cpu.y,
            p: cpu.p | 0x20,
            s: cpu.s,
            scanline: bus.ppu.scanline,
            dot: bus.ppu.dot,
            cycles: bus.cycles,
        }
    }

    /// Parses the compared fields of a Nintendulator-style nestest.log line.
    pub fn parse_nestest(line: &str) -> Option<TraceLine> {
        let hex8 = |s: &str| u8::from_str_radix(s, 16).ok();
        let pc = u16::from_str_radix(line.get(0..4)?, 16).ok()?;
        let bytes = line
            .get(6..14)?
            .split_whitespace()
            .map(hex8)
            .collect::<Option<Vec<u8>>>()?;
        let field = |key: &str| -> Option<&str> {
            let start = line.find(key)? + key.len();
            Some(line[start..].split_whitespace().next().unwrap_or(""))
        };
        let ppu = &line[line.find("PPU:")? + 4..];
        let mut pos = ppu
            .split(',')
            .map(|s| s.split_whitespace().next().unwrap_or(""));
        Some(TraceLine {
            pc,
            bytes,
            a: hex8(field("A:")?)?,
            x: hex8(field("X:")?)?,
            y: hex8(field("Y:")?)?,
            p: hex8(field("P:")?)?,
            s: hex8(field("SP:")?)?,
            scanline: pos.next()?.parse().ok()?,
            dot: pos.next()?.parse().ok()?,
            cycles: field("CYC:")?.parse().ok()?,
        })
    }
}

impl fmt::Display for TraceLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes: Vec<String> = self.bytes.iter().map(|b| format!("{b:02X}")).collect();
        write!(
            f,
            "{:04X}  {:<8}  A:{:02X} X:{:02X} Y:{:02X} P:{:02X} SP:{:02X} PPU:{:3},{:3} CYC:{}",
            self.pc,
            bytes.join(" "),
            self.a,
            self.x,
            self.y,
            self.p,
            self.s,
            self.scanline,
            self.dot,
            self.cycles
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_of_representative_opcodes() {
        for (op, len) in [
            (0x4C, 3),
            (0xA9, 2),
            (0xEA, 1),
            (0x20, 3),
            (0x60, 1),
            (0xB1, 2),
            (0x9E, 3),
            (0x02, 1),
            (0xD0, 2),
        ] {
            assert_eq!(instruction_len(op), len, "opcode {op:02X}");
        }
    }

    #[test]
    fn parses_a_nestest_line() {
        let l = "C000  4C F5 C5  JMP $C5F5                       A:00 X:00 Y:00 P:24 SP:FD PPU:  0, 21 CYC:7";
        let t = TraceLine::parse_nestest(l).unwrap();
        assert_eq!(
            (t.pc, t.bytes.clone(), t.p, t.s, t.scanline, t.dot, t.cycles),
            (0xC000, vec![0x4C, 0xF5, 0xC5], 0x24, 0xFD, 0, 21, 7)
        );
    }
}
