//! Moves made on forks first. At a spawn the player looks ahead on a copy (dropping the
//! pair shows the next one fall), steers the pair to its place on another copy frame by
//! frame from what the picture shows (the route of `moves.rs`, as the RAM player steers
//! it), and lets that copy run until the next pair appears, reading the piles then. The
//! frames make a tape the real game is given (`nesmind_host::sight::tape`).

use super::{Falling, HatSight, falling};
use crate::board::Board;
use crate::game::Action;
use crate::moves::Route;
use crate::rules::COLUMNS;
use crate::runtime::{Fall, PairView, fall, steer};
use nesmind_host::sight::{Lab, Rect, Shot, Tape, Taped};
use nesmind_host::{Buttons, Fork, Frame};

/// Most frames from a spawn to the next one (a pair falling from the top at the slowest
/// gravity, a stack vanishing, a shop's interlude).
pub const SPAWN_FRAMES: u64 = 1500;
/// Pixels above the taller pile below which a pair that must split is not pushed down.
const SPLIT_MARGIN: i16 = 40;

/// A falling hat's sprites, its type, and the rows from the sprites' top to its lowest.
pub type Look = (Vec<super::SpriteTile>, u8, i32);

/// The pair the game shows at a spawn: (left hat, right hat) types and columns, and each
/// hat's sprites (so a hat keeps its type while it falls over the piles).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spawn {
    pub kinds: (u8, u8),
    pub cols: (u8, u8),
    /// (sprites, type, rows from the sprites' top to the hat's lowest row).
    pub looks: Vec<Look>,
    pub bottom_row: i32,
}

/// The highest pair `hats` show: two typed hats side by side at one height (other hats,
/// lower down, may be the last pair's, just landed).
pub fn spawn_of(hats: &[Falling]) -> Option<Spawn> {
    let top = hats.iter().min_by_key(|h| h.bottom_row)?;
    let other = hats
        .iter()
        .find(|h| h.col.abs_diff(top.col) == 1 && (h.bottom_row - top.bottom_row).abs() <= 2)?;
    let (l, r) = if top.col < other.col {
        (top, other)
    } else {
        (other, top)
    };
    Some(Spawn {
        kinds: (l.kind?, r.kind?),
        cols: (l.col, r.col),
        looks: [l, r]
            .iter()
            .map(|h| (h.tiles.clone(), h.kind.unwrap_or(0), h.bottom_row - h.top))
            .collect(),
        bottom_row: l.bottom_row.min(r.bottom_row),
    })
}

/// Tells a new pair from one already seen, frame by frame: a pair is new when it is
/// higher up than the lowest hat of the frame before (or comes after no hats at all), or
/// when it is first seen whole near where pairs appear (something drawn over the well, a
/// helper's message, may hide what it is for a few frames).
#[derive(Clone, Debug)]
pub struct Spawns {
    lowest: Option<i32>,
    pair: Option<i32>,
    /// The next pair seen is new whatever its height (a tape has just ended at a spawn).
    fresh: bool,
    /// The highest a new pair has been seen.
    spawn_row: i32,
}

impl Default for Spawns {
    fn default() -> Spawns {
        Spawns::new(None)
    }
}

impl Spawns {
    /// `spawn_row`: where new pairs have been seen to appear, if known.
    pub fn new(spawn_row: Option<i32>) -> Spawns {
        Spawns {
            lowest: None,
            pair: None,
            fresh: false,
            spawn_row: spawn_row.unwrap_or(i32::MIN),
        }
    }

    /// The highest row a new pair has been seen at.
    pub fn spawn_row(&self) -> Option<i32> {
        (self.spawn_row != i32::MIN).then_some(self.spawn_row)
    }

