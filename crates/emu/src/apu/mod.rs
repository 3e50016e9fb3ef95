//! The 2A03's audio unit: two pulses, triangle, noise, DMC, the frame counter, and the
//! path from channel levels to host-rate PCM.
//!
//! # Host API (what a frontend calls)
//! - `Machine::set_sample_rate(48_000)`: host output rate (default 48 kHz; 44.1 kHz works).
//! - `Machine::take_audio(&mut Vec<i16>)` once per frame: appends the mono 16-bit samples
//!   produced since the last call. Undrained output is capped at about four frames
//!   (older samples are dropped), so drain every frame.
//! - `Machine::set_audio_enabled(false)`: skips synthesis entirely (max-speed headless runs,
//!   AI lookahead clones). Everything the CPU can observe keeps running: length counters,
//!   frame IRQ, DMC timer, DMA and IRQ, so emulation results do not change.
//! - `Machine::set_audio_rate_adjust(f)`: scales the resampling ratio by `f` (clamped to
//!   +-5%); a host nudges it to hold its output buffer at a steady fill.
//! - Files and devices are the frontend's: `nesmind::frontend::wav` writes WAV files and
//!   `nesmind::audio::AudioOut` (feature `audio`) plays through cpal.

mod dmc;
mod frame;
mod noise;
mod pulse;
mod synth;
mod triangle;
mod units;
mod voices;

use dmc::{Dmc, DmcWave};
use frame::{FrameCounter, HALF, QUARTER};
use noise::Noise;
use pulse::Pulse;
use serde::{Deserialize, Serialize};
pub use synth::CPU_HZ;
use synth::Synth;
use triangle::Triangle;
use voices::Voices;

/// Power-on and reset act as if $4017 was written this many CPU cycles before the
/// frame counter restarts, counted from the start of the CPU's reset sequence.
const RESTART_DELAY: u8 = 2;
pub const DEFAULT_SAMPLE_RATE: u32 = 48_000;
/// The output rates the synthesiser supports, in Hz.
pub const SAMPLE_RATES: std::ops::RangeInclusive<u32> = 8_000..=192_000;

/// A host output rate outside `SAMPLE_RATES` (the rate asked for).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnsupportedSampleRate(pub u32);

impl std::fmt::Display for UnsupportedSampleRate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unsupported sample rate {} Hz (use {}-{}, e.g. 48000 or 44100)",
            self.0,
            SAMPLE_RATES.start(),
            SAMPLE_RATES.end()
        )
    }
}

impl std::error::Error for UnsupportedSampleRate {}

#[derive(Clone, Serialize, Deserialize)]
pub struct Apu {
    pulse: [Pulse; 2],
    triangle: Triangle,
    noise: Noise,
    dmc: Dmc,
    frame: FrameCounter,
    /// Last value written to $4017 (a reset re-applies it).
    last_4017: u8,
    /// The cycle at whose start a $4015 read's clearing of the frame IRQ flag lands (the
    /// next get cycle after the read); 0: none pending.
    frame_ack_at: u64,
    /// Length counters have writes or a clock to settle at the end of this cycle.
    length_dirty: bool,
    /// Host settings and output (synthesis on or off, the resampler and its filters) are
    /// not machine state: savestates leave them out and `restore_output` rebuilds them.
    #[serde(skip, default = "yes")]
    audio: bool,
    /// A write or frame clock may have changed a channel's output: re-mix this cycle.
    #[serde(skip, default = "yes")]
    mix_dirty: bool,
    #[serde(skip)]
    last_dmc_level: u8,
    /// The next CPU cycle to tick. The APU runs lazily: cycles before `next_event` only
    /// count (frame counter, DMC timer), so they are skipped in bulk when something asks.
    cycle: u64,
    /// The first cycle whose tick changes anything the CPU or the sound can notice.
    next_event: u64,
    /// Synthesis runs in batches: cycles from `synth_cycle` on are caught up just before
    /// anything changes a channel, jumping from one audible change to the next instead of
    /// stepping every cycle.
    synth_cycle: u64,
    batching: bool,
    #[serde(skip)]
    synth: Synth,
    /// Where synthesis left the channels' waveforms (see `voices::Voices`).
    #[serde(skip)]
    voices: Voices,
}

fn yes() -> bool {
    true
}

impl Default for Apu {
    fn default() -> Self {
        Apu::new()
    }
}

