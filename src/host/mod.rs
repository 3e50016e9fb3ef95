//! The plug-in API (the only module plug-ins import) and the host around it: the session
//! loop, lookahead forks, savestates, replays and external-process plug-ins.

mod buttons;
pub mod external;
mod fork;
mod plugin;
pub mod replay;
pub mod savestate;
pub mod session;

pub use buttons::Buttons;
pub use fork::Fork;
pub use plugin::{AccessKind, Frame, Plugin, PluginOptions, RomInfo, Setup, WatchHit};
pub use session::{PadOwner, Session};
