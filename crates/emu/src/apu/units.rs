//! Building blocks shared by the channels: the length counter, the envelope and the
//! period tables.

use serde::{Deserialize, Serialize};

/// Never: a silent or stopped channel's next change.
pub(super) const NEVER: u32 = u32::MAX;

/// A channel's sixteen timer periods, picked by the low four bits of a register write
/// (noise $400E, DMC $4010).
pub(super) struct Periods([u16; 16]);

impl Periods {
    pub const fn new(periods: [u16; 16]) -> Periods {
        Periods(periods)
    }
    /// The table with every entry halved (a timer that counts APU cycles, every other CPU
    /// cycle, given periods in CPU cycles).
    pub const fn halved(mut periods: [u16; 16]) -> Periods {
        let mut i = 0;
        while i < 16 {
            periods[i] /= 2;
            i += 1;
        }
        Periods(periods)
    }
    pub fn pick(&self, value: u8) -> u16 {
        self.0[usize::from(value & 0x0F)]
    }
    /// Savestate check: `period` is one of the sixteen.
    pub fn check(
        &self,
        period: u16,
        field: &str,
        channel: &str,
    ) -> Result<(), crate::invalid::InvalidState> {
        crate::invalid::ensure(self.0.contains(&period), field, || {
            format!("{period} is not one of the {channel} periods")
        })
    }
}

/// Length counter load values, indexed by bits 3-7 of the fourth channel register.
const LENGTHS: [u8; 32] = [
    10, 254, 20, 2, 40, 4, 80, 6, 160, 8, 60, 10, 14, 12, 26, 14, 12, 16, 24, 18, 48, 20, 96, 22,
    192, 24, 72, 26, 16, 28, 32, 30,
];

/// Writes to the halt flag and the counter reload reach the counter one CPU cycle late,
/// after that cycle's frame-counter clock (`settle`): a halt change made just before a
/// clock does not affect it, and a reload that lands with a clock of a non-zero counter
/// is lost.
#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Length {
    pub(crate) counter: u8,
    pub(crate) enabled: bool,
    halt: bool,
    new_halt: bool,
    /// Value of a pending reload (table values are never 0, so 0 means none).
    reload: u8,
    /// The counter was decremented by a half-frame clock during the current cycle.
    clocked_now: bool,
}

impl Length {
    pub fn set_halt(&mut self, on: bool) {
        self.new_halt = on;
    }
    pub fn load(&mut self, index: u8) {
        self.reload = LENGTHS[usize::from(index >> 3)];
    }
    pub fn set_enabled(&mut self, on: bool) {
        self.enabled = on;
        if !on {
            self.counter = 0;
        }
    }
    /// Half-frame clock.
    pub fn clock(&mut self) {
        if self.counter > 0 && !self.halt {
            self.counter -= 1;
            self.clocked_now = true;
        }
    }
    /// End of a cycle's frame-counter work: apply the writes of the previous cycle.
    #[inline]
    pub fn settle(&mut self) {
        self.halt = self.new_halt;
        if self.reload != 0 {
            if self.enabled && !self.clocked_now {
                self.counter = self.reload;
            }
            self.reload = 0;
        }
        self.clocked_now = false;
    }
    #[inline]
    pub fn active(&self) -> bool {
        self.counter > 0
    }
}

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Envelope {
    pub(crate) start: bool,
    pub(crate) looping: bool,
    pub(crate) constant: bool,
    /// Constant volume, or the divider period.
    pub(crate) param: u8,
    divider: u8,
    decay: u8,
}

impl Envelope {
    /// Savestate check: the 4-bit parts.
    pub(super) fn check(&self, field: &str) -> Result<(), crate::invalid::InvalidState> {
        crate::invalid::ensure(
            self.param < 16 && self.divider < 16 && self.decay < 16,
            field,
            || "envelope parameter, divider and decay are 4 bits".into(),
        )
    }

    /// Bits 0-5 of $4000/$4004/$400C (bit 5 doubles as the length halt flag).
    pub fn write(&mut self, value: u8) {
        self.looping = value & 0x20 != 0;
        self.constant = value & 0x10 != 0;
        self.param = value & 0x0F;
    }
    /// Quarter-frame clock.
    pub fn clock(&mut self) {
        if self.start {
            self.start = false;
            self.decay = 15;
            self.divider = self.param;
        } else if self.divider == 0 {
            self.divider = self.param;
            if self.decay > 0 {
                self.decay -= 1;
            } else if self.looping {
                self.decay = 15;
            }
        } else {
            self.divider -= 1;
        }
    }
    #[inline]
    pub fn volume(&self) -> u8 {
        if self.constant {
            self.param
        } else {
            self.decay
        }
    }
}

/// Runs a channel timer that counts `timer` down to 0 and then reloads `period` for `units`
/// ticks at once; returns how many times it expired (each expiry steps the channel's
/// sequencer).
#[inline]
pub(crate) fn run_timer(timer: &mut u16, period: u16, units: u32) -> u32 {
    let now = u32::from(*timer);
    if units <= now {
        *timer -= units as u16;
        return 0;
    }
    let rest = units - now - 1;
    let p = u32::from(period) + 1;
    *timer = (u32::from(period) - rest % p) as u16;
    1 + rest / p
}
