//! Calibration from the picture, on forks of a moment when something falls by itself:
//!
//! 1. the falling pair is the sprites that move down with nobody pressing; its two hats
//!    stand one column apart, which gives the column pitch;
//! 2. Left until the pair stops, then Right: five places for a pair over six piles gives
//!    every column's x;
//! 3. the pair is dropped on the two emptiest neighbouring piles: where its hats come to
//!    rest shows the heads' row, how far the piles' picture is shifted from the sprites,
//!    and what each hat looks like in the piles (its colours against the falling
//!    picture's, so types seen only falling can be read in the piles too).

use super::{ART_W, Art, Falling, HOLD, HatSight, Well, falling, kind_of_height, sprite_art};
use crate::rules::COLUMNS;
use nesmind_host::sight::{Lab, Meter, PixelMask, Rect, Shot, release_all};
use nesmind_host::{Buttons, Fork, Frame};

/// Most frames a dropped pair may take to land and its picture to settle.
const DROP_FRAMES: u64 = 400;

/// Frames watched with nobody pressing, before the drop, to learn which pixels of the
/// piles' region animate by themselves.
const RESTLESS_FRAMES: u64 = 32;

/// What calibration found.
#[derive(Clone, Debug)]
pub struct Found {
    pub sight: HatSight,
    pub lines: Vec<String>,
    pub fork_frames: u64,
}

/// Left edges of the sprites that moved down (same x) between two OAM copies.
fn falling_edges(before: &[u8], after: &[u8]) -> Vec<i32> {
    let mut xs: Vec<i32> = Vec::new();
    for a in after.chunks_exact(4).filter(|s| s[0] < 0xEF) {
        let moved = before.chunks_exact(4).any(|b| {
            b[0] < 0xEF && b[3] == a[3] && b[1] == a[1] && a[0] > b[0] && a[0] - b[0] <= 32
        });
        if moved {
            xs.push(i32::from(a[3]));
        }
    }
    xs.sort_unstable();
    xs.dedup();
    // A hat's left edge has a sprite 8 pixels to its right; a lone sprite is its own edge.
    let mut edges: Vec<i32> = Vec::new();
    for &x in &xs {
        if !edges.iter().any(|&e| x == e + 8) {
            edges.push(x);
        }
    }
    edges
}

/// The pair's hats' left edges now, seen falling over `frames` frames of a copy of `f`.
fn pair_edges(lab: &mut Lab, f: &Fork, frames: u64) -> Result<Vec<i32>, String> {
    let mut g = f.clone();
    let before = g.oam().to_vec();
    lab.run(&mut g, frames)?;
    Ok(falling_edges(&before, g.oam()))
}

/// Where one press of `b` leaves the pair's left hat: its edge, or `None` when the pair is
/// not seen.
fn step(lab: &mut Lab, f: &mut Fork, b: Buttons) -> Result<Option<i32>, String> {
    lab.tap(f, 0, b)?;
    Ok(pair_edges(lab, f, 8)?.first().copied())
}

