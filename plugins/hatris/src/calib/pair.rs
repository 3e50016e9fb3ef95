//! Finding the falling pair by pressing buttons on forks: the two bytes Right and Left
//! step together (the hats' columns), the two bytes Down drives together (their heights),
//! and what A exchanges.

use super::lab::{Lab, PAD};
use super::snap::Snap;
use crate::ram_map::{Linear, Loc, Swap};
use nesmind_host::kit::Memory;
use nesmind_host::ramsearch::Test;
use nesmind_host::{Buttons, Fork, Frame};

/// Frames each probe fork runs (presses included).
const PROBE_FRAMES: u64 = 8;

/// What a probe found of a falling pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// Column bytes of hat 1 and hat 2.
    pub cols: [u16; 2],
    /// Column = (byte - offset) / step.
    pub col_code: Linear,
    /// Height bytes of hat 1 and hat 2.
    pub ys: [u16; 2],
    /// +1 when the byte grows with the height, -1 when it shrinks.
    pub y_dir: i16,
    /// Other byte pairs that moved like heights (the drops tell which one is), best first.
    pub other_ys: Vec<([u16; 2], i16)>,
    /// What A exchanges, when the pair's hats differ; `None` if A changed neither.
    pub swap: Option<Swap>,
}

fn delta(a: &Snap, b: &Snap, at: Loc) -> i16 {
    b.at(at).wrapping_sub(a.at(at)) as i8 as i16
}

/// Bytes that one press of `one` moves by s, two presses by 2s, and one press of `other`
/// by -s (or not at all: a wall), with their s.
pub fn steppers(base: &Snap, one: &Snap, two: &Snap, other: &Snap) -> Vec<(Loc, i16)> {
    let mut search = base.search();
    for moved in [one, two] {
        search.filter_pair(base.cpu(), moved.cpu(), Test::Changed);
    }
    search
        .addresses()
        .iter()
        .map(|&a| Loc::cpu(a))
        .filter_map(|at| {
            let s = delta(base, one, at);
            let back = delta(base, other, at);
            (s != 0 && delta(base, two, at) == 2 * s && (back == -s || back == 0))
                .then_some((at, s))
        })
        .collect()
}

/// Two bytes that move together by `s` and sit one column apart: the pair's columns.
/// Smaller steps win (a column index over a pixel position), then the lower address.
fn column_pair(base: &Snap, movers: &[(Loc, i16)]) -> Option<([u16; 2], i16)> {
    let mut best: Option<([u16; 2], i16)> = None;
    for (i, &(a, s)) in movers.iter().enumerate() {
        for &(b, t) in &movers[i + 1..] {
            let gap = base.at(b) as i16 - base.at(a) as i16;
            if s != t || (gap != s && gap != -s) {
                continue;
            }
            if best.is_none_or(|(_, bs)| s.abs() < bs.abs()) {
                best = Some(([a.addr, b.addr], s));
            }
        }
    }
    best
}

/// Pairs of equal bytes that Down moved by the same amount (at least 4), each with +1 when
/// the byte grows with height: the pair's heights, or copies of them (sprite positions).
/// Ranked: laid out like the column bytes (same distance), then nearest to them.
fn height_pairs(base: &Snap, down: &Snap, cols: [u16; 2]) -> Vec<([u16; 2], i16)> {
    let mut search = base.search();
    search.filter_pair(base.cpu(), down.cpu(), Test::Changed);
    let movers: Vec<(Loc, i16)> = search
        .addresses()
        .iter()
        .filter(|a| !cols.contains(a))
        .map(|&a| Loc::cpu(a))
        .filter_map(|at| {
            // Not wrapped: a hard drop moves the byte a long way.
            let d = down.at(at) as i16 - base.at(at) as i16;
            (d.abs() >= 4).then_some((at, d))
        })
        .collect();
    let gap = cols[1] as i32 - cols[0] as i32;
    let mut found: Vec<([u16; 2], i16, (bool, i32))> = Vec::new();
    for (i, &(a, d)) in movers.iter().enumerate() {
        for &(b, e) in &movers[i + 1..] {
            if d != e || base.at(a) != base.at(b) {
                continue;
            }
            let (a, b) = (a.addr, b.addr);
            // Order as the columns are: hat 1's byte first.
            let (pair, aligned) = if b as i32 - a as i32 == gap {
                ([a, b], true)
            } else if a as i32 - b as i32 == gap {
                ([b, a], true)
            } else {
                ([a, b], false)
            };
            let near = (pair[0] as i32 - cols[0] as i32).abs();
            // Down brings the hats towards the heads: the byte falls if it counts height.
            found.push((pair, if d < 0 { 1 } else { -1 }, (!aligned, near)));
        }
    }
    found.sort_by_key(|f| f.2);
    found.into_iter().map(|(p, dir, _)| (p, dir)).collect()
}

