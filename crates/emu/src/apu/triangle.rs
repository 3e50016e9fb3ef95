//! Triangle channel ($4008-$400B): linear counter, length counter, 32-step sequencer.

use super::units::Length;
use serde::{Deserialize, Serialize};

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Triangle {
    control: bool,
    linear_reload_value: u8,
    linear: u8,
    linear_reload: bool,
    period: u16,
    timer: u16,
    step: u8,
    pub(crate) len: Length,
}

impl Triangle {
    /// Savestate check (`field` names this channel).
    pub(super) fn check(&self, field: &str) -> Result<(), crate::invalid::InvalidState> {
        use crate::invalid::ensure;
        ensure(self.step < 32, &format!("{field}.step"), || {
            format!("{} is not 0-31", self.step)
        })?;
        ensure(self.period <= 0x7FF, &format!("{field}.period"), || {
            format!("{} is over 11 bits", self.period)
        })?;
        ensure(
            self.linear < 128 && self.linear_reload_value < 128,
            &format!("{field}.linear"),
            || "the linear counter is 7 bits".into(),
        )
    }

    pub fn write(&mut self, reg: u16, value: u8) {
        match reg & 3 {
            0 => {
                self.control = value & 0x80 != 0;
                self.len.set_halt(self.control);
                self.linear_reload_value = value & 0x7F;
            }
            1 => {}
            2 => self.period = (self.period & 0x700) | u16::from(value),
            _ => {
                self.period = (self.period & 0xFF) | (u16::from(value & 7) << 8);
                self.len.load(value);
                self.linear_reload = true;
            }
        }
    }

    /// One CPU cycle.
    #[inline]
    /// One CPU cycle; true when the sequencer moved.
    pub fn clock_timer(&mut self) -> bool {
        if self.timer == 0 {
            self.timer = self.period;
            // Periods below 2 are ultrasonic: freezing the sequencer keeps its current level
            // instead of averaging to a mid-level step, so there is no pop when they start.
            if self.can_step() {
                self.step = (self.step + 1) & 31;
                return true;
            }
        } else {
            self.timer -= 1;
        }
        false
    }

    fn can_step(&self) -> bool {
        self.linear > 0 && self.len.active() && self.period >= 2
    }

    /// Advances `cycles` CPU cycles at once (no step may fall inside unless it cannot move).
    pub fn advance(&mut self, cycles: u32) {
        let steps = super::units::run_timer(&mut self.timer, self.period, cycles);
        if self.can_step() {
            self.step = ((u32::from(self.step) + steps) & 31) as u8;
        }
    }

    /// CPU cycles until the sequencer next moves; `u32::MAX` while it is stopped.
    pub fn until_change(&self) -> u32 {
        if self.can_step() {
            u32::from(self.timer) + 1
        } else {
            u32::MAX
        }
    }

    /// For synthesis between events: the step, and the CPU cycles until the next step and
    /// between steps (`u32::MAX` while the sequencer is stopped).
    pub(super) fn voice(&self) -> (u8, u32, u32) {
        (self.step, self.until_change(), u32::from(self.period) + 1)
    }

    /// Quarter-frame clock: the linear counter.
    pub fn quarter_frame(&mut self) {
        if self.linear_reload {
            self.linear = self.linear_reload_value;
        } else if self.linear > 0 {
            self.linear -= 1;
        }
        if !self.control {
            self.linear_reload = false;
        }
    }

    #[inline]
    pub fn output(&self) -> u8 {
        level(self.step)
    }
}

/// The sequencer's output at `step`: 15, 14, ..., 0, 0, 1, ..., 15.
#[inline]
pub(super) fn level(step: u8) -> u8 {
    // 15 - step below 16 and step - 16 from there, without a branch (step < 32).
    step ^ (15 + (step >> 4))
}

#[cfg(test)]
mod tests {
    #[test]
    fn level_follows_the_sequence() {
        let expected: Vec<u8> = (0..16).rev().chain(0..16).collect();
        let got: Vec<u8> = (0..32).map(super::level).collect();
        assert_eq!(got, expected);
    }
}
