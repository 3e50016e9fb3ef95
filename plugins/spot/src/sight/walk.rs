//! The hand's walk: on a fork, the pad presses Left seven times and Right seven times, then
//! Up and Down, and each press's change to the picture is measured. A press that moves the
//! hand from one cell to the next changes the pixels of both places, so the mean of the
//! changed pixels lies half-way between them; consecutive presses' means are one cell
//! pitch apart. Seven even steps across and seven down is a Spot board; anything else (a
//! title menu, a panel that also changes) is refused with what was seen.

use super::grid::Point;
use super::settle;
use nesmind_host::sight::{Changes, Lab, Picture, PixelMask, Rect, Shot};
use nesmind_host::{Buttons, Fork};

const SIDE: usize = 7;
/// Presses per direction: one more than a row needs, to see the edge (or the wrap).
const PRESSES: usize = SIDE;

/// One press and what it did.
#[derive(Clone, Debug)]
struct Press {
    shot: Shot,
    changes: Changes,
}

impl Press {
    fn moved(&self) -> bool {
        !self.changes.is_empty()
    }
}

/// One axis of the walk.
#[derive(Clone, Debug, PartialEq)]
struct Axis {
    pitch: i32,
    /// Cursor centre coordinate at index 0 (the left column or top row).
    origin: f64,
    /// The mean coordinate across (a horizontal walk's y).
    across: f64,
    /// Index before the walk, and after it.
    start: usize,
    end: usize,
    wraps: bool,
    /// Index after each press of the positive walk.
    after_pos: Vec<usize>,
    after_neg: Vec<usize>,
}

/// What the walk found.
pub(super) struct Walked {
    pub pitch: (i32, i32),
    pub cursor0: Point,
    pub wraps: bool,
    /// The hand's cell before the walk and on `fork` after it.
    pub start: u8,
    pub end: u8,
    pub fork: Fork,
    /// Every settled picture of the walk with the hand's cell in it (the board itself
    /// did not change during the walk).
    pub shots: Vec<(Shot, u8)>,
}

fn walk_dir(
    lab: &mut Lab,
    f: &mut Fork,
    pad: usize,
    b: Buttons,
    live: &PixelMask,
    prev: &mut Shot,
) -> Result<Vec<Press>, String> {
    let mut out = Vec::with_capacity(PRESSES);
    for _ in 0..PRESSES {
        lab.tap(f, pad, b)?;
        let shot = settle(lab, f, Rect::SCREEN, live)?;
        let changes = prev.pic.changes(&shot.pic).unmasked(live);
        *prev = shot.clone();
        out.push(Press { shot, changes });
    }
    Ok(out)
}

/// Pixels that changed in at least half of the presses (a panel naming the hand's square,
/// a moves counter): they are not the hand, and would pull its centre off.
fn frequent(presses: &[&Press]) -> PixelMask {
    let mut counts = vec![0u16; 256 * 240];
    for p in presses {
        for &(x, y) in &p.changes.pixels {
            counts[(y * 256 + x) as usize] += 1;
        }
    }
    let mut m = PixelMask::new();
    let half = (presses.len() / 2).max(3) as u16;
    for (i, &n) in counts.iter().enumerate() {
        if n >= half {
            m.set(i as i32 % 256, i as i32 / 256);
        }
    }
    m
}

/// Adds to `noise` the pixels of a change that two presses made alike where the hand
/// cannot have: two presses of one walk (the hand moves on with every press), or a press
/// across and one down (its steps differ). Such a change is something else: a mark that
/// flashes when the hand bumps into the board's edge.
fn repeated(walks: [&[Press]; 4], noise: &mut PixelMask) {
    let alike = |p: &Press, others: &[Press]| others.iter().any(|q| q.changes == p.changes);
    for (w, presses) in walks.iter().enumerate() {
        let other_axis = if w < 2 {
            [walks[2], walks[3]]
        } else {
            [walks[0], walks[1]]
        };
        for (i, p) in presses.iter().enumerate() {
            if p.moved() && (alike(p, &presses[i + 1..]) || other_axis.iter().any(|o| alike(p, o)))
            {
                for &(x, y) in &p.changes.pixels {
                    noise.set(x, y);
                }
            }
        }
    }
}

fn coord(p: Point, horizontal: bool) -> (f64, f64) {
    if horizontal { (p.0, p.1) } else { (p.1, p.0) }
}

fn extent(r: Rect, horizontal: bool) -> i32 {
    if horizontal { r.w } else { r.h }
}

