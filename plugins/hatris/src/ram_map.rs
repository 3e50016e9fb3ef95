//! What the player knows about a Hatris cartridge: where the game keeps each fact and how it
//! encodes it. Calibration (`calib`) finds it by experiment and can save it as RON
//! (`--plugin-opt save_map=FILE`); `--plugin-opt ram_map=FILE` reads such a file back and
//! is then used as given, without calibrating.
//!
//! The shipped `ram_maps.ron` holds what public sources say of Hatris (U): calibration on
//! that cartridge reports where its findings agree or differ, but never takes it on trust.

use super::rules::{HAT_TYPES, HelperAwards, NestReading};
use serde::{Deserialize, Serialize};

/// Shipped maps: Hatris (U) plus any open test cartridges.
pub const SHIPPED: &str = include_str!("../ram_maps.ron");

/// Which address space a byte is in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Space {
    /// The CPU's: console RAM ($0000-$07FF) and the cartridge's PRG RAM ($6000-$7FFF).
    #[default]
    Cpu,
    /// The PPU's: pattern tables ($0000-$1FFF) and nametables ($2000-$2FFF).
    Ppu,
}

/// A byte somewhere in the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Loc {
    #[serde(default)]
    pub space: Space,
    pub addr: u16,
}

impl Loc {
    pub const fn cpu(addr: u16) -> Loc {
        Loc {
            space: Space::Cpu,
            addr,
        }
    }
    pub fn offset(self, by: i32) -> Loc {
        Loc {
            space: self.space,
            addr: (self.addr as i32 + by) as u16,
        }
    }
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.space {
            Space::Cpu => write!(f, "${:04X}", self.addr),
            Space::Ppu => write!(f, "PPU ${:04X}", self.addr),
        }
    }
}

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

/// One cartridge's map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RamMap {
    pub name: String,
    /// CRC32 of PRG+CHR or of PRG alone.
    pub crc32: u32,
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

impl RamMap {
    /// The hat type (1-6) a byte stands for.
    pub fn hat_of(&self, code: u8) -> Option<u8> {
        self.hat_codes
            .iter()
            .position(|&c| c == Some(code))
            .map(|i| i as u8 + 1)
    }

    /// Every CPU address the map names, for range checks.
    fn cpu_addresses(&self) -> Vec<u16> {
        let mut a: Vec<u16> = [self.falling, self.next, self.column, self.y]
            .concat()
            .into_iter()
            .collect();
        a.extend(self.shop.iter().chain(&self.stage).chain(&self.cash));
        if let Some(h) = &self.helpers {
            a.push(h.cursor);
            a.extend(h.pool_count.iter().chain(&h.pool));
        }
        a
    }

    /// The map as RON, in the format [`parse_maps`] reads.
    pub fn to_ron(&self) -> Result<String, String> {
        #[derive(Serialize)]
        struct File<'a> {
            carts: Vec<&'a RamMap>,
        }
        let cfg = ron::ser::PrettyConfig::new().struct_names(false);
        ron::ser::to_string_pretty(&File { carts: vec![self] }, cfg)
            .map_err(|e| format!("cannot write the Hatris map as RON: {e}"))
    }
}

/// A CPU address the game's variables can live at: console RAM or PRG RAM.
fn cpu_variable(addr: u16) -> bool {
    addr < 0x0800 || (0x6000..0x8000).contains(&addr)
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    carts: Vec<RamMap>,
}

/// Parses a RON file with a `carts: [...]` list.
pub fn parse_maps(text: &str, origin: &str) -> Result<Vec<RamMap>, String> {
    let file: MapFile =
        ron::from_str(text).map_err(|e| format!("{origin}: bad Hatris RAM map: {e}"))?;
    if file.carts.is_empty() {
        return Err(format!("{origin}: the RAM map lists no cartridge"));
    }
    for m in &file.carts {
        if let Some(bad) = m.cpu_addresses().into_iter().find(|&a| !cpu_variable(a)) {
            return Err(format!(
                "{origin}: '{}' maps a field to ${bad:04X}, outside work RAM ($0000-$07FF) and \
                 PRG RAM ($6000-$7FFF)",
                m.name
            ));
        }
        for (what, code) in [("column_code", m.column_code), ("y_code", m.y_code)] {
            if code.step == 0 {
                return Err(format!("{origin}: '{}' has a {what} step of 0", m.name));
            }
        }
    }
    Ok(file.carts)
}

/// The shipped maps.
pub fn shipped() -> Vec<RamMap> {
    parse_maps(SHIPPED, "ram_maps.ron").expect("shipped RAM maps parse")
}

/// The name of the game when a shipped map lists this dump (`Entry::knows`).
pub fn known_game(rom: &nesmind_host::RomInfo) -> Option<String> {
    find(&shipped(), |c| rom.matches_crc(c)).map(|m| m.name.clone())
}

/// The map for a cartridge with these CRCs, from `maps`.
pub fn find(maps: &[RamMap], matches: impl Fn(u32) -> bool) -> Option<&RamMap> {
    maps.iter().find(|m| matches(m.crc32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_maps_hold_hatris_with_unknown_piles() {
        let maps = shipped();
        let h = find(&maps, |c| c == 0x841B69B6).expect("Hatris (U)");
        assert_eq!(h.falling, [0x03D0, 0x03D8]);
        assert_eq!(h.piles, PileLayout::Unknown);
        assert!(h.helpers.is_none());
    }

    #[test]
    fn bad_maps_name_the_problem() {
        let e = parse_maps("(carts: [])", "x.ron").unwrap_err();
        assert!(e.contains("x.ron") && e.contains("no cartridge"), "{e}");
        let e = parse_maps("(carts: [(name: \"a\")])", "y.ron").unwrap_err();
        assert!(e.contains("y.ron: bad Hatris RAM map"), "{e}");
        let text = SHIPPED.replace("0x03D0", "0x23D0");
        let e = parse_maps(&text, "z.ron").unwrap_err();
        assert!(e.contains("$23D0"), "{e}");
    }

    #[test]
    fn a_map_survives_a_round_trip_through_ron() {
        for m in shipped() {
            let text = m.to_ron().unwrap();
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
