//! What the player knows about a Hatris cartridge: where the game keeps each fact and how it
//! encodes it. Calibration (`calib`) finds it by experiment and can save it as RON
//! (`--plugin-opt save_map=FILE`); `--plugin-opt ram_map=FILE` reads such a file back and
//! is then used as given, without calibrating.
//!
//! The shipped `ram_maps.ron` holds what public sources say of Hatris (U): calibration on
//! that cartridge reports where its findings agree or differ, but never takes it on trust.

use super::rules::{HAT_TYPES, HelperAwards, NestReading};
use nesmind_host::RomInfo;
use nesmind_host::kit::{self, CartMap, GameMap, check_variable};
use serde::{Deserialize, Serialize};

pub use nesmind_host::kit::{Loc, Space, find};

/// Shipped maps: Hatris (U) plus any open test cartridges.
pub const SHIPPED: &str = include_str!("../ram_maps.ron");

/// A number stored as `offset + step * n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Linear {
    pub offset: i16,
    pub step: i16,
}

impl Default for Linear {
    fn default() -> Linear {
        Linear { offset: 0, step: 1 }
    }
}

impl Linear {
    /// The number a stored byte stands for, if the byte is one of its values.
    pub fn decode(&self, byte: u8) -> Option<i16> {
        let d = byte as i16 - self.offset;
        (self.step != 0 && d % self.step == 0).then(|| d / self.step)
    }
    /// Decodes a count that is never negative and may have wrapped around the byte
    /// (heights stored as an offset plus or minus the height).
    pub fn decode_wrapping(&self, byte: u8) -> Option<i16> {
        let d = (byte as i16 - self.offset).rem_euclid(256);
        let d = if self.step < 0 { (256 - d) % 256 } else { d };
        let s = self.step.abs();
        (s != 0 && d % s == 0).then(|| d / s)
    }
}

/// What the A button exchanges in a falling pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Swap {
    /// The hats trade columns (each hat keeps its type byte).
    #[default]
    Columns,
    /// The hats trade types (each keeps its column).
    Types,
}

/// Where the six piles are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PileLayout {
    /// Not known.
    Unknown,
    /// Pile c holds the number at `counts + c * counts_stride`; its hat i (from the bottom)
    /// has its type byte at `hats + c * stride + i * step` (step < 0: stored from the end).
    Columns {
        counts: Loc,
        #[serde(default = "one")]
        counts_stride: i32,
        hats: Loc,
        stride: i32,
        #[serde(default = "one")]
        step: i32,
    },
}

fn one() -> i32 {
    1
}

/// How the helper screen works and who keeps the pool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HelperMap {
    /// The helper screen's column cursor.
    pub cursor: u16,
    #[serde(default)]
    pub cursor_code: Linear,
    /// Which stacks earn which helper.
    pub awards: HelperAwards,
    /// Number of helpers in the pool, if the map knows where it is (otherwise the player
    /// counts the stacks it sees cleared).
    #[serde(default)]
    pub pool_count: Option<u16>,
    /// The pool, oldest first: 1 = Alexey, 2 = Vladimir.
    #[serde(default)]
    pub pool: Option<u16>,
}

/// A Hatris cartridge's map: the catalogue header (name, CRC32s) and [`HatrisMap`].
pub type RamMap = CartMap<HatrisMap>;

/// What the player knows of one Hatris cartridge, besides its name and CRCs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HatrisMap {
    /// The falling hats' type bytes, hat 1 then hat 2.
    pub falling: [u16; 2],
    /// The next pair's type bytes.
    pub next: [u16; 2],
    /// The falling hats' columns, stored as `column_code` of column 0-5.
    pub column: [u16; 2],
    #[serde(default)]
    pub column_code: Linear,
    /// The falling hats' bottoms, stored as `y_code` of the height in pixels above the heads.
    pub y: [u16; 2],
    #[serde(default)]
    pub y_code: Linear,
    #[serde(default)]
    pub swap: Swap,
    /// The byte standing for each hat type (1 top, 2 wizard, 3 crown, 4 cap, 5 derby,
    /// 6 cowboy); `None` for a type not seen yet.
    #[serde(default = "plain_codes")]
    pub hat_codes: [Option<u8>; HAT_TYPES],
    pub piles: PileLayout,
    #[serde(default = "reading_a")]
    pub nest_reading: NestReading,
    /// A pile taller than this (pixels) after a landing ends the game.
    #[serde(default = "limit_128")]
    pub height_limit: u16,
    #[serde(default)]
    pub helpers: Option<HelperMap>,
    /// Facts the player does not need, kept when known.
    #[serde(default)]
    pub shop: Option<u16>,
    #[serde(default)]
    pub stage: Option<u16>,
    #[serde(default)]
    pub cash: Option<u16>,
}

fn plain_codes() -> [Option<u8>; HAT_TYPES] {
    std::array::from_fn(|i| Some(i as u8 + 1))
}
fn reading_a() -> NestReading {
    NestReading::A
}
fn limit_128() -> u16 {
    128
}