/// Presses buttons on forks of `frame` to find a falling pair; `None` when nothing moves
/// like one (no game in play, a menu, a helper screen ...).
pub fn probe(lab: &mut Lab, frame: &dyn Frame) -> Result<Option<Pair>, String> {
    let fork = super::lab::fork_of(frame)?;
    let snap = |lab: &mut Lab, b: Buttons, n: u64| -> Result<Snap, String> {
        Ok(Snap::take(&lab.after(&fork, PAD, b, n, PROBE_FRAMES)?))
    };
    let base = snap(lab, Buttons::NONE, 0)?;
    let right = snap(lab, Buttons::RIGHT, 1)?;
    let left = snap(lab, Buttons::LEFT, 1)?;
    let right2 = snap(lab, Buttons::RIGHT, 2)?;
    let mut movers = steppers(&base, &right, &right2, &left);
    if column_pair(&base, &movers).is_none() {
        // Against the right wall: try the other way.
        let left2 = snap(lab, Buttons::LEFT, 2)?;
        movers = steppers(&base, &left, &left2, &right)
            .into_iter()
            .map(|(at, s)| (at, -s))
            .collect();
    }
    let Some((cols, step)) = column_pair(&base, &movers) else {
        return Ok(None);
    };
    // Down is compared after two frames only: a hard drop may land the pair and bring the
    // next one soon after. A frame with nothing pressed comes first, so that Down is a new
    // press even where the player was holding it (a game may drop only on a new press).
    let mut idle = fork.clone();
    lab.hold_for(&mut idle, PAD, Buttons::NONE, 3)?;
    let mut down = fork.clone();
    lab.hold_for(&mut down, PAD, Buttons::NONE, 1)?;
    lab.hold_for(&mut down, PAD, Buttons::DOWN, 2)?;
    let mut heights = height_pairs(&Snap::take(&idle), &Snap::take(&down), cols).into_iter();
    let Some((ys, y_dir)) = heights.next() else {
        return Ok(None);
    };
    let offset = leftmost(lab, &fork, cols, step)?;
    let swapped = snap(lab, Buttons::A, 1)?;
    let [c1, c2] = cols.map(Loc::cpu);
    let swap = if swapped.at(c1) == base.at(c2) && swapped.at(c2) == base.at(c1) {
        Some(Swap::Columns)
    } else if swapped.at(c1) == base.at(c1) && swapped.at(c2) == base.at(c2) {
        // Columns kept: A exchanged the types, or the hats are alike (told apart later).
        None
    } else {
        return Ok(None);
    };
    Ok(Some(Pair {
        cols,
        col_code: Linear { offset, step },
        ys,
        y_dir,
        other_ys: heights.take(12).collect(),
        swap,
    }))
}

/// The value a column byte has over column 0: push the pair against the left wall.
fn leftmost(lab: &mut Lab, fork: &Fork, cols: [u16; 2], step: i16) -> Result<i16, String> {
    let mut f = fork.clone();
    for _ in 0..6 {
        lab.tap(&mut f, PAD, Buttons::LEFT)?;
    }
    let v = cols.map(|c| f.peek(c) as i16);
    // The left hat of the pair sits over column 0.
    Ok(if step > 0 {
        v[0].min(v[1])
    } else {
        v[0].max(v[1])
    })
}