    /// A new pair in this frame's `hats`, if one has just appeared.
    pub fn see(&mut self, hats: &[Falling]) -> Option<Spawn> {
        let (was_lowest, was_pair) = (self.lowest, self.pair);
        self.lowest = hats.iter().map(|h| h.bottom_row).max();
        let pair = spawn_of(hats);
        self.pair = pair.as_ref().map(|p| p.bottom_row);
        let pair = pair?;
        let new = if std::mem::take(&mut self.fresh) {
            true
        } else if self.spawn_row == i32::MIN {
            // Where pairs appear is not known yet: a pair higher than anything before.
            was_lowest.is_none_or(|w| pair.bottom_row + 8 < w)
        } else {
            // A pair where pairs appear, that was not there (falling) a frame ago.
            pair.bottom_row <= self.spawn_row + 12
                && was_pair.is_none_or(|p| (p - pair.bottom_row).abs() > 12)
        };
        if new {
            self.spawn_row = if self.spawn_row == i32::MIN {
                pair.bottom_row
            } else {
                self.spawn_row.min(pair.bottom_row)
            };
            return Some(pair);
        }
        None
    }

    /// Forget the last frame: the next pair seen counts as new.
    pub fn reset(&mut self) {
        self.lowest = None;
        self.pair = None;
        self.fresh = true;
    }
}

/// The falling pair as the model's steering reads it, from the sprites now and the looks
/// learned at its spawn: hat i is the one with the i-th look's sprites that has not
/// jumped back up (a hat only falls; one higher up is the next pair's). A hat no longer
/// seen has landed: it keeps its last column, on its pile. `None` once neither is seen.
pub fn view_of(
    sight: &HatSight,
    spawn: &Spawn,
    hats: &[Falling],
    prev: Option<&PairView>,
) -> Option<PairView> {
    let mut view = PairView {
        codes: [0; 2],
        types: [None; 2],
        cols: [None; 2],
        heights: [None; 2],
        next_codes: [0; 2],
    };
    let mut seen = false;
    let mut taken = [false; COLUMNS];
    let spawn_cols = [spawn.cols.0, spawn.cols.1];
    for (i, look) in spawn.looks.iter().enumerate().take(2) {
        view.types[i] = Some(look.1);
        let was = prev.and_then(|p| p.heights[i]);
        // Two hats of one type look alike: each keeps to the column nearest its last.
        let near = prev
            .and_then(|p| p.cols[i])
            .unwrap_or(i16::from(spawn_cols[i]));
        let hat = hats
            .iter()
            .filter(|h| {
                let height = (sight.well.base - 1 - (h.top + look.2)) as i16;
                !taken[usize::from(h.col)]
                    && h.tiles == look.0
                    && was.is_none_or(|w| height <= w + 2)
            })
            .min_by_key(|h| (i16::from(h.col) - near).abs());
        if let Some(h) = hat {
            taken[usize::from(h.col)] = true;
        }
        match hat {
            Some(h) => {
                seen = true;
                view.cols[i] = Some(i16::from(h.col));
                view.heights[i] = Some((sight.well.base - 1 - (h.top + look.2)) as i16);
            }
            None => {
                view.cols[i] = prev.and_then(|p| p.cols[i]);
                view.heights[i] = Some(0);
            }
        }
    }
    seen.then_some(view)
}

/// Runs `t` until a new pair has appeared (its hats typed, above the piles): that spawn,
/// or `None` if none came within `max` frames. `hold` is what the pad holds meanwhile.
fn run_to_spawn(
    sight: &HatSight,
    lab: &mut Lab,
    t: &mut Taped,
    max: u64,
    hold: impl Fn(u64) -> Buttons,
    pair_showing: bool,
) -> Result<Option<(Spawn, Shot)>, String> {
    let mut spawns = Spawns::new(sight.spawn_row);
    let shot = t.shot()?;
    let hats = falling(&sight.well, &shot, &t.fork, &sight.tops(&shot));
    let now = spawns.see(&hats);
    // When the pair in play has landed (or a helper took its place), a pair showing
    // already where pairs appear is the next one.
    if let (false, Some(p)) = (
        pair_showing,
        now.or_else(|| {
            spawn_of(&hats).filter(|p| sight.spawn_row.is_some_and(|r| p.bottom_row <= r + 12))
        }),
    ) {
        return Ok(Some((p, shot)));
    }
    for i in 0..max {
        t.run(lab, hold(i), 1)?;
        let shot = t.shot()?;
        if shot.pic.is_blank() {
            continue;
        }
        let tops = sight.tops(&shot);
        let hats = falling(&sight.well, &shot, &t.fork, &tops);
        if let Some(p) = spawns.see(&hats) {
            return Ok(Some((p, shot)));
        }
    }
    Ok(None)
}

