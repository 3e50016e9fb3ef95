//! Keyboard and game-controller mapping for pads 1-4, loaded from a RON file (`--input`).
//!
//! `keyboard` lists, per pad, SDL key names mapped to NES buttons; `controllers` lists,
//! per pad, SDL game-controller names mapped to NES buttons (controller N drives pad N).
//! Several NES buttons may be joined with `+`. A field left out keeps its default (shown
//! in [`FORMAT_HELP`]); an empty list turns that kind of input off.

use crate::host::Buttons;
use sdl2::controller::{Axis, Button, GameController};
use sdl2::keyboard::Keycode;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The file format, for `nesmind run --help`.
pub const FORMAT_HELP: &str = r#"Input file (--input FILE, RON). Every field is optional; these are the defaults:
  (
    keyboard: [   // per pad: SDL key name -> NES buttons ("A+B" presses both)
      {"Up": "Up", "Down": "Down", "Left": "Left", "Right": "Right",
       "X": "A", "Z": "B", "Right Shift": "Select", "Return": "Start"},
      {"I": "Up", "K": "Down", "J": "Left", "L": "Right",
       "G": "A", "F": "B", "T": "Select", "Y": "Start"},
    ],
    controllers: [   // per pad: SDL game-controller name -> NES buttons
      {"b": "A", "a": "B", "back": "Select", "start": "Start", "dpup": "Up",
       "dpdown": "Down", "dpleft": "Left", "dpright": "Right",
       "-leftx": "Left", "+leftx": "Right", "-lefty": "Up", "+lefty": "Down"},
      ... the same for pads 2, 3 and 4 ...
    ],
    axis_threshold: 0.5,   // how far a stick or trigger must move (0.1-0.95)
  )
A pad left out of a list gets no input of that kind; an empty list turns it off.
Controllers take pads 1-4 in the order they are plugged in.
Controller buttons: a b x y back guide start leftstick rightstick leftshoulder
rightshoulder dpup dpdown dpleft dpright misc1 paddle1-paddle4 touchpad.
Axes, with the direction that presses: -leftx +leftx -lefty +lefty -rightx +rightx
-righty +righty +lefttrigger +righttrigger (up is -lefty)."#;

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct InputConfig {
    /// Per pad: SDL key name -> NES button names.
    #[serde(default = "default_keyboard")]
    pub keyboard: Vec<BTreeMap<String, String>>,
    /// Per pad: SDL game-controller button or signed axis name -> NES button names.
    #[serde(default = "default_controllers")]
    pub controllers: Vec<BTreeMap<String, String>>,
    #[serde(default = "default_threshold")]
    pub axis_threshold: f32,
}

fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, b)| (k.to_string(), b.to_string()))
        .collect()
}

fn default_keyboard() -> Vec<BTreeMap<String, String>> {
    vec![
        map(&[
            ("Up", "Up"),
            ("Down", "Down"),
            ("Left", "Left"),
            ("Right", "Right"),
            ("X", "A"),
            ("Z", "B"),
            ("Right Shift", "Select"),
            ("Return", "Start"),
        ]),
        map(&[
            ("I", "Up"),
            ("K", "Down"),
            ("J", "Left"),
            ("L", "Right"),
            ("G", "A"),
            ("F", "B"),
            ("T", "Select"),
            ("Y", "Start"),
        ]),
    ]
}

/// NES A sits right of B, like the east/south face buttons.
fn default_controllers() -> Vec<BTreeMap<String, String>> {
    let pad = map(&[
        ("b", "A"),
        ("a", "B"),
        ("back", "Select"),
        ("start", "Start"),
        ("dpup", "Up"),
        ("dpdown", "Down"),
        ("dpleft", "Left"),
        ("dpright", "Right"),
        ("-leftx", "Left"),
        ("+leftx", "Right"),
        ("-lefty", "Up"),
        ("+lefty", "Down"),
    ]);
    vec![pad; 4]
}

fn default_threshold() -> f32 {
    0.5
}

impl Default for InputConfig {
    fn default() -> Self {
        InputConfig {
            keyboard: default_keyboard(),
            controllers: default_controllers(),
            axis_threshold: default_threshold(),
        }
    }
}

