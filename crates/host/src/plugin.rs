//! The plug-in contract: what a player sees of the machine and how it answers.
//!
//! Timing: `on_frame` runs once per emulated frame when the PPU reaches the post-render
//! scanline 240 (the visible picture is complete, the game's NMI at scanline 241 has not
//! run yet). Buttons set there are latched immediately, so the game's next controller
//! read (normally in that NMI) sees them; they stay held until the plug-in changes them.

use crate::fork::Fork;
use nesmind_emu::{AccessKind, Buttons, RomInfo, WatchHit};
use std::collections::BTreeMap;
use std::ops::RangeInclusive;

/// What a plug-in may ask for while it is being attached.
pub trait Setup {
    /// Watch CPU accesses of `kind` in `range`; returns the id reported in [`WatchHit::watch`].
    fn watch(&mut self, kind: AccessKind, range: RangeInclusive<u16>) -> usize;
    /// How many pads the plug-in drives (1-4); more than 2 plugs in a Four Score.
    fn use_pads(&mut self, count: usize);
}

/// The machine as a plug-in sees it during `on_frame`.
///
/// Implemented by the emulator session and by RAM-image test hosts (offline game
/// simulators that keep the documented RAM addresses current).
pub trait Frame {
    /// Frames completed since power-on.
    fn frame_number(&self) -> u64;
    /// Reads the CPU address space without side effects (no register reads, no open-bus decay).
    fn peek(&self, addr: u16) -> u8;
    /// The 2 KiB of console work RAM ($0000-$07FF).
    fn ram(&self) -> &[u8];
    /// Writes the CPU address space. This is cheating: meant for test harnesses, never for players.
    fn poke(&mut self, addr: u16, value: u8);
    /// The finished picture: 256x240 palette indices (bits 0-5) with emphasis (bits 6-8).
    /// Hosts without a PPU return an empty slice.
    fn picture(&self) -> &[u16];
    /// Reads the PPU's address space without side effects (hosts without a PPU return 0):
    /// `$0000-$1FFF` the two pattern tables as the cartridge maps them now (CHR ROM or CHR
    /// RAM, so pictures a game draws at run time are visible), `$2000-$2FFF` the four
    /// nametables through the cartridge's mirroring (`$3000-$3EFF` mirrors them), and
    /// `$3F00-$3F1F` the palette entries as stored (greyscale not applied). Addresses wrap at
    /// `$4000`. Unlike a game's `$2006/$2007` access, nothing moves: no read buffer, no VRAM
    /// address, no mapper latch. Costs nothing unless called.
    fn peek_ppu(&self, _addr: u16) -> u8 {
        0
    }
    /// Object attribute memory as the PPU holds it (256 bytes: 64 sprites of y, tile,
    /// attributes, x, where y is one less than the sprite's top line). Empty on hosts
    /// without a PPU.
    fn oam(&self) -> &[u8] {
        &[]
    }
    /// Sets the buttons held on pad 0-3 until changed again.
    fn set_buttons(&mut self, pad: usize, buttons: Buttons);
    /// The buttons currently held on a pad.
    fn buttons(&self, pad: usize) -> Buttons;
    /// Accesses matched by this plug-in's watches since the previous `on_frame`.
    fn watch_hits(&self) -> &[WatchHit] {
        &[]
    }
    /// A one-line status (chosen move, evaluation ...) shown by the frontend.
    fn set_status(&mut self, _line: &str) {}
    /// An independent copy of the whole machine for lookahead (see [`Fork`]); `None` on
    /// hosts that cannot copy themselves (RAM-image test hosts).
    fn fork(&self) -> Option<Fork> {
        None
    }
    /// Draws `shape` over this frame's picture (kept until the plug-in's next frame).
    /// Hosts without a picture ignore it.
    fn draw(&mut self, _shape: crate::Shape) {}
    /// Continues from `state` (a fork taken earlier, in this run, of this ROM) at once: the
    /// machine becomes a copy of it, keeping the host's settings (pads configuration, sound,
    /// watches). What scripted bots call "load a savestate". Hosts that cannot replace
    /// their machine (RAM-image hosts) refuse with the reason.
    fn restore(&mut self, _state: &Fork) -> Result<(), String> {
        Err("this host cannot load a state".into())
    }
    /// Asks the session for a reset, a power cycle or the end of the run; see [`Request`].
    /// Hosts that cannot do it (forks, RAM-image hosts) ignore the request.
    fn request(&mut self, _request: Request) {}
}

/// What a plug-in may ask of the session from `on_frame`. Resets and power cycles happen
/// before the next frame runs (and are recorded in replays); `Quit` ends the run after
/// this frame, with `code` as nesmind's exit status and `message` printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    Reset,
    Power,
    Quit { code: i32, message: String },
}

/// Options given with `--plugin-opt key=value` or a RON map file.
pub type PluginOptions = BTreeMap<String, String>;

/// An AI player or tool attached to a running game.
pub trait Plugin: Send {
    fn name(&self) -> &str;
    fn description(&self) -> &str;
    /// Called once before the first frame; refusing a ROM returns the reason.
    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String>;
    /// Called once per frame, see the module documentation for the exact point.
    fn on_frame(&mut self, frame: &mut dyn Frame);
    fn on_detach(&mut self) {}
    /// A short summary line for headless runs (score, games won ...).
    fn result(&self) -> Option<String> {
        None
    }
    /// A failure that should end the run (e.g. an external plug-in process died); the
    /// host checks it after every `on_frame` and stops with this message.
    fn error(&self) -> Option<String> {
        None
    }
}
