//! Learned appearances: what a block of the picture looks like in each state a player
//! cares about (an empty cell, a red piece, a crown ...). Nothing about a game's art is
//! known in advance; a codebook is filled from experiments ("this cell was just emptied")
//! and then reads blocks back. A block partly hidden by a sprite is compared on the pixels
//! left visible, and is only named when exactly one known appearance fits them.

use super::picture::{Picture, Rect, SpriteMask};
use std::collections::HashMap;

/// The pixels of one block, with a mask of those that could be seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Look {
    pub w: i32,
    pub h: i32,
    pub px: Vec<u8>,
    /// `None` when every pixel was visible.
    pub hidden: Option<Vec<bool>>,
}

impl Look {
    /// Block `r` of `pic` (which must lie on screen), hiding what `mask` may cover.
    pub fn of(pic: &Picture, r: Rect, mask: &SpriteMask) -> Look {
        let px = pic.block(r);
        let hidden = mask.touches(r).then(|| {
            (r.y..r.y + r.h)
                .flat_map(|y| (r.x..r.x + r.w).map(move |x| (x, y)))
                .map(|(x, y)| mask.covers(x, y))
                .collect::<Vec<bool>>()
        });
        Look {
            w: r.w,
            h: r.h,
            px,
            hidden: hidden.filter(|h| h.iter().any(|&b| b)),
        }
    }

    pub fn is_whole(&self) -> bool {
        self.hidden.is_none()
    }

    /// Share of pixels visible (1.0 when whole).
    pub fn visible_share(&self) -> f64 {
        match &self.hidden {
            None => 1.0,
            Some(h) => h.iter().filter(|&&b| !b).count() as f64 / h.len().max(1) as f64,
        }
    }

    fn key(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ ((self.w as u64) << 32 | self.h as u64);
        for &p in &self.px {
            h = (h ^ u64::from(p)).wrapping_mul(0x0100_0000_01b3);
        }
        h
    }

    /// Whether a whole look `full` agrees with this one on every visible pixel.
    fn fits(&self, full: &Look) -> bool {
        if (self.w, self.h) != (full.w, full.h) || self.px.len() != full.px.len() {
            return false;
        }
        match &self.hidden {
            None => self.px == full.px,
            Some(h) => self
                .px
                .iter()
                .zip(&full.px)
                .zip(h)
                .all(|((a, b), &hid)| hid || a == b),
        }
    }
}

/// What a codebook makes of a look.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict<L> {
    /// Exactly one known appearance fits.
    Known(L),
    /// Several fit the visible pixels (a sprite hides what tells them apart).
    Ambiguous(Vec<L>),
    /// No known appearance fits: an appearance never seen, or one mid-animation.
    Unseen,
}

impl<L> Verdict<L> {
    pub fn known(self) -> Option<L> {
        match self {
            Verdict::Known(l) => Some(l),
            _ => None,
        }
    }
}

/// Appearances learned so far, each with a label.
#[derive(Clone, Debug)]
pub struct Codebook<L> {
    entries: Vec<(Look, L)>,
    by_key: HashMap<u64, Vec<usize>>,
}

impl<L> Default for Codebook<L> {
    fn default() -> Self {
        Codebook {
            entries: Vec::new(),
            by_key: HashMap::new(),
        }
    }
}

