//! Noise channel ($400C-$400F): 15-bit LFSR with long and short (93-step) modes.

use super::units::{Envelope, Length, Periods};
use serde::{Deserialize, Serialize};

/// NTSC timer periods in CPU cycles.
const PERIODS: Periods = Periods::new([
    4, 8, 16, 32, 64, 96, 128, 160, 202, 254, 380, 508, 762, 1016, 2034, 4068,
]);

#[derive(Clone, Serialize, Deserialize)]
pub struct Noise {
    short_mode: bool,
    period: u16,
    timer: u16,
    lfsr: u16,
    pub(crate) env: Envelope,
    pub(crate) len: Length,
}

impl Default for Noise {
    fn default() -> Self {
        Noise {
            short_mode: false,
            period: PERIODS.pick(0),
            timer: 0,
            // The shift register powers up holding 1.
            lfsr: 1,
            env: Envelope::default(),
            len: Length::default(),
        }
    }
}

impl Noise {
    /// Savestate check (`field` names this channel).
    pub(super) fn check(&self, field: &str) -> Result<(), crate::invalid::InvalidState> {
        use crate::invalid::ensure;
        PERIODS.check(self.period, &format!("{field}.period"), "noise")?;
        ensure(self.timer <= self.period, &format!("{field}.timer"), || {
            format!("{} is past the period {}", self.timer, self.period)
        })?;
        ensure(self.lfsr <= 0x7FFF, &format!("{field}.lfsr"), || {
            format!("{:#X} is over 15 bits", self.lfsr)
        })?;
        self.env.check(&format!("{field}.env"))
    }

    pub fn write(&mut self, reg: u16, value: u8) {
        match reg & 3 {
            0 => {
                self.len.set_halt(value & 0x20 != 0);
                self.env.write(value);
            }
            1 => {}
            2 => {
                self.short_mode = value & 0x80 != 0;
                self.period = PERIODS.pick(value);
            }
            _ => {
                self.len.load(value);
                self.env.start = true;
            }
        }
    }

    /// One CPU cycle.
    #[inline]
    /// One CPU cycle; true when the shift register moved.
    pub fn clock_timer(&mut self) -> bool {
        if self.timer <= 1 {
            self.timer = self.period;
            self.shift();
            true
        } else {
            self.timer -= 1;
            false
        }
    }

    fn shift(&mut self) {
        self.lfsr = next_lfsr(self.lfsr, self.tap());
    }

    fn tap(&self) -> u32 {
        if self.short_mode { 6 } else { 1 }
    }

    /// For synthesis between events: the output level while sounding (0 when silent),
    /// the register and its feedback tap, and the CPU cycles until the next shift and
    /// between shifts.
    pub(super) fn voice(&self) -> (u8, u16, u32, u32, u32) {
        let volume = if self.len.active() {
            self.env.volume()
        } else {
            0
        };
        let first = u32::from(self.timer.max(1));
        (volume, self.lfsr, self.tap(), first, u32::from(self.period))
    }

    /// `n` shifts at once. The bits a shift feeds in are b0 ^ b(tap) of the register, so the
    /// next 15 - tap of them are already known: they go in as one block.
    fn shift_by(&mut self, mut n: u32) {
        let tap = self.tap();
        if !self.short_mode {
            // The long mode cycles through all 32767 non-zero states.
            n %= 32767;
        }
        let block = 15 - tap;
        let mut r = u32::from(self.lfsr);
        while n > 0 {
            let k = n.min(block);
            let fed = (r ^ (r >> tap)) & ((1 << k) - 1);
            r = ((r >> k) | (fed << (15 - k))) & 0x7FFF;
            n -= k;
        }
        self.lfsr = r as u16;
    }

    /// Advances `cycles` CPU cycles at once (no audible change may fall inside unless the
    /// channel is silent; the register still shifts so its sequence stays exact).
    pub fn advance(&mut self, cycles: u32) {
        let first = u32::from(self.timer.max(1));
        if cycles < first {
            self.timer -= cycles as u16;
            return;
        }
        let rest = cycles - first;
        let p = u32::from(self.period);
        self.shift_by(rest / p + 1);
        self.timer = (p - rest % p) as u16;
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

/// The shift register after one shift.
#[inline]
pub(super) fn next_lfsr(lfsr: u16, tap: u32) -> u16 {
    let feedback = (lfsr ^ (lfsr >> tap)) & 1;
    (lfsr >> 1) | (feedback << 14)
}

/// The register at the next shift that changes the output bit, and how many shifts on it
/// is; at most `15 - tap` shifts (as far as the bits fed in are known), where the output
/// may not have changed yet.
#[inline]
pub(super) fn next_change(lfsr: u16, tap: u32) -> (u16, u32) {
    let r = u32::from(lfsr);
    // Bit k (k < 15) is the output after k shifts: find the first one unlike bit 0.
    let unlike = if r & 1 == 0 { r } else { !r & 0x7FFF };
    let k = ((unlike >> 1).trailing_zeros() + 1).min(15 - tap);
    (shifted_by(r, k, tap), k)
}

/// The register `r` after `k` shifts, `k <= 15 - tap` (the bits fed in are then all known
/// from `r`).
#[inline]
pub(super) fn shifted_by(r: u32, k: u32, tap: u32) -> u16 {
    let fed = (r ^ (r >> tap)) & ((1 << k) - 1);
    (((r >> k) | (fed << (15 - k))) & 0x7FFF) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_shifts_equal_single_shifts_in_both_modes() {
        for short_mode in [false, true] {
            for start in [1u16, 0x1234, 0x7FFF, 0x4001] {
                for n in [0u32, 1, 8, 9, 14, 15, 100, 32767, 40000] {
                    let mut one = Noise {
                        short_mode,
                        lfsr: start,
                        ..Noise::default()
                    };
                    let mut block = one.clone();
                    for _ in 0..n {
                        one.shift();
                    }
                    block.shift_by(n);
                    assert_eq!(
                        block.lfsr, one.lfsr,
                        "short {short_mode} start {start:#X} n {n}"
                    );
                }
            }
        }
    }

    #[test]
    fn next_change_lands_on_the_first_shift_that_changes_the_output() {
        for tap in [1u32, 6] {
            for start in 1u16..=0x7FFF {
                let (got, k) = next_change(start, tap);
                let mut r = start;
                for i in 1..=k {
                    r = next_lfsr(r, tap);
                    // Earlier shifts keep the output bit; the last one changes it unless
                    // the cap was reached.
                    if i < k || k < 15 - tap {
                        assert_eq!(r & 1 != start & 1, i == k, "tap {tap} start {start:#X}");
                    }
                }
                assert_eq!(got, r, "tap {tap} start {start:#X}");
            }
        }
    }
}
