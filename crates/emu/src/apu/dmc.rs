//! Delta modulation channel ($4010-$4013): memory reader (fed by DMA), sample buffer,
//! output unit, loop and IRQ flags.

use super::units::Periods;
use serde::{Deserialize, Serialize};

/// NTSC rates in CPU cycles, halved: the timer counts APU cycles.
const RATES: Periods = Periods::halved([
    428, 380, 340, 320, 286, 254, 226, 214, 190, 160, 142, 128, 106, 84, 72, 54,
]);

/// How long the end of a sample takes to reach the reader's request logic (see `ending`).
const ENDING_CYCLES: u8 = 3;

#[derive(Clone, Serialize, Deserialize)]
pub struct Dmc {
    irq_enabled: bool,
    looping: bool,
    period: u16,
    timer: u16,
    pub(crate) level: u8,
    sample_addr: u16,
    sample_len: u16,
    addr: u16,
    pub(crate) bytes_remaining: u16,
    buffer: Option<u8>,
    shift: u8,
    bits_remaining: u8,
    silence: bool,
    pub(crate) irq: bool,
    /// CPU cycles until a load DMA (after a $4015 enable) may halt the CPU; 0 = none.
    load_delay: u8,
    /// The memory reader wants a byte and the DMA unit may act on it.
    pub(crate) armed: bool,
    /// CPU cycles until a $4015 disable stops the memory reader; 0 = none. A fetch then on
    /// its halt cycle is cut short (`Bus::run_dma`).
    disable_delay: u8,
    /// CPU cycles after a fetch that ended the sample during which the reader still acts as
    /// if bytes remain: an emptied buffer then asks for a fetch that is dropped on the next
    /// cycle, having halted the CPU for one cycle if that cycle was a read.
    ending: u8,
}

impl Default for Dmc {
    fn default() -> Self {
        Dmc {
            irq_enabled: false,
            looping: false,
            period: RATES.pick(0),
            timer: RATES.pick(0),
            level: 0,
            sample_addr: 0xC000,
            sample_len: 1,
            addr: 0xC000,
            bytes_remaining: 0,
            buffer: None,
            shift: 0,
            bits_remaining: 8,
            silence: true,
            irq: false,
            load_delay: 0,
            armed: false,
            disable_delay: 0,
            ending: 0,
        }
    }
}

impl Dmc {
    /// Savestate check.
    pub(super) fn check(&self) -> Result<(), crate::InvalidState> {
        use crate::state::ensure;
        RATES.check(self.period, "bus.apu.dmc.period", "DMC")?;
        ensure(
            (1..=self.period).contains(&self.timer),
            "bus.apu.dmc.timer",
            || format!("{} is not 1-{}", self.timer, self.period),
        )?;
        ensure(self.level < 128, "bus.apu.dmc.level", || {
            format!("{} is over 7 bits", self.level)
        })?;
        ensure(
            (1..=8).contains(&self.bits_remaining),
            "bus.apu.dmc.bits_remaining",
            || format!("{} is not 1-8", self.bits_remaining),
        )?;
        ensure(self.load_delay <= 4, "bus.apu.dmc.load_delay", || {
            format!("{} is over 4", self.load_delay)
        })?;
        ensure(self.disable_delay <= 3, "bus.apu.dmc.disable_delay", || {
            format!("{} is over 3", self.disable_delay)
        })?;
        ensure(self.ending <= ENDING_CYCLES, "bus.apu.dmc.ending", || {
            format!("{} is over {ENDING_CYCLES}", self.ending)
        })?;
        ensure(
            self.addr >= 0x8000 && self.sample_addr >= 0xC000,
            "bus.apu.dmc.addr",
            || "samples are read from $8000-$FFFF".into(),
        )
    }