impl Apu {
    pub fn new() -> Apu {
        let mut apu = Apu {
            pulse: [Pulse::new(true), Pulse::new(false)],
            triangle: Triangle::default(),
            noise: Noise::default(),
            dmc: Dmc::default(),
            frame: FrameCounter::default(),
            last_4017: 0,
            frame_ack_at: 0,
            length_dirty: false,
            audio: true,
            mix_dirty: true,
            last_dmc_level: 0,
            cycle: 0,
            next_event: 0,
            synth_cycle: 0,
            batching: true,
            synth: Synth::new(DEFAULT_SAMPLE_RATE),
            voices: Voices::default(),
        };
        apu.frame.restart(0, RESTART_DELAY);
        // Output starts at the level the channels rest at, so it begins without a click.
        apu.settle_output();
        apu
    }

    /// Rebuilds the output side after power-on or a savestate load: synthesis resumes on
    /// the sample grid of an uninterrupted run, its filters settled at the current level.
    pub fn restore_output(&mut self) {
        // The next event is derived from the counters: plan it afresh rather than trust it.
        self.schedule();
        self.settle_output();
    }

    fn settle_output(&mut self) {
        self.mix_dirty = true;
        self.voices.valid = false;
        self.last_dmc_level = self.dmc.level;
        let (level, key) = self.mixed_level(self.dmc.level);
        self.synth.settle(level, key, self.synth_cycle);
    }

    /// The mixed level and its tonal channels' share (`synth::mix_key`).
    fn mixed_level(&self, dmc: u8) -> (f32, u16) {
        let (p1, p2, tri) = (
            self.pulse[0].output(),
            self.pulse[1].output(),
            self.triangle.output(),
        );
        let level = synth::mix(p1, p2, tri, self.noise.output(), dmc);
        (level, synth::mix_key(p1, p2, tri))
    }

    /// Savestate check: the indices the channels look tables up with.
    pub(crate) fn check(&self, bus_cycles: u64) -> Result<(), crate::invalid::InvalidState> {
        self.pulse[0].check("bus.apu.pulse[0]")?;
        self.pulse[1].check("bus.apu.pulse[1]")?;
        self.triangle.check("bus.apu.triangle")?;
        self.noise.check("bus.apu.noise")?;
        self.dmc.check()?;
        self.frame.check()?;
        self.synth.check()?;
        // A read schedules the clear at most two cycles ahead, and the tick at that cycle
        // performs it; the APU ticks never skip past it.
        crate::invalid::ensure(
            self.frame_ack_at == 0
                || (self.cycle..=bus_cycles.saturating_add(2)).contains(&self.frame_ack_at),
            "bus.apu.frame_ack_at",
            || {
                format!(
                    "{} is not 0 nor between the APU's cycle {} and the bus's {bus_cycles} + 2",
                    self.frame_ack_at, self.cycle
                )
            },
        )?;
        // Synthesis never runs ahead of the ticks, nor the ticks ahead of the bus.
        crate::invalid::ensure(
            self.synth_cycle <= self.cycle
                && self.cycle <= bus_cycles + 1
                // It lags the bus by less than a frame when saved; far behind, catching up
                // would take hours.
                && bus_cycles.saturating_sub(self.synth_cycle) < 1_000_000,
            "bus.apu.cycle",
            || {
                format!(
                    "synthesis at {}, ticks at {}, the bus at {bus_cycles}",
                    self.synth_cycle, self.cycle
                )
            },
        )
    }

    /// Soft reset at CPU cycle `now`: channels silenced as by a $4015 write of 0, the frame
    /// counter restarted with the last $4017 mode, the DMC stopped.
    pub fn reset(&mut self, now: u64) {
        self.catch_up(now);
        self.voices.valid = false;
        self.write_status(0, false);
        self.dmc.reset();
        self.frame.restart(self.last_4017, RESTART_DELAY);
        self.schedule();
    }

    /// True when the tick of CPU cycle `now` must run (see `run_to`).
    #[inline(always)]
    pub fn due(&self, now: u64) -> bool {
        now >= self.next_event
    }

    /// The first CPU cycle whose tick must run.
    #[inline(always)]
    pub fn next_event(&self) -> u64 {
        self.next_event
    }

    /// Ticks every cycle before `end`. Cycles that only count are skipped in one step.
    #[inline(never)]
    pub fn run_to(&mut self, end: u64) {
        while self.cycle < end {
            if self.cycle < self.next_event {
                let n = self.next_event.min(end) - self.cycle;
                let odd = (self.cycle + n) / 2 - self.cycle / 2;
                let first = self.cycle;
                self.frame.skip(n as u32);
                let wave = self.dmc.skip(n, odd, first);
                self.cycle += n;
                if wave.changes() && self.audio {
                    // No tick marks these level changes: synthesise through them now.
                    self.synth_wave(self.cycle, wave, first);
                }
            } else {
                self.tick();
            }
        }
    }

