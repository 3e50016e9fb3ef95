//! Where a Hatris cartridge keeps its game state, loaded from RON and keyed by CRC32.
//!
//! Adding a cartridge is a data change: append an entry to `ram_maps.ron` (or pass a file
//! with `--plugin-opt ram_map=FILE`).
//!
//! Open question for the real cartridge (text for roms-README.md): the Data Crystal RAM map
//! of Hatris (U) is only known up to $0521, so **where the six piles live in RAM is not
//! known**. The shipped entry marks its pile layout `Unknown` and the player refuses that
//! cartridge with a message saying so. Once the layout is found (one RAM dump of a game in
//! progress settles it), write it as a `Columns(...)` entry: a count byte per column, the
//! hat types (1-6, the game's coding) per column at a fixed stride, and whether they are
//! stored bottom-up or top-down. The helper pool and the helper-selection screen are not
//! mapped either, so with `helpers: None` the player never calls a helper.

use serde::{Deserialize, Serialize};

/// Shipped maps: Hatris (U) plus any open test cartridges.
pub const SHIPPED: &str = include_str!("../ram_maps.ron");

/// Order of the hats of one column in RAM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HatOrder {
    BottomUp,
    TopDown,
}

/// [GAP] layout of the six piles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PileLayout {
    /// Not known for this cartridge.
    Unknown,
    /// `counts + c` holds the number of hats of column c; its hats start at `hats + c * stride`.
    Columns {
        counts: u16,
        hats: u16,
        stride: u16,
        order: HatOrder,
    },
}

/// [GAP] helper pool and helper-screen addresses (our RAM-image host's layout; unknown for the
/// real cartridge).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HelperMap {
    /// Number of helpers in the pool.
    pub pool_count: u16,
    /// Pool entries, oldest first: 1 = Alexey, 2 = Vladimir.
    pub pool: u16,
    /// 0 while no helper is on screen, 1 Alexey, 2 Vladimir.
    pub active: u16,
    /// Column the helper points at (0-5).
    pub cursor: u16,
    /// Hats Alexey has removed so far.
    pub removed: u16,
    /// Vladimir's first chosen column, 0xFF while none is chosen.
    pub chosen: u16,
}

/// One cartridge's RAM map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RamMap {
    pub name: String,
    /// CRC32 of PRG+CHR or of PRG alone.
    pub crc32: u32,
    /// Falling hat types, hat 1 then hat 2 (0 none, 1-6).
    pub falling: [u16; 2],
    pub next: [u16; 2],
    /// Falling hat columns (0-5).
    pub column: [u16; 2],
    /// Falling hat heights.
    pub y: [u16; 2],
    /// 0x00 while falling, 0xFF once landed.
    pub landed: [u16; 2],
    /// Frame counter (low byte first).
    pub frame_counter: u16,
    /// The two generator bytes.
    pub rng: [u16; 2],
    /// Shop digit and stage digit.
    pub shop: u16,
    pub stage: u16,
    /// Cash: eight decimal digits, least significant first.
    pub cash: u16,
    /// Non-zero while the cash-out screen or a cut-scene is shown.
    pub not_playing: Vec<u16>,
    pub piles: PileLayout,
    pub helpers: Option<HelperMap>,
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
        let addrs = m
            .falling
            .iter()
            .chain(&m.next)
            .chain(&m.column)
            .chain(&m.y)
            .chain(&m.landed)
            .chain(&m.rng)
            .chain([&m.frame_counter, &m.shop, &m.stage, &m.cash]);
        if let Some(bad) = addrs.into_iter().find(|&&a| a >= 0x0800) {
            return Err(format!(
                "{origin}: '{}' maps a field to ${bad:04X}, outside the 2 KiB of work RAM",
                m.name
            ));
        }
    }
    Ok(file.carts)
}

/// The shipped maps.
pub fn shipped() -> Vec<RamMap> {
    parse_maps(SHIPPED, "ram_maps.ron").expect("shipped RAM maps parse")
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
        let text = SHIPPED.replace("0x03D0", "0x93D0");
        let e = parse_maps(&text, "z.ron").unwrap_err();
        assert!(e.contains("$93D0"), "{e}");
    }
}
