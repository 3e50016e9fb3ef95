//! Host audio output.
//!
//! # Wiring (for the frontend)
//! Timer-paced (the frontend sleeps to 60.0988 Hz deadlines; the rate control absorbs
//! the difference between the two clocks):
//! ```ignore
//! let mut out = nesmind::audio::AudioOut::open_or_warn(48_000); // None: no device, run silent
//! if let Some(o) = &out { machine.set_sample_rate(o.sample_rate())?; }
//! machine.set_audio_enabled(out.is_some() || wav_requested);
//! let mut samples = Vec::new();
//! loop {
//!     machine.run_frame()?;
//!     samples.clear();
//!     machine.take_audio(&mut samples);
//!     if let Some(o) = &mut out {
//!         o.push(&samples);
//!         machine.set_audio_rate_adjust(o.rate_adjust());
//!     }
//! }
//! ```
//! Sound-paced (the window's default): after `push`, wait until `queued()` is down to
//! `target()` and keep the rate adjust at 1, so the device's clock paces the frames
//! (see `crate::frontend::pacing`).
//!
//! `set_volume(0.0..=1.0)` and `set_muted(bool)` act immediately. `AudioOut` needs the
//! `audio` cargo feature (cpal); the ring buffer and rate control are always built.

#[cfg(feature = "audio")]
mod out;
mod rate;
pub mod ring;

#[cfg(feature = "audio")]
pub use out::AudioOut;
pub use rate::RateControl;