    /// One CPU cycle that may change something; its parity aligns the frame counter's
    /// $4017 jitter and the DMA get cycles.
    fn tick(&mut self) {
        let odd = self.cycle & 1 == 1;
        self.synth_to(self.cycle);
        if self.frame_ack_at != 0 && self.frame_ack_at <= self.cycle {
            self.frame_ack_at = 0;
            self.frame.acknowledge();
        }
        let clocks = self.frame.tick();
        if clocks != 0 {
            self.frame_clocks(clocks);
        }
        if self.length_dirty {
            self.length_dirty = false;
            self.mix_dirty = true;
            self.pulse[0].len.settle();
            self.pulse[1].len.settle();
            self.triangle.len.settle();
            self.noise.len.settle();
        }
        self.dmc.tick(odd);
        self.cycle += 1;
        self.schedule();
    }

    /// Finds the next cycle whose tick matters.
    fn schedule(&mut self) {
        let c = self.cycle;
        self.next_event = if self.length_dirty || !self.batching {
            c
        } else {
            let ack = if self.frame_ack_at == 0 {
                u64::MAX
            } else {
                self.frame_ack_at
            };
            (c + u64::from(self.frame.ticks_to_event()) - 1)
                .min(self.dmc.next_event(c))
                .min(ack)
        };
    }

    /// Ticks and synthesises everything before `end`, before a change from outside.
    pub(crate) fn catch_up(&mut self, end: u64) {
        self.run_to(end);
        self.synth_to(end);
    }

    /// Runs synthesis for the cycles before `end`, through which the DMC level holds.
    #[inline]
    fn synth_to(&mut self, end: u64) {
        self.synth_wave(end, DmcWave::still(self.dmc.level), self.synth_cycle);
    }

    /// Runs synthesis for the cycles before `end`, the DMC level following `wave` from
    /// cycle `first` on (held before it).
    fn synth_wave(&mut self, end: u64, wave: DmcWave, first: u64) {
        let start = self.synth_cycle;
        let n = (end - start) as u32;
        let odd = start & 1 == 1;
        self.synth_cycle = end;
        if !self.audio {
            // The waveforms still move, so a state saved without sound resumes exactly as
            // one saved with it.
            self.advance_channels(n, odd);
            self.voices.valid = false;
            return;
        }
        if n == 0 {
            return;
        }
        let wave = wave.delayed((first - start) as u32);
        if self.mix_dirty {
            // A write or a clock just changed a channel: this cycle re-mixes.
            let wave = wave.after_first_cycle();
            self.run_audio(odd, wave.level);
            self.synth_span(n - 1, !odd, false, wave);
        } else {
            // A new DMC level alone changes no waveform: the span re-mixes its first cycle.
            let remix = wave.level != self.last_dmc_level;
            self.synth_span(n, odd, remix, wave);
        }
        self.last_dmc_level = wave.end_level();
    }

    /// Off: tick and synthesise every cycle as it happens (the reference for batching).
    pub fn set_events(&mut self, on: bool) {
        self.batching = on;
        // The next tick re-plans with the new setting.
        self.next_event = self.cycle;
    }

    /// One cycle of synthesis, stepping the channels' timers, at DMC level `dmc`.
    #[inline]
    fn run_audio(&mut self, odd: bool, dmc: u8) {
        // The timers move here, not in a span.
        self.voices.valid = false;
        // Non-short-circuit `|`: every timer must be clocked.
        let mut changed = self.mix_dirty | self.triangle.clock_timer() | self.noise.clock_timer();
        if odd {
            changed |= self.pulse[0].clock_timer() | self.pulse[1].clock_timer();
        }
        // Mixing only when something moved keeps the common cycle cheap.
        if changed || dmc != self.last_dmc_level {
            self.mix_dirty = false;
            self.last_dmc_level = dmc;
            let (level, key) = self.mixed_level(dmc);
            self.synth.set_level(level, key);
        }
        self.synth.tick();
    }

    fn frame_clocks(&mut self, clocks: u8) {
        self.mix_dirty = true;
        if clocks & QUARTER != 0 {
            self.pulse[0].env.clock();
            self.pulse[1].env.clock();
            self.noise.env.clock();
            self.triangle.quarter_frame();
        }
        if clocks & HALF != 0 {
            self.pulse[0].half_frame();
            self.pulse[1].half_frame();
            self.triangle.len.clock();
            self.noise.len.clock();
            self.length_dirty = true;
        }
    }