impl HatrisMap {
    /// The hat type (1-6) a byte stands for.
    pub fn hat_of(&self, code: u8) -> Option<u8> {
        self.hat_codes
            .iter()
            .position(|&c| c == Some(code))
            .map(|i| i as u8 + 1)
    }

    /// Every CPU address the map names, with its field, for range checks.
    fn cpu_addresses(&self) -> Vec<(&'static str, u16)> {
        let pairs = [
            ("falling", self.falling),
            ("next", self.next),
            ("column", self.column),
            ("y", self.y),
        ];
        let mut a: Vec<(&str, u16)> = pairs
            .into_iter()
            .flat_map(|(name, two)| two.map(|addr| (name, addr)))
            .collect();
        let extras = [
            ("shop", self.shop),
            ("stage", self.stage),
            ("cash", self.cash),
        ];
        a.extend(
            extras
                .into_iter()
                .filter_map(|(n, v)| v.map(|addr| (n, addr))),
        );
        if let Some(h) = &self.helpers {
            a.push(("helpers.cursor", h.cursor));
            a.extend(h.pool_count.map(|addr| ("helpers.pool_count", addr)));
            a.extend(h.pool.map(|addr| ("helpers.pool", addr)));
        }
        a
    }
}

impl GameMap for HatrisMap {
    const WHAT: &'static str = "Hatris RAM map";

    fn validate(&self) -> Result<(), String> {
        for (what, addr) in self.cpu_addresses() {
            check_variable(what, addr, 1)?;
        }
        for (what, code) in [("column_code", self.column_code), ("y_code", self.y_code)] {
            if code.step == 0 {
                return Err(format!("{what} has a step of 0"));
            }
        }
        Ok(())
    }

    fn ron_fields(&self) -> Result<String, String> {
        let cfg = ron::ser::PrettyConfig::new().struct_names(false);
        let text = ron::ser::to_string_pretty(self, cfg)
            .map_err(|e| format!("cannot write the Hatris map as RON: {e}"))?;
        // `(\n    field: ...,\n)`: the lines between the parentheses, already indented.
        let inner = text
            .strip_prefix("(\n")
            .and_then(|t| t.strip_suffix(')'))
            .ok_or_else(|| format!("unexpected RON layout for a Hatris map: {text}"))?;
        Ok(inner.to_string())
    }
}

/// Parses a RAM-map catalogue (`ram_map=FILE`, the shipped `ram_maps.ron`).
pub fn parse_maps(text: &str, origin: &str) -> Result<Vec<RamMap>, String> {
    kit::parse(text, origin)
}

/// The shipped maps.
pub fn shipped() -> Vec<RamMap> {
    parse_maps(SHIPPED, "ram_maps.ron").expect("shipped RAM maps parse")
}

/// The name of the game when a shipped map lists this dump (`Entry::knows`).
pub fn known_game(rom: &RomInfo) -> Option<String> {
    kit::known_game::<HatrisMap>(SHIPPED, rom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_maps_hold_hatris_with_unknown_piles() {
        let maps = shipped();
        let h = maps
            .iter()
            .find(|m| m.crc32 == [0x841B69B6])
            .expect("Hatris (U)");
        assert_eq!(h.falling, [0x03D0, 0x03D8]);
        assert_eq!(h.piles, PileLayout::Unknown);
        assert!(h.helpers.is_none());
    }

    #[test]
    fn bad_maps_name_the_problem() {
        let e = parse_maps("[]", "x.ron").unwrap_err();
        assert!(e.contains("x.ron") && e.contains("no cartridge"), "{e}");
        let e = parse_maps("[(name: \"a\")]", "y.ron").unwrap_err();
        assert!(e.contains("y.ron: bad Hatris RAM map"), "{e}");
        let text = SHIPPED.replace("0x03D0", "0x23D0");
        let e = parse_maps(&text, "z.ron").unwrap_err();
        assert!(e.contains("$23D0"), "{e}");
    }

    #[test]
    fn a_map_survives_a_round_trip_through_ron() {
        for m in shipped() {
            let text = kit::file_text(&m).unwrap();
            let back = parse_maps(&text, "saved").unwrap();
            assert_eq!(back, vec![m]);
        }
    }

    #[test]
    fn linear_codes_decode_only_their_values() {
        let c = Linear {
            offset: 0x38,
            step: 24,
        };
        assert_eq!(c.decode(0x38 + 48), Some(2));
        assert_eq!(c.decode(0x39), None);
        let down = Linear {
            offset: 200,
            step: -1,
        };
        assert_eq!(down.decode_wrapping(31), Some(169));
        assert_eq!(down.decode_wrapping(200), Some(0));
        let up = Linear { offset: 0, step: 1 };
        assert_eq!(up.decode_wrapping(169), Some(169));
    }
}
