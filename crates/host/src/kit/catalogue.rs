//! A player's RAM-map catalogue: a RON list of [`CartMap`]s, looked up by the cartridge's
//! CRC32. The player ships one (`ram_maps.ron`), `--plugin-opt ram_map=FILE` replaces it and
//! `save_map=FILE` writes a map found by calibration in the same format.
//!
//! Format: `[ (name: "...", crc32: [0x...], <the player's fields>), ... ]`. The older Hatris
//! layout, `(carts: [ ... ])` with one `crc32: 0x...` per entry, still reads.

use super::cart_map::{CartMap, GameMap};
use nesmind_emu::RomInfo;
use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::fmt;
use std::marker::PhantomData;
use std::path::Path;

/// The largest catalogue file read.
const MAX_FILE: u64 = 1 << 20;

/// Parses a catalogue and checks each map; errors name `origin` and the map.
pub fn parse<M: GameMap>(text: &str, origin: &str) -> Result<Vec<CartMap<M>>, String> {
    let maps = ron::from_str::<Listed<M>>(text)
        .map_err(|e| format!("{origin}: bad {}: {e}", M::WHAT))?
        .0;
    if maps.is_empty() {
        return Err(format!("{origin}: the file lists no cartridge"));
    }
    for m in &maps {
        m.validate()
            .map_err(|e| format!("{origin}: {} '{}': {e}", M::WHAT, m.name))?;
    }
    Ok(maps)
}

/// Reads and parses a catalogue file (`ram_map=FILE`).
pub fn load<M: GameMap>(path: &str) -> Result<Vec<CartMap<M>>, String> {
    let what = format!("a {} file", M::WHAT);
    let text = crate::files::read_capped_text(Path::new(path), MAX_FILE, &what)
        .map_err(|e| format!("cannot read {} '{path}': {e}", M::WHAT))?;
    parse(&text, path)
}

/// The map for a cartridge, if one lists its CRC32.
pub fn find<'a, M: GameMap>(maps: &'a [CartMap<M>], rom: &RomInfo) -> Option<&'a CartMap<M>> {
    maps.iter().find(|m| m.fits(rom))
}

/// The name of the game when the shipped catalogue `shipped` lists this dump
/// (`Entry::knows`).
pub fn known_game<M: GameMap>(shipped: &str, rom: &RomInfo) -> Option<String> {
    let maps = parse::<M>(shipped, "built-in RAM maps").ok()?;
    find(&maps, rom).map(|m| m.name.clone())
}

/// The error for a cartridge no map lists, naming its CRCs and the known maps.
pub fn no_map_for<M: GameMap>(maps: &[CartMap<M>], rom: &RomInfo) -> String {
    let known: Vec<String> = maps
        .iter()
        .map(|m| format!("{} ({:08X?})", m.name, m.crc32))
        .collect();
    format!(
        "no {} for '{}' (CRC32 {:08X}, PRG CRC32 {:08X}); known: {}",
        M::WHAT,
        rom.file_name,
        rom.crc32,
        rom.prg_crc32,
        known.join(", ")
    )
}

/// One map as a catalogue file, as `ram_map=FILE` reads it.
pub fn file_text<M: GameMap>(map: &CartMap<M>) -> Result<String, String> {
    Ok(format!(
        "// A {} written by calibration (save_map); read it back with\n\
         // --plugin-opt ram_map=FILE.\n[\n{},\n]\n",
        M::WHAT,
        map.to_ron()?
    ))
}

/// Writes one map as a catalogue file (`save_map=FILE`), atomically.
pub fn save<M: GameMap>(path: &str, map: &CartMap<M>) -> Result<(), String> {
    crate::files::write_atomic(Path::new(path), file_text(map)?.as_bytes())
}

/// The list, in either layout.
struct Listed<M>(Vec<CartMap<M>>);

impl<'de, M: GameMap> Deserialize<'de> for Listed<M> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ListedVisitor(PhantomData))
    }
}

struct ListedVisitor<M>(PhantomData<M>);

