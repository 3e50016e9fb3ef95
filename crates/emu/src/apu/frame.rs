//! Frame counter ($4017): quarter/half-frame clocks, 4- and 5-step sequences, frame IRQ.

use serde::{Deserialize, Serialize};

pub const QUARTER: u8 = 1;
pub const HALF: u8 = 2;

/// NTSC step points in CPU cycles after the sequence (re)starts; the last one of each
/// mode wraps to 0 (so it is also cycle 0 of the next sequence).
const FOUR_STEP: [u32; 6] = [7457, 14913, 22371, 29828, 29829, 29830];
const FIVE_STEP: [u32; 5] = [7457, 14913, 22371, 37281, 37282];

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct FrameCounter {
    pub(crate) five_step: bool,
    pub(crate) inhibit: bool,
    pub(crate) irq: bool,
    cycle: u32,
    /// Index of the next step point in the current mode's table.
    index: u8,
    next: u32,
    new_five_step: bool,
    /// CPU cycles until a $4017 write restarts the sequence; 0 = none pending.
    reset_delay: u8,
    /// The QUARTER/HALF lines clocked on the previous cycle. A clock signal lasts into the
    /// next cycle, so a 5-step restart landing then merges with it instead of clocking the
    /// line a second time (a write just after the last step gives one length clock).
    #[serde(default)]
    held: u8,
}

impl FrameCounter {
    /// Savestate check.
    pub(super) fn check(&self) -> Result<(), crate::invalid::InvalidState> {
        let len = if self.five_step {
            FIVE_STEP.len()
        } else {
            FOUR_STEP.len()
        };
        crate::invalid::ensure(
            usize::from(self.index) < len && self.reset_delay <= 4 && self.held & !3 == 0,
            "bus.apu.frame.index",
            || format!("step {} of a {len}-step sequence", self.index),
        )?;
        // The sequence is at most 37,282 cycles long; `next` is one of its step points.
        let points = FOUR_STEP.iter().chain(&FIVE_STEP);
        crate::invalid::ensure(
            self.cycle <= FIVE_STEP[4]
                && (self.next == 0 || points.clone().any(|&p| p == self.next)),
            "bus.apu.frame.cycle",
            || format!("cycle {} with the next step at {}", self.cycle, self.next),
        )
    }

    /// $4017 write. The restart lands 3 or 4 CPU cycles later depending on where in the
    /// APU cycle the write falls.
    pub fn write(&mut self, value: u8, odd: bool) {
        self.new_five_step = value & 0x80 != 0;
        self.inhibit = value & 0x40 != 0;
        if self.inhibit {
            self.irq = false;
        }
        self.reset_delay = if odd { 4 } else { 3 };
    }

    /// Power-on and reset: behaves as if $4017 had been written shortly before the CPU's
    /// first instruction, with `value` (the last written, or 0 at power-on).
    pub fn restart(&mut self, value: u8, delay: u8) {
        self.write(value, false);
        self.reset_delay = delay;
        self.irq = false;
    }

    /// One CPU cycle; returns the QUARTER/HALF clocks it produces.
    #[inline]
    pub fn tick(&mut self) -> u8 {
        self.cycle += 1;
        let mut clocks = 0;
        if self.cycle == self.next {
            clocks = self.step_point();
        }
        if self.reset_delay > 0 {
            self.reset_delay -= 1;
            if self.reset_delay == 0 {
                self.five_step = self.new_five_step;
                self.restart_sequence();
                if self.five_step {
                    clocks |= (QUARTER | HALF) & !self.held;
                }
            }
        }
        self.held = clocks;
        clocks
    }

    /// Ticks from now until the one that does something (a step point or the restart).
    #[inline]
    pub fn ticks_to_event(&self) -> u32 {
        // Before the power-on restart lands, `next` (0) lies a whole wrap away.
        let step = self.next.wrapping_sub(self.cycle);
        if self.reset_delay > 0 {
            step.min(u32::from(self.reset_delay))
        } else {
            step
        }
    }

