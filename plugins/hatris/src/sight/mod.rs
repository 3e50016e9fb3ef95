//! Seeing a Hatris game on screen, as a person does. The player is told neither where the
//! well is nor what the hats look like; it works both out on forks (`find.rs`): the
//! falling pair is what falls by itself (sprites), Left and Right step it from column to
//! column, and the first hats to land on empty piles show where the heads are and what
//! each hat looks like in the piles. A hat's type is told by its height (the rules give
//! each type its own height), so no picture has to be known in advance.
//!
//! The piles are then read from the picture (`read_pile`): the top hat in drawing order
//! shows whole, the hat under it sits where the nesting rule puts it and shows wherever
//! the hats above leave it uncovered, down to the heads; every coloured pixel must be
//! explained. Moves are made on forks first (`act.rs`).

pub mod act;
pub mod find;

use crate::board::Geometry;
use crate::rules::{COLUMNS, HAT_HEIGHT, HAT_TYPES};
use nesmind_host::Frame;
use nesmind_host::sight::{Picture, Rect, Shot, SpriteMask};

pub use find::{Found, find};

/// Frames a press is held, then released as long (the game acts on new presses).
pub const HOLD: u64 = 2;
/// Rows of a pile's picture read, above the heads: the tallest pile plus its top hat.
pub const PILE_ROWS: i32 = 160;

/// A hat's picture: `h` rows from its top, 16 columns; `None` where nothing is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Art {
    pub h: i32,
    pub px: Vec<Option<u8>>,
}

pub const ART_W: i32 = 16;

impl Art {
    fn at(&self, x: i32, row: i32) -> Option<u8> {
        self.px[(row * ART_W + x) as usize]
    }
}

/// The hat type a picture this tall shows (each type has its own height).
pub fn kind_of_height(h: i32) -> Option<u8> {
    HAT_HEIGHT
        .iter()
        .position(|&t| i32::from(t) == h)
        .map(|k| k as u8 + 1)
}

/// The well on screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Well {
    /// Sprite x of each column's hats.
    pub col_x: [i32; COLUMNS],
    /// The screen row just below a hat resting on the heads.
    pub base: i32,
    /// Background x minus sprite x (a game may scroll its background by a few pixels).
    pub bg_dx: i32,
    /// The colour behind the piles.
    pub backdrop: u8,
    /// The pattern table the sprites are drawn from, once seen (it does not change).
    pub sprite_table: Option<u16>,
}

impl Well {
    /// Screen x of a column's pile picture.
    pub fn pile_x(&self, col: usize) -> i32 {
        self.col_x[col] + self.bg_dx
    }

    /// The region the piles and the falling pair occupy.
    pub fn area(&self) -> Rect {
        let x0 = self.col_x[0].min(self.pile_x(0)) - 2;
        let x1 = self.col_x[COLUMNS - 1].max(self.pile_x(COLUMNS - 1)) + ART_W + 2;
        Rect::new(x0, self.base - 200, x1 - x0, 200)
    }
}

/// A sprite of a hat: x and y from the hat's top-left sprite, tile, attributes.
pub type SpriteTile = (i32, i32, u8, u8);

/// A hat of the falling pair, as the sprites over a column show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Falling {
    pub col: u8,
    /// Its type, when its whole picture could be seen (over the backdrop).
    pub kind: Option<u8>,
    /// Its lowest drawn row on screen.
    pub bottom_row: i32,
    /// The sprites' tiles and attributes, relative to the top-left sprite: the same hat
    /// keeps them as it falls.
    pub tiles: Vec<SpriteTile>,
    /// Top row of the sprites.
    pub top: i32,
    /// Its picture as its sprites draw it, when the pattern tables could be read.
    pub art: Option<Art>,
}

impl Falling {
    /// Its bottom in pixels above the heads.
    pub fn bottom(&self, well: &Well) -> i16 {
        (well.base - 1 - self.bottom_row) as i16
    }
}

/// Sprites whose left edge is at `x` or 8 to its right, above `base`.
fn column_sprites(oam: &[u8], x: i32, base: i32) -> Vec<(i32, i32, u8, u8)> {
    oam.chunks_exact(4)
        .filter(|s| s[0] < 0xEF)
        .map(|s| (i32::from(s[3]), i32::from(s[0]) + 1, s[1], s[2]))
        .filter(|&(sx, sy, _, _)| (sx == x || sx == x + 8) && sy < base)
        .collect()
}

