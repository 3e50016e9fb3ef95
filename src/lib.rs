//! nesmind: a cycle-accurate NES emulator that hosts AI plug-ins.

pub mod audio;
pub mod cli;
pub mod frontend;
pub mod plugins;

/// The machine (crate `nesmind-emu`).
pub use nesmind_emu as emu;
/// The plug-in API and session (crate `nesmind-host`).
pub use nesmind_host as host;
/// The test-ROM conformance suite: table, corpus, readers, report (crate `nesmind-testroms`).
pub use nesmind_testroms as conformance;
