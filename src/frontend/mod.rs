//! Frontends: headless runner, benchmark, pacing, progress bar (the SDL window lives beside them).

pub mod bench;
pub mod headless;
#[cfg(feature = "sdl")]
pub mod input;
pub mod pacing;
pub mod palette;
pub mod png;
pub mod progress;
#[cfg(feature = "sdl")]
pub mod sound;
#[cfg(feature = "sdl")]
pub mod window;
