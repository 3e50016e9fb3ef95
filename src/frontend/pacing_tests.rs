//! Pacing against a simulated clock and sound device: hours of play in milliseconds, and
//! exact answers instead of wall-clock timing.

use super::*;
use std::cell::Cell;
use std::rc::Rc;

/// Simulated time plus a sound device that plays `chunk` samples per callback at `rate`
/// (its real rate, which may differ from the nominal 48 kHz it reports).
struct Sim {
    t: Cell<f64>,
    /// Every sleep lasts this much longer than asked (the OS wakes threads late).
    oversleep: f64,
    rate: f64,
    chunk: usize,
    playing: bool,
    next_callback: Cell<f64>,
    queued: Cell<usize>,
    max_queued: Cell<usize>,
    /// Samples the device wanted and did not get (underruns).
    starved: Cell<usize>,
}

impl Sim {
    fn new(rate: f64, chunk: usize, playing: bool) -> Rc<Sim> {
        Rc::new(Sim {
            t: Cell::new(0.0),
            oversleep: 0.000_08,
            rate,
            chunk,
            playing,
            next_callback: Cell::new(0.0),
            queued: Cell::new(0),
            max_queued: Cell::new(0),
            starved: Cell::new(0),
        })
    }
    fn advance(&self, dt: f64) {
        let end = self.t.get() + dt;
        while self.playing && self.next_callback.get() <= end {
            let take = self.chunk.min(self.queued.get());
            self.starved.set(self.starved.get() + self.chunk - take);
            self.queued.set(self.queued.get() - take);
            self.next_callback
                .set(self.next_callback.get() + self.chunk as f64 / self.rate);
        }
        self.t.set(end);
    }
    fn push(&self, n: usize) {
        self.queued.set(self.queued.get() + n);
        self.max_queued
            .set(self.max_queued.get().max(self.queued.get()));
    }
}

impl Clock for Rc<Sim> {
    fn now(&self) -> Duration {
        Duration::from_secs_f64(self.t.get())
    }
    fn sleep(&self, d: Duration) {
        self.advance(d.as_secs_f64() + self.oversleep);
    }
}

impl SoundQueue for Rc<Sim> {
    fn queued(&self) -> usize {
        self.queued.get()
    }
    fn sample_rate(&self) -> u32 {
        48_000
    }
}

/// A small deterministic generator for emulation times.
fn lcg(state: &mut u64) -> f64 {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    (*state >> 11) as f64 / (1u64 << 53) as f64
}

#[test]
fn speed_parses_and_refuses() {
    assert_eq!("max".parse::<Speed>(), Ok(Speed::Max));
    assert_eq!("2".parse::<Speed>(), Ok(Speed::Times(2.0)));
    assert!("0".parse::<Speed>().unwrap_err().contains("'0'"));
    assert!("fast".parse::<Speed>().is_err());
}

/// Ten minutes at 1x with jittery frame costs and late wake-ups: every frame ends within
/// a millisecond of its deadline, so nothing accumulates.
#[test]
fn timer_holds_deadlines_without_drift() {
    let sim = Sim::new(48_000.0, 512, false);
    let mut pacer = Pacer::with_clock(Speed::Times(1.0), sim.clone());
    let mut seed = 1;
    let frames = 36_000;
    for k in 1..=frames {
        sim.advance(0.002 + 0.012 * lcg(&mut seed));
        pacer.wait();
        let late = sim.t.get() - k as f64 / NTSC_FPS;
        assert!((0.0..0.001).contains(&late), "frame {k} is {late} s off");
    }
    // Double speed follows its own schedule from the change on.
    pacer.set_speed(Speed::Times(2.0));
    let t0 = sim.t.get();
    for _ in 0..1200 {
        sim.advance(0.001);
        pacer.wait();
    }
    let fps = 1200.0 / (sim.t.get() - t0);
    assert!((fps - 2.0 * NTSC_FPS).abs() < 0.1, "{fps}");
}