/// Frames a copy runs on after a spawn for the piles to become readable (a helper's
/// message may still be drawn over the well for a few frames).
const READABLE_FRAMES: u64 = 60;

/// The piles read from `shot`, or from a later frame of `t` once they can be read.
fn readable_piles(
    sight: &HatSight,
    geo: &crate::board::Geometry,
    lab: &mut Lab,
    t: &mut Taped,
    mut shot: Shot,
) -> Result<Result<[Vec<u8>; COLUMNS], String>, String> {
    let mut piles = sight.read_piles(&shot, geo);
    for _ in 0..READABLE_FRAMES {
        if piles.is_ok() {
            break;
        }
        t.run(lab, Buttons::NONE, 1)?;
        shot = t.shot()?;
        if !shot.pic.is_blank() {
            piles = sight.read_piles(&shot, geo);
        }
    }
    Ok(piles)
}

/// The next pair's types, seen by dropping this one on a copy of `base`.
pub fn peek_next(sight: &HatSight, lab: &mut Lab, base: &Fork) -> Result<(u8, u8), String> {
    let mut tape = Tape::new(0, sight.well.area());
    let mut t = Taped {
        fork: base.clone(),
        tape: &mut tape,
    };
    let drop = |i: u64| {
        if i % 4 < 2 {
            Buttons::DOWN
        } else {
            Buttons::NONE
        }
    };
    match run_to_spawn(sight, lab, &mut t, SPAWN_FRAMES, drop, true)? {
        Some((s, _)) => Ok(s.kinds),
        None => Err("no next pair came after dropping this one on a copy of the game".into()),
    }
}

/// What a plan did on its fork: the tape, and the piles read at the next spawn (or why
/// they could not be read).
pub struct Outcome {
    pub tape: Tape,
    pub next: Option<Spawn>,
    pub piles: Result<[Vec<u8>; COLUMNS], String>,
    pub fork: Fork,
}

