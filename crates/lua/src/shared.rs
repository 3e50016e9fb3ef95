//! The state the Lua functions share with the plug-in: the frame being served, the pads
//! the script set, its states in memory and its limits. Kept as the Lua state's app data.

use mlua::{Lua, Result};
use nesmind_emu::AccessKind;
use nesmind_host::{Buttons, Fork, Frame, Rom};
use std::cell::Cell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Which emulator's names and conventions a script was written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Fceux,
    BizHawk,
}

/// The frame the plug-in is serving, valid only during `on_frame`.
type FramePtr = *mut (dyn Frame + 'static);

thread_local! {
    /// Set by `serving` for the plug-in running on this OS thread (a thread runs one
    /// plug-in callback at a time). A thread-local rather than the Lua state's app data:
    /// every memory read looks it up, and this is the cheapest place to look.
    static FRAME: Cell<Option<FramePtr>> = const { Cell::new(None) };
}

pub struct Shared {
    /// What the script pressed for the coming frame (pads 1-4, 0-based here).
    pub pads: [Buttons; 4],
    pub pad_count: usize,
    /// States by the names `memorysavestate.savecorestate` gave them.
    pub states: HashMap<String, Fork>,
    pub next_state: u64,
    /// Numbered slots (`savestate.saveslot`, FCEUX's numbered `savestate.object`s).
    pub slots: [Option<Fork>; 10],
    /// The ROM file as loaded (header included), for `rom.readbyte`.
    pub rom: Arc<[u8]>,
    pub rom_name: String,
    /// The ROM's identity (`rom.gethash`), from the header-less contents.
    pub rom_sha1: String,
    pub rom_crc32: u32,
    /// The ROM parsed, for savestate files (they are checked against it).
    pub parsed: Option<Rom>,
    /// Memory callbacks: (id, kind, first address, last address).
    pub callbacks: Vec<(String, AccessKind, u16, u16)>,
    /// The kinds of access watched since attaching (watches are fixed then).
    pub watched: Vec<AccessKind>,
    /// The script's folder: relative paths resolve here, and file access stays here
    /// unless `unsafe_files`.
    pub dir: PathBuf,
    pub unsafe_files: bool,
    pub dialect: Dialect,
    pub rng: u64,
    /// `math.randomseed` keeps the seed given on the command line when one was.
    pub seed_fixed: bool,
    /// Lag frames (no pad read) since the plug-in attached, and whether the last was one;
    /// `None` when the script's text does not ask (the ports are not watched).
    pub lag: Option<(u64, bool)>,
    /// Text for the status line (`emu.message`), shown when the frame ends.
    pub status: String,
}

impl Shared {
    pub fn new(rom: Arc<[u8]>, rom_name: String, dir: PathBuf, dialect: Dialect) -> Shared {
        Shared {
            pads: [Buttons::NONE; 4],
            pad_count: 2,
            states: HashMap::new(),
            next_state: 0,
            slots: Default::default(),
            rom,
            rom_name,
            rom_sha1: String::new(),
            rom_crc32: 0,
            parsed: None,
            callbacks: Vec::new(),
            watched: Vec::new(),
            dir,
            unsafe_files: false,
            dialect,
            rng: 0,
            seed_fixed: false,
            lag: None,
            status: String::new(),
        }
    }
}

/// Serves `frame` to the script while `body` runs.
pub fn serving<R>(frame: &mut dyn Frame, body: impl FnOnce() -> R) -> R {
    // Erasing the borrow's lifetime is sound because the pointer is taken back below,
    // before `frame`'s borrow ends, and nothing copies it elsewhere.
    let ptr: *mut (dyn Frame + '_) = frame;
    let ptr: FramePtr = unsafe { std::mem::transmute(ptr) };
    let _served = Served(FRAME.with(|f| f.replace(Some(ptr))));
    body()
}

/// Puts the outer frame (normally none) back when serving ends, a panic included, so no
/// pointer outlives its frame.
struct Served(Option<FramePtr>);
impl Drop for Served {
    fn drop(&mut self) {
        FRAME.with(|f| f.set(self.0));
    }
}

/// Runs `f` on the frame being served; outside a frame (e.g. a function stored and called
/// from `on_detach`) it is a Lua error.
pub fn with_frame<R>(_lua: &Lua, f: impl FnOnce(&mut dyn Frame) -> R) -> Result<R> {
    match FRAME.with(Cell::get) {
        // Valid: see `serving`. Lua functions do not call back into Lua while `f` runs,
        // so no second `&mut` to the frame is made.
        Some(p) => Ok(f(unsafe { &mut *p })),
        None => Err(mlua::Error::runtime(
            "the machine is not available outside a frame",
        )),
    }
}

/// Runs `f` on the shared state.
pub fn with_shared<R>(lua: &Lua, f: impl FnOnce(&mut Shared) -> R) -> Result<R> {
    match lua.app_data_mut::<Shared>() {
        Some(mut s) => Ok(f(&mut s)),
        None => Err(mlua::Error::runtime("nesmind's Lua state is missing")),
    }
}