/// The sprites over all the well's columns, above its heads.
pub fn well_sprites(well: &Well, oam: &[u8]) -> Vec<SpriteTile> {
    well.col_x
        .iter()
        .flat_map(|&x| column_sprites(oam, x, well.base))
        .collect()
}

/// The rows of `pic` (within the 16 columns at `x`, from `top` down to `bottom`) that hold
/// something other than `backdrop` where `sprites` may draw: the hat's first and last row.
fn silhouette(
    pic: &Picture,
    sprites: &SpriteMask,
    x: i32,
    top: i32,
    bottom: i32,
    backdrop: u8,
) -> Option<(i32, i32)> {
    let mut rows = (top..bottom).filter(|&y| {
        (x..x + ART_W)
            .any(|px| sprites.covers(px, y) && pic.get(px, y).is_some_and(|c| c != backdrop))
    });
    let first = rows.next()?;
    let last = rows.next_back().unwrap_or(first);
    Some((first, last))
}

/// The picture of a falling hat over the backdrop, as an art: the rows of its silhouette,
/// the columns at its sprite x; `None` where the backdrop shows.
pub fn sprite_art(well: &Well, shot: &Shot, hat: &Falling) -> Option<Art> {
    if let Some(art) = &hat.art {
        return Some(art.clone());
    }
    let x = well.col_x[usize::from(hat.col)];
    let (first, last) = silhouette(
        &shot.pic,
        &shot.sprites,
        x,
        hat.top,
        hat.bottom_row + 1,
        well.backdrop,
    )?;
    let h = last - first + 1;
    let mut px = Vec::with_capacity((h * ART_W) as usize);
    for y in first..=last {
        for dx in 0..ART_W {
            let c = shot.pic.get(x + dx, y).unwrap_or(well.backdrop);
            px.push((c != well.backdrop && shot.sprites.covers(x + dx, y)).then_some(c));
        }
    }
    Some(Art { h, px })
}

/// The pixels sprite `s` (x, y, tile, attributes) draws with pattern table `table`, and
/// their colours from the sprite palettes (8x8 sprites).
fn sprite_pixels(frame: &dyn Frame, s: SpriteTile, table: u16) -> Vec<(i32, i32, u8)> {
    let (x, y, tile, attr) = s;
    let at = table + u16::from(tile) * 16;
    let mut out = Vec::new();
    for r in 0..8u16 {
        let row = if attr & 0x80 != 0 { 7 - r } else { r };
        let (lo, hi) = (frame.peek_ppu(at + row), frame.peek_ppu(at + row + 8));
        for c in 0..8 {
            let bit = if attr & 0x40 != 0 { c } else { 7 - c };
            let v = (lo >> bit & 1) | ((hi >> bit & 1) << 1);
            if v != 0 {
                let colour = frame.peek_ppu(0x3F10 + u16::from(attr & 3) * 4 + u16::from(v)) & 0x3F;
                out.push((x + c, y + i32::from(r), colour));
            }
        }
    }
    out
}

/// The pattern table the sprites are drawn from: the one whose drawing the picture shows
/// (the PPU setting that chooses it cannot be read).
pub fn sprite_table(frame: &dyn Frame, pic: &Picture, sprites: &[SpriteTile]) -> Option<u16> {
    [0x0000u16, 0x1000].into_iter().find(|&table| {
        let px: Vec<(i32, i32, u8)> = sprites
            .iter()
            .flat_map(|&s| sprite_pixels(frame, s, table))
            .filter(|&(x, y, _)| Rect::SCREEN.contains(x, y))
            .collect();
        let agree = px.iter().filter(|&&(x, y, c)| pic.at(x, y) == c).count();
        !px.is_empty() && agree * 10 >= px.len() * 9
    })
}

