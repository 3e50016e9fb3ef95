//! nesmind: a cycle-accurate NES emulator that hosts AI plug-ins.

pub mod audio;
pub mod cli;
pub mod conformance;
pub mod emu;
pub mod frontend;
pub mod host;

#[path = "../plugins/mod.rs"]
pub mod plugins;
