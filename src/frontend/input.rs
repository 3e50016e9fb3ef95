//! Keyboard mapping for pads 1-4, loaded from a RON file (`--input FILE`).
//!
//! The file lists, per pad, SDL key names mapped to NES buttons (several buttons may be
//! joined with `+`). Missing pads get no keys. Example (this is also the default):
//! ```text
//! (keyboard: [
//!     {"Up": "Up", "Down": "Down", "Left": "Left", "Right": "Right",
//!      "X": "A", "Z": "B", "Right Shift": "Select", "Return": "Start"},
//!     {"I": "Up", "K": "Down", "J": "Left", "L": "Right",
//!      "G": "A", "F": "B", "T": "Select", "Y": "Start"},
//! ])
//! ```
//! Game controllers need no configuration: controller N drives pad N with the d-pad or
//! left stick, the east/south face buttons as A/B, Back as Select and Start as Start.

use crate::host::Buttons;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Deserialize, Debug, Clone)]
pub struct InputConfig {
    /// Per pad: SDL key name -> button names.
    pub keyboard: Vec<BTreeMap<String, String>>,
}

impl Default for InputConfig {
    fn default() -> Self {
        let pad = |pairs: &[(&str, &str)]| {
            pairs
                .iter()
                .map(|(k, b)| (k.to_string(), b.to_string()))
                .collect()
        };
        InputConfig {
            keyboard: vec![
                pad(&[
                    ("Up", "Up"),
                    ("Down", "Down"),
                    ("Left", "Left"),
                    ("Right", "Right"),
                    ("X", "A"),
                    ("Z", "B"),
                    ("Right Shift", "Select"),
                    ("Return", "Start"),
                ]),
                pad(&[
                    ("I", "Up"),
                    ("K", "Down"),
                    ("J", "Left"),
                    ("L", "Right"),
                    ("G", "A"),
                    ("F", "B"),
                    ("T", "Select"),
                    ("Y", "Start"),
                ]),
            ],
        }
    }
}

impl InputConfig {
    pub fn load(path: &Path) -> Result<InputConfig, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read input config '{}': {e}", path.display()))?;
        ron::from_str(&text).map_err(|e| format!("input config '{}': {e}", path.display()))
    }

    /// (key name, pad, buttons) triples; bad button names and more than 4 pads are errors.
    pub fn bindings(&self) -> Result<Vec<(String, usize, Buttons)>, String> {
        if self.keyboard.len() > 4 {
            return Err(format!(
                "input config maps {} pads; the NES has at most 4",
                self.keyboard.len()
            ));
        }
        let mut out = Vec::new();
        for (pad, keys) in self.keyboard.iter().enumerate() {
            for (key, buttons) in keys {
                let b = Buttons::parse(buttons)
                    .map_err(|e| format!("pad {} key '{key}': {e}", pad + 1))?;
                out.push((key.clone(), pad, b));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn default_and_bad_configs() {
        let b = InputConfig::default().bindings().unwrap();
        assert!(b.contains(&("Return".to_string(), 0, Buttons::START)));
        let bad: InputConfig = ron::from_str(r#"(keyboard: [{"Q": "Jump"}])"#).unwrap();
        assert!(bad.bindings().unwrap_err().contains("pad 1 key 'Q'"));
    }
}