/// The falling pair's hats as the sprites over the well's columns show them: each hat's
/// own pixels from the pattern tables, so its type (by its height) and its picture are
/// known whatever is drawn behind it. `tops` (each pile's top row) is only used where
/// the patterns cannot be read: then a hat is typed from the picture when it is wholly
/// above its pile.
pub fn falling(well: &Well, shot: &Shot, frame: &dyn Frame, tops: &[i32; COLUMNS]) -> Vec<Falling> {
    let oam = frame.oam();
    let mut out = Vec::new();
    let table = well
        .sprite_table
        .or_else(|| sprite_table(frame, &shot.pic, &well_sprites(well, oam)));
    for (c, &x) in well.col_x.iter().enumerate() {
        let mut sprites = column_sprites(oam, x, well.base);
        if sprites.is_empty() {
            continue;
        }
        // Two identical sprites draw one picture (a game may leave a copy in OAM for a
        // frame): the hat's tiles must not depend on it.
        sprites.sort_by_key(|&(sx, sy, t, a)| (sy, sx, t, a));
        sprites.dedup();
        let top = sprites.iter().map(|s| s.1).min().unwrap_or(0);
        let bottom = sprites.iter().map(|s| s.1).max().unwrap_or(0) + 16;
        let tiles = sprites
            .iter()
            .map(|&(sx, sy, t, a)| (sx - x, sy - top, t, a))
            .collect();
        if let Some(table) = table {
            let px: Vec<(i32, i32, u8)> = sprites
                .iter()
                .flat_map(|&s| sprite_pixels(frame, s, table))
                .collect();
            let (Some(first), Some(last)) =
                (px.iter().map(|p| p.1).min(), px.iter().map(|p| p.1).max())
            else {
                continue;
            };
            let h = last - first + 1;
            let mut art = Art {
                h,
                px: vec![None; (h * ART_W) as usize],
            };
            for &(px_x, px_y, colour) in &px {
                let ax = px_x - x;
                if (0..ART_W).contains(&ax) {
                    art.px[((px_y - first) * ART_W + ax) as usize] = Some(colour);
                }
            }
            out.push(Falling {
                col: c as u8,
                kind: kind_of_height(h),
                bottom_row: last,
                tiles,
                top,
                art: Some(art),
            });
            continue;
        }
        let Some((first, last)) = silhouette(
            &shot.pic,
            &shot.sprites,
            x,
            top,
            bottom.min(well.base),
            well.backdrop,
        ) else {
            // Nothing of it shows (a game may turn the picture off part-way down a
            // frame): the sprites still say where it is; what it is, its sprites' looks.
            out.push(Falling {
                col: c as u8,
                kind: None,
                bottom_row: bottom - 9,
                tiles,
                top,
                art: None,
            });
            continue;
        };
        let clean = last < tops[c] - 1;
        out.push(Falling {
            col: c as u8,
            kind: if clean {
                kind_of_height(last - first + 1)
            } else {
                None
            },
            bottom_row: last,
            tiles,
            top,
            art: None,
        });
    }
    out
}

/// What the player knows of the game's picture.
#[derive(Clone, Debug)]
pub struct HatSight {
    pub well: Well,
    /// The piles' picture of each type, once seen (index type - 1).
    pub arts: [Option<Art>; HAT_TYPES],
    /// The pile colour of each sprite colour (the falling hats use the sprite palettes),
    /// from a hat seen both falling and landed.
    pub colours: [Option<u8>; 64],
    /// Each type's falling picture, once seen over the backdrop.
    pub sprite_arts: [Option<Art>; HAT_TYPES],
    /// The screen row new pairs' lowest pixels appear at, once seen.
    pub spawn_row: Option<i32>,
}

/// A pile's picture: colours by row above the heads (row 0 just above them) and column,
/// `None` where a sprite may hide it.
struct Strip {
    px: Vec<Option<u8>>,
    backdrop: u8,
}

impl Strip {
    /// The screen area of column `col`'s pile.
    fn area(well: &Well, col: usize) -> Rect {
        Rect::new(well.pile_x(col), well.base - PILE_ROWS, ART_W, PILE_ROWS)
    }

    /// The sprite boxes that reach into `area` (a handful of the frame's 64), so that each
    /// pixel is tested against those only: this runs for every column on every frame, so
    /// they are kept on the stack.
    fn boxes_over(shot: &Shot, area: &Rect) -> ([Rect; 64], usize) {
        let mut near = [Rect::default(); 64];
        let mut n = 0;
        for b in shot.sprites.boxes().iter().filter(|b| b.intersects(area)) {
            if n < near.len() {
                near[n] = *b;
                n += 1;
            }
        }
        (near, n)
    }

