//! Sound for the window: the APU's samples go to the audio device through the ring
//! buffer. At speed 1 the device's clock paces the frames (see [`super::pacing`]); at
//! other speeds sound is off, since it cannot follow them. With no device (or without
//! the `audio` feature, or muted) the window runs silent and paced by the timer; it never
//! stops for that.

use super::pacing::{PaceBy, SoundQueue, Speed};
use crate::host::Session;

#[cfg(feature = "audio")]
impl SoundQueue for crate::audio::AudioOut {
    fn queued(&self) -> usize {
        crate::audio::AudioOut::queued(self)
    }
    fn sample_rate(&self) -> u32 {
        crate::audio::AudioOut::sample_rate(self)
    }
}

pub struct WindowAudio {
    #[cfg(feature = "audio")]
    out: Option<crate::audio::AudioOut>,
    samples: Vec<i16>,
    pace_by: PaceBy,
    /// Synthesis runs (a device is open and the speed is 1).
    active: bool,
}

impl WindowAudio {
    pub fn open(session: &mut Session, volume: f32, mute: bool, pace_by: PaceBy) -> WindowAudio {
        #[cfg(feature = "audio")]
        {
            let mut out = if mute || volume <= 0.0 {
                None
            } else {
                crate::audio::AudioOut::open_or_warn(48_000)
            };
            let machine = session.machine_mut();
            if let Some(o) = &out {
                o.set_volume(volume);
                if let Err(e) = machine.set_sample_rate(o.sample_rate()) {
                    log::warn!("sound disabled: {e}");
                    out = None;
                }
            }
            machine.set_audio_enabled(out.is_some());
            let active = out.is_some();
            WindowAudio {
                out,
                samples: Vec::new(),
                pace_by,
                active,
            }
        }
        #[cfg(not(feature = "audio"))]
        {
            let _ = (volume, mute);
            log::info!("built without the `audio` feature: no sound");
            session.machine_mut().set_audio_enabled(false);
            WindowAudio {
                samples: Vec::new(),
                pace_by,
                active: false,
            }
        }
    }

    fn has_device(&self) -> bool {
        #[cfg(feature = "audio")]
        return self.out.is_some();
        #[cfg(not(feature = "audio"))]
        false
    }

    /// Sound plays at speed 1 only; elsewhere synthesis is skipped and the queue drains.
    pub fn set_speed(&mut self, session: &mut Session, speed: Speed) {
        let on = self.has_device() && speed == Speed::Times(1.0);
        if on != self.active {
            self.active = on;
            session.machine_mut().set_audio_enabled(on);
        }
    }

    /// Moves this frame's samples to the device (or drops them when silent).
    pub fn play(&mut self, session: &mut Session) {
        self.samples.clear();
        let machine = session.machine_mut();
        machine.take_audio(&mut self.samples);
        #[cfg(feature = "audio")]
        if let (Some(o), true) = (&mut self.out, self.active) {
            o.push(&self.samples);
            let adjust = match self.pace_by {
                PaceBy::Sound => 1.0,
                PaceBy::Timer => o.rate_adjust(),
            };
            machine.set_audio_rate_adjust(adjust);
        }
    }

    /// The queue to pace by and its target fill, while the device's clock paces frames.
    pub fn pacing_queue(&self) -> Option<(&dyn SoundQueue, usize)> {
        if !self.active || self.pace_by != PaceBy::Sound {
            return None;
        }
        #[cfg(feature = "audio")]
        if let Some(o) = &self.out {
            return Some((o as &dyn SoundQueue, o.target()));
        }
        None
    }

    /// The device stopped playing: pace by the timer (with rate control) from now on.
    pub fn device_stalled(&mut self) {
        self.pace_by = PaceBy::Timer;
    }

    /// What paces frames right now, for the overlay's info line.
    pub fn pacing_label(&self) -> &'static str {
        if self.pacing_queue().is_some() {
            "sound clock"
        } else {
            "timer"
        }
    }
}
