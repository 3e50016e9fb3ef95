//! Delta modulation channel ($4010-$4013): memory reader (fed by DMA), sample buffer,
//! output unit, loop and IRQ flags.

use super::units::{NEVER, Periods};
use serde::{Deserialize, Serialize};

/// NTSC rates in CPU cycles, halved: the timer counts APU cycles.
const RATES: Periods = Periods::halved([
    428, 380, 340, 320, 286, 254, 226, 214, 190, 160, 142, 128, 106, 84, 72, 54,
]);

/// How long the end of a sample takes to reach the reader's request logic (see `ending`).
const ENDING_CYCLES: u8 = 3;

#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(test, derive(PartialEq, Debug))]
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
    pub(super) fn check(&self) -> Result<(), crate::invalid::InvalidState> {
        use crate::invalid::ensure;
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
    /// the timer (which counts on odd cycles) clocks the output unit at the end of a byte.
    /// The clocks within a byte only shift the level, which the CPU cannot see: `skip`
    /// does them.
    #[inline]
    pub fn next_event(&self, now: u64) -> u64 {
        let first_odd = now | 1;
        let clocks_before_reload = u64::from(self.bits_remaining) - 1;
        let mut at = first_odd
            + 2 * (u64::from(self.timer) - 1 + u64::from(self.period) * clocks_before_reload);
        for delay in [self.load_delay, self.disable_delay, self.ending] {
            if delay > 0 {
                at = at.min(now + u64::from(delay) - 1);
            }
        }
        at
    }

    /// `n` cycles from `now`, `odd` of them odd, that are known to come before
    /// `next_event`. The output clocks among them are all within a byte; the level's
    /// changes are returned for synthesis, as no tick marks them.
    #[inline]
    pub fn skip(&mut self, n: u64, odd: u64, now: u64) -> DmcWave {
        if self.load_delay > 0 {
            self.load_delay -= n as u8;
        }
        if self.disable_delay > 0 {
            self.disable_delay -= n as u8;
        }
        if self.ending > 0 {
            self.ending -= n as u8;
        }
        let mut wave = DmcWave::still(self.level);
        let mut left = odd;
        // 1-based offset from `now` of the odd cycle the timer runs out on.
        let mut at = (now & 1 == 0) as u32 + 1;
        while left >= u64::from(self.timer) {
            left -= u64::from(self.timer);
            at += 2 * (u32::from(self.timer) - 1);
            self.timer = self.period;
            let before = self.level;
            self.shift_out();
            debug_assert!(
                self.bits_remaining > 0,
                "a skip reloaded the shift register"
            );
            if self.level != before {
                wave.push(at, self.level);
            }
            at += 2;
        }
        self.timer -= left as u16;
        wave
    }

    fn clock_output(&mut self) {
        self.shift_out();
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

    /// One output clock's move of the level and the shift register.
    #[inline]
    fn shift_out(&mut self) {
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

/// The DMC's output level through a stretch of cycles: the level it starts at and up to
/// seven changes (the output clocks within one byte), each at a 1-based cycle offset from
/// the stretch's first cycle (as `voices::Voices` counts).
#[derive(Clone, Copy)]
pub(super) struct DmcWave {
    pub(super) level: u8,
    len: u8,
    next: u8,
    at: [u32; 7],
    levels: [u8; 7],
}

impl DmcWave {
    /// No change: the level holds.
    #[inline]
    pub(super) fn still(level: u8) -> DmcWave {
        DmcWave {
            level,
            len: 0,
            next: 0,
            at: [0; 7],
            levels: [0; 7],
        }
    }

    fn push(&mut self, at: u32, level: u8) {
        let i = usize::from(self.len);
        self.at[i] = at;
        self.levels[i] = level;
        self.len += 1;
    }

    #[inline]
    pub(super) fn changes(&self) -> bool {
        self.next < self.len
    }

    /// The level after the last change.
    pub(super) fn end_level(&self) -> u8 {
        match self.len {
            0 => self.level,
            n => self.levels[usize::from(n) - 1],
        }
    }

    /// Offset of the next change, or `NEVER` for none.
    #[inline]
    pub(super) fn next_at(&self) -> u32 {
        if self.changes() {
            self.at[usize::from(self.next)]
        } else {
            NEVER
        }
    }

    /// Makes the next change; the new level.
    #[inline]
    pub(super) fn step(&mut self) -> u8 {
        self.level = self.levels[usize::from(self.next)];
        self.next += 1;
        self.level
    }

    /// The offsets of the changes still to come.
    fn pending(&mut self) -> &mut [u32] {
        &mut self.at[usize::from(self.next)..usize::from(self.len)]
    }

    /// The same changes seen from a stretch that starts `cycles` earlier.
    pub(super) fn delayed(mut self, cycles: u32) -> DmcWave {
        self.pending().iter_mut().for_each(|at| *at += cycles);
        self
    }

    /// Takes the first cycle off the stretch (it is mixed by itself): its change, if any,
    /// is made, and the others are seen from the next cycle.
    pub(super) fn after_first_cycle(mut self) -> DmcWave {
        if self.next_at() == 1 {
            self.step();
        }
        self.pending().iter_mut().for_each(|at| *at -= 1);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// Skipping up to the next event leaves the state that ticking every cycle leaves, and
    /// reports each level change at the cycle a tick made it.
    #[test]
    fn a_skip_equals_ticking_and_reports_each_level_change() {
        let mut rng = Rng(0x5EED_D3C0);
        for case in 0..20_000 {
            let mut dmc = Dmc::default();
            dmc.write(0, rng.byte() & 0x0F);
            dmc.timer = 1 + rng.below(u64::from(dmc.period)) as u16;
            dmc.level = rng.byte() & 0x7F;
            dmc.shift = rng.byte();
            dmc.bits_remaining = 1 + rng.below(8) as u8;
            dmc.silence = rng.below(4) == 0;
            dmc.bytes_remaining = rng.below(3) as u16;
            match rng.below(4) {
                0 => dmc.load_delay = 1 + rng.below(4) as u8,
                1 => dmc.disable_delay = 1 + rng.below(3) as u8,
                2 => dmc.ending = 1 + rng.below(3) as u8,
                _ => {}
            }
            let now = rng.next() >> 20;
            let event = dmc.next_event(now);
            let n = rng.below(event - now + 1);
            let mut ticked = dmc.clone();
            let mut changes = Vec::new();
            for c in now..now + n {
                let before = ticked.level;
                ticked.tick(c & 1 == 1);
                if ticked.level != before {
                    changes.push(((c - now + 1) as u32, ticked.level));
                }
            }
            let odd = (now + n) / 2 - now / 2;
            let mut wave = dmc.skip(n, odd, now);
            assert_eq!(dmc, ticked, "case {case}: {n} cycles from {now}");
            let mut reported = Vec::new();
            while wave.changes() {
                let at = wave.next_at();
                reported.push((at, wave.step()));
            }
            assert_eq!(reported, changes, "case {case}");
            assert_eq!(wave.end_level(), dmc.level, "case {case}");
        }
    }

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