    fn take(well: &Well, shot: &Shot, col: usize) -> Strip {
        let x0 = well.pile_x(col);
        let (near, n) = Strip::boxes_over(shot, &Strip::area(well, col));
        let boxes = &near[..n];
        let mut px = Vec::with_capacity((PILE_ROWS * ART_W) as usize);
        for r in 0..PILE_ROWS {
            let y = well.base - 1 - r;
            for x in x0..x0 + ART_W {
                px.push(if boxes.iter().any(|b| b.contains(x, y)) {
                    None
                } else {
                    Some(shot.pic.get(x, y).unwrap_or(well.backdrop))
                });
            }
        }
        Strip {
            px,
            backdrop: well.backdrop,
        }
    }

    /// What `take(..).height()` gives, scanning down from the top and stopping at the
    /// first row with something drawn, without keeping the strip.
    fn height_of(well: &Well, shot: &Shot, col: usize) -> i32 {
        let area = Strip::area(well, col);
        let (near, n) = Strip::boxes_over(shot, &area);
        let boxes = &near[..n];
        // Off-screen rows and columns count as backdrop, as in `take`. Most of the well
        // is backdrop: a row's colours are tested first, the sprites only where it differs.
        let on = area.clipped();
        let drawn = |y: i32| {
            let row = shot.pic.row_in(y, &on);
            row.iter().any(|&c| c != well.backdrop)
                && row
                    .iter()
                    .zip(on.x..)
                    .any(|(&c, x)| c != well.backdrop && !boxes.iter().any(|b| b.contains(x, y)))
        };
        (on.y..on.y + on.h)
            .find(|&y| drawn(y))
            .map_or(0, |y| well.base - y)
    }

    fn at(&self, x: i32, row: i32) -> Option<u8> {
        if !(0..PILE_ROWS).contains(&row) {
            return Some(self.backdrop);
        }
        self.px[(row * ART_W + x) as usize]
    }

    /// One more than the highest row with something drawn (0 for an empty pile).
    fn height(&self) -> i32 {
        (0..PILE_ROWS)
            .rev()
            .find(|&r| (0..ART_W).any(|x| self.at(x, r).is_some_and(|c| c != self.backdrop)))
            .map_or(0, |r| r + 1)
    }
}

/// A hat placed while reading a pile: type and brim (rows above the heads).
type Placed = (u8, i32);

