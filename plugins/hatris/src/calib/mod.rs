//! Calibration: working out, by experiment on forks of the running game, where a Hatris
//! cartridge keeps the falling pair, the next pair and the six piles, how it encodes them,
//! how hats nest and how tall a pile may grow. Nothing is taken from a map: the game is
//! pressed and watched (see the submodules for each experiment).

pub mod drops;
pub mod helpers;
pub mod identify;
pub mod lab;
pub mod layout;
pub mod level;
pub mod pair;
pub mod physics;
pub mod snap;

use self::drops::{Drop, PairReader, drop_pair, settle};
use self::lab::{Lab, PAD, fork_of};
use self::pair::Pair;
use self::physics::{Physics, board_of, fit, pile_codes, unique};
use crate::board::Geometry;
use crate::ram_map::{HatrisMap, Linear, PileLayout, RamMap, Swap};
use crate::rules::{HAT_TYPES, Settings};
use nesmind_host::sight::Effort;
use nesmind_host::{Buttons, Fork, Frame};

/// Rounds of three drops (columns 0-1, 2-3, 4-5) before the analysis starts, and at most.
const FIRST_ROUNDS: usize = 3;
const MAX_ROUNDS: usize = 7;
/// Most type-byte candidates (with piles that fit them) the physics fit is tried on.
const MOST_FITS: usize = 6;
/// Most pairs of type-byte candidates the pile search is tried on.
const MOST_COMBOS: usize = 512;
/// Most pairs dropped while building towards the height limit.
const TOWER_DROPS: usize = 60;

/// The hat names, for messages.
pub const HAT_NAMES: [&str; HAT_TYPES] = [
    "top hat",
    "wizard hat",
    "crown",
    "cap",
    "derby",
    "cowboy hat",
];

/// Everything the drops showed.
struct Layout {
    falling: [u16; 2],
    next: [u16; 2],
    piles: PileLayout,
    physics: Physics,
}

/// Finds type bytes, piles and physics in `drops`; `Err` names what is missing, `Ok(None)`
/// means the drops fit more than one answer (more drops may tell).
fn analyse(drops: &[Drop], pair: &Pair) -> Result<Option<Layout>, String> {
    let types = layout::type_bytes(drops);
    if types.is_empty() {
        return Err(
            "the falling hats' type bytes (no bytes take on the next pair's values \
                    when a pair appears)"
                .into(),
        );
    }
    // Type bytes laid out like the column bytes are tried first.
    let gap = pair.cols[1] as i32 - pair.cols[0] as i32;
    let mut combos: Vec<((u16, u16), (u16, u16))> = Vec::new();
    for &a in &types {
        for &b in &types {
            if a.0 != b.0 && a.1 != b.1 {
                combos.push((a, b));
            }
        }
    }
    // Prefer type bytes laid out like the columns, next bytes laid out like the type bytes,
    // then next bytes near the type bytes.
    combos.sort_by_key(|(a, b)| {
        let d = |x: u16, y: u16| y as i32 - x as i32;
        (
            d(a.0, b.0) != gap,
            d(a.1, b.1) != d(a.0, b.0),
            d(a.0, a.1).abs() + d(b.0, b.1).abs(),
        )
    });
    // Memory where hundreds of bytes took on the next pair's values (a game that copies
    // them about) gives a hundred thousand pairs, each a pass over memory: the likeliest
    // are tried (one such search took 75 s).
    combos.truncate(MOST_COMBOS);
    // The counts depend only on where hats landed, not on which bytes hold their types.
    let Some(counts) = layout::counts(drops, &layout::landings(drops, [types[0].0; 2])) else {
        return Err(
            "the pile counts (no bytes grow by one exactly when a hat lands in their column)"
                .into(),
        );
    };
    let mut piles_seen = 0;
    let mut ambiguous = false;
    let mut effort = Effort::default();
    for (a, b) in combos {
        let falling = [a.0, b.0];
        let lands = layout::landings(drops, falling);
        let Some(piles) = layout::piles(drops, &lands, counts, &mut effort)? else {
            continue;
        };
        // Fitting is the costly step; the likeliest candidates come first.
        if piles_seen == MOST_FITS {
            break;
        }
        piles_seen += 1;
        // The height bytes the probe liked best first, then the other candidates.
        let heights = std::iter::once((pair.ys, pair.y_dir)).chain(pair.other_ys.iter().copied());
        for ys in heights {
            let found = fit(drops, &piles, falling, ys);
            match unique(&found) {
                Some(physics) => {
                    return Ok(Some(Layout {
                        falling,
                        next: [a.1, b.1],
                        piles,
                        physics,
                    }));
                }
                None => ambiguous |= !found.is_empty(),
            }
        }
    }
    if ambiguous {
        Ok(None)
    } else if piles_seen == 0 {
        Err("the six piles (no layout puts each landed hat's byte in its pile's next slot)".into())
    } else {
        Err(
            "the hat types (no assignment of hat types to the bytes seen, under either \
             reading of the nesting table, explains the heights at which dropped hats stopped)"
                .into(),
        )
    }
}

