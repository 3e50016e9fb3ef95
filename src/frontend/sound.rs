//! Sound for the window: the APU's samples go to the audio device through the ring
//! buffer, and the resampling ratio follows the buffer's fill level. With no device (or
//! without the `audio` feature, or muted) the window runs silent; it never stops for that.

use crate::host::Session;

pub struct WindowAudio {
    #[cfg(feature = "audio")]
    out: Option<crate::audio::AudioOut>,
    samples: Vec<i16>,
}

impl WindowAudio {
    pub fn open(session: &mut Session, volume: f32, mute: bool) -> WindowAudio {
        #[cfg(feature = "audio")]
        {
            let out = if mute || volume <= 0.0 {
                None
            } else {
                crate::audio::AudioOut::open_or_warn(48_000)
            };
            let machine = session.machine_mut();
            match &out {
                Some(o) => {
                    o.set_volume(volume);
                    if let Err(e) = machine.set_sample_rate(o.sample_rate()) {
                        log::warn!("sound disabled: {e}");
                    }
                }
                None => machine.set_audio_enabled(false),
            }
            WindowAudio {
                out,
                samples: Vec::new(),
            }
        }
        #[cfg(not(feature = "audio"))]
        {
            let _ = (volume, mute);
            log::info!("built without the `audio` feature: no sound");
            session.machine_mut().set_audio_enabled(false);
            WindowAudio {
                samples: Vec::new(),
            }
        }
    }

    /// Moves this frame's samples to the device (or drops them when silent).
    pub fn play(&mut self, session: &mut Session) {
        self.samples.clear();
        let machine = session.machine_mut();
        machine.take_audio(&mut self.samples);
        #[cfg(feature = "audio")]
        if let Some(o) = &mut self.out {
            o.push(&self.samples);
            machine.set_audio_rate_adjust(o.rate_adjust());
        }
    }
}
