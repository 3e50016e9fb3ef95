//! Noise channel ($400C-$400F): 15-bit LFSR with long and short (93-step) modes.

use super::units::{Envelope, Length};
use serde::{Deserialize, Serialize};

/// NTSC timer periods in CPU cycles.
const PERIODS: [u16; 16] = [
    4, 8, 16, 32, 64, 96, 128, 160, 202, 254, 380, 508, 762, 1016, 2034, 4068,
];

#[derive(Clone, Serialize, Deserialize)]
pub struct Noise {
    short_mode: bool,
    period: u16,
    timer: u16,
    lfsr: u16,
    pub env: Envelope,
    pub len: Length,
}

impl Default for Noise {
    fn default() -> Self {
        Noise {
            short_mode: false,
            period: PERIODS[0],
            timer: 0,
            // The shift register powers up holding 1.
            lfsr: 1,
            env: Envelope::default(),
            len: Length::default(),
        }
    }
}

impl Noise {
    pub fn write(&mut self, reg: u16, value: u8) {
        match reg & 3 {
            0 => {
                self.len.set_halt(value & 0x20 != 0);
                self.env.write(value);
            }
            1 => {}
            2 => {
                self.short_mode = value & 0x80 != 0;
                self.period = PERIODS[usize::from(value & 0x0F)];
            }
            _ => {
                self.len.load(value);
                self.env.start = true;
            }
        }
    }

    /// One CPU cycle.
    #[inline]
    pub fn clock_timer(&mut self) {
        if self.timer <= 1 {
            self.timer = self.period;
            let tap = if self.short_mode { 6 } else { 1 };
            let feedback = (self.lfsr ^ (self.lfsr >> tap)) & 1;
            self.lfsr = (self.lfsr >> 1) | (feedback << 14);
        } else {
            self.timer -= 1;
        }
    }

    #[inline]
    pub fn output(&self) -> u8 {
        if self.lfsr & 1 != 0 || !self.len.active() {
            0
        } else {
            self.env.volume()
        }
    }
}
