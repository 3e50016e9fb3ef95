//! The window's flags, shared by `nesmind run` and `nesmind demo`.

use crate::frontend::layout::Aspect;
use crate::frontend::overlay::OverlayMode;
use crate::frontend::pacing::PaceBy;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct WindowFlags {
    /// Window: at exit, also save the whole window as shown (scaled, aspect, overlay).
    #[arg(long, value_name = "FILE", conflicts_with = "headless")]
    pub capture: Option<PathBuf>,
    /// Window scale (integer, 1-16): the picture's height is 240 times this.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub scale: u32,
    /// Window pixel aspect: 8:7 as an NTSC television shows the NES (the art was drawn
    /// for it; circles come out round), or square.
    #[arg(long, value_name = "8:7|square", default_value = "8:7")]
    pub aspect: Aspect,
    /// Window overlay at start: auto (the plug-in's status line and messages), full
    /// (also ROM, plug-in and fps) or off. F7 cycles it.
    #[arg(long, value_name = "auto|full|off", default_value = "auto")]
    pub overlay: OverlayMode,
    /// Window: what paces real time: sound (the sound device's clock while sound plays
    /// at speed 1, else the timer) or timer.
    #[arg(long, value_name = "sound|timer", default_value = "sound")]
    pub pacing: PaceBy,
    /// Keyboard and game-controller mapping for pads 1-4, a RON file (format in
    /// `nesmind run --help`).
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Window: no sound.
    #[arg(long)]
    pub mute: bool,
    /// Window: sound volume in percent.
    #[arg(long, value_name = "0-100", default_value_t = 100, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub volume: u8,
}

impl WindowFlags {
    /// The window's settings; reads and checks the input mapping file.
    #[cfg(feature = "sdl")]
    pub fn options(
        &self,
        speed: crate::frontend::pacing::Speed,
        frames: Option<u64>,
        screenshot: Option<PathBuf>,
        stem: String,
    ) -> Result<crate::frontend::window::WindowOptions, String> {
        use crate::frontend::input::InputConfig;
        let input = match &self.input {
            Some(path) => InputConfig::load(path)?,
            None => InputConfig::default(),
        };
        input.resolve()?;
        Ok(crate::frontend::window::WindowOptions {
            speed,
            frames,
            scale: self.scale,
            aspect: self.aspect,
            overlay: self.overlay,
            pace_by: self.pacing,
            input,
            pads: [0, 1, 2, 3],
            screenshot,
            capture: self.capture.clone(),
            stem,
            volume: f32::from(self.volume) / 100.0,
            mute: self.mute,
        })
    }
}