/// Why an axis could not be worked out: `uneven` when the presses' centres stepped
/// unevenly, which centres found another way may not.
struct AxisFailure {
    uneven: bool,
    why: String,
}

impl From<String> for AxisFailure {
    fn from(why: String) -> AxisFailure {
        AxisFailure { uneven: false, why }
    }
}

/// Works out one axis from a walk towards index 0 (`neg`) and one back (`pos`).
fn axis(
    neg: &[Press],
    pos: &[Press],
    noise: &PixelMask,
    horizontal: bool,
    name: &str,
    by_box: bool,
) -> Result<Axis, AxisFailure> {
    // A press's centre: the mean of its changed pixels, or (`by_box`) the middle of their
    // bounds, which what lies under the hand cannot pull about as long as the hand's
    // outline changes.
    let centre = |p: &Press| {
        let ch = p.changes.unmasked(noise);
        if by_box {
            ch.bounds.map(|b| {
                let mid = |a: i32, n: i32| f64::from(a) + f64::from(n - 1) / 2.0;
                (mid(b.x, b.w), mid(b.y, b.h))
            })
        } else {
            ch.centroid()
        }
    };
    let moved_neg = neg.iter().filter(|p| p.moved()).count();
    let moved_pos = pos.iter().filter(|p| p.moved()).count();
    let wraps = moved_neg == PRESSES && moved_pos == PRESSES;
    let mut after_pos = vec![0usize; PRESSES];
    let mut after_neg = vec![0usize; PRESSES];
    let start;
    if wraps {
        // The wrap press spans the whole row: the widest change.
        let w = (0..PRESSES)
            .max_by_key(|&k| {
                pos[k]
                    .changes
                    .unmasked(noise)
                    .bounds
                    .map_or(0, |b| extent(b, horizontal))
            })
            .unwrap_or(0);
        for (k, a) in after_pos.iter_mut().enumerate() {
            *a = (k + SIDE - w) % SIDE;
        }
        start = (after_pos[0] + SIDE - 1) % SIDE;
        for (k, a) in after_neg.iter_mut().enumerate() {
            *a = (start + 2 * SIDE - k - 1) % SIDE;
        }
    } else {
        let stepped = |ps: &[Press], n: usize| {
            ps.iter().take(n).all(Press::moved) && ps.iter().skip(n).all(|p| !p.moved())
        };
        if !stepped(neg, moved_neg) || !stepped(pos, moved_pos) {
            return Err(format!(
                "{name}: the pad's presses moved the picture unevenly ({moved_neg} of {PRESSES} one way, {moved_pos} back): not a hand on a board, or presses were lost"
            ).into());
        }
        if moved_pos != SIDE - 1 {
            return Err(format!(
                "{name}: the hand stops after {} positions, not {SIDE}: not a Spot board",
                moved_pos + 1
            )
            .into());
        }
        start = moved_neg;
        for (k, a) in after_neg.iter_mut().enumerate() {
            *a = start.saturating_sub(k + 1);
        }
        for (k, a) in after_pos.iter_mut().enumerate() {
            *a = (k + 1).min(SIDE - 1);
        }
    }
    // Normal presses of the positive walk: moved one index up.
    let before_pos = |k: usize| {
        if k == 0 {
            after_neg[PRESSES - 1]
        } else {
            after_pos[k - 1]
        }
    };
    let normal: Vec<(usize, f64, f64)> = (0..PRESSES)
        .filter(|&k| pos[k].moved() && after_pos[k] == before_pos(k) + 1)
        .filter_map(|k| {
            centre(&pos[k]).map(|c| (k, coord(c, horizontal).0, coord(c, horizontal).1))
        })
        .collect();
    let mut diffs: Vec<f64> = normal
        .windows(2)
        .filter(|w| w[1].0 == w[0].0 + 1)
        .map(|w| w[1].1 - w[0].1)
        .collect();
    if diffs.len() < 3 {
        return Err(format!("{name}: too few even steps to measure the cell pitch").into());
    }
    diffs.sort_by(f64::total_cmp);
    let guess = diffs[diffs.len() / 2];
    // Most steps must agree (the mean of a hand cut by the screen's edge, or drawn over
    // other changes, may be pulled off by a few).
    let agreeing = diffs
        .iter()
        .filter(|d| (*d - guess).abs() <= (guess / 4.0).max(3.0))
        .count();
    if guess < 4.0 || agreeing * 5 < diffs.len() * 3 {
        return Err(AxisFailure {
            uneven: true,
            why: format!("{name}: the hand's steps are not even ({diffs:.1?} pixels): not a board"),
        });
    }
    // The mean of changed pixels is pulled about by what lies under the hand; the exact
    // step is the shift that lays the hand's old picture onto its new one.
    let mut steps: Vec<i32> = Vec::new();
    for &(k, _, _) in &normal {
        let before = if k == 0 {
            &neg[PRESSES - 1].shot
        } else {
            &pos[k - 1].shot
        };
        if let Some(t) = displacement(
            &before.pic,
            &pos[k].shot.pic,
            &pos[k].changes,
            (diffs[0].min(guess), diffs[diffs.len() - 1].max(guess)),
            horizontal,
        ) {
            steps.push(t);
        }
    }
    steps.sort_unstable();
    let pitch = match steps.get(steps.len() / 2) {
        Some(&p) if steps.iter().filter(|&&t| t == p).count() * 2 > steps.len() => p,
        _ => {
            return Err(format!(
                "{name}: the hand's picture does not move by one even step ({steps:?} pixels)"
            )
            .into());
        }
    };
    let half = f64::from(pitch) / 2.0;
    let mut origins: Vec<f64> = normal
        .iter()
        .map(|&(k, c, _)| c - half - before_pos(k) as f64 * f64::from(pitch))
        .collect();
    let mut acrosses: Vec<f64> = normal.iter().map(|n| n.2).collect();
    for (k, p) in neg.iter().enumerate() {
        let before = if k == 0 { start } else { after_neg[k - 1] };
        if p.moved()
            && before == after_neg[k] + 1
            && let Some(c) = centre(p)
        {
            let (along, across) = coord(c, horizontal);
            origins.push(along + half - before as f64 * f64::from(pitch));
            acrosses.push(across);
        }
    }
    // Most estimates must agree; the mean of a hand cut by the screen's edge, or drawn
    // over other changes or over art of its own colour, may be pulled off (the median is
    // kept). The estimate need only fall within a third of a cell: `align` finds where
    // the cells begin from the board's picture, searching one cell round it.
    let slack = f64::from(pitch) / 3.0;
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (om, am) = (median(&mut origins), median(&mut acrosses));
    let near = |v: &[f64], m: f64| v.iter().filter(|x| (*x - m).abs() <= slack).count();
    if near(&origins, om) * 5 < origins.len() * 3 || near(&acrosses, am) * 5 < acrosses.len() * 3 {
        return Err(format!(
            "{name}: the hand's positions do not line up ({origins:.1?} along, {acrosses:.1?} across)"
        ).into());
    }
    Ok(Axis {
        pitch,
        origin: om,
        across: am,
        start,
        end: after_pos[PRESSES - 1],
        wraps,
        after_pos,
        after_neg,
    })
}

