//! Emulation speed and frame pacing, without drift.
//!
//! Two ways to pace real-time play:
//! - **Sound**: after each frame's samples are queued, wait until the sound device has
//!   played the queue down to its target level. The device's own clock then sets the
//!   frame rate (60.0988 Hz by that clock), and the queue can neither run dry nor grow.
//! - **Timer**: sleep to deadlines computed from a fixed start (frame k is due at
//!   start + k / 60.0988 s), so rounding and oversleeping never accumulate. Used when
//!   muted, without a sound device, at other speeds, or when the device stops draining.
//!
//! The clock and the queue are traits so the logic is tested against simulated ones.

use std::time::{Duration, Instant};

/// NTSC frames per second: 21.477272 MHz master clock / (4 * 341 * 262 - 2 dots).
pub const NTSC_FPS: f64 = 60.0988;

/// This far behind the timer schedule (a slow plug-in move, a stall), restart it instead
/// of racing through the missed frames; smaller lags (late wake-ups, a slow frame) are
/// made up, so they never accumulate. The sound path behaves alike: it makes up lags as
/// deep as its 50 ms queue and loses longer ones to an underrun.
const FAR_BEHIND: Duration = Duration::from_millis(50);
/// A device that has not drained the queue to its target in this long has stopped.
pub const SOUND_STALL: Duration = Duration::from_millis(500);
/// A sound clock this much faster than the system clock is broken (real devices are
/// within a fraction of a percent; a null sink plays as fast as it is fed), checked over
/// [`SOUND_CHECK`] windows. Slower is not judged: an overloaded emulator looks the same.
const SOUND_TOO_FAST: f64 = 1.05;
const SOUND_CHECK: Duration = Duration::from_secs(2);
/// Sleep bounds while waiting for the device: short enough to notice each chunk it
/// plays, long enough not to spin.
const MIN_NAP: Duration = Duration::from_micros(500);
const MAX_NAP: Duration = Duration::from_millis(20);

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Speed {
    Max,
    /// A multiple of real time (1 = 60.0988 frames per second).
    Times(f64),
}

impl std::str::FromStr for Speed {
    type Err = String;
    fn from_str(s: &str) -> Result<Speed, String> {
        if s.eq_ignore_ascii_case("max") {
            return Ok(Speed::Max);
        }
        match s.parse::<f64>() {
            Ok(x) if x > 0.0 && x.is_finite() => Ok(Speed::Times(x)),
            _ => Err(format!(
                "'{s}' is not a speed: use max, 1 (real time) or a multiple such as 0.5 or 4"
            )),
        }
    }
}

/// What paces real-time play in the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaceBy {
    /// The sound device's clock while sound plays at speed 1, else the timer.
    Sound,
    Timer,
}

impl std::str::FromStr for PaceBy {
    type Err = String;
    fn from_str(s: &str) -> Result<PaceBy, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "sound" | "audio" => Ok(PaceBy::Sound),
            "timer" => Ok(PaceBy::Timer),
            _ => Err(format!("'{s}' is not a pacing source: use sound or timer")),
        }
    }
}

/// Time as the pacer sees it.
pub trait Clock {
    /// Time since a fixed origin.
    fn now(&self) -> Duration;
    fn sleep(&self, d: Duration);
}

/// The operating system's monotonic clock.
pub struct SystemClock(Instant);

impl Default for SystemClock {
    fn default() -> Self {
        SystemClock(Instant::now())
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.0.elapsed()
    }
    fn sleep(&self, d: Duration) {
        std::thread::sleep(d);
    }
}

/// The sound device's queue as the emulation thread sees it.
pub trait SoundQueue {
    /// Samples queued and not yet played.
    fn queued(&self) -> usize;
    /// Samples the device plays per second.
    fn sample_rate(&self) -> u32;
}

pub struct Pacer<C: Clock = SystemClock> {
    clock: C,
    speed: Speed,
    /// The timer schedule: frame `frames` is due at `start + frames / fps`.
    start: Duration,
    frames: u64,
    /// Sound-paced frames since the check window began, once the queue first filled.
    sound_window: Option<(Duration, u64)>,
}

impl Pacer<SystemClock> {
    pub fn new(speed: Speed) -> Pacer {
        Pacer::with_clock(speed, SystemClock::default())
    }
}

impl<C: Clock> Pacer<C> {
    pub fn with_clock(speed: Speed, clock: C) -> Pacer<C> {
        let start = clock.now();
        Pacer {
            clock,
            speed,
            start,
            frames: 0,
            sound_window: None,
        }
    }
    pub fn speed(&self) -> Speed {
        self.speed
    }
    /// Changes speed from now on (the deadline schedule restarts).
    pub fn set_speed(&mut self, speed: Speed) {
        self.speed = speed;
        self.restart();
    }
    /// Starts afresh from now (after a pause or a slow first frame).
    pub fn restart(&mut self) {
        self.anchor();
        self.sound_window = None;
    }
    fn anchor(&mut self) {
        self.start = self.clock.now();
        self.frames = 0;
    }

    /// Timer pacing: call once per emulated frame; returns after that frame's deadline.
    pub fn wait(&mut self) {
        self.frames += 1;
        let Speed::Times(x) = self.speed else { return };
        let due = self.start + Duration::from_secs_f64(self.frames as f64 / (NTSC_FPS * x));
        let now = self.clock.now();
        if due > now {
            self.clock.sleep(due - now);
        } else if now - due > FAR_BEHIND {
            log::debug!("pacing: {:?} behind, schedule restarted", now - due);
            self.anchor();
        }
    }

    /// Sound pacing (at speed 1): call once per frame after queueing its samples; returns
    /// when the device has played the queue down to `target` samples. An error means the
    /// device stopped draining for [`SOUND_STALL`], or plays far faster than real time:
    /// pace by the timer from then on.
    pub fn wait_for_sound(&mut self, queue: &dyn SoundQueue, target: usize) -> Result<(), String> {
        let begin = self.clock.now();
        let rate = f64::from(queue.sample_rate().max(1));
        loop {
            let queued = queue.queued();
            if queued <= target {
                break;
            }
            if self.clock.now() - begin > SOUND_STALL {
                self.restart();
                return Err(format!(
                    "the sound device stopped playing ({queued} samples stuck in its queue)"
                ));
            }
            // The queue is full from here on; frames before this only filled it.
            self.sound_window.get_or_insert((begin, 0));
            let drain = Duration::from_secs_f64((queued - target) as f64 / rate);
            self.clock.sleep(drain.clamp(MIN_NAP, MAX_NAP));
        }
        // Keep the timer schedule anchored here, so switching to it continues smoothly.
        self.anchor();
        self.check_sound_clock()
    }

    fn check_sound_clock(&mut self) -> Result<(), String> {
        let Some((since, frames)) = self.sound_window.as_mut() else {
            return Ok(());
        };
        *frames += 1;
        let span = self.clock.now() - *since;
        if span < SOUND_CHECK {
            return Ok(());
        }
        let ratio = *frames as f64 / span.as_secs_f64() / NTSC_FPS;
        self.sound_window = Some((self.clock.now(), 0));
        if ratio > SOUND_TOO_FAST {
            self.restart();
            return Err(format!(
                "the sound device plays {:.0}% faster than real time",
                (ratio - 1.0) * 100.0
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "pacing_tests.rs"]
mod tests;