/// Calibrates on `base`, where a pair falls.
pub fn find(meter: &mut Meter, base: Fork) -> Result<Found, String> {
    let mut lab = Lab::new(meter, HOLD);
    let mut f = base;
    release_all(&mut f);
    let edges = pair_edges(&mut lab, &f, 8)?;
    let [a, b] = edges[..] else {
        return Err(format!(
            "falling pair: {} things fall by themselves, not two hats",
            edges.len()
        ));
    };
    let pitch = b - a;
    if !(ART_W..=48).contains(&pitch) {
        return Err(format!("falling pair: its hats are {pitch} px apart"));
    }
    // Left to the wall, then Right across: five places for a pair over six piles.
    let mut left = a;
    for _ in 0..COLUMNS + 2 {
        match step(&mut lab, &mut f, Buttons::LEFT)? {
            Some(x) if x < left => left = x,
            Some(_) => break,
            None => return Err("falling pair: lost while walking it left".into()),
        }
    }
    let mut places = vec![left];
    for _ in 0..COLUMNS + 2 {
        match step(&mut lab, &mut f, Buttons::RIGHT)? {
            Some(x) if x == places[places.len() - 1] + pitch => places.push(x),
            Some(x) if x == places[places.len() - 1] => break,
            Some(x) => {
                return Err(format!(
                    "falling pair: Right moved it from x {} to {x}, not one column",
                    places[places.len() - 1]
                ));
            }
            None => return Err("falling pair: lost while walking it right".into()),
        }
    }
    if places.len() != COLUMNS - 1 {
        return Err(format!(
            "falling pair: it stands in {} places, not {} (a well of {COLUMNS} piles)",
            places.len(),
            COLUMNS - 1
        ));
    }
    let col_x: [i32; COLUMNS] = std::array::from_fn(|c| left + c as i32 * pitch);
    // The backdrop: the commonest colour of the well under the pair.
    let shot = Shot::take(&f).ok_or("no picture")?;
    let area = Rect::new(col_x[0], 0, col_x[COLUMNS - 1] + ART_W - col_x[0], 240);
    let backdrop = shot.pic.commonest(area).ok_or("no picture")?;
    let mut well = Well {
        col_x,
        base: 240,
        bg_dx: 0,
        backdrop,
        sprite_table: None,
    };
    well.sprite_table = super::sprite_table(&f, &shot.pic, &super::well_sprites(&well, f.oam()));
    // The two emptiest neighbouring piles, judged by drawn pixels in their columns.
    let drawn = |c: usize| {
        let r = Rect::new(col_x[c], 0, ART_W, 240);
        shot.pic.block(r).iter().filter(|&&p| p != backdrop).count()
    };
    let pair_at = (0..COLUMNS - 1)
        .min_by_key(|&c| drawn(c) + drawn(c + 1))
        .unwrap_or(0);
    // The pair is over columns 4-5 after the walk; bring it over the chosen ones.
    for _ in pair_at..COLUMNS - 2 {
        lab.tap(&mut f, 0, Buttons::LEFT)?;
    }
    let flat = [240; COLUMNS];
    let before = Shot::take(&f).ok_or("no picture")?;
    let hats = falling(&well, &before, &f, &flat);
    let mut seen: Vec<(Falling, Art, u8)> = Vec::new();
    for h in &hats {
        let art =
            sprite_art(&well, &before, h).ok_or("falling pair: a hat's picture cannot be seen")?;
        let kind = kind_of_height(art.h).ok_or_else(|| {
            format!(
                "falling pair: a hat {} px tall is no Hatris hat (heights 20, 24, 16, 12, 8, 11)",
                art.h
            )
        })?;
        seen.push((h.clone(), art, kind));
    }
    if seen.len() != 2
        || seen
            .iter()
            .any(|s| !(pair_at..pair_at + 2).contains(&usize::from(s.0.col)))
    {
        return Err("falling pair: not over the piles it was walked to".into());
    }
    // Drop it: Down pressed and released (a hard drop takes new presses, a fast fall a
    // held button; this is both). Watched below where the hats are now: their pictures
    // appear there when they have landed (sprites left out: those are the falling hats).
    let region_top = seen.iter().map(|s| s.0.bottom_row).max().unwrap_or(0) + 1;
    let region = Rect::new(
        col_x[pair_at] - 8,
        region_top,
        pitch + ART_W + 16,
        240 - region_top,
    );
    let moved = |a: &Shot, b: &Shot, restless: &PixelMask| {
        a.pic
            .changes_in(&b.pic, region)
            .pixels
            .into_iter()
            .filter(|&(x, y)| {
                !a.sprites.covers(x, y) && !b.sprites.covers(x, y) && !restless.get(x, y)
            })
            .collect::<Vec<(i32, i32)>>()
    };
    // What changes there back and forth with nobody pressing (a blinking score line, a
    // colour cycle) is animation, not a landing; a landing changes its pixels once.
    let (mut once, mut restless) = (PixelMask::new(), PixelMask::new());
    let mut idle = f.clone();
    let mut last = before.clone();
    for _ in 0..RESTLESS_FRAMES {
        lab.run(&mut idle, 1)?;
        let now = Shot::take(&idle).ok_or("no picture")?;
        for (x, y) in moved(&last, &now, &PixelMask::new()) {
            if once.get(x, y) {
                restless.set(x, y);
            }
            once.set(x, y);
        }
        last = now;
    }
    let bg_only = |a: &Shot, b: &Shot| moved(a, b, &restless);
    let mut g = f.clone();
    let mut last = before.clone();
    let mut still = 0;
    let mut changed = false;
    for i in 0..DROP_FRAMES {
        // Down until the hats show in the piles (then no more: the next pair must not
        // follow them down).
        let down = !changed && i % 4 < 2;
        g.set_buttons(0, if down { Buttons::DOWN } else { Buttons::NONE });
        lab.run(&mut g, 1)?;
        let now = Shot::take(&g).ok_or("no picture")?;
        if now.pic.is_blank() {
            continue;
        }
        changed |= !bg_only(&before, &now).is_empty();
        if changed && bg_only(&last, &now).is_empty() {
            still += 1;
            if still >= 4 {
                break;
            }
        } else {
            still = 0;
        }
        last = now;
    }
    if !changed || still < 4 {
        return Err("falling pair: dropped, its hats never showed in the piles".into());
    }
    release_all(&mut g);
    let after = last;
    // Where the hats came to rest: what changed in the piles' background.
    let changed: Vec<(i32, i32, u8)> = bg_only(&before, &after)
        .into_iter()
        .filter(|&(x, y)| after.pic.at(x, y) != backdrop)
        .map(|(x, y)| (x, y, after.pic.at(x, y)))
        .collect();
    let Some(bottom) = changed.iter().map(|p| p.1).max() else {
        return Err("piles: nothing was drawn where the dropped pair landed".into());
    };
    // Both landed on empty piles: their lowest rows sit on the heads.
    well.base = bottom + 1;
    let base = well.base;
    let mut sight = HatSight {
        well: well.clone(),
        arts: Default::default(),
        colours: [None; 64],
        sprite_arts: Default::default(),
        spawn_row: None,
    };
    for (_, art, kind) in &seen {
        sight.sprite_arts[*kind as usize - 1] = Some(art.clone());
    }
    // Lay each landed picture onto the falling one: the background may be drawn a few
    // pixels from the sprites (a fine scroll); the shift that fits both hats exactly.
    let fits = |c: usize, sprite: &Art, dx: i32| -> Option<Vec<(i32, i32, u8)>> {
        let top = base - sprite.h;
        let x0 = col_x[c] + dx;
        let px: Vec<(i32, i32, u8)> = changed
            .iter()
            .copied()
            .filter(|&(x, y, _)| (x0..x0 + ART_W).contains(&x) && y >= top)
            .collect();
        let opaque = sprite.px.iter().flatten().count();
        let inside = px.iter().all(|&(x, y, _)| {
            let (ax, ay) = (x - x0, y - top);
            (0..sprite.h).contains(&ay) && sprite.px[(ay * ART_W + ax) as usize].is_some()
        });
        (inside && px.len() == opaque).then_some(px)
    };
    let shift = (-8..=8).find(|&dx| {
        seen.iter()
            .all(|(h, sprite, _)| fits(usize::from(h.col), sprite, dx).is_some())
    });
    let Some(dx) = shift else {
        log::debug!(
            "hatris: landed {} px ({:?}); falling {:?} px",
            changed.len(),
            changed.iter().map(|p| (p.0, p.1)).min(),
            seen.iter()
                .map(|s| s.1.px.iter().flatten().count())
                .collect::<Vec<_>>()
        );
        return Err(format!(
            "piles: the landed hats ({} px) do not look as they did falling",
            seen.iter()
                .map(|s| s.1.h.to_string())
                .collect::<Vec<_>>()
                .join(" and ")
        ));
    };
    for (h, sprite, kind) in &seen {
        let c = usize::from(h.col);
        let top = base - sprite.h;
        let mut art = Art {
            h: sprite.h,
            px: vec![None; (sprite.h * ART_W) as usize],
        };
        for (x, y, colour) in fits(c, sprite, dx).expect("checked above") {
            let (ax, ay) = (x - col_x[c] - dx, y - top);
            art.px[(ay * ART_W + ax) as usize] = Some(colour);
            let s = sprite.px[(ay * ART_W + ax) as usize].expect("checked above");
            match sight.colours[usize::from(s)] {
                Some(b) if b != colour => {
                    return Err("piles: one falling colour lands as two".into());
                }
                _ => sight.colours[usize::from(s)] = Some(colour),
            }
        }
        sight.arts[*kind as usize - 1] = Some(art);
    }
    sight.well.bg_dx = dx;
    let names: Vec<String> = seen
        .iter()
        .map(|(_, a, k)| format!("{} ({} px)", crate::calib::HAT_NAMES[*k as usize - 1], a.h))
        .collect();
    let lines = vec![
        format!(
            "well: columns at x {:?} ({pitch} px apart), heads at row {}, piles drawn {} px from the sprites",
            sight.well.col_x, sight.well.base, sight.well.bg_dx
        ),
        format!(
            "hats seen landing: {}; sprites drawn from pattern table {}",
            names.join(", "),
            sight
                .well
                .sprite_table
                .map_or("(not told apart)".to_string(), |t| format!("${t:04X}"))
        ),
    ];
    Ok(Found {
        sight,
        lines,
        fork_frames: lab.frames(),
    })
}
