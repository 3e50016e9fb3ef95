//! Which byte is which hat, and how hats nest: every assignment of the bytes seen to the
//! six types (heights and nesting table from the ROM) and both readings of the table are
//! tried against the heights at which dropped hats stopped; the one that explains all of
//! them is kept.

use super::drops::Drop;
use super::snap::Snap;
use crate::board::{Board, Geometry};
use crate::ram_map::{Loc, PileLayout};
use crate::rules::{COLUMNS, HAT_TYPES, NestReading, Settings};
use nesmind_host::kit::Memory;

/// The byte codes of pile c's hats, bottom first, as `snap` holds them.
pub fn pile_codes(snap: &Snap, layout: &PileLayout) -> [Vec<u8>; COLUMNS] {
    let PileLayout::Columns {
        counts,
        counts_stride,
        hats,
        stride,
        step,
    } = *layout
    else {
        return Default::default();
    };
    std::array::from_fn(|c| {
        let n = snap.at(counts.offset(counts_stride * c as i32)).min(96) as i32;
        (0..n)
            .map(|i| snap.at(hats.offset(stride * c as i32 + step * i)))
            .collect()
    })
}

/// The board `codes` make under `types` (code -> type); `None` if a code has no type.
pub fn board_of(
    geo: &Geometry,
    codes: &[Vec<u8>; COLUMNS],
    types: &dyn Fn(u8) -> Option<u8>,
) -> Option<Board> {
    let mut piles: [Vec<u8>; COLUMNS] = Default::default();
    for (c, col) in codes.iter().enumerate() {
        piles[c] = col.iter().map(|&k| types(k)).collect::<Option<Vec<u8>>>()?;
    }
    let mut b = Board::default();
    b.set_piles(geo, &piles);
    Some(b)
}

/// What the fit found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Physics {
    /// Byte of each type 1-6, for the types seen.
    pub codes: [Option<u8>; HAT_TYPES],
    pub reading: NestReading,
    /// `y_dir * byte - floor` is a hat's height above the heads.
    pub floor: i16,
    /// Height bytes of hat 1 and hat 2.
    pub ys: [u16; 2],
    pub y_dir: i16,
}

/// Hat bytes seen anywhere in the drops' piles and pairs.
fn codes_seen(drops: &[Drop], layout: &PileLayout, falling: [u16; 2]) -> Vec<u8> {
    let mut seen: Vec<u8> = Vec::new();
    for d in drops {
        let piles = pile_codes(&d.before, layout);
        let pair = falling.map(|f| d.before.at(Loc::cpu(f)));
        for k in piles.iter().flatten().chain(&pair) {
            if !seen.contains(k) {
                seen.push(*k);
            }
        }
    }
    seen
}

/// Every injective assignment of `codes` to the six types.
fn assignments(codes: &[u8]) -> Vec<[Option<u8>; HAT_TYPES]> {
    fn go(codes: &[u8], at: [Option<u8>; HAT_TYPES], out: &mut Vec<[Option<u8>; HAT_TYPES]>) {
        let Some((&first, rest)) = codes.split_first() else {
            out.push(at);
            return;
        };
        for t in 0..HAT_TYPES {
            if at[t].is_none() {
                let mut next = at;
                next[t] = Some(first);
                go(rest, next, out);
            }
        }
    }
    let mut out = Vec::new();
    if codes.len() <= HAT_TYPES {
        go(codes, [None; HAT_TYPES], &mut out);
    }
    out
}

/// Whether every stopped hat sat at its pile's height under these facts.
fn explains(
    drops: &[Drop],
    layout: &PileLayout,
    falling: [u16; 2],
    (ys, y_dir): ([u16; 2], i16),
    codes: &[Option<u8>; HAT_TYPES],
    reading: NestReading,
    crossed: bool,
) -> Option<i16> {
    let geo = Geometry::new(&Settings {
        nest_reading: reading,
        ..Settings::default()
    });
    let types = |k: u8| {
        codes
            .iter()
            .position(|&c| c == Some(k))
            .map(|t| t as u8 + 1)
    };
    let mut floor = None;
    for d in drops {
        let board = board_of(&geo, &pile_codes(&d.before, layout), &types)?;
        let h = board.heights();
        for i in 0..2 {
            let Ok(col) = usize::try_from(d.cols[i]) else {
                continue;
            };
            if col >= COLUMNS || types(d.before.at(Loc::cpu(falling[i]))).is_none() {
                return None;
            }
            let y = d.landed.at(Loc::cpu(ys[if crossed { 1 - i } else { i }]));
            let f = y_dir * y as i16 - h[col];
            match floor {
                None => floor = Some(f),
                Some(g) if g != f => return None,
                _ => {}
            }
        }
    }
    floor
}

/// Every set of facts that explains the drops.
pub fn fit(
    drops: &[Drop],
    layout: &PileLayout,
    falling: [u16; 2],
    ys: ([u16; 2], i16),
) -> Vec<Physics> {
    let seen = codes_seen(drops, layout, falling);
    let mut found = Vec::new();
    for codes in assignments(&seen) {
        for reading in [NestReading::A, NestReading::B] {
            for crossed in [false, true] {
                if let Some(floor) = explains(drops, layout, falling, ys, &codes, reading, crossed)
                {
                    let [a, b] = ys.0;
                    found.push(Physics {
                        codes,
                        reading,
                        floor,
                        ys: if crossed { [b, a] } else { [a, b] },
                        y_dir: ys.1,
                    });
                }
            }
        }
    }
    found
}

/// The one answer among `found`, if they differ at most in which height byte is whose
/// (which only split landings tell; then the first, as the probe ordered them, is kept).
pub fn unique(found: &[Physics]) -> Option<Physics> {
    let first = found.first()?;
    let same = |p: &Physics| {
        p.codes == first.codes && p.reading == first.reading && p.floor == first.floor
    };
    found.iter().all(same).then(|| first.clone())
}

/// The floor under which `codes` and the map's other facts explain the drops, if they do.
pub fn explains_with(
    drops: &[Drop],
    map: &crate::ram_map::RamMap,
    codes: &[Option<u8>; HAT_TYPES],
) -> Option<i16> {
    explains(
        drops,
        &map.piles,
        map.falling,
        (map.y, map.y_code.step.signum()),
        codes,
        map.nest_reading,
        false,
    )
}
