//! Sound between two APU events: nothing but the channels' timers moves there (envelopes,
//! lengths, sweeps and the DMC level only change at events), so each sounding channel is a
//! fixed oscillator. Each keeps the cycle of its next step (for a pulse and the noise: of
//! the next step that changes its output, as many do not); the loop jumps from one to the
//! next, mixes only then, and hands the synthesiser a delta only when the mixed level
//! moved. The channels' own state is advanced once, arithmetically, at the end.

use super::Apu;
use super::noise::next_change;
use super::pulse::{DUTY, DUTY_RUNS};
use super::synth::mix;
use super::triangle;

/// Never: a silent or stopped channel.
const NEVER: u32 = u32::MAX;

impl Apu {
    /// Synthesises `n` cycles from `synth_cycle - n` (first cycle of parity `odd`) in which
    /// no channel is re-mixed for any reason but its own timer.
    pub(super) fn synth_span(&mut self, n: u32, odd: bool) {
        let (v1, d1, mut s1, f1, e1) = self.pulse[0].voice(odd);
        let (v2, d2, mut s2, f2, e2) = self.pulse[1].voice(odd);
        let (duty1, runs1, duty2, runs2) = (&DUTY[d1], &DUTY_RUNS[d1], &DUTY[d2], &DUTY_RUNS[d2]);
        // A sounding pulse's first change comes that many steps after its first step.
        let first_change = |v: u8, f: u32, e: u32, runs: &[u8; 8], s: u8| match v {
            0 => NEVER,
            _ => f.saturating_add(e * (u32::from(runs[usize::from(s)]) - 1)),
        };
        let (mut st, ft, et) = self.triangle.voice();
        let (vn, mut lfsr, tap, fnz, en) = self.noise.voice();
        // The noise, too, goes from one change of its output to the next: `shifted` is the
        // register there.
        let (mut shifted, k) = next_change(lfsr, tap);
        let dmc = self.dmc.level;
        // Absolute (1-based) cycle of each channel's next step within the span.
        let mut t = [
            first_change(v1, f1, e1, runs1, s1),
            first_change(v2, f2, e2, runs2, s2),
            ft,
            match vn {
                0 => NEVER,
                _ => fnz.saturating_add(en * (k - 1)),
            },
        ];
        loop {
            let at = t[0].min(t[1]).min(t[2]).min(t[3]);
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
            let level = mix(
                duty1[usize::from(s1)] * v1,
                duty2[usize::from(s2)] * v2,
                triangle::level(st),
                if lfsr & 1 == 0 { vn } else { 0 },
                dmc,
            );
            self.synth.set_level_at(at - 1, level);
        }
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
        debug_assert!(ft == NEVER || self.triangle.voice().0 == st);
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
