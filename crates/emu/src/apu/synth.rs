//! From channel levels to host-rate PCM: the non-linear mixer, band-limited step synthesis
//! (each change of the mixed level is added as a windowed-sinc step at its exact sub-sample
//! time, so high notes do not alias), then the console's output filters (high-pass 90 Hz
//! and 440 Hz, low-pass 14 kHz) at the host rate.
//!
//! The per-instance state is a few floats and a buffer of about one frame of samples; the
//! kernel table is shared (`static`), so cloning a machine stays cheap.

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// NTSC CPU clock (21.477272 MHz / 12).
pub const CPU_HZ: f64 = 21_477_272.0 / 12.0;

/// Kernel width in output samples and sub-sample phases.
const TAPS: usize = 32;
const PHASE_BITS: u32 = 6;
const PHASES: usize = 1 << PHASE_BITS;
/// Sinc cutoff as a fraction of the output rate; with the Blackman window's transition
/// band it is fully attenuated by the Nyquist frequency.
const CUTOFF: f64 = 0.40;
/// Steps of the noise or the DMC alone get a kernel half as long (the noise's are most of
/// them when it plays high, the DMC's when it plays samples): a Kaiser window (beta 7) with
/// the sinc at 0.42 of the output rate is flat to 14 kHz (-0.4 dB at 16 kHz) and keeps
/// what folds below 16 kHz 80 dB down; what it lets through between 24 and 32 kHz folds
/// to 16-24 kHz. The tonal channels keep the long kernel.
const SHORT_TAPS: usize = 16;
const SHORT_CUTOFF: f64 = 0.42;
const SHORT_BETA: f64 = 7.0;
/// Output gain: the mixer's full range is about 0..1.
const GAIN: f32 = 30_000.0;
/// Cap on undrained output, in 1/15 s (about four frames): a host that never drains (a
/// bench, an AI lookahead clone) keeps the machine small and cheap to clone.
const MAX_PENDING_FRACTION: usize = 15;

/// A mixer lookup table (nesdev "APU Mixer" formulas): entry n is
/// `scale / (divisor / n + 100)`, and 0 for n = 0.
const fn mix_table<const N: usize>(scale: f32, divisor: f32) -> [f32; N] {
    let mut t = [0.0f32; N];
    let mut n = 1;
    while n < N {
        t[n] = scale / (divisor / n as f32 + 100.0);
        n += 1;
    }
    t
}
static PULSE: [f32; 31] = mix_table(95.52, 8128.0);
static TND: [f32; 203] = mix_table(163.67, 24329.0);

/// Mixed level (0..~1) of the five channel outputs.
#[inline]
pub fn mix(p1: u8, p2: u8, tri: u8, noise: u8, dmc: u8) -> f32 {
    PULSE[usize::from(p1 + p2)]
        + TND[3 * usize::from(tri) + 2 * usize::from(noise) + usize::from(dmc)]
}

/// The tonal channels' share of the mixer's inputs: a change of level with the same key is
/// the noise's or the DMC's alone.
#[inline]
pub fn mix_key(p1: u8, p2: u8, tri: u8) -> u16 {
    u16::from(p1 + p2) << 8 | u16::from(tri)
}

/// A step is added in whole blocks of `LANES` floats aligned on the buffer, so the adds
/// compile to vector operations and a step's loads meet the previous step's stores at the
/// same addresses (overlapping unaligned ones stall the store-to-load forwarding).
const LANES: usize = 4;
/// Floats a step touches: the kernel and up to `LANES - 1` before it, in whole blocks.
const SPAN: usize = TAPS + LANES;
const SHORT_SPAN: usize = SHORT_TAPS + LANES;
/// A kernel row with `LANES - 1` zeros before it and enough after for any misalignment.
const ROW: usize = TAPS + 2 * LANES;
const SHORT_ROW: usize = SHORT_TAPS + 2 * LANES;
/// The short kernel starts this many samples into the long one's span, so both are
/// centred on the same instant (no channel's timing moves against another's).
const SHORT_LAG: usize = (TAPS - SHORT_TAPS) / 2;

struct Kernels {
    long: [[f32; ROW]; PHASES],
    short: [[f32; SHORT_ROW]; PHASES],
}