/// Steers the pair along `route` over `board` (the piles it spawned over) on a copy of
/// `base`, and runs on to the next spawn.
pub fn place(
    sight: &HatSight,
    geo: &crate::board::Geometry,
    lab: &mut Lab,
    base: &Fork,
    spawn: &Spawn,
    board: &Board,
    route: &Route,
) -> Result<Outcome, String> {
    let mut tape = Tape::new(0, sight.well.area());
    let mut t = Taped {
        fork: base.clone(),
        tape: &mut tape,
    };
    let mut release = false;
    let mut prev: Option<PairView> = None;
    let mut unsure = 0;
    let pile_heights = board.heights();
    for _ in 0..SPAWN_FRAMES {
        let shot = t.shot()?;
        if shot.pic.is_blank() {
            // Nothing shows this frame: hold what was held.
            let held = t.fork.buttons(0);
            t.run(lab, held, 1)?;
            continue;
        }
        let tops = sight.tops(&shot);
        let hats = falling(&sight.well, &shot, &t.fork, &tops);
        let Some(view) = view_of(sight, spawn, &hats, prev.as_ref()) else {
            break;
        };
        // A hat gone from high above its pile whose pile did not grow in the picture was
        // not landed: the frame is not to be trusted (a game that turns the picture off
        // part-way down); hold and look again.
        let column = |c: i16| c.clamp(0, COLUMNS as i16 - 1) as usize;
        let grown = |c: i16| {
            let c = column(c);
            (sight.well.base - tops[c]) as i16 > pile_heights[c] + 2
        };
        let gone = |i: usize| {
            prev.as_ref().is_some_and(|p| {
                view.heights[i] == Some(0)
                    && p.heights[i].is_some_and(|y| y > 0)
                    && p.cols[i].is_some_and(|c| {
                        p.heights[i].is_some_and(|y| y > pile_heights[column(c)] + 20)
                    })
            })
        };
        let landed = |i: usize| gone(i) && prev.as_ref().and_then(|p| p.cols[i]).is_some_and(grown);
        let vanished = (0..2).any(|i| gone(i) && !landed(i));
        if vanished && unsure < 8 {
            unsure += 1;
            let held = t.fork.buttons(0);
            t.run(lab, held, 1)?;
            continue;
        }
        unsure = 0;
        // A pair dropped all the way at once (a game whose Down does that) is in its piles
        // the next frame; a hat then seen far above every pile is the next pair's.
        let far = |i: usize| {
            view.heights[i]
                .is_some_and(|y| y > pile_heights.iter().copied().max().unwrap_or(0) + SPLIT_MARGIN)
        };
        if (0..2).any(landed) && (0..2).any(far) {
            break;
        }
        log::trace!(
            "hatris: steering {route:?}: cols {:?} heights {:?} types {:?} fall {:?}",
            view.cols,
            view.heights,
            view.types,
            fall(&view, board)
        );
        if view.live() && fall(&view, board) == Fall::Down {
            break;
        }
        let mut press = if view.live() {
            steer(&view, board, route)
        } else {
            Buttons::DOWN
        };
        // The picture shows where the sprites were a frame ago: a pair that must split
        // is let fall by itself near the piles, so the free hat is seen hovering before
        // Down would carry it past.
        let taller = (0..2)
            .filter_map(|i| view.cols[i])
            .map(|c| pile_heights[c.clamp(0, COLUMNS as i16 - 1) as usize])
            .max()
            .unwrap_or(0);
        let near = (0..2).any(|i| view.heights[i].is_some_and(|y| y <= taller + SPLIT_MARGIN));
        if press == Buttons::DOWN
            && route.free_target.is_some()
            && fall(&view, board) == Fall::Pair
            && near
        {
            press = Buttons::NONE;
        }
        prev = Some(view);
        // Press on one frame, release on the next; Down may stay held, except before a
        // split: a Down still held when the pair lands ends the free hat's hover at once
        // (a game whose Down drops all the way lands it on the very frame it is pressed).
        let b = if release || press == Buttons::NONE {
            release = false;
            Buttons::NONE
        } else {
            release = press != Buttons::DOWN || route.free_target.is_some();
            press
        };
        t.run(lab, b, 1)?;
    }
    t.commit();
    let next = run_to_spawn(sight, lab, &mut t, SPAWN_FRAMES, |_| Buttons::NONE, false)?;
    let (next, piles) = match next {
        Some((s, shot)) => (Some(s), readable_piles(sight, geo, lab, &mut t, shot)?),
        None => (None, Err("no next pair came".to_string())),
    };
    t.checkpoint()?;
    let fork = t.fork;
    Ok(Outcome {
        tape,
        next,
        piles,
        fork,
    })
}

