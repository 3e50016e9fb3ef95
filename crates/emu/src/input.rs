//! Controller ports: standard pads on both ports, or a Four Score adapter with four pads.

use crate::Buttons;
use serde::{Deserialize, Serialize};

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Controllers {
    pub(crate) pads: [Buttons; 4],
    pub(crate) four_score: bool,
    strobe: bool,
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

    /// $4016 write: bit 0 is the strobe (latch) line.
    pub fn write_strobe(&mut self, value: u8) {
        self.strobe = value & 1 != 0;
        if self.strobe {
            self.reload();
        }
    }

    /// $4016/$4017 read: the next serial bit of `port`.
    pub fn read(&mut self, port: usize) -> u8 {
        if self.strobe {
            self.reload();
        }
        let bit = (self.shift[port] & 1) as u8;
        if !self.strobe {
            self.shift[port] = self.shift[port] >> 1 | 0x8000_0000;
        }
        bit
    }

    pub fn peek(&self, port: usize) -> u8 {
        if self.strobe {
            self.pads[port].bits() & 1
        } else {
            (self.shift[port] & 1) as u8
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_bits(c: &mut Controllers, port: usize, n: usize) -> Vec<u8> {
        (0..n).map(|_| c.read(port)).collect()
    }

    #[test]
    fn standard_pad_reports_buttons_then_ones() {
        let mut c = Controllers::default();
        c.pads[0] = Buttons::A | Buttons::RIGHT;
        c.write_strobe(1);
        c.write_strobe(0);
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
        c.write_strobe(1);
        c.write_strobe(0);
        let p0 = read_bits(&mut c, 0, 24);
        let p1 = read_bits(&mut c, 1, 24);
        assert_eq!(&p0[8..16], &[0, 1, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&p0[16..24], &[0, 0, 0, 1, 0, 0, 0, 0]);
        assert_eq!(&p1[8..16], &[0, 0, 0, 1, 0, 0, 0, 0]);
        assert_eq!(&p1[16..24], &[0, 0, 1, 0, 0, 0, 0, 0]);
    }
}