impl HatSight {
    /// Learns the pile pictures of types that lie on top of `expect`'s piles (what the
    /// model says the piles are) and whose pile picture is not known yet: a top hat shows
    /// whole, where its falling picture has pixels. False if nothing new was learned.
    pub fn learn_tops(&mut self, shot: &Shot, expect: &[Vec<u8>; COLUMNS], geo: &Geometry) -> bool {
        let mut board = crate::board::Board::default();
        board.set_piles(geo, expect);
        let mut learned = false;
        'cols: for c in 0..COLUMNS {
            let Some(top) = board.piles[c].top() else {
                continue;
            };
            let k = top.hat as usize - 1;
            let (None, Some(sprite)) = (&self.arts[k], &self.sprite_arts[k]) else {
                continue;
            };
            let sprite = sprite.clone();
            let mut px = vec![None; sprite.px.len()];
            let top_row = self.well.base - i32::from(top.base) - sprite.h;
            for r in 0..sprite.h {
                for x in 0..ART_W {
                    let Some(s) = sprite.at(x, r) else { continue };
                    let (sx, sy) = (self.well.pile_x(c) + x, top_row + r);
                    if shot.sprites.covers(sx, sy) {
                        // A sprite over it (the hat itself, just landed): next frame.
                        continue 'cols;
                    }
                    let b = shot.pic.get(sx, sy).unwrap_or(self.well.backdrop);
                    px[(r * ART_W + x) as usize] = Some(b);
                    self.colours[usize::from(s)].get_or_insert(b);
                }
            }
            self.arts[k] = Some(Art { h: sprite.h, px });
            learned = true;
        }
        learned
    }

    /// A type's pile picture from its falling picture, through the colours learned, if
    /// every colour is known; kept for the next readings.
    pub fn learn_from_sprite(&mut self, kind: u8, sprite: &Art) -> bool {
        let slot = &mut self.arts[kind as usize - 1];
        if slot.is_some() {
            return true;
        }
        let mut px = Vec::with_capacity(sprite.px.len());
        for p in &sprite.px {
            match p {
                None => px.push(None),
                Some(c) => match self.colours[usize::from(*c)] {
                    Some(b) => px.push(Some(b)),
                    None => return false,
                },
            }
        }
        *slot = Some(Art { h: sprite.h, px });
        true
    }

    /// The hats of pile `col`, bottom first, read from `shot` with the brim offsets of
    /// `geo`; `Err` says why the picture cannot be explained.
    pub fn read_pile(&self, shot: &Shot, col: usize, geo: &Geometry) -> Result<Vec<u8>, String> {
        let strip = Strip::take(&self.well, shot, col);
        let h = strip.height();
        if h == 0 {
            return Ok(Vec::new());
        }
        let mut covered = vec![false; (PILE_ROWS * ART_W) as usize];
        let mut placed: Vec<Placed> = Vec::new();
        // The top hat (last drawn) shows whole: try every type at every brim, highest first.
        for brim in (0..h).rev() {
            for kind in 1..=HAT_TYPES as u8 {
                let Some(art) = &self.arts[kind as usize - 1] else {
                    continue;
                };
                if brim + art.h > h || brim + art.h < h - 24 || !fits(&strip, art, brim, &covered) {
                    continue;
                }
                placed.push((kind, brim));
                let mark = cover(&mut covered, art, brim);
                if self.below(&strip, geo, &mut placed, &mut covered) {
                    let mut hats: Vec<u8> = placed.iter().map(|p| p.0).collect();
                    hats.reverse();
                    return Ok(hats);
                }
                uncover(&mut covered, &mark);
                placed.pop();
            }
        }
        Err(format!(
            "pile {} ({h} px tall) matches no stack of the hats seen so far",
            col + 1
        ))
    }

    /// Continues a reading under the last placed hat; true when it reaches the heads with
    /// every drawn pixel explained.
    fn below(
        &self,
        strip: &Strip,
        geo: &Geometry,
        placed: &mut Vec<Placed>,
        covered: &mut Vec<bool>,
    ) -> bool {
        let &(upper, brim) = placed.last().expect("a hat placed");
        if brim == 0 {
            return explained(strip, covered);
        }
        if placed.len() > crate::board::PILE_CAPACITY {
            return false;
        }
        for kind in 1..=HAT_TYPES as u8 {
            let Some(art) = &self.arts[kind as usize - 1] else {
                continue;
            };
            let b = brim - i32::from(geo.offsets[kind as usize - 1][upper as usize - 1]);
            if b < 0 || !fits(strip, art, b, covered) {
                continue;
            }
            placed.push((kind, b));
            let mark = cover(covered, art, b);
            if self.below(strip, geo, placed, covered) {
                return true;
            }
            uncover(covered, &mark);
            placed.pop();
        }
        false
    }

    /// Every pile, bottom first.
    pub fn read_piles(&self, shot: &Shot, geo: &Geometry) -> Result<[Vec<u8>; COLUMNS], String> {
        let mut out: [Vec<u8>; COLUMNS] = Default::default();
        for (c, pile) in out.iter_mut().enumerate() {
            *pile = self.read_pile(shot, c, geo)?;
        }
        Ok(out)
    }

    /// Each pile's top row on screen (the base for an empty pile).
    pub fn tops(&self, shot: &Shot) -> [i32; COLUMNS] {
        std::array::from_fn(|c| self.well.base - Strip::height_of(&self.well, shot, c))
    }
}

/// Whether `art` with its brim at row `brim` shows its colours wherever nothing above
/// covers it (hidden pixels of the strip fit anything).
fn fits(strip: &Strip, art: &Art, brim: i32, covered: &[bool]) -> bool {
    for r in 0..art.h {
        let row = brim + art.h - 1 - r;
        for x in 0..ART_W {
            let Some(c) = art.at(x, r) else { continue };
            if !(0..PILE_ROWS).contains(&row) {
                return false;
            }
            let i = (row * ART_W + x) as usize;
            if covered[i] {
                continue;
            }
            if strip.px[i].is_some_and(|s| s != c) {
                return false;
            }
        }
    }
    true
}

/// Marks the pixels `art` draws as covered; returns those newly marked.
fn cover(covered: &mut [bool], art: &Art, brim: i32) -> Vec<usize> {
    let mut marked = Vec::new();
    for r in 0..art.h {
        let row = brim + art.h - 1 - r;
        for x in 0..ART_W {
            if art.at(x, r).is_some() && (0..PILE_ROWS).contains(&row) {
                let i = (row * ART_W + x) as usize;
                if !covered[i] {
                    covered[i] = true;
                    marked.push(i);
                }
            }
        }
    }
    marked
}

fn uncover(covered: &mut [bool], marked: &[usize]) {
    for &i in marked {
        covered[i] = false;
    }
}

