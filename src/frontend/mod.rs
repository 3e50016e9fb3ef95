//! Frontends: headless runner and benchmark (the SDL window and audio output live beside them).

pub mod bench;