/// Windowed-sinc impulses of `taps` taps, one row per sub-sample phase, each normalised
/// to unit sum so a step always settles at exactly its height (no DC drift); row entry
/// `LANES - 1 + i` is tap `i`, the padding is zero (adding a zero leaves a sample as it
/// was). `window` maps the position across the kernel, 0..=1, to its weight.
fn rows<const N: usize>(
    taps: usize,
    cutoff: f64,
    window: impl Fn(f64) -> f64,
) -> [[f32; N]; PHASES] {
    let mut k = [[0.0f32; N]; PHASES];
    for (phase, row) in k.iter_mut().enumerate() {
        let frac = phase as f64 / PHASES as f64;
        let tmp: Vec<f64> = (0..taps)
            .map(|i| {
                // Distance from the impulse, which sits at taps/2 + frac.
                let x = i as f64 - (taps / 2) as f64 - frac;
                let sinc = if x == 0.0 {
                    2.0 * cutoff
                } else {
                    (2.0 * std::f64::consts::PI * cutoff * x).sin() / (std::f64::consts::PI * x)
                };
                let w = (x + (taps / 2) as f64) / taps as f64;
                let win = if (0.0..=1.0).contains(&w) {
                    window(w)
                } else {
                    0.0
                };
                sinc * win
            })
            .collect();
        let sum: f64 = tmp.iter().sum();
        for (dst, v) in row[LANES - 1..].iter_mut().zip(tmp) {
            *dst = (v / sum) as f32;
        }
    }
    k
}

/// The modified Bessel function I0 (its series converges fast for the betas used here).
fn bessel_i0(x: f64) -> f64 {
    let (mut sum, mut term) = (1.0, 1.0);
    for k in 1..40 {
        term *= (x / (2.0 * k as f64)).powi(2);
        sum += term;
    }
    sum
}

fn kernels() -> &'static Kernels {
    static K: OnceLock<Box<Kernels>> = OnceLock::new();
    K.get_or_init(|| {
        let blackman = |w: f64| {
            let a = 2.0 * std::f64::consts::PI * w;
            0.42 - 0.5 * a.cos() + 0.08 * (2.0 * a).cos()
        };
        let kaiser = |w: f64| {
            let r = 2.0 * w - 1.0;
            bessel_i0(SHORT_BETA * (1.0 - r * r).max(0.0).sqrt()) / bessel_i0(SHORT_BETA)
        };
        Box::new(Kernels {
            long: rows(TAPS, CUTOFF, blackman),
            short: rows(SHORT_TAPS, SHORT_CUTOFF, kaiser),
        })
    })
}

/// Adds `delta` times the kernel `row` (read shifted by `skew`) to the `SPAN` floats of
/// `acc` from the block-aligned `start` on.
#[inline(always)]
fn add_blocks<const SPAN: usize, const ROW: usize>(
    acc: &mut [f32],
    start: usize,
    row: &[f32; ROW],
    skew: usize,
    delta: f32,
) {
    let row: &[f32; SPAN] = row[LANES - 1 - skew..][..SPAN].try_into().unwrap();
    let dst: &mut [f32; SPAN] = (&mut acc[start..start + SPAN]).try_into().unwrap();
    for b in 0..SPAN / LANES {
        // Both blocks are read into locals before the store, so the compiler need not
        // fear they overlap and makes one vector multiply-add of each block.
        let a: [f32; LANES] = std::array::from_fn(|l| dst[b * LANES + l]);
        let k: [f32; LANES] = std::array::from_fn(|l| row[b * LANES + l]);
        for l in 0..LANES {
            dst[b * LANES + l] = a[l] + delta * k[l];
        }
    }
}

/// Output samples per CPU cycle at `rate` nudged by `adjust`, in 32.32 fixed point.
fn step_for(rate: u32, adjust: f64) -> u64 {
    let per_cycle = f64::from(rate) / CPU_HZ * adjust;
    (per_cycle * (1u64 << 32) as f64).round() as u64
}

#[derive(Clone, Serialize, Deserialize)]
pub struct Synth {
    rate: u32,
    /// Output samples per CPU cycle, 32.32 fixed point, including the host's nudge.
    step: u64,
    adjust: f64,
    /// Fractional output position of cycle 0 of the current block (32.32).
    base: u64,
    /// CPU cycles since the last flush.
    cycles: u32,
    level: f32,
    /// The tonal channels' inputs at the last level (`mix_key`): a step with the same key
    /// is the noise's or the DMC's alone and gets the short kernel.
    key: u16,
    /// Pending impulses; index 0 is the first output sample not yet emitted.
    acc: Vec<f32>,
    hp90: HighPass,
    hp440: HighPass,
    lp14k: LowPass,
    /// Finished samples waiting for the host.
    pub(crate) out: Vec<i16>,
}

#[derive(Clone, Default, Serialize, Deserialize)]
struct HighPass {
    a: f32,
    prev_in: f32,
    prev_out: f32,
}

/// The RC time constant of a first-order filter with corner `hz`, and the sample period.
fn rc_and_dt(hz: f64, rate: u32) -> (f64, f64) {
    (
        1.0 / (2.0 * std::f64::consts::PI * hz),
        1.0 / f64::from(rate),
    )
}