/// One game-controller input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Button(Button),
    /// An axis pushed in one direction (`true`: positive).
    Axis(Axis, bool),
}

/// A config with every name checked and turned into SDL values.
#[derive(Debug)]
pub struct Bindings {
    pub keys: Vec<(Keycode, usize, Buttons)>,
    pub controllers: [Vec<(Control, Buttons)>; 4],
    /// Axis value (of 32767) at which an axis input counts as pressed.
    pub threshold: i16,
}

/// Parses an SDL game-controller button name, or an axis name with its direction.
pub fn parse_control(name: &str) -> Result<Control, String> {
    let lower = name.trim().to_ascii_lowercase();
    let is_trigger = |a: Axis| matches!(a, Axis::TriggerLeft | Axis::TriggerRight);
    let unknown = || {
        format!(
            "'{name}' is not an SDL game-controller button or axis (buttons: a b x y back guide \
             start leftstick rightstick leftshoulder rightshoulder dpup dpdown dpleft dpright \
             misc1 paddle1-4 touchpad; axes: -leftx +leftx -lefty +lefty -rightx +rightx \
             -righty +righty +lefttrigger +righttrigger)"
        )
    };
    if let Some((sign, axis)) = lower
        .strip_prefix('+')
        .map(|a| (true, a))
        .or_else(|| lower.strip_prefix('-').map(|a| (false, a)))
    {
        let axis = Axis::from_string(axis).ok_or_else(unknown)?;
        if is_trigger(axis) && !sign {
            return Err(format!(
                "'{name}': triggers only move one way; write +{}",
                &lower[1..]
            ));
        }
        return Ok(Control::Axis(axis, sign));
    }
    if let Some(b) = Button::from_string(&lower) {
        return Ok(Control::Button(b));
    }
    match Axis::from_string(&lower) {
        Some(a) if is_trigger(a) => Ok(Control::Axis(a, true)),
        Some(_) => Err(format!(
            "'{name}' is a stick axis: write -{lower} or +{lower} for the direction that presses"
        )),
        None => Err(unknown()),
    }
}

impl InputConfig {
    pub fn load(path: &Path) -> Result<InputConfig, String> {
        // A mapping for four pads takes a few KiB.
        let text = crate::host::files::read_capped_text(path, 1 << 20, "an input config")
            .map_err(|e| format!("cannot read input config '{}': {e}", path.display()))?;
        ron::from_str(&text).map_err(|e| {
            format!(
                "input config '{}': {e} (see `nesmind run --help` for the format)",
                path.display()
            )
        })
    }

    /// Checks every name; errors name the pad and the offending entry.
    pub fn resolve(&self) -> Result<Bindings, String> {
        for (what, n) in [
            ("keyboard", self.keyboard.len()),
            ("controllers", self.controllers.len()),
        ] {
            if n > 4 {
                return Err(format!(
                    "input config: '{what}' maps {n} pads; the NES has at most 4"
                ));
            }
        }
        let t = self.axis_threshold;
        if !(0.1..=0.95).contains(&t) {
            return Err(format!(
                "input config: axis_threshold {t} is outside 0.1-0.95"
            ));
        }
        let mut keys = Vec::new();
        for (pad, map) in self.keyboard.iter().enumerate() {
            for (key, buttons) in map {
                let b = Buttons::parse(buttons)
                    .map_err(|e| format!("input config: pad {} key '{key}': {e}", pad + 1))?;
                let code = Keycode::from_name(key).ok_or_else(|| {
                    format!(
                        "input config: pad {} key '{key}' is not an SDL key name \
                         (examples: A, Return, Left Shift, Keypad 8, F1)",
                        pad + 1
                    )
                })?;
                keys.push((code, pad, b));
            }
        }
        let mut controllers: [Vec<(Control, Buttons)>; 4] = Default::default();
        for (pad, map) in self.controllers.iter().enumerate() {
            for (name, buttons) in map {
                let at = || format!("input config: controller {} '{name}'", pad + 1);
                let b = Buttons::parse(buttons).map_err(|e| format!("{}: {e}", at()))?;
                let control = parse_control(name).map_err(|e| format!("{}: {e}", at()))?;
                controllers[pad].push((control, b));
            }
        }
        Ok(Bindings {
            keys,
            controllers,
            threshold: (t * 32767.0) as i16,
        })
    }
}