    /// `n` ticks that are known to do nothing but count (fewer than `ticks_to_event`).
    #[inline]
    pub fn skip(&mut self, n: u32) {
        self.cycle += n;
        if n > 0 {
            self.held = 0;
        }
        if self.reset_delay > 0 {
            // n < reset_delay, so it fits and stays above 0.
            self.reset_delay -= n as u8;
        }
    }

    fn restart_sequence(&mut self) {
        self.cycle = 0;
        self.index = 0;
        self.next = FOUR_STEP[0];
    }

    fn step_point(&mut self) -> u8 {
        let i = self.index;
        self.index += 1;
        let table: &[u32] = if self.five_step {
            &FIVE_STEP
        } else {
            &FOUR_STEP
        };
        let clocks = match (i, self.five_step) {
            (0 | 2, _) => QUARTER,
            (1, _) => QUARTER | HALF,
            // The flag is raised on the first two of the three IRQ cycles even when
            // inhibited (only the IRQ line stays quiet, see `irq_line`); the third sets it
            // as the inhibit flag says.
            (3, false) => {
                self.irq = true;
                0
            }
            (4, false) => {
                self.irq = true;
                QUARTER | HALF
            }
            (5, false) => {
                self.irq = !self.inhibit;
                0
            }
            (3, true) => QUARTER | HALF,
            _ => 0,
        };
        if usize::from(self.index) == table.len() {
            self.restart_sequence();
        } else {
            self.next = table[usize::from(self.index)];
        }
        clocks
    }

    /// What the flag drives onto the CPU's IRQ line.
    #[inline]
    pub fn irq_line(&self) -> bool {
        self.irq && !self.inhibit
    }

    /// A $4015 read clears the flag.
    pub fn acknowledge(&mut self) {
        self.irq = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// HALF clocks from a sequence started in `five_step` mode, with a $4017 write of
    /// `value` on cycle `write_at` (on an even or `odd` APU half), counted up to `until`.
    fn half_clocks(five_step: bool, write_at: u32, odd: bool, value: u8, until: u32) -> Vec<u32> {
        let mut f = FrameCounter::default();
        f.restart(if five_step { 0x80 } else { 0 }, 1);
        f.tick();
        let mut out = Vec::new();
        for c in 1..=until {
            if c == write_at {
                f.write(value, odd);
            }
            // Alternate skipping and ticking as the APU does between events.
            let quiet = f.ticks_to_event();
            if quiet > 1 && c % 3 == 0 {
                f.skip(1);
                continue;
            }
            if f.tick() & HALF != 0 {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn a_5_step_write_around_the_last_step_clocks_the_length_counters_once() {
        // The last half-frame step of each mode, in cycles after the sequence started.
        for (five_step, last) in [(false, FOUR_STEP[4]), (true, FIVE_STEP[3])] {
            for write_at in last - 8..=last + 6 {
                for odd in [false, true] {
                    let clocks = half_clocks(five_step, write_at, odd, 0x80, last + 12);
                    let lands = write_at + if odd { 4 } else { 3 } - 1;
                    let near: Vec<u32> =
                        clocks.iter().copied().filter(|&c| c + 20 > last).collect();
                    let want = if lands <= last + 1 { 1 } else { 2 };
                    assert_eq!(
                        near.len(),
                        want,
                        "five_step {five_step}, write at {write_at} (lands {lands}, last step \
                         {last}, odd {odd}): half clocks at {near:?}"
                    );
                    assert!(near.iter().all(|&c| c >= last.min(lands)));
                }
            }
        }
    }

    #[test]
    fn a_4_step_write_adds_no_clock() {
        let last = FOUR_STEP[4];
        for write_at in last - 6..=last + 6 {
            let near: Vec<u32> = half_clocks(false, write_at, false, 0, last + 12)
                .into_iter()
                .filter(|&c| c + 20 > last)
                .collect();
            let lands = write_at + 2;
            let want = usize::from(lands >= last);
            assert_eq!(near.len(), want, "write at {write_at}: {near:?}");
        }
    }
}