    pub fn write(&mut self, reg: u16, value: u8) {
        match reg & 3 {
            0 => {
                self.irq_enabled = value & 0x80 != 0;
                if !self.irq_enabled {
                    self.irq = false;
                }
                self.looping = value & 0x40 != 0;
                self.period = RATES.pick(value);
            }
            1 => self.level = value & 0x7F,
            2 => self.sample_addr = 0xC000 | (u16::from(value) << 6),
            _ => self.sample_len = (u16::from(value) << 4) | 1,
        }
    }

    /// $4015 bit 4. `odd` is the parity of the write's CPU cycle: the first fetch halts the
    /// CPU on the get cycle of the second APU cycle after the write, and a disable stops
    /// the reader as many cycles after the write.
    pub fn set_enabled(&mut self, on: bool, odd: bool) {
        self.irq = false;
        if !on {
            if self.disable_delay == 0 {
                self.disable_delay = if odd { 3 } else { 2 };
            }
        } else if self.bytes_remaining == 0 {
            // The enable reaches the memory reader only after the delay, also for a fetch
            // the output unit asks for meanwhile by emptying the buffer.
            self.restart();
            self.load_delay = if odd { 3 } else { 2 };
        }
    }

    fn stop(&mut self) {
        self.bytes_remaining = 0;
        self.armed = false;
        self.load_delay = 0;
    }

    fn restart(&mut self) {
        self.addr = self.sample_addr;
        self.bytes_remaining = self.sample_len;
    }

    /// One CPU cycle; the timer itself runs on the get half of each APU cycle.
    #[inline]
    pub fn tick(&mut self, odd: bool) {
        if self.disable_delay > 0 {
            self.disable_delay -= 1;
            if self.disable_delay == 0 {
                self.stop();
            }
        }
        if self.load_delay > 0 {
            self.load_delay -= 1;
            if self.load_delay == 0 {
                self.armed = self.buffer.is_none() && self.bytes_remaining > 0;
            }
        }
        if self.ending > 0 {
            self.ending -= 1;
            if self.ending == 0 && self.bytes_remaining == 0 {
                self.armed = false;
            }
        }
        if !odd {
            return;
        }
        self.timer -= 1;
        if self.timer == 0 {
            self.timer = self.period;
            self.clock_output();
        }
    }

    /// The first CPU cycle from `now` on whose `tick` does something: a delay runs out, or
    /// the timer (which counts on odd cycles) clocks the output unit.
    #[inline]
    pub fn next_event(&self, now: u64) -> u64 {
        let first_odd = now | 1;
        let mut at = first_odd + 2 * (u64::from(self.timer) - 1);
        for delay in [self.load_delay, self.disable_delay, self.ending] {
            if delay > 0 {
                at = at.min(now + u64::from(delay) - 1);
            }
        }
        at
    }

    /// `n` cycles, `odd` of them odd, that are known to come before `next_event`.
    #[inline]
    pub fn skip(&mut self, n: u64, odd: u64) {
        if self.load_delay > 0 {
            self.load_delay -= n as u8;
        }
        if self.disable_delay > 0 {
            self.disable_delay -= n as u8;
        }
        if self.ending > 0 {
            self.ending -= n as u8;
        }
        self.timer -= odd as u16;
    }

    fn clock_output(&mut self) {
        if !self.silence {
            if self.shift & 1 != 0 {
                if self.level <= 125 {
                    self.level += 2;
                }
            } else if self.level >= 2 {
                self.level -= 2;
            }
        }
        self.shift >>= 1;
        self.bits_remaining -= 1;
        if self.bits_remaining == 0 {
            self.bits_remaining = 8;
            match self.buffer.take() {
                Some(b) => {
                    self.silence = false;
                    self.shift = b;
                }
                None => self.silence = true,
            }
            // The emptied buffer asks for the next byte right away ("reload" DMA, which
            // therefore first tries to halt the CPU on a put cycle), unless a $4015 enable
            // is still on its way: then the fetch waits for that delay.
            if (self.bytes_remaining > 0 || self.ending > 0) && self.load_delay == 0 {
                self.armed = true;
            }
        }
    }

