//! How long the player's calibration takes on a cart from power-on, in the game's frames,
//! frames run on forks, CPU time, and the longest single frame (calibration runs a slice
//! per frame; no frame may stall), for `cargo bench --bench spot_calibration` and tests.
//! The player runs alone: the DOTS title starts a game by itself (slot 1 on pad 1 against
//! the cart's computer), as it would for a user who attaches the player and waits.

use super::variant::Cart;
use crate::calibrate::Calibration;
use crate::plugin::SpotPlugin;
use nesmind_host::{Frame, Plugin, PluginOptions, Rom, RomInfo, Session, Setup};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What one calibration cost.
#[derive(Clone, Debug)]
pub struct Timing {
    /// Frames the game ran from power-on until the player had calibrated from the picture.
    pub frames: u64,
    /// Frames the picture calibration ran on forks.
    pub fork_frames: u64,
    /// The RAM calibration, if it had finished by then (`None` with `ram=off`).
    pub calibration: Option<Calibration>,
    /// CPU time of the process over the whole run (emulation and calibration), if known.
    pub cpu_seconds: Option<f64>,
    pub wall_seconds: f64,
    /// The longest the player took over one frame.
    pub longest_frame: Duration,
    /// The status line the player showed then.
    pub status: String,
}

#[derive(Default)]
struct Seen {
    sight_fork_frames: Option<u64>,
    ram: Option<Calibration>,
    failure: Option<String>,
    longest: Duration,
}

/// Forwards to the player and keeps what its calibrations found.
struct Timed {
    inner: SpotPlugin,
    seen: Arc<Mutex<Seen>>,
}

impl Plugin for Timed {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn description(&self) -> &str {
        self.inner.description()
    }
    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        self.inner.on_attach(rom, setup)
    }
    fn on_frame(&mut self, frame: &mut dyn Frame) {
        let start = Instant::now();
        self.inner.on_frame(frame);
        let took = start.elapsed();
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        seen.longest = seen.longest.max(took);
        if seen.sight_fork_frames.is_none() {
            seen.sight_fork_frames = self.inner.sight_calibration().map(|c| c.fork_frames);
        }
        if seen.ram.is_none() {
            seen.ram = self.inner.calibration.clone();
        }
        if seen.failure.is_none() {
            seen.failure = self.inner.failure().map(str::to_string);
        }
    }
}

/// Runs `cart` from power-on with the player attached (with `options`) until it has
/// calibrated from the picture, at most `max_frames` frames.
pub fn time_calibration(
    cart: &Cart,
    max_frames: u64,
    options: &PluginOptions,
) -> Result<Timing, String> {
    let rom = Rom::parse(&cart.image, &cart.file_name).map_err(|e| e.to_string())?;
    let mut session = Session::new(rom)?;
    session.machine_mut().set_audio_enabled(false);
    let seen = Arc::new(Mutex::new(Seen::default()));
    let plugin = Timed {
        inner: SpotPlugin::from_options(options)?,
        seen: seen.clone(),
    };
    session.attach(Box::new(plugin), &[])?;
    let (cpu0, wall) = (crate::tools::process_cpu_seconds(), Instant::now());
    for _ in 0..max_frames {
        session.step()?;
        let s = seen.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(why) = &s.failure {
            return Err(format!("{}: the player stopped: {why}", cart.file_name));
        }
        if let Some(fork_frames) = s.sight_fork_frames {
            let cpu_seconds = match (cpu0, crate::tools::process_cpu_seconds()) {
                (Some(a), Some(b)) => Some(b - a),
                _ => None,
            };
            return Ok(Timing {
                frames: session.steps(),
                fork_frames,
                calibration: s.ram.clone(),
                cpu_seconds,
                wall_seconds: wall.elapsed().as_secs_f64(),
                longest_frame: s.longest,
                status: session.status().to_string(),
            });
        }
    }
    Err(format!(
        "{}: no calibration within {max_frames} frames ({})",
        cart.file_name,
        session.status()
    ))
}
