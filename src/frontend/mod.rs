//! Frontends: headless runner, benchmark, pacing, progress bar (the SDL window lives beside them).

pub mod bench;
pub mod headless;
pub mod pacing;
pub mod palette;
pub mod png;
pub mod progress;