impl<L: Clone + PartialEq> Codebook<L> {
    pub fn new() -> Codebook<L> {
        Codebook::default()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The label of a whole look, if learned.
    fn exact(&self, look: &Look) -> Option<&L> {
        self.by_key
            .get(&look.key())?
            .iter()
            .map(|&i| &self.entries[i])
            .find(|(l, _)| l.px == look.px && (l.w, l.h) == (look.w, look.h))
            .map(|(_, label)| label)
    }

    /// Learns a whole look under `label`. Returns the label it already had if that differs
    /// (the same picture cannot mean two things: the caller has mislabelled something).
    pub fn learn(&mut self, look: &Look, label: L) -> Result<(), L> {
        if !look.is_whole() {
            return Ok(());
        }
        if let Some(old) = self.exact(look) {
            return if *old == label {
                Ok(())
            } else {
                Err(old.clone())
            };
        }
        let i = self.entries.len();
        self.entries.push((look.clone(), label));
        self.by_key.entry(look.key()).or_default().push(i);
        Ok(())
    }

    /// What `look` shows.
    pub fn classify(&self, look: &Look) -> Verdict<L> {
        if look.is_whole() {
            return match self.exact(look) {
                Some(l) => Verdict::Known(l.clone()),
                None => Verdict::Unseen,
            };
        }
        let mut labels: Vec<L> = Vec::new();
        for (l, label) in &self.entries {
            if look.fits(l) && !labels.contains(label) {
                labels.push(label.clone());
            }
        }
        match labels.len() {
            0 => Verdict::Unseen,
            1 => Verdict::Known(labels.pop().expect("one label")),
            _ => Verdict::Ambiguous(labels),
        }
    }

    /// Every label learned, in the order first learned.
    pub fn labels(&self) -> Vec<L> {
        let mut out: Vec<L> = Vec::new();
        for (_, l) in &self.entries {
            if !out.contains(l) {
                out.push(l.clone());
            }
        }
        out
    }

    /// Forgets every look of `label`.
    pub fn forget(&mut self, label: &L) {
        let kept: Vec<(Look, L)> = self.entries.drain(..).filter(|(_, l)| l != label).collect();
        self.by_key.clear();
        for (i, (l, _)) in kept.iter().enumerate() {
            self.by_key.entry(l.key()).or_default().push(i);
        }
        self.entries = kept;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pic_with(x: i32, y: i32, c: u8) -> Picture {
        let mut p = Picture::filled(0x0F);
        p.set(x, y, c);
        p
    }

    #[test]
    fn whole_looks_are_named_exactly() {
        let r = Rect::new(8, 8, 8, 8);
        let mut book = Codebook::new();
        let empty = Look::of(&Picture::filled(0x0F), r, &SpriteMask::none());
        let red = Look::of(&pic_with(10, 10, 0x16), r, &SpriteMask::none());
        book.learn(&empty, "empty").unwrap();
        book.learn(&red, "red").unwrap();
        assert_eq!(book.learn(&red, "blue"), Err("red"));
        assert_eq!(book.classify(&red), Verdict::Known("red"));
        let other = Look::of(&pic_with(11, 10, 0x16), r, &SpriteMask::none());
        assert_eq!(book.classify(&other), Verdict::Unseen);
        assert_eq!(book.labels(), vec!["empty", "red"]);
        book.forget(&"red");
        assert_eq!(book.classify(&red), Verdict::Unseen);
        assert_eq!(book.classify(&empty), Verdict::Known("empty"));
    }

    #[test]
    fn a_sprite_that_hides_the_difference_makes_a_look_ambiguous() {
        let r = Rect::new(8, 8, 16, 16);
        let mut book = Codebook::new();
        book.learn(&Look::of(&Picture::filled(0x0F), r, &SpriteMask::none()), 0)
            .unwrap();
        book.learn(
            &Look::of(&pic_with(20, 20, 0x16), r, &SpriteMask::none()),
            1,
        )
        .unwrap();
        // A sprite over (16..24, 16..32) hides pixel (20, 20): both fit.
        let mut oam = [0xFFu8; 256];
        oam[0..4].copy_from_slice(&[15, 0, 0, 16]);
        let mask = SpriteMask::from_oam(&oam);
        let hidden = Look::of(&pic_with(20, 20, 0x30), r, &mask);
        assert!(!hidden.is_whole());
        assert_eq!(book.classify(&hidden), Verdict::Ambiguous(vec![0, 1]));
        // One that leaves it visible tells them apart.
        oam[0..4].copy_from_slice(&[7, 0, 0, 8]);
        let mask = SpriteMask::from_oam(&oam);
        let mut p = pic_with(20, 20, 0x16);
        p.set(9, 9, 0x30);
        assert_eq!(book.classify(&Look::of(&p, r, &mask)), Verdict::Known(1));
    }
}
