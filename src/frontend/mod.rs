//! Frontends: headless runner, benchmark, pacing, progress bar, and the SDL window with
//! its layout, overlay and sound.

pub mod bench;
pub mod callgrind;
pub mod display;
pub mod drawing;
pub mod font;
pub mod headless;
#[cfg(feature = "sdl")]
pub mod input;
pub mod interrupt;
pub mod layout;
pub mod overlay;
pub mod pacing;
pub mod palette;
pub mod png;
#[cfg(feature = "sdl")]
pub mod sound;
pub mod wav;
#[cfg(feature = "sdl")]
pub mod window;