impl HighPass {
    fn new(hz: f64, rate: u32) -> HighPass {
        let (rc, dt) = rc_and_dt(hz, rate);
        HighPass {
            a: (rc / (rc + dt)) as f32,
            ..HighPass::default()
        }
    }
    #[inline]
    fn run(&mut self, x: f32) -> f32 {
        // The input's change first, so one add and one multiply lie between one output
        // and the next (the chain that bounds how fast samples go through).
        self.prev_out = self.a * (self.prev_out + (x - self.prev_in));
        self.prev_in = x;
        self.prev_out
    }
    /// The same fed the input's change since the last sample.
    #[inline]
    fn run_changes(&mut self, dx: f32) -> f32 {
        self.prev_out = self.a * (self.prev_out + dx);
        self.prev_out
    }
}

#[derive(Clone, Default, Serialize, Deserialize)]
struct LowPass {
    b: f32,
    /// 1 - b.
    keep: f32,
    prev: f32,
}

impl LowPass {
    fn new(hz: f64, rate: u32) -> LowPass {
        let (rc, dt) = rc_and_dt(hz, rate);
        let b = dt / (rc + dt);
        LowPass {
            b: b as f32,
            keep: (1.0 - b) as f32,
            prev: 0.0,
        }
    }
    #[inline]
    fn run(&mut self, x: f32) -> f32 {
        // prev + b * (x - prev) with one multiply and one add between outputs, not three
        // operations: the filters ran a third faster (outputs differ by at most 1 LSB).
        self.prev = self.keep * self.prev + self.b * x;
        self.prev
    }
}

impl Default for Synth {
    fn default() -> Self {
        Synth::new(super::DEFAULT_SAMPLE_RATE)
    }
}

impl Synth {
    pub fn new(rate: u32) -> Synth {
        let mut s = Synth {
            rate,
            step: 0,
            adjust: 1.0,
            base: 0,
            cycles: 0,
            level: 0.0,
            key: 0,
            acc: vec![0.0; TAPS + 1024],
            hp90: HighPass::new(90.0, rate),
            hp440: HighPass::new(440.0, rate),
            lp14k: LowPass::new(14_000.0, rate),
            out: Vec::new(),
        };
        s.update_step();
        s
    }

    /// Restarts output at rest on `level`, as if it had held for ever, on the sample grid
    /// an uninterrupted run from power-on has at CPU cycle `cycle`; keeps rate and adjust.
    pub fn settle(&mut self, level: f32, key: u16, cycle: u64) {
        let mut fresh = Synth::new(self.rate);
        fresh.adjust = self.adjust;
        fresh.update_step();
        fresh.base = ((u128::from(cycle) * u128::from(fresh.step)) & 0xFFFF_FFFF) as u64;
        fresh.level = level;
        fresh.key = key;
        // Settled filters: constant input, so each high-pass outputs 0 (the first one is
        // fed the level's changes, not the level).
        *self = fresh;
    }

    /// A loaded state's invariants: the step follows from rate and adjust, and the block
    /// position, cycle count and buffers are within what running ever leaves (a forged
    /// step or position would make flushing run for ever).
    pub(crate) fn check(&self) -> Result<(), crate::invalid::InvalidState> {
        crate::invalid::ensure(
            self.rate > 0
                && (0.95..=1.05).contains(&self.adjust)
                && step_for(self.rate, self.adjust) == self.step
                && self.base < 1 << 40
                && self.cycles <= 36_000
                && self.acc.len() >= TAPS
                && self.acc.len() <= 4096
                && self.out.len() <= self.rate as usize / MAX_PENDING_FRACTION + 4096,
            "bus.apu.synth",
            || {
                format!(
                    "rate {} step {} adjust {} base {} cycles {} buffer {}",
                    self.rate,
                    self.step,
                    self.adjust,
                    self.base,
                    self.cycles,
                    self.acc.len()
                )
            },
        )
    }

    pub fn rate(&self) -> u32 {
        self.rate
    }

    /// Changes the host rate; pending output is flushed at the old rate first.
    pub fn set_rate(&mut self, rate: u32) {
        self.flush();
        let mut fresh = Synth::new(rate);
        fresh.level = self.level;
        fresh.key = self.key;
        fresh.adjust = self.adjust;
        fresh.update_step();
        fresh.out = std::mem::take(&mut self.out);
        *self = fresh;
    }

    /// Scales the resampling ratio (e.g. 1.002 makes 0.2% more samples) so a host can
    /// hold its output buffer at a steady fill. Clamped to +-5%.
    pub fn set_adjust(&mut self, factor: f64) {
        self.flush();
        self.adjust = factor.clamp(0.95, 1.05);
        self.update_step();
    }