/// Whether every drawn pixel of the strip belongs to a placed hat.
fn explained(strip: &Strip, covered: &[bool]) -> bool {
    strip
        .px
        .iter()
        .zip(covered)
        .all(|(p, &c)| c || p.is_none_or(|p| p == strip.backdrop))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Settings;

    /// A plain art: a filled block of colour `c`, `h` rows, with a transparent corner.
    fn block(h: i32, c: u8) -> Art {
        let mut px = vec![Some(c); (h * ART_W) as usize];
        px[0] = None;
        Art { h, px }
    }

    fn sight() -> HatSight {
        HatSight {
            well: Well {
                col_x: [56, 80, 104, 128, 152, 176],
                base: 208,
                bg_dx: 0,
                backdrop: 0x0F,
                sprite_table: None,
            },
            arts: std::array::from_fn(|k| Some(block(i32::from(HAT_HEIGHT[k]), 0x10 + k as u8))),
            colours: [None; 64],
            sprite_arts: Default::default(),
            spawn_row: None,
        }
    }

    /// Draws `hats` on pile `col` of a backdrop picture as the rules stack them.
    fn draw(s: &HatSight, geo: &Geometry, col: usize, hats: &[u8]) -> Shot {
        let mut pic = Picture::filled(s.well.backdrop);
        let mut brim = 0i32;
        let mut below: Option<u8> = None;
        for &k in hats {
            if let Some(l) = below {
                brim += i32::from(geo.offsets[l as usize - 1][k as usize - 1]);
            }
            let art = s.arts[k as usize - 1].as_ref().unwrap();
            for r in 0..art.h {
                for x in 0..ART_W {
                    if let Some(c) = art.at(x, r) {
                        pic.set(s.well.pile_x(col) + x, s.well.base - brim - art.h + r, c);
                    }
                }
            }
            below = Some(k);
        }
        Shot {
            pic,
            sprites: SpriteMask::none(),
        }
    }

    #[test]
    fn piles_drawn_by_the_rules_are_read_back() {
        let s = sight();
        let geo = Geometry::new(&Settings::default());
        for hats in [
            vec![],
            vec![4],
            vec![1, 2, 3],
            vec![6, 6, 5, 2, 1, 4, 4, 3, 5],
        ] {
            let shot = draw(&s, &geo, 2, &hats);
            assert_eq!(s.read_pile(&shot, 2, &geo).unwrap(), hats);
            assert_eq!(s.read_pile(&shot, 0, &geo).unwrap(), Vec::<u8>::new());
        }
    }

    #[test]
    fn an_unknown_picture_is_not_guessed() {
        let mut s = sight();
        let geo = Geometry::new(&Settings::default());
        let shot = draw(&s, &geo, 1, &[3, 1]);
        s.arts[0] = None;
        let e = s.read_pile(&shot, 1, &geo).unwrap_err();
        assert!(e.contains("pile 2"), "{e}");
    }

    #[test]
    fn tops_agree_with_whole_strips_under_sprites() {
        let s = sight();
        let geo = Geometry::new(&Settings::default());
        let mut shot = draw(&s, &geo, 2, &[1, 2, 3]);
        let top = s.well.base - Strip::take(&s.well, &shot, 2).height();
        // Two sprites side by side over the top hat's upper rows, one over an empty
        // column, the rest off screen.
        let mut oam = [0xFFu8; 256];
        let x = s.well.pile_x(2) as u8;
        oam[..4].copy_from_slice(&[(top - 2) as u8, 0, 0, x]);
        oam[4..8].copy_from_slice(&[(top - 2) as u8, 0, 0, x + 8]);
        oam[8..12].copy_from_slice(&[150, 0, 0, s.well.pile_x(4) as u8]);
        for sprites in [SpriteMask::none(), SpriteMask::from_oam(&oam)] {
            shot.sprites = sprites;
            let whole: [i32; COLUMNS] =
                std::array::from_fn(|c| s.well.base - Strip::take(&s.well, &shot, c).height());
            assert_eq!(s.tops(&shot), whole);
        }
        assert!(s.tops(&shot)[2] > top, "the sprite hides the top rows");
    }

    #[test]
    fn heights_name_the_types() {
        assert_eq!(kind_of_height(20), Some(1));
        assert_eq!(kind_of_height(11), Some(6));
        assert_eq!(kind_of_height(13), None);
    }
}