    /// $4000-$4013, $4015, $4017 writes during CPU cycle `now`.
    pub fn write(&mut self, addr: u16, value: u8, now: u64) {
        self.catch_up(now + 1);
        let odd = now & 1 == 1;
        self.length_dirty |= addr < 0x4010;
        self.mix_dirty = true;
        match addr {
            0x4000..=0x4003 => self.pulse[0].write(addr, value),
            0x4004..=0x4007 => self.pulse[1].write(addr, value),
            0x4008..=0x400B => self.triangle.write(addr, value),
            0x400C..=0x400F => self.noise.write(addr, value),
            0x4010..=0x4013 => self.dmc.write(addr, value),
            0x4015 => self.write_status(value, odd),
            0x4017 => {
                self.last_4017 = value;
                self.frame.write(value, odd);
            }
            _ => {}
        }
        self.schedule();
    }

    fn write_status(&mut self, value: u8, odd: bool) {
        self.pulse[0].len.set_enabled(value & 1 != 0);
        self.pulse[1].len.set_enabled(value & 2 != 0);
        self.triangle.len.set_enabled(value & 4 != 0);
        self.noise.len.set_enabled(value & 8 != 0);
        self.dmc.set_enabled(value & 0x10 != 0, odd);
    }

    /// $4015 read during CPU cycle `now`: channel status and IRQ flags. The frame IRQ flag
    /// clears at the start of the next get (odd) cycle, so a read on a get cycle leaves it
    /// set for one more cycle (a double read sees it twice).
    pub fn read_status(&mut self, now: u64) -> u8 {
        let v = self.peek_status();
        let at = (now + 1) | 1;
        if self.frame_ack_at == 0 || at < self.frame_ack_at {
            self.frame_ack_at = at;
            self.schedule();
        }
        v
    }

    /// $4015 without side effects.
    pub fn peek_status(&self) -> u8 {
        u8::from(self.pulse[0].len.active())
            | u8::from(self.pulse[1].len.active()) << 1
            | u8::from(self.triangle.len.active()) << 2
            | u8::from(self.noise.len.active()) << 3
            | u8::from(self.dmc.bytes_remaining > 0) << 4
            | u8::from(self.frame.irq) << 6
            | u8::from(self.dmc.irq) << 7
    }

    /// The APU's IRQ output (frame counter or DMC).
    #[inline]
    pub fn irq(&self) -> bool {
        self.frame.irq_line() || self.dmc.irq
    }

    /// The DMC wants the DMA unit to fetch a byte (cheap check for the bus, every cycle).
    #[inline(always)]
    pub fn dmc_dma_wanted(&self) -> bool {
        self.dmc.armed
    }

    /// Address the DMC wants to fetch by DMA, if any.
    #[inline]
    pub fn dmc_dma_request(&self) -> Option<u16> {
        self.dmc.dma_request()
    }

    /// Delivers the byte fetched for the DMC on CPU cycle `now` (after that cycle's tick).
    pub fn dmc_dma_done(&mut self, value: u8, now: u64) {
        self.run_to(now + 1);
        self.dmc.dma_done(value);
        // The end of a sample starts a delay that must be ticked.
        self.schedule();
    }

    pub fn set_audio_enabled(&mut self, on: bool, now: u64) {
        self.catch_up(now);
        if on && !self.audio {
            // Resume from the current level instead of jumping to it from a stale one.
            self.settle_output();
        }
        self.audio = on;
        self.mix_dirty = true;
    }
    pub fn audio_enabled(&self) -> bool {
        self.audio
    }
    pub fn set_sample_rate(&mut self, rate: u32, now: u64) -> Result<(), UnsupportedSampleRate> {
        if !SAMPLE_RATES.contains(&rate) {
            return Err(UnsupportedSampleRate(rate));
        }
        self.catch_up(now);
        self.synth.set_rate(rate);
        Ok(())
    }
    pub fn sample_rate(&self) -> u32 {
        self.synth.rate()
    }
    pub fn set_rate_adjust(&mut self, factor: f64, now: u64) {
        self.catch_up(now);
        self.synth.set_adjust(factor);
    }
    /// Appends the samples produced since the last call to `out`.
    pub fn take_audio(&mut self, out: &mut Vec<i16>, now: u64) {
        self.catch_up(now);
        self.synth.flush();
        out.append(&mut self.synth.out);
    }
}
