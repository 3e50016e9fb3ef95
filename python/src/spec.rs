//! RAM-variable specs (rewards and episode ends) read from RON or JSON into one checked
//! form; `nesmind.specs` evaluates them. Unknown fields and types are refused by name.

use crate::errors::NesError;
use pyo3::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    /// The game the spec is for (messages only).
    #[serde(default)]
    game: String,
    variables: BTreeMap<String, Variable>,
    /// Expression over the variables (and `prev.NAME`, their values one step earlier).
    #[serde(default)]
    reward: Option<String>,
    /// Expression: true ends the episode (terminated).
    #[serde(default)]
    done: Option<String>,
    /// How to get from power-on to the first playable frame.
    #[serde(default)]
    start: Option<Start>,
    /// The action set: one button combination ("A+Right", "" for none) per action.
    #[serde(default)]
    actions: Option<Vec<String>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Variable {
    /// CPU address of the first byte ($0000-$07FF work RAM, $6000-$7FFF cartridge RAM ...).
    address: u16,
    /// u8, i8, u16, i16, u24, u32, bcd (two decimal digits a byte) or digits (one a byte).
    #[serde(rename = "type", default = "default_type")]
    kind: String,
    /// Bytes for bcd and digits (fixed by the type otherwise).
    #[serde(default)]
    size: Option<u8>,
    /// Byte order: little (least significant byte first, the 6502's) or big.
    #[serde(default = "default_endian")]
    endian: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Start {
    /// Buttons tapped (pressed one frame, released the next) until `until` holds.
    #[serde(default)]
    buttons: String,
    /// Expression over the variables that is true on the first playable frame.
    until: String,
    /// Give up (an error) after this many frames.
    #[serde(default = "default_start_frames")]
    max_frames: u64,
}

fn default_type() -> String {
    "u8".into()
}
fn default_endian() -> String {
    "little".into()
}
fn default_start_frames() -> u64 {
    3600
}

fn check(spec: &Spec) -> Result<(), String> {
    if spec.variables.is_empty() {
        return Err("a spec needs at least one variable".into());
    }
    for (name, v) in &spec.variables {
        let fixed = match v.kind.as_str() {
            "u8" | "i8" => Some(1),
            "u16" | "i16" => Some(2),
            "u24" => Some(3),
            "u32" => Some(4),
            "bcd" | "digits" => None,
            other => {
                return Err(format!(
                    "variable '{name}': unknown type '{other}' (u8, i8, u16, i16, u24, u32, bcd, digits)"
                ));
            }
        };
        match (fixed, v.size) {
            (Some(n), Some(s)) if s != n => {
                return Err(format!(
                    "variable '{name}': type {} is {n} bytes, not {s}",
                    v.kind
                ));
            }
            (None, None) => {
                return Err(format!(
                    "variable '{name}': type {} needs a size in bytes",
                    v.kind
                ));
            }
            (None, Some(s)) if s == 0 || s > 8 => {
                return Err(format!("variable '{name}': size {s} is not 1-8 bytes"));
            }
            _ => {}
        }
        if v.endian != "little" && v.endian != "big" {
            return Err(format!(
                "variable '{name}': endian '{}' is not little or big",
                v.endian
            ));
        }
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            || name.starts_with(|c: char| c.is_ascii_digit())
            || name == "prev"
        {
            return Err(format!(
                "variable name '{name}' is not an identifier (letters, digits, _; not 'prev')"
            ));
        }
    }
    Ok(())
}

/// parse_spec(text, format) -> str: a RON or JSON spec, checked, as JSON text.
#[pyfunction]
pub fn parse_spec(text: &str, format: &str) -> PyResult<String> {
    let spec: Spec = match format {
        // Optional fields may be written bare (`reward: "..."`), without Some(...).
        "ron" => ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .from_str(text)
            .map_err(|e| e.to_string()),
        "json" => serde_json::from_str(text).map_err(|e| e.to_string()),
        other => Err(format!("unknown spec format '{other}' (ron, json)")),
    }
    .and_then(|s| check(&s).map(|()| s))
    .map_err(|e| NesError::new_err(format!("bad RAM spec: {e}")))?;
    serde_json::to_string(&spec).map_err(|e| NesError::new_err(e.to_string()))
}
