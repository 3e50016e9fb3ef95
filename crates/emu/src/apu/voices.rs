//! Sound between two APU events: nothing but the channels' timers moves there (envelopes,
//! lengths, sweeps and the DMC level only change at events), so each sounding channel is a
//! fixed oscillator. Each keeps the cycle of its next step (for a pulse and the noise: of
//! the next step that changes its output, as many do not); the loop jumps from one to the
//! next, mixes only then, and hands the synthesiser a delta only when the mixed level
//! moved. The channels' own state is advanced once, arithmetically, at the end.

use super::Apu;
use super::dmc::DmcWave;
use super::noise::{next_change, shifted_by};
use super::pulse::{DUTY, DUTY_RUNS};
use super::synth::{mix, mix_key};
use super::triangle;
use super::units::NEVER;

/// The span loop's state, carried from one span to the next while no channel is re-mixed
/// for any reason but its own timer (a new DMC level re-mixes without changing it): each
/// sounding channel's settings, its phase and the cycle of its next change, counted from
/// the next span's first cycle (1-based). Not machine state: rebuilt from the channels
/// whenever `valid` is false.
#[derive(Clone, Copy, Default)]
pub(super) struct Voices {
    pub(super) valid: bool,
    t: [u32; 4],
    /// Pulses: volume, duty row, sequencer step, cycles between steps.
    v1: u8,
    d1: usize,
    s1: u8,
    e1: u32,
    v2: u8,
    d2: usize,
    s2: u8,
    e2: u32,
    /// Triangle: sequencer step, cycles between steps.
    st: u8,
    et: u32,
    /// Noise: volume, register, feedback tap, cycles between shifts, and the register at
    /// its next change.
    vn: u8,
    lfsr: u16,
    tap: u32,
    en: u32,
    shifted: u16,
}

impl Voices {
    /// The channels' state at the first cycle (of parity `odd`) of a span.
    fn start(apu: &Apu, odd: bool) -> Voices {
        let (v1, d1, s1, f1, e1) = apu.pulse[0].voice(odd);
        let (v2, d2, s2, f2, e2) = apu.pulse[1].voice(odd);
        // A sounding pulse's first change comes that many steps after its first step.
        let first_change = |v: u8, f: u32, e: u32, d: usize, s: u8| match v {
            0 => NEVER,
            _ => f.saturating_add(e * (u32::from(DUTY_RUNS[d][usize::from(s)]) - 1)),
        };
        let (st, ft, et) = apu.triangle.voice();
        let (vn, lfsr, tap, fnz, en) = apu.noise.voice();
        // The noise, too, goes from one change of its output to the next: `shifted` is the
        // register there.
        let (shifted, k) = next_change(lfsr, tap);
        Voices {
            valid: true,
            t: [
                first_change(v1, f1, e1, d1, s1),
                first_change(v2, f2, e2, d2, s2),
                ft,
                match vn {
                    0 => NEVER,
                    _ => fnz.saturating_add(en * (k - 1)),
                },
            ],
            v1,
            d1,
            s1,
            e1,
            v2,
            d2,
            s2,
            e2,
            st,
            et,
            vn,
            lfsr,
            tap,
            en,
            shifted,
        }
    }
}

impl Voices {
    /// The next span starts `n` cycles on (every pending change lies beyond this span).
    fn rebase(&mut self, n: u32) {
        for c in &mut self.t {
            if *c != NEVER {
                *c -= n;
            }
        }
    }

    /// The mixed level now and its tonal share.
    fn level(&self, dmc: u8) -> (f32, u16) {
        let p1 = DUTY[self.d1][usize::from(self.s1)] * self.v1;
        let p2 = DUTY[self.d2][usize::from(self.s2)] * self.v2;
        let tri = triangle::level(self.st);
        let noise = if self.lfsr & 1 == 0 { self.vn } else { 0 };
        (mix(p1, p2, tri, noise, dmc), mix_key(p1, p2, tri))
    }
}