    fn update_step(&mut self) {
        self.step = step_for(self.rate, self.adjust);
    }

    /// A new mixed level, whose tonal inputs are `key`, from the current CPU cycle on.
    pub fn set_level(&mut self, level: f32, key: u16) {
        let mut steps = self.steps(0);
        steps.set_level_at(0, level, key);
        let end = steps.end();
        self.end_steps(end);
    }

    /// Step-adding for the next `span` cycles (the buffer made long enough once); hand
    /// `Steps::end` to `end_steps` when done.
    #[inline]
    pub fn steps(&mut self, span: u32) -> Steps<'_> {
        let now = self.base + u64::from(self.cycles) * self.step;
        let last = ((now + u64::from(span) * self.step) >> 32) as usize;
        if last + SPAN > self.acc.len() {
            self.acc.resize(last + SPAN, 0.0);
        }
        Steps {
            acc: &mut self.acc,
            now,
            step: self.step,
            level: self.level,
            key: self.key,
            kernels: kernels(),
        }
    }

    #[inline]
    pub fn end_steps(&mut self, (level, key): (f32, u16)) {
        (self.level, self.key) = (level, key);
    }

    /// Ends one CPU cycle.
    #[inline]
    pub fn tick(&mut self) {
        self.cycles += 1;
        // About 1.2 frames of cycles: flush so the buffer never needs to grow.
        if self.cycles >= 36_000 {
            self.flush();
        }
    }

    /// Ends `n` CPU cycles with no level change.
    pub fn skip(&mut self, n: u32) {
        self.cycles += n;
        if self.cycles >= 36_000 {
            self.flush();
        }
    }

    /// Emits every output sample that no future step can still change.
    pub fn flush(&mut self) {
        let t = self.base + u64::from(self.cycles) * self.step;
        let done = ((t >> 32) as usize).min(self.acc.len());
        let (mut hp90, mut hp440, mut lp14k) =
            (self.hp90.clone(), self.hp440.clone(), self.lp14k.clone());
        self.out.extend(self.acc[..done].iter().map(|&delta| {
            // The buffer holds the level's changes: the first high-pass needs no more.
            let x = lp14k.run(hp440.run(hp90.run_changes(delta))) * GAIN;
            // Rounded to nearest by the float adder: past 1.5 * 2^23 the units are whole,
            // and the low 16 bits of the mantissa are then the sample in two's complement.
            (x.clamp(-32768.0, 32767.0) + 12_582_912.0).to_bits() as u16 as i16
        }));
        (self.hp90, self.hp440, self.lp14k) = (hp90, hp440, lp14k);
        self.acc.copy_within(done.., 0);
        let len = self.acc.len();
        self.acc[len - done..].fill(0.0);
        self.base = t - ((done as u64) << 32);
        self.cycles = 0;
        let cap = self.rate as usize / MAX_PENDING_FRACTION;
        if self.out.len() > cap {
            let excess = self.out.len() - cap;
            self.out.drain(..excess);
        }
    }
}

/// The synthesiser's step-adding state in locals, for loops that add many steps: kept in
/// registers, where through a `&mut Synth` each would be re-read after every store to the
/// buffer.
pub struct Steps<'a> {
    acc: &'a mut [f32],
    /// Output position (32.32) of the current CPU cycle.
    now: u64,
    step: u64,
    level: f32,
    key: u16,
    kernels: &'static Kernels,
}

impl Steps<'_> {
    /// A new mixed level, whose tonal inputs are `key`, from `offset`
    /// CPU cycles after the current one on (within the span asked for).
    #[inline]
    pub fn set_level_at(&mut self, offset: u32, level: f32, key: u16) {
        if level != self.level {
            self.add_step_at(offset, level - self.level, key == self.key);
            self.level = level;
        }
        self.key = key;
    }

    #[inline(always)]
    fn add_step_at(&mut self, offset: u32, delta: f32, short: bool) {
        let t = self.now + u64::from(offset) * self.step;
        let pos = (t >> 32) as usize;
        let phase = ((t >> (32 - PHASE_BITS)) as usize) & (PHASES - 1);
        let k = self.kernels;
        if short {
            let first = pos + SHORT_LAG;
            // The block start at or before `first`; the row is read shifted by the
            // difference.
            let skew = first % LANES;
            add_blocks::<SHORT_SPAN, SHORT_ROW>(
                self.acc,
                first - skew,
                &k.short[phase],
                skew,
                delta,
            );
        } else {
            let skew = pos % LANES;
            add_blocks::<SPAN, ROW>(self.acc, pos - skew, &k.long[phase], skew, delta);
        }
    }

    /// The level and key to hand back to `Synth::end_steps`.
    pub fn end(self) -> (f32, u16) {
        (self.level, self.key)
    }
}
