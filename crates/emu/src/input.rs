//! Controller ports: standard pads on both ports, or a Four Score adapter with four pads.

use crate::buttons::Buttons;
use serde::{Deserialize, Serialize};

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Controllers {
    pub(crate) pads: [Buttons; 4],
    pub(crate) four_score: bool,
    /// The strobe line (OUT0) as the pads see it.
    strobe: bool,
    /// A $4016 write not yet on the line: its bit 0 and the cycle whose start puts it there.
    /// Required in a savestate (serde would quietly take a missing `Option` as `None`);
    /// version-3 states without it are upgraded where they are read.
    #[serde(deserialize_with = "Option::deserialize")]
    pending: Option<(bool, u64)>,
    shift: [u32; 2],
}

impl Controllers {
    fn reload(&mut self) {
        for port in 0..2 {
            let first = u32::from(self.pads[port].bits());
            self.shift[port] = if self.four_score {
                // Pads 1/3 on port 0 and 2/4 on port 1, then the adapter's signature byte.
                let second = u32::from(self.pads[port + 2].bits());
                let signature: u32 = if port == 0 { 0x08 } else { 0x04 };
                first | second << 8 | signature << 16 | 0xFF00_0000
            } else {
                // Official pads report 1 after the eighth read.
                first | 0xFFFF_FF00
            };
        }
    }

    /// $4016 write during CPU cycle `cycle`: bit 0 is latched, and the 2A03 copies the latch
    /// to the strobe line only at the start of a put (even) cycle. So a one-cycle pulse
    /// written on a get cycle reaches the pads, one written on a put cycle never does.
    pub fn write_strobe(&mut self, value: u8, cycle: u64) {
        self.settle(cycle);
        self.pending = Some((value & 1 != 0, (cycle | 1) + 1));
    }

    /// Puts a latched strobe on the line if its cycle has started.
    fn settle(&mut self, cycle: u64) {
        if let Some((level, at)) = self.pending
            && at <= cycle
        {
            self.pending = None;
            // The shift registers follow the buttons while the line is high and keep what
            // they held when it falls.
            if level || self.strobe {
                self.reload();
            }
            self.strobe = level;
        }
    }

    /// $4016/$4017 read during CPU cycle `cycle`: the next serial bit of `port`.
    pub fn read(&mut self, port: usize, cycle: u64) -> u8 {
        self.settle(cycle);
        if self.strobe {
            self.reload();
        }
        let bit = (self.shift[port] & 1) as u8;
        if !self.strobe {
            self.shift[port] = self.shift[port] >> 1 | 0x8000_0000;
        }
        bit
    }

    /// Savestate check: a latched write lands on the put cycle after it, so at most two
    /// cycles after the bus's count (it may stay latched long after that, until the next
    /// access to the ports puts it on the line).
    pub(crate) fn check(&self, bus_cycles: u64) -> Result<(), crate::invalid::InvalidState> {
        crate::invalid::ensure(
            self.pending
                .is_none_or(|(_, at)| at <= bus_cycles.saturating_add(2)),
            "bus.input.pending",
            || format!("lands after the bus's cycle {bus_cycles} + 2"),
        )
    }

    pub fn peek(&self, port: usize, cycle: u64) -> u8 {
        let mut now = self.clone();
        now.settle(cycle);
        if now.strobe {
            now.pads[port].bits() & 1
        } else {
            (now.shift[port] & 1) as u8
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads from cycle 100 on, long after the strobe writes.
    fn read_bits(c: &mut Controllers, port: usize, n: usize) -> Vec<u8> {
        (0..n).map(|i| c.read(port, 100 + i as u64)).collect()
    }

    fn strobe(c: &mut Controllers) {
        c.write_strobe(1, 10);
        c.write_strobe(0, 20);
    }

    #[test]
    fn a_one_cycle_strobe_reaches_the_pads_only_across_a_put_cycle_start() {
        let mut c = Controllers::default();
        c.pads[0] = Buttons::A;
        strobe(&mut c);
        read_bits(&mut c, 0, 8);
        // High on odd (get) cycle 31, low on 32: the line is high from 32's start.
        c.write_strobe(1, 31);
        c.write_strobe(0, 32);
        assert_eq!(read_bits(&mut c, 0, 2), vec![1, 0]);
        read_bits(&mut c, 0, 8);
        // High on even (put) cycle 40, low on 41: both land before 42 starts.
        c.write_strobe(1, 40);
        c.write_strobe(0, 41);
        assert_eq!(c.peek(0, 100), 1);
        assert_eq!(read_bits(&mut c, 0, 2), vec![1, 1]);
    }

    #[test]
    fn standard_pad_reports_buttons_then_ones() {
        let mut c = Controllers::default();
        c.pads[0] = Buttons::A | Buttons::RIGHT;
        strobe(&mut c);
        assert_eq!(read_bits(&mut c, 0, 10), vec![1, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    }

    #[test]
    fn four_score_sends_second_pad_and_signature() {
        let mut c = Controllers {
            four_score: true,
            ..Default::default()
        };
        c.pads[2] = Buttons::B;
        c.pads[3] = Buttons::START;
        strobe(&mut c);
        let p0 = read_bits(&mut c, 0, 24);
        let p1 = read_bits(&mut c, 1, 24);
        assert_eq!(&p0[8..16], &[0, 1, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&p0[16..24], &[0, 0, 0, 1, 0, 0, 0, 0]);
        assert_eq!(&p1[8..16], &[0, 0, 0, 1, 0, 0, 0, 0]);
        assert_eq!(&p1[16..24], &[0, 0, 1, 0, 0, 0, 0, 0]);
    }
}
