//! Telling which hat type a byte no pair has shown before stands for (the game deals new
//! types as the levels go on): pairs are dropped on a fork onto the lowest piles until
//! exactly one of the types not yet placed explains where the hats stopped.

use super::drops::{Drop, PairReader, drop_pair, settle};
use super::lab::fork_of;
use super::pair::Pair;
use super::physics::{explains_with, pile_codes};
use super::snap::Snap;
use crate::ram_map::RamMap;
use crate::rules::{COLUMNS, HAT_TYPES};
use nesmind_host::Frame;

/// Most pairs dropped to identify new bytes.
const MAX_DROPS: usize = 10;

/// The probe's view of a calibrated map's pair.
pub fn pair_of(map: &RamMap) -> Pair {
    Pair {
        cols: map.column,
        col_code: map.column_code,
        ys: map.y,
        y_dir: map.y_code.step.signum(),
        other_ys: Vec::new(),
        swap: Some(map.swap),
    }
}

/// Every way to give each of `unknown` a distinct type not yet in `codes`.
fn extensions(codes: &[Option<u8>; HAT_TYPES], unknown: &[u8]) -> Vec<[Option<u8>; HAT_TYPES]> {
    let Some((&first, rest)) = unknown.split_first() else {
        return vec![*codes];
    };
    let mut out = Vec::new();
    for t in 0..HAT_TYPES {
        if codes[t].is_none() {
            let mut c = *codes;
            c[t] = Some(first);
            out.extend(extensions(&c, rest));
        }
    }
    out
}

/// The map's hat codes with each of `unknown` given its type, found on forks of `frame`;
/// `Err` says why not. Also returns the frames run.
pub fn identify(
    frame: &dyn Frame,
    map: &RamMap,
    unknown: &[u8],
) -> Result<([Option<u8>; HAT_TYPES], u64), String> {
    let mut lab = super::lab::new();
    let mut fork = fork_of(frame)?;
    let pair = pair_of(map);
    let reader = PairReader { pair: &pair };
    settle(&mut lab, &mut fork, &reader)?;
    // The two neighbouring piles holding the fewest hats, so the fork's game goes on.
    let piles = pile_codes(&Snap::take(&fork), &map.piles);
    let left = (0..COLUMNS - 1)
        .min_by_key(|&c| piles[c].len() + piles[c + 1].len())
        .unwrap_or(0) as i16;
    let floor = map.y_code.offset * pair.y_dir;
    let candidates = extensions(&map.hat_codes, unknown);
    let mut drops: Vec<Drop> = Vec::new();
    let names: Vec<String> = unknown.iter().map(|c| format!("{c:02X}")).collect();
    for _ in 0..MAX_DROPS {
        let d = drop_pair(&mut lab, &mut fork, &reader, left, false)?;
        let spawned = d.spawned;
        drops.push(d);
        let fits: Vec<&[Option<u8>; HAT_TYPES]> = candidates
            .iter()
            .filter(|codes| explains_with(&drops, map, codes) == Some(floor))
            .collect();
        match fits.len() {
            0 => {
                return Err(format!(
                    "the hat type of byte {}: no type left explains where the hats stopped",
                    names.join(", ")
                ));
            }
            1 => return Ok((*fits[0], lab.frames())),
            _ if !spawned => break,
            _ => {}
        }
    }
    Err(format!(
        "the hat type of byte {}: {} drops did not tell the types apart",
        names.join(", "),
        drops.len()
    ))
}