/// What calibration found, with the frames it ran on forks.
pub struct Calibrated {
    pub map: RamMap,
    /// The limit is known to lie between `map.height_limit` (survived) and this (ended).
    pub ended_at: i16,
    /// Frames run on forks.
    pub fork_frames: u64,
}

/// A calibration running as a job, a slice per game frame.
pub type CalJob = nesmind_host::sight::Job<Result<Calibrated, String>>;

/// Calibrates on forks of `frame`, where `pair` is falling. `Err` names the fact that
/// could not be found.
pub fn calibrate(
    frame: &dyn Frame,
    pair: &Pair,
    name: &str,
    crc32: u32,
) -> Result<Calibrated, String> {
    let mut lab = lab::new();
    let mut fork = fork_of(frame)?;
    let reader = PairReader { pair };
    settle(&mut lab, &mut fork, &reader)?;
    let mut drops: Vec<Drop> = Vec::new();
    let mut found = None;
    'rounds: for round in 0..MAX_ROUNDS {
        for left in [0, 2, 4] {
            let d = drop_pair(&mut lab, &mut fork, &reader, left, false)?;
            let spawned = d.spawned;
            drops.push(d);
            if !spawned {
                break 'rounds;
            }
        }
        if round + 1 >= FIRST_ROUNDS
            && let Some(l) = analyse(&drops, pair)?
        {
            found = Some(l);
            break;
        }
    }
    let Some(l) = found else {
        return Err(if drops.iter().all(|d| d.spawned) {
            format!(
                "the hat types: {} drops still fit more than one assignment of types to bytes",
                drops.len()
            )
        } else {
            "the piles: the game ended before the drops showed them".into()
        });
    };
    let swap = match pair.swap {
        Some(s) => s,
        None => swap_kind(&mut lab, frame, l.falling)?,
    };
    let mut map = RamMap {
        name: name.to_string(),
        crc32: vec![crc32],
        game: HatrisMap {
            falling: l.falling,
            next: l.next,
            column: pair.cols,
            column_code: pair.col_code,
            y: l.physics.ys,
            y_code: Linear {
                offset: l.physics.floor * l.physics.y_dir,
                step: l.physics.y_dir,
            },
            swap,
            hat_codes: l.physics.codes,
            piles: l.piles,
            nest_reading: l.physics.reading,
            height_limit: 0,
            helpers: None,
            shop: None,
            stage: None,
            cash: None,
        },
    };
    // From here on the pair is read through the bytes the drops confirmed.
    let confirmed = identify::pair_of(&map);
    let reader = PairReader { pair: &confirmed };
    let (survived, ended) = tower(&mut lab, &mut fork, &reader, &map)?;
    map.height_limit = survived as u16;
    Ok(Calibrated {
        map,
        ended_at: ended,
        fork_frames: lab.frames(),
    })
}