/// The NES buttons `map` finds held on controller `c`.
pub fn controller_buttons(
    c: &GameController,
    map: &[(Control, Buttons)],
    threshold: i16,
) -> Buttons {
    let mut out = Buttons::NONE;
    for &(control, b) in map {
        let held = match control {
            Control::Button(button) => c.button(button),
            Control::Axis(axis, true) => c.axis(axis) >= threshold,
            Control::Axis(axis, false) => c.axis(axis) <= -threshold,
        };
        if held {
            out |= b;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_resolve() {
        let b = InputConfig::default().resolve().unwrap();
        assert!(b.keys.contains(&(Keycode::RETURN, 0, Buttons::START)));
        assert!(b.keys.contains(&(Keycode::RSHIFT, 0, Buttons::SELECT)));
        assert!(b.controllers[3].contains(&(Control::Axis(Axis::LeftY, false), Buttons::UP)));
        assert!(b.controllers[0].contains(&(Control::Button(Button::B), Buttons::A)));
        assert_eq!(b.threshold, 16383);
    }

    #[test]
    fn controller_names_from_the_file() {
        let c: InputConfig = ron::from_str(
            r#"(controllers: [{"Y": "A+B", "+RightTrigger": "Start", "lefttrigger": "Select", "-righty": "Up"}])"#,
        )
        .unwrap();
        let b = c.resolve().unwrap();
        // Keyboard keeps its default when only controllers are given.
        assert_eq!(b.keys.len(), 16);
        assert_eq!(b.controllers[1].len(), 0);
        let pad1 = &b.controllers[0];
        assert!(pad1.contains(&(Control::Button(Button::Y), Buttons::A | Buttons::B)));
        assert!(pad1.contains(&(Control::Axis(Axis::TriggerRight, true), Buttons::START)));
        assert!(pad1.contains(&(Control::Axis(Axis::TriggerLeft, true), Buttons::SELECT)));
        assert!(pad1.contains(&(Control::Axis(Axis::RightY, false), Buttons::UP)));
    }

    /// The format shown in `nesmind run --help` is a working file.
    #[test]
    fn documented_format_parses() {
        let start = FORMAT_HELP.find("  (").unwrap();
        let end = FORMAT_HELP.find("\n  )").unwrap() + 4;
        let text: String = FORMAT_HELP[start..end]
            .lines()
            .filter(|l| !l.contains("..."))
            .collect::<Vec<_>>()
            .join("\n");
        let c: InputConfig = ron::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let b = c.resolve().unwrap();
        assert_eq!((b.keys.len(), b.controllers[0].len()), (16, 12));
    }

    #[test]
    fn bad_configs_name_the_problem() {
        let err = |text: &str| {
            let c: InputConfig = ron::from_str(text).unwrap();
            c.resolve().unwrap_err()
        };
        assert!(err(r#"(keyboard: [{"Q": "Jump"}])"#).contains("pad 1 key 'Q'"));
        assert!(
            err(r#"(keyboard: [{}, {"Nokey": "A"}])"#)
                .contains("pad 2 key 'Nokey' is not an SDL key")
        );
        let e = err(r#"(controllers: [{}, {}, {"jump": "A"}])"#);
        assert!(
            e.contains("controller 3 'jump'") && e.contains("dpup"),
            "{e}"
        );
        assert!(err(r#"(controllers: [{"leftx": "Left"}])"#).contains("-leftx or +leftx"));
        assert!(err(r#"(controllers: [{"-lefttrigger": "A"}])"#).contains("+lefttrigger"));
        assert!(err(r#"(controllers: [{"a": "Turbo"}])"#).contains("unknown button 'Turbo'"));
        assert!(err(r#"(axis_threshold: 1.5)"#).contains("0.1-0.95"));
        assert!(err(r#"(keyboard: [{}, {}, {}, {}, {}])"#).contains("at most 4"));
        let typo = ron::from_str::<InputConfig>(r#"(controler: [])"#).unwrap_err();
        assert!(typo.to_string().contains("controler"), "{typo}");
    }
}
