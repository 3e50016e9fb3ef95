//! Keeps the output buffer at a steady fill by nudging the resampling ratio: the emulator
//! and the sound card run on different clocks, so a fixed ratio slowly underruns
//! (crackle) or overfills (growing latency).

/// Largest nudge: 0.5% is far below an audible pitch change.
const MAX_NUDGE: f64 = 0.005;
/// Smoothing of the measured fill (fraction of each new reading).
const SMOOTHING: f64 = 0.2;
/// Proportional and integral gains on the relative fill error (per update, i.e. per
/// frame); the integral removes the steady offset a clock mismatch would otherwise leave.
const KP: f64 = 0.02;
const KI: f64 = 0.00005;

#[derive(Clone, Debug)]
pub struct RateControl {
    target: f64,
    avg: f64,
    integral: f64,
}

impl RateControl {
    /// `target_fill`: samples to keep queued (e.g. three frames' worth).
    pub fn new(target_fill: usize) -> RateControl {
        let target = target_fill.max(1) as f64;
        RateControl {
            target,
            avg: target,
            integral: 0.0,
        }
    }

    /// Takes the current fill level; returns the ratio factor to use for the next frame
    /// (above 1 produces more samples).
    pub fn update(&mut self, fill: usize) -> f64 {
        self.avg += SMOOTHING * (fill as f64 - self.avg);
        let error = (self.target - self.avg) / self.target;
        self.integral = (self.integral + KI * error).clamp(-MAX_NUDGE, MAX_NUDGE);
        1.0 + (KP * error + self.integral).clamp(-MAX_NUDGE, MAX_NUDGE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A simulated sound card that drains 0.3% faster than the nominal rate: with the
    /// control loop the fill settles near the target instead of draining to zero.
    #[test]
    fn holds_fill_against_clock_drift() {
        let mut rc = RateControl::new(2400);
        let mut fill = 2400.0f64;
        let mut factor = 1.0;
        for _ in 0..60 * 60 * 10 {
            fill += 800.0 * factor; // one frame produced
            fill -= 800.0 * 1.003; // the card's consumption
            fill = fill.max(0.0);
            factor = rc.update(fill as usize);
        }
        assert!((fill - 2400.0).abs() < 240.0, "fill drifted to {fill}");
        assert!(factor > 1.0 && factor <= 1.0 + MAX_NUDGE);
    }
}