/// After a long stall the schedule restarts instead of running frames back to back.
#[test]
fn timer_restarts_after_a_stall() {
    let sim = Sim::new(48_000.0, 512, false);
    let mut pacer = Pacer::with_clock(Speed::Times(1.0), sim.clone());
    for _ in 0..60 {
        pacer.wait();
    }
    sim.advance(2.0);
    pacer.wait();
    let resumed = sim.t.get();
    for k in 1..=60 {
        pacer.wait();
        let since = sim.t.get() - resumed;
        assert!(
            since >= k as f64 / NTSC_FPS,
            "frame {k} came early: {since}"
        );
    }
}

/// An hour of sound-paced play with a device running 300 ppm fast and frame costs of
/// 1-13 ms: frames follow the device's clock exactly, the queue never runs dry after the
/// start and never grows beyond the target plus one frame and one chunk.
#[test]
fn sound_device_clock_paces_frames() {
    let rate = 48_000.0 * (1.0 + 300e-6);
    let (chunk, target) = (512, 2400);
    let sim = Sim::new(rate, chunk, true);
    let mut pacer = Pacer::with_clock(Speed::Times(1.0), sim.clone());
    let per_frame = 48_000.0 / NTSC_FPS;
    let (mut owed, mut seed) = (0.0, 7);
    let frames = 216_000u64;
    let (mut t_warm, mut starved_warm) = (0.0, 0);
    for k in 1..=frames {
        sim.advance(0.001 + 0.012 * lcg(&mut seed));
        owed += per_frame;
        sim.push(owed as usize);
        owed -= owed.floor();
        pacer.wait_for_sound(&sim, target).unwrap();
        if k == 60 {
            (t_warm, starved_warm) = (sim.t.get(), sim.starved.get());
        }
    }
    assert_eq!(sim.starved.get(), starved_warm, "underrun after warm-up");
    assert!(sim.max_queued.get() <= target + per_frame as usize + chunk + 1);
    let fps = (frames - 60) as f64 / (sim.t.get() - t_warm);
    let expected = NTSC_FPS * (1.0 + 300e-6);
    assert!(
        ((fps - expected) / expected).abs() < 2e-5,
        "fps {fps}, device clock gives {expected}"
    );
}

/// A device that stops playing is noticed within the stall limit, and the timer
/// schedule then starts from that moment.
#[test]
fn stalled_sound_device_is_reported() {
    let sim = Sim::new(48_000.0, 512, false);
    let mut pacer = Pacer::with_clock(Speed::Times(1.0), sim.clone());
    sim.push(5_000);
    let err = pacer.wait_for_sound(&sim, 2400).unwrap_err();
    assert!(err.contains("stopped playing"), "{err}");
    let waited = sim.t.get();
    assert!(waited > SOUND_STALL.as_secs_f64() && waited < SOUND_STALL.as_secs_f64() + 0.05);
    pacer.wait();
    let next = sim.t.get() - waited;
    assert!((next - 1.0 / NTSC_FPS).abs() < 0.001, "{next}");
}

/// A device that plays far faster than real time (a null sink) is refused after one
/// check window; a device a little off (300 ppm above) passed the hour-long test above.
#[test]
fn sound_device_far_too_fast_is_reported() {
    let sim = Sim::new(48_000.0 * 1.4, 512, true);
    let mut pacer = Pacer::with_clock(Speed::Times(1.0), sim.clone());
    let per_frame = 48_000 / 60;
    for frame in 0..1000 {
        sim.advance(0.001);
        sim.push(per_frame);
        if let Err(e) = pacer.wait_for_sound(&sim, 2400) {
            assert!(e.contains("40% faster"), "{e}");
            let t = sim.t.get();
            assert!(
                t >= SOUND_CHECK.as_secs_f64() && t < 2.0 * SOUND_CHECK.as_secs_f64(),
                "{t}"
            );
            return;
        }
        assert!(frame < 999, "never noticed");
    }
}
