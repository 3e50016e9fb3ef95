//! serde cannot derive for arrays longer than 32 elements (OAM, RAM, palettes): these store
//! them as sequences, checking the length on the way back in.

use serde::de::Error;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub fn serialize<S: Serializer, T: Serialize, const N: usize>(
    a: &[T; N],
    s: S,
) -> Result<S::Ok, S::Error> {
    a.as_slice().serialize(s)
}
pub fn deserialize<'de, D, T, const N: usize>(d: D) -> Result<[T; N], D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let v: Vec<T> = Vec::deserialize(d)?;
    let len = v.len();
    v.try_into()
        .map_err(|_| D::Error::custom(format!("expected {N} elements, found {len}")))
}
