//! Human input: the keyboard and up to four game controllers, read once per frame.

use crate::frontend::input::{Bindings, Control, controller_buttons};
use crate::host::Buttons;
use sdl2::GameControllerSubsystem;
use sdl2::controller::GameController;
use sdl2::keyboard::{KeyboardState, Keycode, Scancode};

pub struct Pads {
    /// Checked by scancode: iterating all pressed scancodes trips over gaps in sdl2
    /// 0.37's scancode enum.
    keys: Vec<(Scancode, usize, Buttons)>,
    maps: [Vec<(Control, Buttons)>; 4],
    threshold: i16,
    /// Controller in slot N drives pad N; a new controller takes the first free slot.
    slots: [Option<GameController>; 4],
    /// Bound keys pressed since the last read: a tap shorter than a frame (or a frame the
    /// machine was slow to run) still reaches the game for one frame.
    taps: Vec<Scancode>,
}

impl Pads {
    /// Call after SDL's video is up (scancodes need the keyboard layout).
    pub fn new(bindings: Bindings) -> Result<Pads, String> {
        let mut keys = Vec::new();
        for (code, pad, b) in bindings.keys {
            let scan = Scancode::from_keycode(code).ok_or_else(|| {
                format!(
                    "input config: key '{}' has no key on this keyboard",
                    code.name()
                )
            })?;
            keys.push((scan, pad, b));
        }
        Ok(Pads {
            keys,
            maps: bindings.controllers,
            threshold: bindings.threshold,
            slots: Default::default(),
            taps: Vec::new(),
        })
    }

    /// A key went down (read from the event queue, before the frame's keyboard state).
    pub fn key_down(&mut self, scan: Scancode) {
        if self.keys.iter().any(|k| k.0 == scan) && !self.taps.contains(&scan) {
            self.taps.push(scan);
        }
    }

    /// Whether `key` drives a pad (such keys are not hotkeys).
    pub fn binds(&self, key: Keycode) -> bool {
        Scancode::from_keycode(key).is_some_and(|s| self.keys.iter().any(|k| k.0 == s))
    }

    /// A controller was plugged in (`index` is SDL's device index).
    pub fn added(&mut self, subsystem: &GameControllerSubsystem, index: u32) -> Option<String> {
        let free = self.slots.iter().position(Option::is_none);
        let opened = subsystem.open(index);
        match (free, opened) {
            (Some(slot), Ok(c)) => {
                if self
                    .slots
                    .iter()
                    .flatten()
                    .any(|o| o.instance_id() == c.instance_id())
                {
                    return None;
                }
                let msg = format!("controller '{}' drives pad {}", c.name(), slot + 1);
                self.slots[slot] = Some(c);
                Some(msg)
            }
            (None, Ok(c)) => Some(format!(
                "controller '{}' ignored: 4 already in use",
                c.name()
            )),
            (_, Err(e)) => Some(format!("cannot open a game controller: {e}")),
        }
    }

    /// A controller was unplugged (`id` is its instance id).
    pub fn removed(&mut self, id: u32) -> Option<String> {
        let slot = self
            .slots
            .iter()
            .position(|s| s.as_ref().is_some_and(|c| c.instance_id() == id))?;
        self.slots[slot] = None;
        Some(format!("controller on pad {} unplugged", slot + 1))
    }

    /// The buttons held for each pad (or tapped since the last read).
    pub fn read(&mut self, keyboard: &KeyboardState) -> [Buttons; 4] {
        let mut pads = [Buttons::NONE; 4];
        for &(scan, pad, b) in &self.keys {
            if keyboard.is_scancode_pressed(scan) || self.taps.contains(&scan) {
                pads[pad] |= b;
            }
        }
        self.taps.clear();
        for (pad, slot) in self.slots.iter().enumerate() {
            if let Some(c) = slot {
                pads[pad] |= controller_buttons(c, &self.maps[pad], self.threshold);
            }
        }
        pads
    }
}
