//! The host's integration tests, one test binary (one link) with a module per subject: the
//! plug-in API on real games (PPU memory included), external plug-ins over the line
//! protocol, files written whole, replays and savestates (every version's loader, on the
//! files in `tests/savestates`), bus watches with the wait-loop skip, RAM search on a fork,
//! and the benchmark replays.

mod bench_replays;
mod external_plugin;
mod host_api;
mod host_files;
mod ppu_api;
mod ramsearch;
mod savestate_versions;
mod watch_skip;
