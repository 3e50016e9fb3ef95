//! One cartridge's RAM map: the header every player's map has (the game's name and the
//! CRC32s of the dumps it fits) and the player's own fields, written side by side in one RON
//! struct: `(name: "...", crc32: [0x...], board: ..., ...)`.
//!
//! The header is split off while the entry is read, key by key, so the player's fields keep
//! their own serde rules (defaults, `deny_unknown_fields`) and the parser's errors keep their
//! positions; nothing is buffered.

use nesmind_emu::RomInfo;
use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::fmt;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

/// The fields a player keeps about one cartridge, besides its name and CRCs.
pub trait GameMap: DeserializeOwned {
    /// What messages call one map: "Spot RAM map".
    const WHAT: &'static str;
    /// Checks the fields against each other and the machine (addresses in RAM ...).
    fn validate(&self) -> Result<(), String>;
    /// The fields as RON lines (`    board: (...),`), indented by four spaces, each ending
    /// in a comma and a newline, in the order the player's documentation gives them.
    fn ron_fields(&self) -> Result<String, String>;
}

/// One cartridge's map: the header and the player's fields `M` (reached through `Deref`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CartMap<M> {
    pub name: String,
    /// CRC32s of PRG+CHR or of PRG alone, any of which selects this map.
    pub crc32: Vec<u32>,
    pub game: M,
}

impl<M> Deref for CartMap<M> {
    type Target = M;
    fn deref(&self) -> &M {
        &self.game
    }
}

impl<M> DerefMut for CartMap<M> {
    fn deref_mut(&mut self) -> &mut M {
        &mut self.game
    }
}

impl<M: GameMap> CartMap<M> {
    /// Whether this map is for that dump.
    pub fn fits(&self, rom: &RomInfo) -> bool {
        self.crc32.iter().any(|&c| rom.matches_crc(c))
    }

    /// Checks the header and the player's fields.
    pub fn validate(&self) -> Result<(), String> {
        if self.crc32.is_empty() {
            return Err("crc32 list is empty".into());
        }
        self.game.validate()
    }

    /// The entry as RON, without the catalogue's list brackets.
    pub fn to_ron(&self) -> Result<String, String> {
        let crcs: Vec<String> = self.crc32.iter().map(|c| format!("0x{c:08X}")).collect();
        Ok(format!(
            "(\n    name: {:?},\n    crc32: [{}],\n{})",
            self.name,
            crcs.join(", "),
            self.game.ron_fields()?
        ))
    }
}

impl<'de, M: GameMap> Deserialize<'de> for CartMap<M> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_struct("CartMap", &[], EntryVisitor(PhantomData))
    }
}

struct EntryVisitor<M>(PhantomData<M>);

impl<'de, M: GameMap> Visitor<'de> for EntryVisitor<M> {
    type Value = CartMap<M>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a {} (name: ..., crc32: [...], ...)", M::WHAT)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<CartMap<M>, A::Error> {
        let mut header = Header::default();
        let game = M::deserialize(de::value::MapAccessDeserializer::new(HeaderTap {
            inner: map,
            header: &mut header,
        }))?;
        Ok(CartMap {
            name: header
                .name
                .ok_or_else(|| de::Error::missing_field("name"))?,
            crc32: header
                .crc32
                .ok_or_else(|| de::Error::missing_field("crc32"))?,
            game,
        })
    }
}

#[derive(Default)]
struct Header {
    name: Option<String>,
    crc32: Option<Vec<u32>>,
}

/// The entry's fields, less the header's, which it keeps as they pass.
struct HeaderTap<'h, A> {
    inner: A,
    header: &'h mut Header,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for HeaderTap<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        loop {
            let Some(key) = self.inner.next_key_seed(FieldName)? else {
                return Ok(None);
            };
            match key.as_str() {
                "name" if self.header.name.is_none() => {
                    self.header.name = Some(self.inner.next_value()?);
                }
                "crc32" if self.header.crc32.is_none() => {
                    self.header.crc32 = Some(self.inner.next_value::<CrcList>()?.0);
                }
                "name" | "crc32" => return Err(de::Error::duplicate_field("name or crc32")),
                _ => {
                    let key: de::value::StringDeserializer<A::Error> = key.into_deserializer();
                    return seed.deserialize(key).map(Some);
                }
            }
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.inner.next_value_seed(seed)
    }
}

/// A struct field's name, read as an identifier (RON will not give one as a string).
pub(super) struct FieldName;

impl<'de> DeserializeSeed<'de> for FieldName {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_identifier(FieldNameVisitor)
    }
}

struct FieldNameVisitor;

impl Visitor<'_> for FieldNameVisitor {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_string())
    }
}

/// `crc32: [0x..., ...]`; a single `crc32: 0x...` (the Hatris files before the catalogue was
/// shared) still reads, as a list of one.
struct CrcList(Vec<u32>);

impl<'de> Deserialize<'de> for CrcList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(CrcVisitor)
    }
}

struct CrcVisitor;

impl<'de> Visitor<'de> for CrcVisitor {
    type Value = CrcList;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of CRC32s, [0x...]")
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<CrcList, E> {
        u32::try_from(v)
            .map(|c| CrcList(vec![c]))
            .map_err(|_| E::custom(format!("CRC32 {v:#X} is wider than 32 bits")))
    }
    fn visit_seq<S: de::SeqAccess<'de>>(self, mut seq: S) -> Result<CrcList, S::Error> {
        let mut list = Vec::new();
        while let Some(c) = seq.next_element()? {
            list.push(c);
        }
        Ok(CrcList(list))
    }
}