impl<'de, M: GameMap> Visitor<'de> for ListedVisitor<M> {
    type Value = Listed<M>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "a list of {}s, [ (name: ..., crc32: [...], ...), ... ]",
            M::WHAT
        )
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Listed<M>, S::Error> {
        let mut maps = Vec::new();
        while let Some(m) = seq.next_element()? {
            maps.push(m);
        }
        Ok(Listed(maps))
    }

    /// The older layout: `(carts: [ ... ])`.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Listed<M>, A::Error> {
        let mut carts = None;
        while let Some(key) = map.next_key_seed(super::cart_map::FieldName)? {
            if key != "carts" || carts.is_some() {
                return Err(de::Error::custom(format!(
                    "unexpected field `{key}`: a catalogue is a list, \
                     [ (name: ..., crc32: [...], ...), ... ]"
                )));
            }
            carts = Some(map.next_value::<Vec<CartMap<M>>>()?);
        }
        carts
            .map(Listed)
            .ok_or_else(|| de::Error::missing_field("carts"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Toy {
        addr: u16,
        #[serde(default)]
        codes: Vec<u8>,
    }

    impl GameMap for Toy {
        const WHAT: &'static str = "toy RAM map";
        fn validate(&self) -> Result<(), String> {
            crate::kit::check_variable("addr", self.addr, 1)
        }
        fn ron_fields(&self) -> Result<String, String> {
            Ok(format!(
                "    addr: 0x{:04X},\n    codes: {:?},\n",
                self.addr, self.codes
            ))
        }
    }

    fn rom(crc32: u32) -> RomInfo {
        RomInfo {
            crc32,
            prg_crc32: 0,
            sha1: [0; 20],
            mapper: 0,
            submapper: 0,
            file_name: "toy.nes".into(),
        }
    }

    #[test]
    fn both_layouts_read_and_a_saved_map_reads_back() {
        let list = "[ (name: \"a\", crc32: [0x1, 0x2], addr: 0x10), (crc32: [3], name: \"b\", \
                    addr: 0x6000, codes: [1]) ]";
        let maps = parse::<Toy>(list, "l").unwrap();
        assert_eq!(maps[1].name, "b");
        assert_eq!(maps[1].addr, 0x6000);
        assert_eq!(find(&maps, &rom(2)).unwrap().name, "a");
        assert!(find(&maps, &rom(4)).is_none());
        assert!(no_map_for(&maps, &rom(4)).contains("no toy RAM map for"));
        let old = "(carts: [ (name: \"c\", crc32: 0xABCD0123, addr: 0x20) ])";
        let maps = parse::<Toy>(old, "o").unwrap();
        assert_eq!(maps[0].crc32, vec![0xABCD0123]);
        let back = parse::<Toy>(&file_text(&maps[0]).unwrap(), "saved").unwrap();
        assert_eq!(back, maps);
    }

    #[test]
    fn errors_name_the_file_and_the_map() {
        let e = parse::<Toy>("[ (name: \"a\", crc32: [1], adr: 0x10) ]", "x.ron").unwrap_err();
        assert!(
            e.starts_with("x.ron: bad toy RAM map") && e.contains("adr"),
            "{e}"
        );
        let e = parse::<Toy>("[ (name: \"a\", addr: 0x10) ]", "y.ron").unwrap_err();
        assert!(e.contains("crc32"), "{e}");
        let e = parse::<Toy>("[ (name: \"a\", crc32: [1], addr: 0x2000) ]", "z").unwrap_err();
        assert!(e.starts_with("z: toy RAM map 'a': addr $2000"), "{e}");
        let e = parse::<Toy>("[ (name: \"a\", crc32: [], addr: 0) ]", "w").unwrap_err();
        assert!(e.contains("crc32 list is empty"), "{e}");
        assert!(
            parse::<Toy>("[]", "v")
                .unwrap_err()
                .contains("no cartridge")
        );
        let e = parse::<Toy>("(maps: [])", "u").unwrap_err();
        assert!(e.contains("a catalogue is a list"), "{e}");
    }
}
