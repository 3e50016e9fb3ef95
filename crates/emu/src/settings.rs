//! What the host chose for a machine, as opposed to what the game did: the Four Score, the
//! sound output and the shortcuts. Savestates hold none of it (a state loads the same under
//! any of them), so whoever replaces a machine (power cycle, loaded state, clone for a new
//! owner) carries these over in one step instead of copying fields one by one.

use crate::apu::UnsupportedSampleRate;
use crate::machine::Machine;
use crate::speedups::Speedups;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostSettings {
    pub four_score: bool,
    pub audio_enabled: bool,
    pub sample_rate: u32,
    pub speedups: Speedups,
}

impl Machine {
    /// The host's choices for this machine (see `HostSettings`).
    pub fn host_settings(&self) -> HostSettings {
        HostSettings {
            four_score: self.four_score(),
            audio_enabled: self.audio_enabled(),
            sample_rate: self.sample_rate(),
            speedups: self.speedups(),
        }
    }

    /// Applies `s`; the rate is checked before anything changes, so a bad one changes
    /// nothing.
    pub fn set_host_settings(&mut self, s: HostSettings) -> Result<(), UnsupportedSampleRate> {
        if s.sample_rate != self.sample_rate() {
            self.set_sample_rate(s.sample_rate)?;
        }
        self.set_four_score(s.four_score);
        self.set_audio_enabled(s.audio_enabled);
        if s.speedups != self.speedups() {
            self.set_speedups(s.speedups);
        }
        Ok(())
    }
}