    /// The address of the byte the DMA unit should fetch now, if any.
    #[inline]
    pub fn dma_request(&self) -> Option<u16> {
        if self.armed && self.bytes_remaining > 0 && self.buffer.is_none() {
            Some(self.addr)
        } else {
            None
        }
    }

    pub fn dma_done(&mut self, value: u8) {
        self.armed = false;
        if self.bytes_remaining == 0 {
            return;
        }
        self.buffer = Some(value);
        self.addr = self.addr.wrapping_add(1) | 0x8000;
        self.bytes_remaining -= 1;
        if self.bytes_remaining == 0 {
            if self.looping {
                self.restart();
            } else {
                self.ending = ENDING_CYCLES;
                if self.irq_enabled {
                    self.irq = true;
                }
            }
        }
    }

    /// Console reset: playback stops and the output level keeps only its low bit.
    pub fn reset(&mut self) {
        self.stop();
        self.disable_delay = 0;
        self.ending = 0;
        self.irq = false;
        self.level &= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A $4015 enable lands while the buffer still holds the last byte, one cycle before the
    /// output unit empties it: the fetch that asks for waits for the enable's delay.
    #[test]
    fn a_fetch_asked_for_during_the_enable_delay_waits_for_it() {
        let mut dmc = Dmc::default();
        dmc.write(0, 0x0F);
        dmc.buffer = Some(0x55);
        dmc.bits_remaining = 1;
        dmc.timer = 1;
        dmc.set_enabled(true, false);
        dmc.tick(true);
        assert_eq!(dmc.buffer, None, "the output unit took the byte");
        assert_eq!(dmc.dma_request(), None, "the enable has not landed yet");
        dmc.tick(false);
        assert_eq!(dmc.dma_request(), Some(0xC000));
    }
    /// The buffer empties one APU cycle after the fetch that ended a one-byte sample: the
    /// reader still asks for a byte, and drops the request a cycle later; two APU cycles
    /// after the fetch it no longer asks.
    #[test]
    fn an_emptying_just_after_the_last_fetch_asks_once_and_drops_it() {
        for (gap, asks) in [(2, true), (4, false)] {
            let mut dmc = Dmc::default();
            dmc.set_enabled(true, false);
            dmc.tick(false);
            dmc.tick(true);
            assert_eq!(dmc.dma_request(), Some(0xC000));
            dmc.dma_done(0x55);
            assert_eq!(dmc.bytes_remaining, 0, "a one-byte sample");
            // The output unit's last bit ends on the `gap`th cycle after the fetch.
            dmc.bits_remaining = 1;
            dmc.timer = gap / 2;
            for i in 1..gap {
                dmc.tick(i % 2 == 0);
            }
            dmc.tick(true);
            assert_eq!(
                dmc.buffer, None,
                "the output unit took the byte (gap {gap})"
            );
            assert_eq!(dmc.armed, asks, "gap {gap}");
            assert_eq!(dmc.dma_request(), None, "nothing left to fetch");
            dmc.tick(false);
            assert!(!dmc.armed, "the request outlived the end (gap {gap})");
        }
    }

    /// A $4015 disable stops the reader two or three cycles after the write, not at once.
    #[test]
    fn a_disable_lands_after_its_delay() {
        for (odd, delay) in [(false, 2), (true, 3)] {
            let mut dmc = Dmc::default();
            dmc.set_enabled(true, false);
            dmc.tick(false);
            dmc.tick(true);
            assert!(dmc.dma_request().is_some());
            dmc.set_enabled(false, odd);
            for _ in 1..delay {
                dmc.tick(false);
                assert!(dmc.dma_request().is_some(), "stopped early (odd {odd})");
            }
            dmc.tick(false);
            assert_eq!(dmc.dma_request(), None, "still running (odd {odd})");
            assert_eq!(dmc.bytes_remaining, 0);
        }
    }
}