/// The step along the axis that best lays the picture `before` showed at the changed
/// pixels onto `after`: the hand's own pixels are the same wherever it stands.
fn displacement(
    before: &Picture,
    after: &Picture,
    ch: &Changes,
    (low, high): (f64, f64),
    horizontal: bool,
) -> Option<i32> {
    let (low, high) = (low.round() as i32, high.round() as i32);
    // The steps of the means of changed pixels (`low` to `high`) may be pulled off by
    // what lies under the hand, more on larger cells, and by turns one way and the other
    // (a hand drawn in tiles: steps of 22 and 42 pixels for cells 32 apart).
    let reach = (low * 2 / 5).max(6);
    let changed: std::collections::HashSet<(i32, i32)> = ch.pixels.iter().copied().collect();
    let mut best: Option<(usize, i32)> = None;
    for along in (low - reach).max(1)..=high + reach {
        for across in -3..=3 {
            let (dx, dy) = if horizontal {
                (along, across)
            } else {
                (across, along)
            };
            let score = ch
                .pixels
                .iter()
                .filter(|&&(x, y)| {
                    changed.contains(&(x + dx, y + dy))
                        && after.get(x + dx, y + dy) == Some(before.at(x, y))
                })
                .count();
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, along));
            }
        }
    }
    best.filter(|&(score, _)| score > 0).map(|(_, t)| t)
}

