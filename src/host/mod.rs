//! The plug-in API: the only module plug-ins import.

mod buttons;
mod plugin;

pub use buttons::Buttons;
pub use plugin::{AccessKind, Frame, Plugin, PluginOptions, RomInfo, Setup, WatchHit};