/// Which helper B brings now, tried on a copy of `base` (where `board` is the piles):
/// Alexey takes a pile's bottom hat at the first A, which changes its picture; Vladimir
/// only marks the pile (with a sprite). `None` if B brings no helper.
pub fn which_helper(
    sight: &HatSight,
    lab: &mut Lab,
    base: &Fork,
    board: &Board,
) -> Result<Option<crate::rules::Helper>, String> {
    let Some(col) = (0..COLUMNS).find(|&c| !board.piles[c].is_empty()) else {
        return Err("no pile has a hat to try a helper on".into());
    };
    let mut tape = Tape::new(0, sight.well.area());
    let mut t = Taped {
        fork: base.clone(),
        tape: &mut tape,
    };
    if !press_b(sight, lab, &mut t)? {
        return Ok(None);
    }
    for _ in 0..COLUMNS {
        t.tap(lab, Buttons::LEFT)?;
    }
    for _ in 0..col {
        t.tap(lab, Buttons::RIGHT)?;
    }
    t.run(lab, Buttons::NONE, 4)?;
    let before = t.shot()?;
    t.tap(lab, Buttons::A)?;
    t.run(lab, Buttons::NONE, 8)?;
    let after = t.shot()?;
    let x = sight.well.pile_x(col);
    let bottom = Rect::new(x, sight.well.base - 24, super::ART_W, 24);
    let changed = before
        .pic
        .changes_in(&after.pic, bottom)
        .pixels
        .iter()
        .any(|&(x, y)| !before.sprites.covers(x, y) && !after.sprites.covers(x, y));
    Ok(Some(if changed {
        crate::rules::Helper::Alexey
    } else {
        crate::rules::Helper::Vladimir
    }))
}

/// B until the falling pair is gone (a helper called); false if it stayed.
fn press_b(sight: &HatSight, lab: &mut Lab, t: &mut Taped) -> Result<bool, String> {
    for _ in 0..8 {
        t.tap(lab, Buttons::B)?;
        let shot = t.shot()?;
        if falling(&sight.well, &shot, &t.fork, &sight.tops(&shot)).is_empty() {
            t.run(lab, Buttons::NONE, 8)?;
            return Ok(true);
        }
    }
    Ok(false)
}

/// A helper call on a copy of `base`: B, then the helper's work with the cursor walked
/// from the left wall, then on to the next spawn. `Err` if the screen did not answer.
pub fn call_helper(
    sight: &HatSight,
    geo: &crate::board::Geometry,
    lab: &mut Lab,
    base: &Fork,
    action: Action,
) -> Result<Outcome, String> {
    let mut tape = Tape::new(0, sight.well.area());
    let mut t = Taped {
        fork: base.clone(),
        tape: &mut tape,
    };
    if !press_b(sight, lab, &mut t)? {
        return Err("B did not call a helper (the pair stayed)".into());
    }
    // The cursor to the left wall: six presses reach it from anywhere.
    for _ in 0..COLUMNS {
        t.tap(lab, Buttons::LEFT)?;
    }
    let mut at = 0u8;
    let mut go = |t: &mut Taped, lab: &mut Lab, to: u8| -> Result<(), String> {
        while at != to {
            t.tap(
                lab,
                if at < to {
                    Buttons::RIGHT
                } else {
                    Buttons::LEFT
                },
            )?;
            at = if at < to { at + 1 } else { at - 1 };
        }
        Ok(())
    };
    match action {
        Action::Alexey(counts) => {
            let mut taken = 0;
            for (c, &n) in counts.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                go(&mut t, lab, c as u8)?;
                for _ in 0..n {
                    t.tap(lab, Buttons::A)?;
                    t.run(lab, Buttons::NONE, 4)?;
                    taken += 1;
                }
            }
            if taken < 5 {
                t.tap(lab, Buttons::B)?;
            }
        }
        Action::Vladimir(a, b) => {
            go(&mut t, lab, a)?;
            t.tap(lab, Buttons::A)?;
            t.run(lab, Buttons::NONE, 4)?;
            go(&mut t, lab, b)?;
            t.tap(lab, Buttons::A)?;
        }
        Action::Place(_) => return Err("not a helper".into()),
    }
    t.commit();
    let next = run_to_spawn(sight, lab, &mut t, SPAWN_FRAMES, |_| Buttons::NONE, false)?;
    let (next, piles) = match next {
        Some((s, shot)) => (Some(s), readable_piles(sight, geo, lab, &mut t, shot)?),
        None => (None, Err("no next pair came after the helper".to_string())),
    };
    t.checkpoint()?;
    let fork = t.fork;
    Ok(Outcome {
        tape,
        next,
        piles,
        fork,
    })
}
