//! The window's hotkeys and the state they change.

use super::WindowOptions;
use crate::frontend::overlay::Osd;
use crate::frontend::pacing::Speed;
use crate::host::{PadOwner, Session};
use sdl2::keyboard::{Keycode, Mod};
use sdl2::video::{FullscreenType, Window};
use std::path::PathBuf;
use std::time::Instant;

/// The hotkeys, for `nesmind run --help` and the module docs.
pub const KEYS_HELP: &str = "\
Window keys: Esc quit, P pause, N next frame (paused), Tab (hold) fast-forward,
-/= halve/double speed, Backspace normal speed, F11 fullscreen,
F12 screenshot of the emulated picture (256x240 PNG, no overlay, the same image
--screenshot and headless runs write), Shift+F12 the window as shown (scaled,
aspect, overlay), F5/F9 save/load slot, F6 next slot, Ctrl+R reset,
F7 overlay: auto (plug-in status and messages) / full (adds ROM, plug-in, fps) / off,
F1-F4 take pad 1-4 from the plug-in or give it back.
A key bound to a pad in the input file is not a hotkey.";

pub struct Ui {
    pub paused: bool,
    /// Run one frame while paused.
    pub advance: bool,
    /// Fast-forward, while Tab is held.
    pub fast: bool,
    /// The speed the speed keys set (fast-forward overrides it while held).
    pub speed: Speed,
    slot: u32,
    fullscreen: bool,
    shots: u32,
    /// Shift+F12 asks for the next drawn frame to be saved as shown.
    pub window_shot: Option<PathBuf>,
    pub osd: Osd,
}

impl Ui {
    pub fn new(opts: &WindowOptions) -> Ui {
        Ui {
            paused: false,
            advance: false,
            fast: false,
            speed: opts.speed,
            slot: 1,
            fullscreen: false,
            shots: 0,
            window_shot: None,
            osd: Osd::new(opts.overlay),
        }
    }

    pub fn say(&mut self, text: String) {
        if !text.is_empty() {
            log::info!("{text}");
        }
        self.osd.say(text, Instant::now());
    }

    /// The speed to run at now.
    pub fn speed(&self) -> Speed {
        if self.fast { Speed::Max } else { self.speed }
    }

    /// Halves or doubles the speed within 1/8x-16x (halving `max` gives 8x).
    fn scale_speed(&mut self, factor: f64) -> String {
        let x = match self.speed {
            Speed::Times(x) => (x * factor).clamp(0.125, 16.0),
            Speed::Max if factor < 1.0 => 8.0,
            Speed::Max => return "speed max".into(),
        };
        self.speed = Speed::Times(x);
        format!("speed x{x}")
    }

    pub fn key_up(&mut self, k: Keycode) {
        if k == Keycode::TAB {
            self.fast = false;
        }
    }

    pub fn key_down(
        &mut self,
        k: Keycode,
        keymod: Mod,
        repeat: bool,
        session: &mut Session,
        opts: &WindowOptions,
        window: &mut Window,
    ) {
        let ctrl = keymod.intersects(Mod::LCTRLMOD | Mod::RCTRLMOD);
        let shift = keymod.intersects(Mod::LSHIFTMOD | Mod::RSHIFTMOD);
        if k == Keycode::N && self.paused {
            self.advance = true;
        }
        if repeat {
            return;
        }
        let slot_file = |slot: u32| PathBuf::from(format!("{}.slot{slot}.state", opts.stem));
        let report = |r: Result<String, String>| r.unwrap_or_else(|e| e);
        let text = match k {
            Keycode::P | Keycode::PAUSE => {
                self.paused = !self.paused;
                String::new()
            }
            Keycode::TAB => {
                self.fast = true;
                "fast-forward".into()
            }
            Keycode::MINUS | Keycode::KP_MINUS => self.scale_speed(0.5),
            Keycode::EQUALS | Keycode::KP_PLUS => self.scale_speed(2.0),
            Keycode::BACKSPACE => {
                self.speed = Speed::Times(1.0);
                "speed x1".into()
            }
            Keycode::F11 => {
                self.fullscreen = !self.fullscreen;
                let mode = if self.fullscreen {
                    FullscreenType::Desktop
                } else {
                    FullscreenType::Off
                };
                report(window.set_fullscreen(mode).map(|_| String::new()))
            }
            Keycode::F12 if shift => {
                self.shots += 1;
                self.window_shot = Some(PathBuf::from(format!(
                    "{}-window-{}.png",
                    opts.stem, self.shots
                )));
                String::new()
            }
            Keycode::F12 => {
                self.shots += 1;
                let path = PathBuf::from(format!("{}-{}.png", opts.stem, self.shots));
                let r = crate::frontend::png::save_picture(&path, session.machine().picture());
                report(r.map(|_| format!("saved {}", path.display())))
            }
            Keycode::F5 => report(
                session
                    .save_state(&slot_file(self.slot))
                    .map(|_| format!("saved slot {}", self.slot))
                    .map_err(String::from),
            ),
            Keycode::F9 => report(
                session
                    .load_state(&slot_file(self.slot))
                    .map(|_| format!("loaded slot {}", self.slot))
                    .map_err(String::from),
            ),
            Keycode::F6 => {
                self.slot = self.slot % 9 + 1;
                format!("slot {}", self.slot)
            }
            Keycode::F7 => {
                self.osd.mode = self.osd.mode.next();
                format!("overlay {:?}", self.osd.mode).to_lowercase()
            }
            Keycode::R if ctrl => {
                session.reset();
                self.paused = false;
                "reset".into()
            }
            Keycode::F1 | Keycode::F2 | Keycode::F3 | Keycode::F4 => take_or_give(k, session),
            _ => return,
        };
        self.say(text);
    }
}

/// F1-F4: a human takes the pad from the plug-in, or gives it back.
fn take_or_give(k: Keycode, session: &mut Session) -> String {
    let pad = [Keycode::F1, Keycode::F2, Keycode::F3, Keycode::F4]
        .iter()
        .position(|&f| f == k)
        .unwrap_or(0);
    if session.plugin_name().is_none() {
        return "no plug-in: every pad is yours".into();
    }
    let next = match session.owner(pad) {
        PadOwner::Plugin => PadOwner::Human,
        PadOwner::Human => PadOwner::Plugin,
    };
    session.set_owner(pad, next);
    match session.owner(pad) {
        PadOwner::Human => format!("pad {}: yours (keyboard/controller)", pad + 1),
        PadOwner::Plugin => format!("pad {}: back to the plug-in", pad + 1),
    }
}
