//! The plug-in API (the only crate plug-ins import) and the host around it: the session
//! loop, lookahead forks, savestates, replays and external-process plug-ins.
//!
//! The machine's own vocabulary (buttons, ROM identity, bus watches) is defined in
//! `nesmind_emu` and re-exported here, so a plug-in never names the emulator crate.

pub mod draw;
mod entry;
pub mod external;
pub mod files;
mod fork;
pub mod kit;
mod plugin;
pub mod progress;
pub mod ramsearch;
pub mod replay;
pub mod savestate;
pub mod session;
pub mod sight;
mod view;

pub use draw::Shape;
pub use entry::{Demo, Entry, HumanFn, HumanGame, HumanSetup, ToolFn, parse_args, parse_option};
pub use fork::Fork;
pub use nesmind_emu::{AccessKind, Buttons, MachineError, Rom, RomError, RomInfo, WatchHit};
pub use plugin::{Frame, Plugin, PluginOptions, Request, Setup};
pub use session::{Quit, Session, StepError};
pub use view::PadOwner;