/// What A exchanges, told by the type bytes (the probe's pair may have had equal hats).
fn swap_kind(lab: &mut Lab, frame: &dyn Frame, falling: [u16; 2]) -> Result<Swap, String> {
    let fork = fork_of(frame)?;
    let base = lab.after(&fork, PAD, Buttons::NONE, 0, 8)?;
    let swapped = lab.after(&fork, PAD, Buttons::A, 1, 8)?;
    let [a, b] = falling;
    Ok(
        if swapped.peek(a) == base.peek(b)
            && swapped.peek(b) == base.peek(a)
            && base.peek(a) != base.peek(b)
        {
            Swap::Types
        } else {
            Swap::Columns
        },
    )
}

/// Drops pairs where they appear until the game ends, watching the tallest pile the model
/// gives: (tallest pile after a landing the game went on from, tallest after the landing
/// that ended it). Near the top the order that grows less is chosen, to find the limit
/// closely.
fn tower(
    lab: &mut Lab,
    fork: &mut Fork,
    reader: &PairReader,
    map: &RamMap,
) -> Result<(i16, i16), String> {
    let geo = Geometry::new(&Settings {
        nest_reading: map.nest_reading,
        ..Settings::default()
    });
    let types = |k: u8| map.hat_of(k);
    let mut survived = 0;
    for _ in 0..TOWER_DROPS {
        let snap = snap::Snap::take(&*fork);
        let Some(board) = board_of(&geo, &pile_codes(&snap, &map.piles), &types) else {
            return Err(
                "the height limit: a hat of a type not seen before came while \
                        building piles towards it"
                    .into(),
            );
        };
        survived = survived.max(board.max_height());
        let hats = map.falling.map(|f| types(fork.peek(f)));
        let cols = reader.cols(&*fork);
        let [Some(t1), Some(t2)] = hats else {
            return Err("the height limit: the falling pair's types could not be read".into());
        };
        let [Some(c1), Some(c2)] = cols else {
            return Err("the height limit: the falling pair's columns could not be read".into());
        };
        let grow = |first: (usize, u8), second: (usize, u8)| {
            let mut b = board.clone();
            let mut log = Vec::new();
            b.land(&geo, first.0, first.1, &mut log);
            b.land(&geo, second.0, second.1, &mut log);
            b.max_height()
        };
        let straight = grow((c1 as usize, t1), (c2 as usize, t2));
        // A swap puts each hat over the other's column.
        let crossed = grow((c2 as usize, t1), (c1 as usize, t2));
        let swap = board.max_height() >= 96 && crossed < straight;
        let d = drop_pair(lab, fork, reader, c1.min(c2), swap)?;
        if !d.spawned {
            let after = snap::Snap::take(&*fork);
            let ended = board_of(&geo, &pile_codes(&after, &map.piles), &types)
                .map_or(0, |b| b.max_height())
                .max(if swap { crossed } else { straight });
            return Ok((survived, ended));
        }
    }
    Err(format!(
        "the height limit: {TOWER_DROPS} pairs dropped in place never ended the game"
    ))
}

/// A one-line account of a map, for the status line and the log.
pub fn describe(map: &RamMap) -> String {
    let piles = match &map.piles {
        PileLayout::Columns {
            counts,
            hats,
            stride,
            step,
            ..
        } => format!(
            "piles at {hats} (stride {stride}, {} {}), counts at {counts}",
            step.abs(),
            if *step > 0 { "up" } else { "down" }
        ),
        PileLayout::Unknown => "piles unknown".into(),
    };
    let codes: Vec<String> = map
        .hat_codes
        .iter()
        .enumerate()
        .filter_map(|(t, c)| c.map(|c| format!("{}={c:02X}", HAT_NAMES[t])))
        .collect();
    format!(
        "pair ${:04X}/${:04X} col ${:04X}/${:04X} y ${:04X}/${:04X} next ${:04X}/${:04X}; {piles}; \
         hats {}; nesting {:?}; limit {} px",
        map.falling[0],
        map.falling[1],
        map.column[0],
        map.column[1],
        map.y[0],
        map.y[1],
        map.next[0],
        map.next[1],
        codes.join(" "),
        map.nest_reading,
        map.height_limit
    )
}
