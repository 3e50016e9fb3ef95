//! One finished frame as a player sees it: 256 x 240 palette indices (0-63), emphasis
//! dropped, plus where sprites may cover the background. Players compare pictures (what
//! changed after a press on a fork), cut them into blocks (board cells, pile strips) and
//! look at blocks through masks (what a sprite may hide).

use crate::Frame;

pub const WIDTH: i32 = 256;
pub const HEIGHT: i32 = 240;
const PIXELS: usize = (WIDTH * HEIGHT) as usize;

/// A rectangle of the picture, in pixels (it may reach outside; users clip).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

impl Rect {
    pub const SCREEN: Rect = Rect {
        x: 0,
        y: 0,
        w: WIDTH,
        h: HEIGHT,
    };

    pub fn new(x: i32, y: i32, w: i32, h: i32) -> Rect {
        Rect { x, y, w, h }
    }

    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x && y >= self.y && x < self.x + self.w && y < self.y + self.h
    }

    /// The part inside the screen (empty rectangles have zero width or height).
    pub fn clipped(&self) -> Rect {
        let x0 = self.x.clamp(0, WIDTH);
        let y0 = self.y.clamp(0, HEIGHT);
        let x1 = (self.x + self.w).clamp(0, WIDTH);
        let y1 = (self.y + self.h).clamp(0, HEIGHT);
        Rect::new(x0, y0, (x1 - x0).max(0), (y1 - y0).max(0))
    }

    pub fn is_empty(&self) -> bool {
        self.w <= 0 || self.h <= 0
    }

    pub fn intersects(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, o: &Rect) -> Rect {
        let x0 = self.x.min(o.x);
        let y0 = self.y.min(o.y);
        let x1 = (self.x + self.w).max(o.x + o.w);
        let y1 = (self.y + self.h).max(o.y + o.h);
        Rect::new(x0, y0, x1 - x0, y1 - y0)
    }

    pub fn grown(&self, by: i32) -> Rect {
        Rect::new(self.x - by, self.y - by, self.w + 2 * by, self.h + 2 * by)
    }
}

/// A picture: palette indices, row by row.
#[derive(Clone, PartialEq, Eq)]
pub struct Picture {
    px: Box<[u8]>,
}

impl std::fmt::Debug for Picture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Picture({:016x})", self.hash_rect(Rect::SCREEN))
    }
}

impl Picture {
    /// The frame's finished picture; `None` on hosts without a PPU (RAM-image test hosts).
    pub fn take(frame: &dyn Frame) -> Option<Picture> {
        Picture::from_indices(frame.picture())
    }

    /// From the host's format (palette index in bits 0-5, emphasis above).
    pub fn from_indices(indices: &[u16]) -> Option<Picture> {
        (indices.len() == PIXELS).then(|| Picture {
            px: indices.iter().map(|&v| (v & 0x3F) as u8).collect(),
        })
    }

    /// A picture of one colour (tests, and drawing expected pictures).
    pub fn filled(colour: u8) -> Picture {
        Picture {
            px: vec![colour & 0x3F; PIXELS].into_boxed_slice(),
        }
    }

    /// The colour at (x, y); `None` outside the screen.
    pub fn get(&self, x: i32, y: i32) -> Option<u8> {
        Rect::SCREEN
            .contains(x, y)
            .then(|| self.px[(y * WIDTH + x) as usize])
    }

    /// The colours of `r`'s pixels in screen row `y` (`r` clipped to the screen; empty for
    /// a row off it): scans over whole rows compare slices instead of pixel by pixel.
    pub fn row_in(&self, y: i32, r: &Rect) -> &[u8] {
        let c = r.clipped();
        if !(0..HEIGHT).contains(&y) || c.w == 0 {
            return &[];
        }
        let start = (y * WIDTH + c.x) as usize;
        &self.px[start..start + c.w as usize]
    }

    /// The colour at (x, y), which must be on screen.
    pub fn at(&self, x: i32, y: i32) -> u8 {
        self.px[(y * WIDTH + x) as usize]
    }

    pub fn set(&mut self, x: i32, y: i32, colour: u8) {
        if Rect::SCREEN.contains(x, y) {
            self.px[(y * WIDTH + x) as usize] = colour & 0x3F;
        }
    }

