//! Pulse channels ($4000-$4007): duty sequencer, envelope, sweep, length counter.

use super::units::{Envelope, Length};
use serde::{Deserialize, Serialize};

pub(super) const DUTY: [[u8; 8]; 4] = [
    [0, 1, 0, 0, 0, 0, 0, 0],
    [0, 1, 1, 0, 0, 0, 0, 0],
    [0, 1, 1, 1, 1, 0, 0, 0],
    [1, 0, 0, 1, 1, 1, 1, 1],
];

/// For each duty row and step: how many steps on the output first differs from that
/// step's (1 to 7), so synthesis can jump from one change of a pulse to the next.
pub(super) const DUTY_RUNS: [[u8; 8]; 4] = {
    let mut runs = [[0u8; 8]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < 8 {
            let mut k = 1;
            while DUTY[d][(s + k) & 7] == DUTY[d][s] {
                k += 1;
            }
            runs[d][s] = k as u8;
            s += 1;
        }
        d += 1;
    }
    runs
};

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Pulse {
    /// Pulse 1 negates with ones' complement (subtracts one more than pulse 2).
    ones_complement: bool,
    duty: u8,
    step: u8,
    pub(crate) period: u16,
    timer: u16,
    pub(crate) env: Envelope,
    pub(crate) len: Length,
    sweep_enabled: bool,
    sweep_period: u8,
    sweep_negate: bool,
    sweep_shift: u8,
    sweep_divider: u8,
    sweep_reload: bool,
}

impl Pulse {
    /// Savestate check (`field` names this channel).
    pub(super) fn check(&self, field: &str) -> Result<(), crate::invalid::InvalidState> {
        use crate::invalid::ensure;
        let f = |name: &str| format!("{field}.{name}");
        ensure(self.duty < 4, &f("duty"), || {
            format!("{} is not 0-3", self.duty)
        })?;
        ensure(self.step < 8, &f("step"), || {
            format!("{} is not 0-7", self.step)
        })?;
        ensure(self.period <= 0x7FF, &f("period"), || {
            format!("{} is over 11 bits", self.period)
        })?;
        ensure(
            self.sweep_shift < 8 && self.sweep_period < 8,
            &f("sweep_shift"),
            || "sweep shift and period are 3 bits".into(),
        )?;
        self.env.check(&f("env"))
    }

    pub fn new(first: bool) -> Pulse {
        Pulse {
            ones_complement: first,
            ..Pulse::default()
        }
    }

    pub fn write(&mut self, reg: u16, value: u8) {
        match reg & 3 {
            0 => {
                self.duty = value >> 6;
                self.len.set_halt(value & 0x20 != 0);
                self.env.write(value);
            }
            1 => {
                self.sweep_enabled = value & 0x80 != 0;
                self.sweep_period = (value >> 4) & 7;
                self.sweep_negate = value & 0x08 != 0;
                self.sweep_shift = value & 7;
                self.sweep_reload = true;
            }
            2 => self.period = (self.period & 0x700) | u16::from(value),
            _ => {
                self.period = (self.period & 0xFF) | (u16::from(value & 7) << 8);
                self.len.load(value);
                self.step = 0;
                self.env.start = true;
            }
        }
    }

    #[inline]
    /// One APU cycle (every other CPU cycle); true when the sequencer moved.
    pub fn clock_timer(&mut self) -> bool {
        if self.timer == 0 {
            self.timer = self.period;
            self.step = (self.step + 1) & 7;
            true
        } else {
            self.timer -= 1;
            false
        }
    }

    /// Advances `units` APU cycles at once (no audible change may fall inside unless the
    /// channel is silent).
    pub fn advance(&mut self, units: u32) {
        let steps = super::units::run_timer(&mut self.timer, self.period, units);
        self.step = ((u32::from(self.step) + steps) & 7) as u8;
    }

    /// For synthesis between events: the output level while sounding (0 when silent
    /// whatever the phase), the duty row (`DUTY` and `DUTY_RUNS` index), the step, and the
    /// CPU cycles until the next step (cycle 1 is the next one, of parity `odd`) and
    /// between steps.
    pub(super) fn voice(&self, odd: bool) -> (u8, usize, u8, u32, u32) {
        let volume = if !self.len.active() || self.muted() {
            0
        } else {
            self.env.volume()
        };
        let first = (u32::from(self.timer) + 1) * 2 - u32::from(odd);
        let every = (u32::from(self.period) + 1) * 2;
        (volume, usize::from(self.duty), self.step, first, every)
    }

    fn target(&self) -> u16 {
        let change = self.period >> self.sweep_shift;
        if self.sweep_negate {
            let extra = u16::from(self.ones_complement);
            self.period.saturating_sub(change + extra)
        } else {
            self.period + change
        }
    }

    /// The sweep unit silences the channel whenever the period is too small or its target
    /// overflows, even with the sweep disabled.
    fn muted(&self) -> bool {
        self.period < 8 || (!self.sweep_negate && self.target() > 0x7FF)
    }

    /// Half-frame clock: sweep and length counter.
    pub fn half_frame(&mut self) {
        if self.sweep_divider == 0 && self.sweep_enabled && self.sweep_shift != 0 && !self.muted() {
            self.period = self.target();
        }
        if self.sweep_divider == 0 || self.sweep_reload {
            self.sweep_divider = self.sweep_period;
            self.sweep_reload = false;
        } else {
            self.sweep_divider -= 1;
        }
        self.len.clock();
    }

    #[inline]
    pub fn output(&self) -> u8 {
        if !self.len.active()
            || self.muted()
            || DUTY[usize::from(self.duty)][usize::from(self.step)] == 0
        {
            0
        } else {
            self.env.volume()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duty_runs_reach_the_next_change_and_no_further() {
        for (row, runs) in DUTY.iter().zip(&DUTY_RUNS) {
            for s in 0..8 {
                let k = usize::from(runs[s]);
                assert!((1..8).contains(&k));
                assert_ne!(row[(s + k) & 7], row[s], "{row:?} step {s}");
                assert!(
                    (1..k).all(|j| row[(s + j) & 7] == row[s]),
                    "{row:?} step {s}"
                );
            }
        }
    }
}
