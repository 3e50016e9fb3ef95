//! `data.json`: the named variables of a game's RAM (score, lives, position) that rewards,
//! ends and `info` are computed from.
//!
//! Where this is stricter than stable-retro: a malformed type code or a variable outside
//! the 2 KiB of CPU RAM is an error naming it, where stable-retro skips the first quietly
//! and can also read FCEUmm's $6000-$7FFF work RAM (no shipped NES integration does).

use crate::datatype::DataType;
use serde_json::Value;
use std::collections::BTreeMap;

/// The CPU's work RAM, the only memory stable-retro's NES integrations address.
pub const RAM_SIZE: usize = 0x800;

/// One named variable.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    pub address: usize,
    pub dtype: DataType,
    /// ANDed with the decoded value (all bits when `data.json` gives none).
    pub mask: u64,
}

impl Variable {
    /// The variable's value in `ram`, or why it cannot be read there.
    pub fn read(&self, ram: &[u8]) -> Result<i64, String> {
        let end = self.address + self.dtype.width();
        let bytes = ram.get(self.address..end).ok_or_else(|| {
            format!(
                "spans ${:04X}-${:04X}, outside the {} bytes of RAM",
                self.address,
                end - 1,
                ram.len()
            )
        })?;
        Ok(self.dtype.decode(bytes) & self.mask as i64)
    }

    /// The bytes to write at `address` so that the variable reads `value`: under a mask,
    /// only the masked bits change (the others are kept from `ram`).
    pub fn encode(&self, ram: &[u8], value: i64) -> Result<Vec<u8>, String> {
        let mask = self.mask as i64;
        let value = if mask == -1 {
            value
        } else {
            let end = self.address + self.dtype.width();
            let old = ram
                .get(self.address..end)
                .map(|b| self.dtype.decode(b))
                .ok_or_else(|| format!("${:04X} is outside RAM", self.address))?;
            (old & !mask) | (value & mask)
        };
        Ok(self.dtype.encode(value))
    }
}

/// The variables of one integration, by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameData {
    pub vars: BTreeMap<String, Variable>,
}

impl GameData {
    /// Parses the text of a `data.json`.
    pub fn parse(text: &str) -> Result<GameData, String> {
        let json: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let info = json
            .get("info")
            .and_then(Value::as_object)
            .ok_or("no \"info\" object")?;
        let mut vars = BTreeMap::new();
        for (name, v) in info {
            let var = parse_variable(v).map_err(|e| format!("variable {name:?}: {e}"))?;
            vars.insert(name.clone(), var);
        }
        Ok(GameData { vars })
    }

    /// The variable called `name`.
    pub fn get(&self, name: &str) -> Result<&Variable, String> {
        self.vars
            .get(name)
            .ok_or_else(|| format!("no variable {name:?} in data.json"))
    }

    /// Every variable's value in `ram`.
    pub fn read_all(&self, ram: &[u8]) -> Result<BTreeMap<String, i64>, String> {
        self.vars
            .iter()
            .map(|(name, var)| {
                Ok((
                    name.clone(),
                    var.read(ram).map_err(|e| format!("{name}: {e}"))?,
                ))
            })
            .collect()
    }
}

fn parse_variable(v: &Value) -> Result<Variable, String> {
    let address = v
        .get("address")
        .and_then(Value::as_u64)
        .ok_or("no unsigned \"address\"")?;
    let code = v
        .get("type")
        .and_then(Value::as_str)
        .ok_or("no \"type\" string")?;
    let dtype = DataType::parse(code).map_err(|e| e.to_string())?;
    let mask = match v.get("mask") {
        None => u64::MAX,
        Some(m) => m.as_u64().ok_or("\"mask\" is not an unsigned integer")?,
    };
    let address = usize::try_from(address).map_err(|_| "address too large")?;
    if address
        .checked_add(dtype.width())
        .is_none_or(|end| end > RAM_SIZE)
    {
        return Err(format!(
            "address {address} ({code}) lies outside the 2 KiB of CPU RAM, \
             the only memory nesmind's evaluation reads so far"
        ));
    }
    Ok(Variable {
        address,
        dtype,
        mask,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_variables_and_masks() {
        let d = GameData::parse(
            r#"{"info": {"lives": {"address": 1, "type": "|i1"},
                         "score": {"address": 2, "type": ">n3"},
                         "flag": {"address": 0, "type": "|u1", "mask": 4}}}"#,
        )
        .unwrap();
        let mut ram = [0u8; RAM_SIZE];
        ram[0] = 0xFF;
        ram[1] = 0xFE;
        ram[2..5].copy_from_slice(&[1, 2, 3]);
        let all = d.read_all(&ram).unwrap();
        assert_eq!(all["lives"], -2);
        assert_eq!(all["score"], 123);
        assert_eq!(all["flag"], 4);
    }

    #[test]
    fn bad_files_are_named() {
        for (text, needle) in [
            ("[", "not JSON"),
            ("{}", "info"),
            (r#"{"info": {"x": {"type": "|u1"}}}"#, "\"x\""),
            (r#"{"info": {"x": {"address": 1, "type": "|q1"}}}"#, "|q1"),
            (
                r#"{"info": {"x": {"address": 2047, "type": "<u2"}}}"#,
                "outside",
            ),
        ] {
            let e = GameData::parse(text).unwrap_err();
            assert!(e.contains(needle), "{text}: {e}");
        }
    }
}
