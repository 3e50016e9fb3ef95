//! How long the player's calibration takes on a cart from power-on, in the game's frames,
//! frames run on forks, and CPU time (for `cargo bench --bench spot_calibration` and tests).
//! The player runs alone: the DOTS title starts a game by itself (slot 1 on pad 1 against
//! the cart's computer), as it would for a user who attaches the player and waits.

use super::variant::Cart;
use crate::calibrate::Calibration;
use crate::plugin::SpotPlugin;
use nesmind_host::{Frame, Plugin, PluginOptions, Rom, RomInfo, Session, Setup};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// What one calibration cost.
#[derive(Clone, Debug)]
pub struct Timing {
    pub calibration: Calibration,
    /// Frames the game ran from power-on until the player knew the map.
    pub frames: u64,
    /// Frames the calibration ran on forks meanwhile.
    pub fork_frames: u64,
    /// CPU time of the thread over the whole run (emulation and calibration), if known.
    pub cpu_seconds: Option<f64>,
    pub wall_seconds: f64,
    /// The status line the player showed then.
    pub status: String,
}

/// Forwards to the player and keeps what its calibration found.
struct Timed {
    inner: SpotPlugin,
    found: Arc<Mutex<Option<Result<Calibration, String>>>>,
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
        self.inner.on_frame(frame);
        let mut found = self.found.lock().unwrap_or_else(|p| p.into_inner());
        if found.is_none() {
            if let Some(c) = &self.inner.calibration {
                *found = Some(Ok(c.clone()));
            } else if let Some(why) = self.inner.failure() {
                *found = Some(Err(why.to_string()));
            }
        }
    }
}

/// Runs `cart` from power-on with the player attached until it has calibrated, at most
/// `max_frames` frames.
pub fn time_calibration(cart: &Cart, max_frames: u64) -> Result<Timing, String> {
    let rom = Rom::parse(&cart.image, &cart.file_name).map_err(|e| e.to_string())?;
    let mut session = Session::new(rom)?;
    session.machine_mut().set_audio_enabled(false);
    let found = Arc::new(Mutex::new(None));
    let plugin = Timed {
        inner: SpotPlugin::from_options(&PluginOptions::new())?,
        found: found.clone(),
    };
    session.attach(Box::new(plugin), &[])?;
    let (cpu0, wall) = (crate::tools::thread_cpu_seconds(), Instant::now());
    for _ in 0..max_frames {
        session.step()?;
        let done = found.lock().unwrap_or_else(|p| p.into_inner()).take();
        match done {
            Some(Ok(calibration)) => {
                let cpu_seconds = match (cpu0, crate::tools::thread_cpu_seconds()) {
                    (Some(a), Some(b)) => Some(b - a),
                    _ => None,
                };
                return Ok(Timing {
                    frames: session.steps(),
                    fork_frames: calibration.fork_frames,
                    calibration,
                    cpu_seconds,
                    wall_seconds: wall.elapsed().as_secs_f64(),
                    status: session.status().to_string(),
                });
            }
            Some(Err(why)) => return Err(format!("{}: calibration failed: {why}", cart.file_name)),
            None => {}
        }
    }
    Err(format!(
        "{}: no calibration within {max_frames} frames ({})",
        cart.file_name,
        session.status()
    ))
}