    /// The pixels of `r` (clipped), row by row.
    pub fn block(&self, r: Rect) -> Vec<u8> {
        let c = r.clipped();
        let mut out = Vec::with_capacity((c.w * c.h).max(0) as usize);
        for y in c.y..c.y + c.h {
            let start = (y * WIDTH + c.x) as usize;
            out.extend_from_slice(&self.px[start..start + c.w as usize]);
        }
        out
    }

    /// A 64-bit FNV-1a hash of the pixels of `r` (clipped) and its size.
    pub fn hash_rect(&self, r: Rect) -> u64 {
        let c = r.clipped();
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ ((c.w as u64) << 32 | c.h as u64);
        for y in c.y..c.y + c.h {
            let start = (y * WIDTH + c.x) as usize;
            for &p in &self.px[start..start + c.w as usize] {
                h = (h ^ u64::from(p)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        h
    }

    /// Whether the two pictures agree inside `r`.
    pub fn same_in(&self, other: &Picture, r: Rect) -> bool {
        let c = r.clipped();
        (c.y..c.y + c.h).all(|y| {
            let s = (y * WIDTH + c.x) as usize;
            self.px[s..s + c.w as usize] == other.px[s..s + c.w as usize]
        })
    }

    /// Whether the two pictures agree inside `r` on every pixel `ignore` does not mark.
    pub fn same_except(&self, other: &Picture, r: Rect, ignore: &PixelMask) -> bool {
        if ignore.is_empty() {
            return self.same_in(other, r);
        }
        let c = r.clipped();
        (c.y..c.y + c.h).all(|y| {
            let s = (y * WIDTH + c.x) as usize;
            let (a, b) = (
                &self.px[s..s + c.w as usize],
                &other.px[s..s + c.w as usize],
            );
            a == b
                || a.iter()
                    .zip(b)
                    .enumerate()
                    .all(|(i, (p, q))| p == q || ignore.get(c.x + i as i32, y))
        })
    }

    /// Where `other` differs from this picture.
    pub fn changes(&self, other: &Picture) -> Changes {
        self.changes_in(other, Rect::SCREEN)
    }

    /// Where `other` differs from this picture inside `r`.
    pub fn changes_in(&self, other: &Picture, r: Rect) -> Changes {
        let c = r.clipped();
        let mut ch = Changes::default();
        for y in c.y..c.y + c.h {
            let s = (y * WIDTH + c.x) as usize;
            let (a, b) = (
                &self.px[s..s + c.w as usize],
                &other.px[s..s + c.w as usize],
            );
            if a == b {
                continue;
            }
            for (i, (p, q)) in a.iter().zip(b).enumerate() {
                if p != q {
                    ch.add(c.x + i as i32, y);
                }
            }
        }
        ch
    }

    /// Whether the whole picture is one colour: a game that turns rendering off for a
    /// frame (to write to the PPU at length) shows nothing then, which says nothing.
    pub fn is_blank(&self) -> bool {
        let first = self.px[0];
        self.px.iter().all(|&p| p == first)
    }

    /// The raw palette indices, row by row (for tools that save or show a picture).
    pub fn indices(&self) -> &[u8] {
        &self.px
    }

    /// The most common colour in `r` (clipped), the usual backdrop of a region.
    pub fn commonest(&self, r: Rect) -> Option<u8> {
        let mut counts = [0u32; 64];
        for p in self.block(r) {
            counts[usize::from(p)] += 1;
        }
        let (best, n) = counts.iter().enumerate().max_by_key(|&(_, n)| *n)?;
        (*n > 0).then_some(best as u8)
    }
}

/// A set of pixels (e.g. those that animate by themselves and must not count as change).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PixelMask {
    bits: Vec<u64>,
    count: usize,
}

impl Default for PixelMask {
    fn default() -> Self {
        PixelMask {
            bits: vec![0; PIXELS / 64],
            count: 0,
        }
    }
}

impl PixelMask {
    pub fn new() -> PixelMask {
        PixelMask::default()
    }

    pub fn get(&self, x: i32, y: i32) -> bool {
        Rect::SCREEN.contains(x, y) && {
            let i = (y * WIDTH + x) as usize;
            self.bits[i / 64] >> (i % 64) & 1 == 1
        }
    }

    pub fn set(&mut self, x: i32, y: i32) {
        if Rect::SCREEN.contains(x, y) && !self.get(x, y) {
            let i = (y * WIDTH + x) as usize;
            self.bits[i / 64] |= 1 << (i % 64);
            self.count += 1;
        }
    }

    pub fn add(&mut self, ch: &Changes) {
        for &(x, y) in &ch.pixels {
            self.set(x, y);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn count(&self) -> usize {
        self.count
    }
}

/// The pixels where two pictures differ.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub pixels: Vec<(i32, i32)>,
    pub bounds: Option<Rect>,
}

impl Changes {
    fn add(&mut self, x: i32, y: i32) {
        self.pixels.push((x, y));
        let one = Rect::new(x, y, 1, 1);
        self.bounds = Some(self.bounds.map_or(one, |b| b.union(&one)));
    }

    pub fn is_empty(&self) -> bool {
        self.pixels.is_empty()
    }

    pub fn count(&self) -> usize {
        self.pixels.len()
    }

    /// The mean position of the changed pixels.
    pub fn centroid(&self) -> Option<(f64, f64)> {
        let n = self.pixels.len() as f64;
        (n > 0.0).then(|| {
            let (sx, sy) = self
                .pixels
                .iter()
                .fold((0i64, 0i64), |(a, b), &(x, y)| (a + x as i64, b + y as i64));
            (sx as f64 / n, sy as f64 / n)
        })
    }

    /// Changed pixels per column (`vertical` false) or per row (`vertical` true).
    pub fn profile(&self, vertical: bool) -> Vec<u32> {
        let len = if vertical { HEIGHT } else { WIDTH } as usize;
        let mut p = vec![0u32; len];
        for &(x, y) in &self.pixels {
            p[if vertical { y } else { x } as usize] += 1;
        }
        p
    }

    /// Only the changes inside `r`.
    pub fn within(&self, r: Rect) -> Changes {
        let mut out = Changes::default();
        for &(x, y) in self.pixels.iter().filter(|&&(x, y)| r.contains(x, y)) {
            out.add(x, y);
        }
        out
    }

    /// Only the changes `mask` does not mark.
    pub fn unmasked(&self, mask: &PixelMask) -> Changes {
        let mut out = Changes::default();
        for &(x, y) in self.pixels.iter().filter(|&&(x, y)| !mask.get(x, y)) {
            out.add(x, y);
        }
        out
    }

    /// Only the changes outside `r`.
    pub fn outside(&self, r: Rect) -> Changes {
        let mut out = Changes::default();
        for &(x, y) in self.pixels.iter().filter(|&&(x, y)| !r.contains(x, y)) {
            out.add(x, y);
        }
        out
    }
}

/// A picture and the sprites that may cover it, taken from the same frame.
#[derive(Clone, Debug)]
pub struct Shot {
    pub pic: Picture,
    pub sprites: SpriteMask,
}

impl Shot {
    /// `None` on hosts without a PPU.
    pub fn take(frame: &dyn Frame) -> Option<Shot> {
        Some(Shot {
            pic: Picture::take(frame)?,
            sprites: SpriteMask::of(frame),
        })
    }
}

/// The screen rectangles the visible sprites of `oam` may cover. The sprite size (8x8 or
/// 8x16) is a PPU setting players cannot read, so every sprite counts as 8 x 16: a mask
/// that hides too much only makes a block less certain, never wrong.
pub fn sprite_boxes(oam: &[u8]) -> Vec<Rect> {
    oam.chunks_exact(4)
        .filter(|s| s[0] < 0xEF)
        .map(|s| Rect::new(i32::from(s[3]), i32::from(s[0]) + 1, 8, 16))
        .collect()
}

/// Pixels of the picture that a sprite may cover this frame.
#[derive(Clone, Debug, Default)]
pub struct SpriteMask {
    boxes: Vec<Rect>,
}

impl SpriteMask {
    pub fn of(frame: &dyn Frame) -> SpriteMask {
        SpriteMask {
            boxes: sprite_boxes(frame.oam()),
        }
    }

    pub fn from_oam(oam: &[u8]) -> SpriteMask {
        SpriteMask {
            boxes: sprite_boxes(oam),
        }
    }

    pub fn none() -> SpriteMask {
        SpriteMask::default()
    }

    pub fn covers(&self, x: i32, y: i32) -> bool {
        self.boxes.iter().any(|b| b.contains(x, y))
    }

    /// Whether any sprite may reach into `r`.
    pub fn touches(&self, r: Rect) -> bool {
        self.boxes.iter().any(|b| b.intersects(&r))
    }

    pub fn boxes(&self) -> &[Rect] {
        &self.boxes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_clipped_to_the_screen() {
        let mut p = Picture::filled(0x0F);
        p.set(0, 5, 0x16);
        p.set(255, 5, 0x17);
        assert_eq!(p.row_in(5, &Rect::new(-4, 0, 6, 1)), &[0x16, 0x0F]);
        assert_eq!(p.row_in(5, &Rect::new(254, 0, 10, 1)), &[0x0F, 0x17]);
        assert!(p.row_in(-1, &Rect::SCREEN).is_empty());
        assert!(p.row_in(240, &Rect::SCREEN).is_empty());
        assert!(p.row_in(5, &Rect::new(300, 0, 8, 1)).is_empty());
    }

    #[test]
    fn changes_know_where_and_how_much() {
        let a = Picture::filled(0x0F);
        let mut b = a.clone();
        b.set(10, 20, 0x16);
        b.set(12, 24, 0x16);
        let ch = a.changes(&b);
        assert_eq!(ch.count(), 2);
        assert_eq!(ch.bounds, Some(Rect::new(10, 20, 3, 5)));
        assert_eq!(ch.centroid(), Some((11.0, 22.0)));
        assert_eq!(ch.profile(false)[10], 1);
        assert_eq!(ch.within(Rect::new(0, 0, 11, 240)).count(), 1);
        assert!(a.same_in(&b, Rect::new(0, 0, 10, 240)));
        assert!(!a.same_in(&b, Rect::new(0, 0, 11, 240)));
    }

    #[test]
    fn blocks_and_hashes_clip_to_the_screen() {
        let mut p = Picture::filled(1);
        p.set(255, 239, 2);
        let r = Rect::new(250, 230, 20, 20);
        assert_eq!(r.clipped(), Rect::new(250, 230, 6, 10));
        let b = p.block(r);
        assert_eq!(b.len(), 60);
        assert_eq!(*b.last().unwrap(), 2);
        assert_ne!(p.hash_rect(r), Picture::filled(1).hash_rect(r));
        assert_eq!(p.commonest(r), Some(1));
    }

    #[test]
    fn hidden_sprites_cover_nothing() {
        let mut oam = [0xFFu8; 256];
        oam[0..4].copy_from_slice(&[19, 0x10, 0, 40]);
        let m = SpriteMask::from_oam(&oam);
        assert_eq!(m.boxes().len(), 1);
        assert!(m.covers(40, 20) && m.covers(47, 35));
        assert!(!m.covers(48, 20) && !m.covers(40, 19) && !m.covers(40, 36));
    }

    #[test]
    fn one_colour_is_blank() {
        let mut p = Picture::filled(0x0F);
        assert!(p.is_blank());
        p.set(200, 100, 0x30);
        assert!(!p.is_blank());
    }

    #[test]
    fn masked_pixels_do_not_count_as_change() {
        let a = Picture::filled(1);
        let mut b = a.clone();
        b.set(5, 5, 2);
        let mut m = PixelMask::new();
        assert!(!a.same_except(&b, Rect::SCREEN, &m));
        m.set(5, 5);
        m.set(5, 5);
        assert_eq!(m.count(), 1);
        assert!(a.same_except(&b, Rect::SCREEN, &m));
        assert!(a.changes(&b).unmasked(&m).is_empty());
    }

    #[test]
    fn a_host_without_a_ppu_has_no_picture() {
        assert!(Picture::from_indices(&[]).is_none());
        assert!(Picture::from_indices(&vec![0x1C0; PIXELS]).is_some_and(|p| p.at(0, 0) == 0));
    }
}