impl Apu {
    /// Synthesises `n` cycles from `synth_cycle - n` (first cycle of parity `odd`) in which
    /// no channel is re-mixed for any reason but its own timer, the DMC's `wave`, or
    /// `remix` at the first cycle (the DMC level changed there).
    pub(super) fn synth_span(&mut self, n: u32, odd: bool, remix: bool, mut wave: DmcWave) {
        if !self.voices.valid {
            self.voices = Voices::start(self, odd);
        }
        let v = &mut self.voices;
        let mut td = wave.next_at();
        if v.t[0].min(v.t[1]).min(v.t[2]).min(v.t[3]).min(td) > n {
            // No waveform changes in the span.
            v.rebase(n);
            if remix {
                let (level, key) = v.level(wave.level);
                self.synth.set_level(level, key);
            }
            self.synth.skip(n);
            self.advance_channels(n, odd);
            return;
        }
        let Voices {
            mut t,
            v1,
            d1,
            mut s1,
            e1,
            v2,
            d2,
            mut s2,
            e2,
            mut st,
            et,
            vn,
            mut lfsr,
            tap,
            en,
            mut shifted,
            ..
        } = self.voices;
        let (duty1, runs1, duty2, runs2) = (&DUTY[d1], &DUTY_RUNS[d1], &DUTY[d2], &DUTY_RUNS[d2]);
        let mut dmc = wave.level;
        let outputs = |s1: u8, s2: u8, st: u8| {
            (
                duty1[usize::from(s1)] * v1,
                duty2[usize::from(s2)] * v2,
                triangle::level(st),
            )
        };
        let mut steps = self.synth.steps(n);
        // A change on the first cycle mixes the new DMC level in with it; else it gets a
        // mix of its own.
        if remix && t[0].min(t[1]).min(t[2]).min(t[3]).min(td) > 1 {
            let (p1, p2, tri) = outputs(s1, s2, st);
            let level = mix(p1, p2, tri, if lfsr & 1 == 0 { vn } else { 0 }, dmc);
            steps.set_level_at(0, level, mix_key(p1, p2, tri));
        }
        loop {
            let other = t[0].min(t[1]).min(t[2]).min(td);
            if t[3] < other {
                if t[3] > n {
                    break;
                }
                // Only the noise moves until the next other step: it toggles between two
                // levels, and every step it makes is its own (the short kernel).
                let (p1, p2, tri) = outputs(s1, s2, st);
                let (on, off) = (mix(p1, p2, tri, vn, dmc), mix(p1, p2, tri, 0, dmc));
                let key = mix_key(p1, p2, tri);
                let end = other.min(n + 1);
                // The event at t[3] (a change, or as far as next_change could see).
                lfsr = shifted;
                let level = if lfsr & 1 == 0 { on } else { off };
                steps.set_level_at(t[3] - 1, level, key);
                // From there the register's bits are the outputs of the shifts to come, a
                // block of 15 - tap shifts at a time: each set bit of r ^ (r >> 1) is a
                // change, one shift after its position.
                let block = 15 - tap;
                let (mut at, mut r, mut out) = (t[3], u32::from(lfsr), lfsr & 1);
                loop {
                    let mut changes = (r ^ (r >> 1)) & ((1 << block) - 1);
                    let mut done = 0;
                    while changes != 0 {
                        let k = changes.trailing_zeros() + 1;
                        if at + en * k >= end {
                            break;
                        }
                        out ^= 1;
                        let level = if out == 0 { on } else { off };
                        steps.set_level_at(at + en * k - 1, level, key);
                        done = k;
                        changes &= changes - 1;
                    }
                    if changes != 0 || at + en * block >= end {
                        // Stop at the last change made; the next event follows from there.
                        lfsr = shifted_by(r, done, tap);
                        let (next, k) = next_change(lfsr, tap);
                        shifted = next;
                        t[3] = at + en * (done + k);
                        break;
                    }
                    r = u32::from(shifted_by(r, block, tap));
                    at += en * block;
                }
                continue;
            }
            let at = other;
            if at > n {
                break;
            }
            if t[0] == at {
                s1 = (s1 + runs1[usize::from(s1)]) & 7;
                t[0] = t[0].saturating_add(e1 * u32::from(runs1[usize::from(s1)]));
            }
            if t[1] == at {
                s2 = (s2 + runs2[usize::from(s2)]) & 7;
                t[1] = t[1].saturating_add(e2 * u32::from(runs2[usize::from(s2)]));
            }
            if t[2] == at {
                st = (st + 1) & 31;
                t[2] = t[2].saturating_add(et);
            }
            if t[3] == at {
                lfsr = shifted;
                let (next, k) = next_change(lfsr, tap);
                shifted = next;
                t[3] = t[3].saturating_add(en * k);
            }
            if td == at {
                dmc = wave.step();
                td = wave.next_at();
            }
            let (p1, p2, tri) = outputs(s1, s2, st);
            let level = mix(p1, p2, tri, if lfsr & 1 == 0 { vn } else { 0 }, dmc);
            steps.set_level_at(at - 1, level, mix_key(p1, p2, tri));
        }
        let end = steps.end();
        self.synth.end_steps(end);
        self.voices = Voices {
            t,
            s1,
            s2,
            st,
            lfsr,
            shifted,
            ..self.voices
        };
        self.voices.rebase(n);
        self.synth.skip(n);
        self.advance_channels(n, odd);
        // The loop followed every sounding channel as the arithmetic did (silent ones move
        // too, unheard; a pulse may have stepped since its last change, to the same output).
        debug_assert!(
            v1 == 0 || duty1[usize::from(self.pulse[0].voice(odd).2)] == duty1[usize::from(s1)]
        );
        debug_assert!(
            v2 == 0 || duty2[usize::from(self.pulse[1].voice(odd).2)] == duty2[usize::from(s2)]
        );
        debug_assert!(t[2] == NEVER || self.triangle.voice().0 == st);
        debug_assert!(vn == 0 || self.noise.voice().1 & 1 == lfsr & 1);
    }

    /// Moves every channel's timer and sequencer `n` cycles on (first cycle of parity `odd`).
    pub(super) fn advance_channels(&mut self, n: u32, odd: bool) {
        let pulse_units = if odd { n.div_ceil(2) } else { n / 2 };
        self.pulse[0].advance(pulse_units);
        self.pulse[1].advance(pulse_units);
        self.triangle.advance(n);
        self.noise.advance(n);
    }
}