/// Walks the hand of `pad` on a copy of `base` (the pad's turn, the picture settled).
pub(super) fn walk(
    lab: &mut Lab,
    base: &Fork,
    pad: usize,
    live: &PixelMask,
) -> Result<Walked, String> {
    let mut f = base.clone();
    let first = settle(lab, &mut f, Rect::SCREEN, live)?;
    let mut prev = first.clone();
    let mut left = walk_dir(lab, &mut f, pad, Buttons::LEFT, live, &mut prev)?;
    let mut right = walk_dir(lab, &mut f, pad, Buttons::RIGHT, live, &mut prev)?;
    let mut up = walk_dir(lab, &mut f, pad, Buttons::UP, live, &mut prev)?;
    let mut down = walk_dir(lab, &mut f, pad, Buttons::DOWN, live, &mut prev)?;
    let all: Vec<&Press> = left.iter().chain(&right).chain(&up).chain(&down).collect();
    let mut noise = frequent(&all);
    repeated([&left, &right, &up, &down], &mut noise);
    // A press that changed only such pixels did not move the hand.
    for p in left
        .iter_mut()
        .chain(&mut right)
        .chain(&mut up)
        .chain(&mut down)
    {
        p.changes = p.changes.unmasked(&noise);
    }
    // Means of changed pixels first; where they step unevenly (a hand over cells whose
    // art shares its colours), the middles of the changes' bounds.
    let measure = |neg: &[Press], pos: &[Press], horizontal: bool, name: &str| {
        axis(neg, pos, &noise, horizontal, name, false)
            .or_else(|e| match e.uneven {
                true => axis(neg, pos, &noise, horizontal, name, true).map_err(|_| e),
                false => Err(e),
            })
            .map_err(|e| e.why)
    };
    let h = measure(&left, &right, true, "across")?;
    let v = measure(&up, &down, false, "down")?;
    if h.wraps != v.wraps {
        return Err("the hand wraps round one way and stops the other: not a Spot board".into());
    }
    // The walk across ran on the row the walk down started from, and the walk down on the
    // column the walk across ended in.
    let row = (h.across - v.origin) / f64::from(v.pitch);
    let col = (v.across - h.origin) / f64::from(h.pitch);
    if (row - v.start as f64).abs() > 0.3 || (col - h.end as f64).abs() > 0.3 {
        return Err(format!(
            "the walks across and down do not meet (row {row:.2} vs {}, column {col:.2} vs {})",
            v.start, h.end
        ));
    }
    let cell = |r: usize, c: usize| (r * SIDE + c) as u8;
    let mut shots = vec![(first.clone(), cell(v.start, h.start))];
    for (k, p) in left.iter().enumerate() {
        shots.push((p.shot.clone(), cell(v.start, h.after_neg[k])));
    }
    for (k, p) in right.iter().enumerate() {
        shots.push((p.shot.clone(), cell(v.start, h.after_pos[k])));
    }
    for (k, p) in up.iter().enumerate() {
        shots.push((p.shot.clone(), cell(v.after_neg[k], h.end)));
    }
    for (k, p) in down.iter().enumerate() {
        shots.push((p.shot.clone(), cell(v.after_pos[k], h.end)));
    }
    Ok(Walked {
        pitch: (h.pitch, v.pitch),
        cursor0: (h.origin, v.origin),
        wraps: h.wraps,
        start: cell(v.start, h.start),
        end: cell(v.end, h.end),
        fork: f,
        shots,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(pixels: &[(i32, i32)]) -> Press {
        let base = Picture::filled(1);
        let mut now = base.clone();
        for &(x, y) in pixels {
            now.set(x, y, 2);
        }
        let shot = Shot {
            pic: now.clone(),
            sprites: Default::default(),
        };
        Press {
            shot,
            changes: base.changes(&now),
        }
    }

    #[test]
    fn a_change_two_presses_made_alike_is_not_the_hand() {
        let (hand_a, hand_b, hand_c) = ([(10, 10)], [(20, 10)], [(10, 20)]);
        let bump = [(200, 200), (201, 200)];
        // Left: the hand steps, then bumps into the edge twice (the same mark flashes).
        let left = [press(&hand_a), press(&bump), press(&bump)];
        // Right: the way back makes the same change as the step out: that is the hand.
        let right = [press(&hand_a), press(&hand_b)];
        // Down: one bump only, alike the bumps across.
        let up = [press(&hand_c)];
        let down = [press(&hand_c), press(&bump)];
        let mut noise = PixelMask::new();
        repeated([&left, &right, &up, &down], &mut noise);
        assert!(noise.get(200, 200) && noise.get(201, 200));
        assert!(!noise.get(10, 10) && !noise.get(20, 10) && !noise.get(10, 20));
        assert_eq!(noise.count(), 2);
    }
}
